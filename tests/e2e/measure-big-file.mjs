// Measures a big file streaming through the worker in headless Chromium:
// time from pick to result, read speed, how often the progress bar moved, and
// the longest main-thread task while reading (Long Tasks API, plus the
// largest delay of a 10 ms timer as a second witness).
//
//   node tests/e2e/measure-big-file.mjs [FILE...]
//
// Without FILEs it simulates a ~1 GB distbuild log with its graph.json with
// distbuild-sim (850,000 nodes on 200 hosts) into the temp directory.
// Reports drop-to-chart time (the first bar in the page) and the workers'
// WebAssembly memory (the analysis worker's, or more while a second worker
// read a big graph.json: see src/graph_worker.rs). The files are given
// SETTLE ms (default 2000) after the page loaded, as a user takes a moment
// to pick them (the worker warms up meanwhile: src/warm_up.rs); SETTLE=0
// gives them at once. WARM=1 gives them once, untimed, then times them
// again: a second file on a warm page.

import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApp, ROOT } from './harness.mjs';

let paths = process.argv.slice(2);
if (paths.length === 0) {
  const log = join(tmpdir(), 'longpole-1gb.log');
  const graph = join(tmpdir(), 'longpole-1gb.graph.json');
  if (!existsSync(log) || !existsSync(graph)) {
    execFileSync('cargo', ['build', '--release', '-q', '-p', 'longpole-distbuild-sim'], { cwd: ROOT, stdio: 'inherit' });
    execFileSync(join(ROOT, 'target/release/distbuild-sim'), ['--nodes', '850000', '--hosts', '200', '--slots', '8', '--log', log, '--graph', graph], { stdio: 'inherit' });
  }
  paths = [log, graph];
}
const bytes = paths.reduce((n, p) => n + statSync(p).size, 0);

const app = await openApp();
const { page } = app;
await new Promise((resolve) => setTimeout(resolve, Number(process.env.SETTLE ?? 2000)));
if (process.env.WARM) {
  // The files once beforehand: the timed run is a second file on a warm page.
  await page.getByTestId('file-input').setInputFiles(paths);
  await page.getByTestId('analysis-ready').waitFor({ timeout: 600_000 });
}
await page.evaluate(() => {
  window.__m = { longTasks: [], progress: [], maxLag: 0, reading: false };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__m.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  new MutationObserver(() => {
    // The page's own clock (the same as this process's) stamps the first
    // bar and the ready marker as they enter the DOM: polling from here
    // would add its own latency while the page is busy drawing.
    // On a warm page the last result stays until the new run starts: a
    // stamp counts only once the page has shown that it is reading.
    if (!window.__m.started && (!document.querySelector('[data-testid="analysis-ready"]') || document.querySelector('[data-testid="progress"]'))) window.__m.started = true;
    if (!window.__m.started) return;
    if (window.__m.chartAt === undefined && document.querySelector('.chart .bar')) window.__m.chartAt = Date.now();
    if (window.__m.readyAt === undefined && document.querySelector('[data-testid="analysis-ready"]')) window.__m.readyAt = Date.now();
    const p = document.querySelector('[data-testid="progress"]');
    if (p) {
      window.__m.reading = true;
      window.__m.progress.push({ t: performance.now(), v: Number(p.value) });
    } else if (window.__m.reading) {
      window.__m.reading = false;
      window.__m.readEnd = performance.now();
    }
  }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['value'] });
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (window.__m.reading) window.__m.maxLag = Math.max(window.__m.maxLag, now - last - 10);
    last = now;
  }, 10);
});

const t0 = Date.now();
await page.getByTestId('file-input').setInputFiles(paths);
// The page either gets there or says why not (an input too big for a tab).
await page.waitForFunction(
  () => (window.__m.readyAt !== undefined && window.__m.chartAt !== undefined) || document.querySelector('[data-testid="error"]'),
  null,
  { timeout: 600_000, polling: 100 },
);
if (await page.getByTestId('error').count()) {
  const seconds = ((Date.now() - t0) / 1000).toFixed(2);
  console.log(JSON.stringify({ files: paths, seconds_to_error: +seconds, error: (await page.getByTestId('error').textContent()).trim() }, null, 2));
  await app.close();
  process.exit(1);
}
const stamps = await page.evaluate(() => [window.__m.readyAt, window.__m.chartAt]);
const seconds = (stamps[0] - t0) / 1000;
const chartSeconds = (stamps[1] - t0) / 1000;
const memory = Number(await page.getByTestId('worker-memory').getAttribute('data-bytes'));
const m = await page.evaluate(() => window.__m);
const firstProgress = m.progress.find((p) => p.v > 0);
const readingStart = firstProgress ? firstProgress.t - 200 : 0;
// A task that ends after the progress bar went away is the drawing of the result.
const readEnd = m.readEnd ?? Infinity;
const during = m.longTasks.filter((t) => t.start >= readingStart && t.start + t.duration < readEnd);
const after = m.longTasks.filter((t) => t.start + t.duration >= readEnd);
const distinct = new Set(m.progress.map((p) => p.v)).size;
const summary = await page.locator('.headline').textContent();
await app.close();

const result = {
  files: paths,
  megabytes: +(bytes / 1e6).toFixed(1),
  seconds_to_result: +seconds.toFixed(2),
  seconds_to_chart: +chartSeconds.toFixed(2),
  worker_memory_mb: +(memory / 1e6).toFixed(0),
  mb_per_s: +(bytes / 1e6 / seconds).toFixed(1),
  progress_updates: distinct,
  long_tasks_while_reading: during.length,
  longest_task_while_reading_ms: during.length ? Math.max(...during.map((t) => t.duration)) : 0,
  longest_task_drawing_the_result_ms: after.length ? Math.max(...after.map((t) => t.duration)) : 0,
  max_timer_lag_ms: +m.maxLag.toFixed(1),
  summary: summary.trim(),
};
console.log(JSON.stringify(result, null, 2));
