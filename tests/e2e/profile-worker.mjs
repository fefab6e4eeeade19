// Where the analysis worker's time goes while FILEs load: V8's sampling
// profiler on the worker (over the DevTools protocol), in headless Chromium.
// Prints the functions with the most samples and, per STEP ms (default 250),
// the worker's busiest functions: when it reads, reconciles, lays out, and
// when it waits ("(idle)"). Writes the whole profile to /tmp/worker.cpuprofile
// (DevTools' Performance panel opens it; TARGET=page: /tmp/page.cpuprofile).
//
// The release bundle keeps no function names. For names, build the worker
// without wasm-opt and put it in a copy of dist/, served in its place:
//
//   cargo build --release --target wasm32-unknown-unknown --bin worker --no-default-features --target-dir target/wprof
//   wasm-bindgen --target no-modules --out-dir /tmp/wb --out-name worker --no-typescript target/wprof/wasm32-unknown-unknown/release/worker.wasm
//   cp -r dist /tmp/dist-prof && cp /tmp/wb/worker.js /tmp/wb/worker_bg.wasm /tmp/dist-prof/ && node scripts/shell-manifest.mjs /tmp/dist-prof
//
// Then, with /tmp/dist-prof as dist/:
//
//   node --experimental-websocket tests/e2e/profile-worker.mjs FILE...
//
// (Node 20 needs the flag for its WebSocket.) Sampling slows the worker a
// little; time to the chart comes from measure-big-file.mjs, not from here.
//
// TARGET=page profiles the page's main thread instead (where the result is
// drawn); its names come from the app built the same way (`--bin app`,
// `wasm-bindgen --target web --out-name app`), copied over dist's
// app-*.js and app-*_bg.wasm.

import { writeFileSync } from 'node:fs';

const PORT = 9333;
process.env.LONGPOLE_CHROMIUM_ARGS = `${process.env.LONGPOLE_CHROMIUM_ARGS ?? ''} --remote-debugging-port=${PORT}`;
const { openApp } = await import('./harness.mjs');

const paths = process.argv.slice(2);
if (paths.length === 0) {
  console.error('usage: node --experimental-websocket tests/e2e/profile-worker.mjs FILE...');
  process.exit(2);
}
const step = Number(process.env.STEP ?? 250) * 1000;
const app = await openApp();
const { page } = app;
// The worker starts with the page; give it a moment to appear.
await new Promise((resolve) => setTimeout(resolve, 1500));

const version = await (await fetch(`http://127.0.0.1:${PORT}/json/version`)).json();
const ws = new WebSocket(version.webSocketDebuggerUrl);
await new Promise((resolve) => ws.addEventListener('open', resolve));
let next = 1;
const waiting = new Map();
ws.addEventListener('message', (e) => {
  const m = JSON.parse(e.data);
  if (m.id && waiting.has(m.id)) {
    waiting.get(m.id)(m);
    waiting.delete(m.id);
  }
});
const send = (method, params = {}, sessionId = undefined) =>
  new Promise((resolve) => {
    const id = next++;
    waiting.set(id, resolve);
    ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
  });

const { targetInfos } = (await send('Target.getTargets')).result;
const onPage = process.env.TARGET === 'page';
const worker = targetInfos.find((t) => (onPage ? t.type === 'page' : t.type === 'worker' && t.url.endsWith('worker_loader.js')));
if (!worker) throw new Error(`no ${onPage ? 'page' : 'analysis worker'} among ${targetInfos.map((t) => t.url).join(', ')}`);
const session = (await send('Target.attachToTarget', { targetId: worker.targetId, flatten: true })).result.sessionId;
await send('Profiler.enable', {}, session);
await send('Profiler.setSamplingInterval', { interval: 500 }, session);
await send('Profiler.start', {}, session);

const began = Date.now();
await page.getByTestId('file-input').setInputFiles(paths);
await page.getByTestId('analysis-ready').waitFor({ timeout: 600_000 });
console.log(`analysis-ready after ${((Date.now() - began) / 1000).toFixed(2)} s (profiled)`);
const profile = (await send('Profiler.stop', {}, session)).result.profile;
writeFileSync(onPage ? '/tmp/page.cpuprofile' : '/tmp/worker.cpuprofile', JSON.stringify(profile));
ws.close();
await app.close();

// Samples by function (its own time), then by STEP.
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const nameOf = (id) => {
  const f = byId.get(id).callFrame;
  return (f.functionName || `(${f.url.split('/').pop()})`).replace(/::h[0-9a-f]{16}$/, '').replace(/^longpole_core::/, '');
};
const total = new Map();
const buckets = new Map();
let t = profile.startTime;
profile.samples.forEach((id, i) => {
  t += profile.timeDeltas[i];
  const name = nameOf(id);
  total.set(name, (total.get(name) ?? 0) + 1);
  const b = Math.floor((t - profile.startTime) / step);
  if (!buckets.has(b)) buckets.set(b, new Map());
  buckets.get(b).set(name, (buckets.get(b).get(name) ?? 0) + 1);
});
const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
const count = profile.samples.length;
console.log(`${count} samples, every 0.5 ms`);
for (const [name, n] of top(total, 30)) console.log(`${((100 * n) / count).toFixed(1).padStart(5)}%  ${name}`);
console.log(`\nper ${step / 1000} ms from the profile's start: samples, then the busiest`);
for (const [b, m] of [...buckets].sort((x, y) => x[0] - y[0])) {
  const n = [...m.values()].reduce((a, c) => a + c, 0);
  const busiest = top(m, 3).map(([k, c]) => `${k.slice(0, 48)} ${c}`).join(' | ');
  console.log(`${((b * step) / 1e6).toFixed(2).padStart(6)} s ${String(n).padStart(4)}  ${busiest}`);
}
