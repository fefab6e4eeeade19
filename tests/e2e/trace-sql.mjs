// The SQL tab's own status lines, with the time each first shows after the
// click on the tab, until the run's tables are queryable: on a first visit
// and then a returning one (the same browser, reloaded). For finding where
// the tab's wait goes (docs/numbers.md, "The SQL tab");
// `measure-sql.mjs` gives the medians.
//
//   [SERVICE_WORKERS=block] node tests/e2e/trace-sql.mjs [FILE...]
//
// With no FILE, the simulated build of `measure-sql.mjs`. SERVICE_WORKERS=block:
// no service worker, so the returning visit comes from the HTTP cache.
import { join } from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { launchBrowser, ROOT } from './harness.mjs';
import { openSqlTab, sqlFiles, waitForEngineCopy } from './sql-tab.mjs';

const files = sqlFiles();

/** Opens the files, then the SQL tab; each status line with its time, ms after the click. */
async function trace(page, url) {
  const t0 = await openSqlTab(page, url, files);
  const lines = [];
  for (let last = null; ;) {
    const now = await page.evaluate(() => {
      const run = document.querySelector('[data-testid=sql-run]');
      if (run && !run.disabled) return 'tables queryable';
      return document.querySelector('[data-testid=sql-loading]')?.textContent ?? '';
    });
    if (now !== last) lines.push(`${String(Date.now() - t0).padStart(6)} ms  ${now}`);
    if (now === 'tables queryable') return lines;
    last = now;
    await page.waitForTimeout(25);
  }
}

const server = await serve({ root: join(ROOT, 'dist'), port: 0, base: '/' });
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await launchBrowser({ serviceWorkers: process.env.SERVICE_WORKERS ?? 'allow' });
try {
  console.log(`first visit:\n${(await trace(browser.page, url)).join('\n')}`);
  await waitForEngineCopy(browser.page);
  console.log(`returning visit:\n${(await trace(browser.page, url)).join('\n')}`);
  if (browser.errors.length) console.log('# page errors:', browser.errors);
} finally {
  await browser.close();
  server.close();
}
