// Measures a comparison of two runs in headless Chromium: the time from
// the click on "Compare" (both sides' files picked on the landing page) to
// the compare screen being ready (its `compare-ready` marker, the one
// tests/e2e/compare.test.mjs waits for), with the headline's wall time
// change as a check that the comparison is the expected one, and the
// time to the two timelines drawn (they follow the screen); then the
// round trip of zoom steps of the two timelines (ZOOMS rounds, default 5,
// of W, rows + and whole), from the key press or click to the new window
// drawn.
//
//   node tests/e2e/measure-compare.mjs [A_FILE... --vs B_FILE...]
//
// Without files it simulates two runs of one build with distbuild-sim
// (NODES nodes, default 60,000: about 100 MB of log and graph.json a
// side; `--rerun`: the same graph and work, another schedule and jitter,
// one node slowed on side B) into the temp directory. The target
// is under 5 s for two 100 MB logs. The files are given SETTLE ms (default
// 2000) after the page loaded, as a user takes a moment to pick them.

import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApp, ROOT } from './harness.mjs';

/** Writes one run of the simulated build (unless it is there) and gives its files. */
function simulate(nodes, name, rerun, slow) {
  const [log, graph] = [join(tmpdir(), `longpole-compare-${nodes}-${name}.log`), join(tmpdir(), `longpole-compare-${nodes}-${name}.graph.json`)];
  if (!existsSync(log) || !existsSync(graph)) {
    execFileSync('cargo', ['build', '--release', '-q', '-p', 'longpole-distbuild-sim'], { cwd: ROOT, stdio: 'inherit' });
    const hosts = String(Math.floor(nodes / 50) + 1);
    execFileSync(join(ROOT, 'target/release/distbuild-sim'), ['--nodes', String(nodes), '--hosts', hosts, '--slots', '8',
      '--rerun', String(rerun), '--jitter', '0.02', ...slow, '--log', log, '--graph', graph], { stdio: 'inherit' });
  }
  return [log, graph];
}

const args = process.argv.slice(2);
let [a, b] = [args.slice(0, args.indexOf('--vs')), args.slice(args.indexOf('--vs') + 1)];
if (args.length === 0) {
  const nodes = Number(process.env.NODES ?? 60000);
  [a, b] = [simulate(nodes, 'a', 1, []), simulate(nodes, 'b', 2, ['--slow', '7:3'])];
} else if (!args.includes('--vs') || a.length === 0 || b.length === 0) {
  console.error('usage: node tests/e2e/measure-compare.mjs [A_FILE... --vs B_FILE...]');
  process.exit(2);
}
const megabytes = (files) => +(files.reduce((n, p) => n + statSync(p).size, 0) / 1e6).toFixed(1);

const app = await openApp();
const { page } = app;
await new Promise((resolve) => setTimeout(resolve, Number(process.env.SETTLE ?? 2000)));
await page.getByTestId('compare-a-input').setInputFiles(a);
await page.getByTestId('compare-b-input').setInputFiles(b);
await page.evaluate(() => {
  // The page's own clock stamps the ready marker as it enters the DOM:
  // polling from here would add its own latency while the page is busy.
  window.__readyAt = undefined;
  window.__timelinesAt = undefined;
  new MutationObserver(() => {
    if (window.__readyAt === undefined && document.querySelector('[data-testid="compare-ready"]')) window.__readyAt = Date.now();
    if (window.__timelinesAt === undefined && document.querySelector('svg.compare-timeline')) window.__timelinesAt = Date.now();
  }).observe(document.body, { subtree: true, childList: true });
});
const t0 = await page.evaluate(() => Date.now());
await page.getByTestId('compare-sides-go').click();
await page.waitForFunction(() => window.__readyAt !== undefined || document.querySelector('[data-testid="error"]'), null, {
  timeout: 600_000,
  polling: 100,
});
if (await page.getByTestId('error').count()) {
  console.log(JSON.stringify({ a, b, error: (await page.getByTestId('error').textContent()).trim() }, null, 2));
  await app.close();
  process.exit(1);
}
const seconds = ((await page.evaluate(() => window.__readyAt)) - t0) / 1000;
const wall = (await page.getByTestId('compare-wall').textContent()).trim();
// The worker's own time, from the request to its answer (reading, comparing, the view).
const workerMs = Number((await page.locator('h2:has-text("Comparison") .muted').first().textContent()).replace(/[^0-9]/g, ''));
// The timelines follow the screen, once every task's is built.
await page.waitForFunction(() => window.__timelinesAt !== undefined, null, { timeout: 60_000, polling: 100 }).catch(() => {});
const timelinesAt = await page.evaluate(() => window.__timelinesAt);
const timelinesSeconds = timelinesAt === undefined ? null : (timelinesAt - t0) / 1000;

/**
 * The worker's round trip of one step of the timelines' window: from the
 * key press (or click) to the new window in the DOM, stamped by the page.
 */
async function step(act) {
  await page.evaluate(() => {
    const svg = document.querySelector('svg.compare-timeline');
    window.__was = [svg.dataset.fromMs, svg.dataset.toMs, svg.dataset.top, svg.dataset.bottom].join();
    window.__steppedAt = undefined;
    window.__stepObserver?.disconnect();
    window.__stepObserver = new MutationObserver(() => {
      const now = document.querySelector('svg.compare-timeline');
      if (window.__steppedAt === undefined && [now.dataset.fromMs, now.dataset.toMs, now.dataset.top, now.dataset.bottom].join() !== window.__was) {
        window.__steppedAt = Date.now();
      }
    });
    window.__stepObserver.observe(document.body, { subtree: true, attributes: true, childList: true });
    window.__stepStart = Date.now();
  });
  await act();
  await page.waitForFunction(() => window.__steppedAt !== undefined, null, { timeout: 60_000, polling: 20 });
  return page.evaluate(() => window.__steppedAt - window.__stepStart);
}

// Zoom steps of both timelines (the worker cuts each window from every
// task): W zooms in, rows + halves the band of rows, whole goes back.
const zoomMs = [];
if (await page.getByTestId('compare-zoom-in').count()) {
  for (let i = 0; i < Number(process.env.ZOOMS ?? 5); i++) {
    zoomMs.push(await step(() => page.keyboard.press('w')));
    zoomMs.push(await step(() => page.getByTestId('compare-rows-in').click()));
    zoomMs.push(await step(() => page.getByTestId('compare-zoom-whole').click()));
  }
}
const sorted = [...zoomMs].sort((x, y) => x - y);
const errors = [...app.errors];
await app.close();

console.log(JSON.stringify({
  a,
  b,
  megabytes_a: megabytes(a),
  megabytes_b: megabytes(b),
  seconds_to_compare_ready: +seconds.toFixed(2),
  worker_seconds: +(workerMs / 1000).toFixed(2),
  wall_time_change: wall,
  seconds_to_timelines_drawn: timelinesSeconds === null ? null : +timelinesSeconds.toFixed(2),
  zoom_steps: zoomMs.length,
  zoom_step_ms_median: sorted.length ? sorted[Math.floor(sorted.length / 2)] : null,
  zoom_step_ms_max: sorted.length ? sorted[sorted.length - 1] : null,
  page_errors: errors,
}, null, 2));
