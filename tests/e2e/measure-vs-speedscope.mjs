// Drop to chart, side by side in the same headless Chromium: longpole and
// speedscope 1.25 (its own static build, from its npm package) open the
// same Chrome traces; each time runs from handing the file to the page's
// file input to the first chart drawn. speedscope gets at most LIMIT
// seconds.
//
//   node tests/e2e/measure-vs-speedscope.mjs FILE...
//
// The traces come from `chrome-bench` (nested X events on 8 threads):
// `cargo run --release -p longpole-bench --bin chrome-bench -- 10 30 100`
// writes target/bench-data/chrome-<N>mb.json.

import { statSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { launchBrowser, openApp, ROOT } from './harness.mjs';

const LIMIT = Number(process.env.LIMIT ?? 300);

async function longpole(file) {
  const app = await openApp();
  try {
    const t0 = Date.now();
    await app.page.getByTestId('file-input').setInputFiles(file);
    // Polled every 50 ms, as speedscope's title below: a locator's own
    // waiting polls every 500 ms after its first second.
    await app.page.waitForFunction(() => document.querySelector('.chart .bars path'), null, {
      timeout: LIMIT * 1000,
      polling: 50,
    });
    return (Date.now() - t0) / 1000;
  } finally {
    await app.close();
  }
}

async function speedscope(file) {
  const server = await serve({ root: join(ROOT, 'node_modules', 'speedscope', 'dist', 'release'), port: 0, base: '/' });
  const browser = await launchBrowser();
  try {
    await browser.page.goto(`http://127.0.0.1:${server.address().port}/index.html`);
    const name = file.split('/').pop();
    const t0 = Date.now();
    await browser.page.locator('input[type="file"]').setInputFiles(file);
    await browser.page.waitForFunction((n) => document.title.startsWith(n), name, { timeout: LIMIT * 1000, polling: 50 });
    await browser.page.locator('canvas').first().waitFor({ timeout: LIMIT * 1000 });
    return (Date.now() - t0) / 1000;
  } catch {
    return null;
  } finally {
    await browser.close();
    server.close();
  }
}

console.log('| trace | longpole | speedscope 1.25 | speed-up |');
console.log('|---|---|---|---|');
for (const file of process.argv.slice(2)) {
  const mb = statSync(file).size / 1e6;
  const ours = await longpole(file);
  const theirs = await speedscope(file);
  const shown = theirs === null ? `did not finish in ${LIMIT} s` : `${theirs.toFixed(2)} s`;
  const ratio = theirs === null ? `> ${(LIMIT / ours).toFixed(0)}×` : `${(theirs / ours).toFixed(1)}×`;
  console.log(`| ${mb.toFixed(0)} MB | ${ours.toFixed(2)} s | ${shown} | ${ratio} |`);
}
