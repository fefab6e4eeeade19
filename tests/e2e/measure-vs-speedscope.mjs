// Drop to chart, side by side in the same headless Chromium: longpole and
// speedscope 1.25 (its own static build, from its npm package) open the
// same Chrome traces; each time runs from handing the file to the page's
// file input to the first chart drawn. speedscope gets at most LIMIT
// seconds. Each page has SETTLE ms (default 2000) after loading before it
// is given the file, as a user takes a moment to pick one: longpole's
// worker warms up meanwhile (src/warm_up.rs); speedscope has nothing left
// to load.
//
//   RUNS=5 SETTLE=0 node tests/e2e/measure-vs-speedscope.mjs FILE...
//
// RUNS (default 1) runs each tool that many times, in turn, and prints the
// median and range of each and of the per-run speed-ups.
//
// VISIT=returning times a returning visitor instead (issue 38): each run
// starts a fresh browser that first visits the page and stays on it for
// VISITED ms (default 10000: the page loads, and longpole's worker warms up,
// so V8 can keep the code it optimized), then opens the page in a new tab
// and gives it the file there, after SETTLE ms. Both tools get the same
// visit; what each keeps between them is the browser's own (HTTP cache,
// service worker, V8's code cache).
//
// The traces come from `chrome-bench` (nested X events on 8 threads):
// `cargo run --release -p longpole-bench --bin chrome-bench -- 10 30 100`
// writes target/bench-data/chrome-<N>mb.json.

import { statSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { launchBrowser, ROOT } from './harness.mjs';

const LIMIT = Number(process.env.LIMIT ?? 300);
const SETTLE = Number(process.env.SETTLE ?? 2000);
const RETURNING = process.env.VISIT === 'returning';
const VISITED = Number(process.env.VISITED ?? 10000);
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE));

// Stamps, with the page's own clock (the same as this process's), the end
// of the first frame painted once `drawn()` holds (checked as the DOM
// changes): a timer set in that frame's animation callback runs after the
// page has finished the work that showed the chart and painted it. Polling
// from here would add up to its interval to both times.
function stampWhen(drawn, arg) {
  let seen = false;
  const stamp = () => {
    if (seen || !drawn(arg)) return;
    seen = true;
    requestAnimationFrame(() => setTimeout(() => (window.__drawnAt = Date.now())));
  };
  new MutationObserver(stamp).observe(document.documentElement, { subtree: true, childList: true, characterData: true });
}

/** Seconds from `t0` to the page's stamp, waiting for it at most LIMIT s. */
async function stamped(page, t0) {
  await page.waitForFunction(() => window.__drawnAt !== undefined, null, { timeout: LIMIT * 1000, polling: 50 });
  return ((await page.evaluate(() => window.__drawnAt)) - t0) / 1000;
}

/**
 * A fresh browser on `url`, in the tab the file will be given in: the first
 * tab, or on a returning visit a new one after the first has stayed on the
 * page for VISITED ms and closed; resolves once `ready` (a locator of the
 * page) is visible.
 */
async function visit(url, ready) {
  const browser = await launchBrowser();
  let { page } = browser;
  if (RETURNING) {
    await page.goto(url);
    await ready(page).waitFor({ state: 'attached' });
    await new Promise((resolve) => setTimeout(resolve, VISITED));
    const next = await browser.context.newPage();
    await page.close();
    page = next;
  }
  await page.goto(url);
  await ready(page).waitFor({ state: 'attached' });
  return { browser, page };
}

async function longpole(file) {
  const server = await serve({ root: join(ROOT, 'dist'), port: 0, base: '/' });
  const { browser, page } = await visit(`http://127.0.0.1:${server.address().port}/`, (p) => p.getByTestId('landing'));
  await settle();
  try {
    await page.evaluate(`(${stampWhen})(() => document.querySelector('.chart .bars path'))`);
    const t0 = Date.now();
    await page.getByTestId('file-input').setInputFiles(file);
    return await stamped(page, t0);
  } finally {
    await browser.close();
    server.close();
  }
}

async function speedscope(file) {
  const server = await serve({ root: join(ROOT, 'node_modules', 'speedscope', 'dist', 'release'), port: 0, base: '/' });
  let browser;
  try {
    const opened = await visit(`http://127.0.0.1:${server.address().port}/index.html`, (p) => p.locator('input[type="file"]'));
    browser = opened.browser;
    const { page } = opened;
    await settle();
    const name = JSON.stringify(file.split('/').pop());
    // speedscope names its tab after the file once the profile is loaded.
    await page.evaluate(`(${stampWhen})((n) => document.title.startsWith(n) && document.querySelector('canvas'), ${name})`);
    const t0 = Date.now();
    await page.locator('input[type="file"]').setInputFiles(file);
    return await stamped(page, t0);
  } catch {
    return null;
  } finally {
    await browser?.close();
    server.close();
  }
}

const RUNS = Number(process.env.RUNS ?? 1);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const spread = (xs, f) => (xs.length > 1 ? `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})` : f(xs[0]));
const secs = (x) => `${x.toFixed(2)} s`;
const times = (x) => `${x.toFixed(1)}×`;

console.log(`${RETURNING ? `returning visit (the page visited ${VISITED / 1000} s before, in another tab)` : 'first visit'}, file given ${SETTLE} ms after the page shows`);
console.log(`| trace | longpole | speedscope 1.25 | speed-up |${RUNS > 1 ? ` (median (min–max) of ${RUNS} runs, taken in turn)` : ''}`);
console.log('|---|---|---|---|');
for (const file of process.argv.slice(2)) {
  const mb = statSync(file).size / 1e6;
  const ours = [];
  const theirs = [];
  for (let run = 0; run < RUNS; run++) {
    ours.push(await longpole(file));
    theirs.push(await speedscope(file));
  }
  if (theirs.includes(null)) {
    const fastest = Math.min(...ours);
    console.log(`| ${mb.toFixed(0)} MB | ${spread(ours, secs)} | did not finish in ${LIMIT} s | > ${(LIMIT / fastest).toFixed(0)}× |`);
  } else {
    const ratios = ours.map((o, i) => theirs[i] / o);
    console.log(`| ${mb.toFixed(0)} MB | ${spread(ours, secs)} | ${spread(theirs, secs)} | ${spread(ratios, times)} |`);
  }
}
