// A log past the tab, opened natively (docs/native.md): how long until the
// page shows the run, against `longpole analyze` on the same files, the
// process's peak memory, and how fast the timeline answers a pan or a zoom
// over the socket.
//
//   RUNS=3 STEPS=20 node tests/e2e/measure-native.mjs FILE...
//
// Needs the release CLI with the bundle inside (./scripts/build.sh, then
// cargo build --release -p longpole-cli). Each run, in turn:
//   analyze   `longpole analyze FILE...`, the whole process (/usr/bin/time)
//   ready     `longpole open --native` started, a fresh Chromium on its
//             link, until the page says analysis-ready
//   rss       the open process's peak resident memory (VmHWM) by then
//   window    each timeline window the page asked for while STEPS keys pan
//             (D), zoom in (W) and out (S): its request to its answer, as
//             the page's WebSocket sent and got them (median and maximum)

import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, ROOT } from './harness.mjs';

const RUNS = Number(process.env.RUNS ?? 3);
const STEPS = Number(process.env.STEPS ?? 20);
const LONGPOLE = join(ROOT, 'target', 'release', 'longpole');
const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: RUNS=3 STEPS=20 node tests/e2e/measure-native.mjs FILE...');
  process.exit(2);
}

/** Runs in the page before its own scripts: stamps the socket's Bars requests and answers by sequence number. */
function watchSocket() {
  window.__sent = new Map();
  window.__windows = [];
  const Original = window.WebSocket;
  window.WebSocket = class extends Original {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        if (typeof e.data !== 'string' || !e.data.startsWith('{"type":"Bars"')) return;
        const seq = JSON.parse(e.data).seq;
        const sent = window.__sent.get(seq);
        if (sent !== undefined) window.__windows.push(performance.now() - sent);
      });
    }
    send(data) {
      if (typeof data === 'string' && data.startsWith('{"type":"Bars"')) window.__sent.set(JSON.parse(data).seq, performance.now());
      return super.send(data);
    }
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const spread = (xs) => `${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;

function analyze() {
  const out = spawnSync('/usr/bin/time', ['-f', '%e %M', LONGPOLE, 'analyze', ...files], { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 << 20 });
  const [seconds, kb] = out.stderr.toString().trim().split('\n').pop().split(' ').map(Number);
  return { seconds, mb: kb / 1024 };
}

async function openNative() {
  const t0 = Date.now();
  const child = spawn(LONGPOLE, ['open', '--native', '--no-browser', '--print-url', '--linger', '30', ...files], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((ok, fail) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) ok(out.split('\n')[0].trim());
    });
    child.on('exit', (code) => fail(new Error(`longpole open exited with ${code}`)));
  });
  const browser = await launchBrowser();
  try {
    await browser.context.addInitScript(watchSocket);
    await browser.page.goto(url);
    await browser.page.getByTestId('analysis-ready').waitFor({ timeout: 900_000 });
    const ready = (Date.now() - t0) / 1000;
    const rssMb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024;
    await browser.page.waitForFunction(() => window.__windows.length > 0, null, { timeout: 60_000 });
    const before = await browser.page.evaluate(() => window.__windows.length);
    const keys = ['d', 'd', 'w', 'd', 's'];
    for (let i = 0; i < STEPS; i++) {
      const had = await browser.page.evaluate(() => window.__windows.length);
      await browser.page.keyboard.press(keys[i % keys.length]);
      await browser.page.waitForFunction((n) => window.__windows.length > n, had, { timeout: 60_000 }).catch(() => {});
    }
    const windows = (await browser.page.evaluate(() => window.__windows)).slice(before);
    return { ready, rssMb, windows };
  } finally {
    await browser.close();
    child.kill();
  }
}

const rows = [];
for (let i = 0; i < RUNS; i++) {
  const a = analyze();
  const o = await openNative();
  rows.push({ a, o });
  console.error(`run ${i + 1}: analyze ${a.seconds} s ${a.mb.toFixed(0)} MB; open --native ready ${o.ready.toFixed(2)} s, ${o.rssMb.toFixed(0)} MB; windows ${o.windows.length}, median ${median(o.windows)?.toFixed(0)} ms, max ${Math.max(...o.windows).toFixed(0)} ms`);
}
const windows = rows.flatMap((r) => r.o.windows);
console.log(JSON.stringify({
  files,
  runs: RUNS,
  analyze_seconds: spread(rows.map((r) => r.a.seconds)),
  analyze_peak_mb: spread(rows.map((r) => r.a.mb)),
  open_native_ready_seconds: spread(rows.map((r) => r.o.ready)),
  open_native_peak_mb: spread(rows.map((r) => r.o.rssMb)),
  windows: windows.length,
  window_ms_median: +median(windows).toFixed(1),
  window_ms_max: +Math.max(...windows).toFixed(1),
}, null, 1));
