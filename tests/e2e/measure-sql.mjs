// The SQL tab's wait, as a user meets it: from the click on the tab to the
// run's tables queryable (the Run button enabled: DuckDB loaded and the
// tables made by the export worker and inserted), then to the first answer
// of `SELECT count(*) FROM tasks` and of a GROUP BY over every task. The
// first visit is a fresh Chromium with a fresh profile (nothing cached);
// the returning visit reloads the same profile (DuckDB's files now come
// from the service worker's copy and the browser's code cache).
//
//   RUNS=3 node tests/e2e/measure-sql.mjs FILE...
//
// With no FILE, a simulated build of about 100,000 tasks (distbuild-sim,
// 34,500 nodes).

import { join } from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { launchBrowser, stats, ROOT } from './harness.mjs';
import { openSqlTab, sqlFiles, waitForEngineCopy } from './sql-tab.mjs';

const RUNS = Number(process.env.RUNS ?? 3);
const files = sqlFiles();

/** Opens the files, then the SQL tab; the times in ms from the click on the tab. */
async function measure(page, url) {
  const t0 = await openSqlTab(page, url, files);
  await page.waitForFunction(() => !document.querySelector('[data-testid=sql-run]')?.disabled, null, { timeout: 300_000 });
  const ready = Date.now() - t0;
  const answer = async (sql) => {
    await page.getByTestId('sql-editor').fill(sql);
    const answers = Number(await page.getByTestId('sql').getAttribute('data-answers'));
    const before = Date.now();
    await page.getByTestId('sql-run').click();
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid=sql]')?.dataset.answers) > n, answers, { timeout: 300_000 });
    const count = await page.getByTestId('sql-result').getAttribute('data-row-count');
    return { ms: Date.now() - before, count };
  };
  const first = await answer('SELECT count(*) AS tasks FROM tasks');
  const tasks = await page.locator('[data-testid=sql-result] tbody td').first().textContent();
  const grouped = await answer('SELECT lane, kind, count(*) AS n, sum(duration_us) AS busy FROM tasks GROUP BY ALL ORDER BY busy DESC');
  return { ready, first: ready + first.ms, grouped: grouped.ms, tasks: Number(tasks), groups: Number(grouped.count) };
}

const server = await serve({ root: join(ROOT, 'dist'), port: 0, base: '/' });
const url = `http://127.0.0.1:${server.address().port}/`;
const cold = [];
const warm = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const browser = await launchBrowser();
    try {
      cold.push(await measure(browser.page, url));
      await waitForEngineCopy(browser.page);
      warm.push(await measure(browser.page, url));
      if (browser.errors.length) console.log('# page errors:', browser.errors);
    } finally {
      await browser.close();
    }
  }
} finally {
  server.close();
}
const show = (label, xs) => {
  const f = (k) => { const s = stats(xs.map((x) => x[k])); return `${s.median} (${s.min}–${s.max})`; };
  console.log(`${label}: tables queryable ${f('ready')} ms, first answer ${f('first')} ms after the click; GROUP BY over all tasks ${f('grouped')} ms; ${xs[0].tasks} tasks, ${xs[0].groups} groups`);
};
show('first visit', cold);
show('returning visit', warm);
