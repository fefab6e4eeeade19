// Where a cold page's time goes: a file handed to a page the moment it
// shows (as an embed or a `#src=` link gives it), against the same page
// given the file after SETTLE ms (the worker warmed up). Each run is a
// fresh headless Chromium with a fresh profile, so nothing is cached.
//
//   RUNS=5 node tests/e2e/measure-cold-start.mjs FILE...
//
// DIST=DIR serves another build (a copy of an earlier dist/, to compare
// in the same run). SERVICE_WORKERS=block keeps the page's service worker from registering
// (its install fetches and checks the shell beside the first run).
//
// Several FILEs are handed over together (a dbt run's manifest.json and
// run_results.json).
//
// The page's worker is watched from outside the app: an init script wraps
// `Worker` and stamps, with the page's clock, each request posted to it
// and each message it answers. Times are from handing the file over:
//   ready     the worker said Ready (its WebAssembly fetched, compiled, started)
//   request   the page posted the file to it
//   parsed    its first progress message (the first MiB slices read and parsed)
//   done      the page got the result (reconciled, analysed, its views made)
//   drawn     the frame with the first chart's bars painted
// The table gives each as the median (min–max) of RUNS, cold (the file at
// once) and warm (after SETTLE ms, default 3000).

import { join } from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { launchBrowser, ROOT } from './harness.mjs';

const RUNS = Number(process.env.RUNS ?? 3);
const SETTLE = Number(process.env.SETTLE ?? 3000);
const file = process.argv.slice(2);
if (file.length === 0) {
  console.error('usage: RUNS=5 node tests/e2e/measure-cold-start.mjs FILE...');
  process.exit(2);
}

// Runs in the page before its own scripts.
function watchWorker() {
  window.__stamps = [];
  const stamp = (what) => window.__stamps.push([what, Date.now()]);
  const Original = window.Worker;
  window.Worker = class extends Original {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        const type = typeof e.data === 'string' ? /^\{"type":"(\w+)"/.exec(e.data)?.[1] : e.data?.type;
        stamp(type ?? 'other');
      });
      const post = this.postMessage.bind(this);
      this.postMessage = (...m) => {
        stamp('request');
        return post(...m);
      };
    }
  };
  new MutationObserver(() => {
    if (window.__drawn || !document.querySelector('.chart .bars path')) return;
    window.__drawn = true;
    requestAnimationFrame(() => setTimeout(() => stamp('drawn')));
  }).observe(document, { subtree: true, childList: true });
}

/** One run: times from handing the file over, in ms, by stamp. */
async function run(settle) {
  const server = await serve({ root: process.env.DIST ?? join(ROOT, 'dist'), port: 0, base: '/' });
  const browser = await launchBrowser({ serviceWorkers: process.env.SERVICE_WORKERS ?? 'allow' });
  try {
    await browser.context.addInitScript(watchWorker);
    await browser.page.goto(`http://127.0.0.1:${server.address().port}/`);
    await browser.page.getByTestId('landing').waitFor();
    await new Promise((resolve) => setTimeout(resolve, settle));
    const t0 = Date.now();
    await browser.page.getByTestId('file-input').setInputFiles(file);
    await browser.page.waitForFunction(() => window.__stamps.some(([w]) => w === 'drawn'), null, { timeout: 120000, polling: 50 });
    const stamps = await browser.page.evaluate(() => window.__stamps);
    const first = (what, after = -Infinity) => stamps.find(([w, t]) => w === what && t - t0 >= after)?.[1] - t0;
    return {
      ready: first('Ready'),
      request: first('request', 0),
      parsed: first('Progress', 0),
      done: first('Done', 0),
      drawn: first('drawn', 0),
    };
  } finally {
    await browser.close();
    server.close();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cell = (xs) => `${median(xs)} (${Math.min(...xs)}–${Math.max(...xs)})`;
const KEYS = ['ready', 'request', 'parsed', 'done', 'drawn'];
console.log(`| page | ${KEYS.join(' | ')} |  (ms from handing the file over; median (min–max) of ${RUNS} runs, taken in turn)`);
console.log(`|---|${KEYS.map(() => '---').join('|')}|`);
const cold = [];
const warm = [];
for (let i = 0; i < RUNS; i++) {
  cold.push(await run(0));
  warm.push(await run(SETTLE));
}
for (const [name, runs] of [['cold', cold], [`warm (${SETTLE} ms)`, warm]]) {
  console.log(`| ${name} | ${KEYS.map((k) => cell(runs.map((r) => r[k]))).join(' | ')} |`);
}
