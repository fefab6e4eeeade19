// What the SQL tab's measuring scripts share (measure-sql.mjs,
// trace-sql.mjs): their input and the way to the tab.
import { simulatedBuild } from './harness.mjs';

/** FILE... from the command line, or a simulated build of about 100,000 tasks (34,500 nodes). */
export function sqlFiles(args = process.argv.slice(2)) {
  if (args.length > 0) return args;
  const { log, graph } = simulatedBuild(34_500, 'sql');
  return [log, graph];
}

/** Opens `files` on the page at `url`, waits for the analysis, clicks the SQL tab; the time of the click (ms). */
export async function openSqlTab(page, url, files) {
  await page.goto(url);
  await page.getByTestId('landing').waitFor();
  await page.getByTestId('file-input').setInputFiles(files);
  await page.getByTestId('analysis-ready').waitFor({ timeout: 300_000 });
  const t0 = Date.now();
  await page.getByTestId('tab-sql').click();
  return t0;
}

/**
 * Waits until the service worker keeps the SQL engine's files (`dist/sql/`),
 * so that the next visit is a returning one: the first visit's engine came
 * before any worker controlled the page, and is kept once one is active.
 */
export async function waitForEngineCopy(page, timeout = 120_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const kept = await page.evaluate(async () => {
      const urls = [];
      for (const name of await caches.keys()) urls.push(...(await (await caches.open(name)).keys()).map((r) => r.url));
      return ['sql/engine.js', 'sql/duckdb-browser-eh.worker.js', 'sql/duckdb-eh.wasm'].every((f) => urls.some((u) => u.endsWith(f)));
    });
    if (kept) return;
    if (Date.now() > deadline) throw new Error(`the SQL engine's files were not kept after ${timeout / 1000} s`);
    await page.waitForTimeout(200);
  }
}
