// evobench logs in the browser: the flame graph (kinds, zoom, icicle,
// hottest path, exports), the evaluator's statistics as tables with the
// CLI's numbers, and two runs compared.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS as DATA, cliJson, openApp } from './harness.mjs';

const CORPUS = join(DATA, 'evobench');


async function download(app, testid) {
  const [file] = await Promise.all([app.page.waitForEvent('download'), app.page.getByTestId(testid).click()]);
  return readFileSync(await file.path());
}

test('an evobench log shows its flame graph and the evaluator\'s statistics', async () => {
  const cli = cliJson(join(CORPUS, 'generated-current-format', 'evobench.log.zstd'));
  const app = await openApp();
  try {
    await app.page.getByTestId('sample-evobench').click();
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.equal(await app.page.getByTestId('detected-format').textContent(), 'evobench');
    assert.equal(Number(await app.page.getByTestId('evobench-rows').textContent()), cli.evobench.paths.length);
    // Threads as lanes on the timeline; no path toggle, no graph tab.
    await app.page.locator('.chart .bars path').first().waitFor();
    assert.equal(await app.page.getByTestId('show-blocking-chain').count(), 0);
    assert.equal(await app.page.getByTestId('tab-graph').count(), 0);
    // The flame graph: frames, the hottest path outlined.
    await app.page.getByTestId('tab-flame').click();
    await app.page.getByTestId('flame-graph').waitFor();
    const frames = app.page.getByTestId('flame-frame');
    assert.ok(await frames.count() > 5);
    const hot = await app.page.locator('[data-testid="flame-frame"][data-hot="true"]').evaluateAll((els) => els.map((e) => e.dataset.name));
    assert.ok(hot.includes('main|main'), `hottest path: ${hot}`);
    // Zoom into a frame, then back out.
    await app.page.locator('[data-testid="flame-frame"][data-name="main|main"]').first().click();
    await app.page.waitForFunction(() => document.querySelector('[data-testid="flame-crumbs"]').textContent.includes('main|main'));
    const first = await frames.first().getAttribute('data-name');
    assert.equal(first, 'main|main');
    // Other kinds and the icicle.
    await app.page.getByTestId('flame-kind-cpu_us').click();
    await app.page.getByTestId('flame-graph').waitFor();
    await app.page.getByTestId('flame-direction-icicle').click();
    // Exports: folded stacks and SVG.
    const folded = (await download(app, 'export-folded')).toString();
    assert.match(folded, /^thread;main\|main;\S.* \d+$/m);
    const svg = (await download(app, 'export-flame-svg')).toString();
    assert.match(svg, /^<svg xmlns/);
    // The statistics.
    await app.page.getByTestId('tab-tables').click();
    const title = await app.page.getByTestId('table-stats-real').locator('h3, .table-title').first().textContent();
    assert.match(title, new RegExp(`${cli.evobench.paths.length.toLocaleString('en-US')} rows`));
    const csv = (await download(app, 'export-statistics-csv')).toString();
    assert.match(csv.split('\n')[0], /path/);
    // The workbook comes from the export worker (the analysis worker has no xlsx writer).
    const xlsx = await download(app, 'export-workbook');
    assert.equal(xlsx.subarray(0, 2).toString(), 'PK');
    for (const part of ['xl/workbook.xml', 'xl/worksheets/sheet4.xml']) assert.ok(xlsx.includes(Buffer.from(part)), part);
    await app.page.getByTestId('export-progress').waitFor({ state: 'detached' });
    assert.deepEqual(app.errors, []);
    assert.deepEqual(app.foreignRequests(), []);
  } finally {
    await app.close();
  }
});

test('two runs dropped together are summarised, and pointed to Compare with… for groups', async () => {
  const app = await openApp();
  try {
    await app.page.getByTestId('sample-evobench-two-runs').click();
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.equal(Number(await app.page.getByTestId('evobench-runs').textContent()), 2);
    await app.page.getByTestId('tab-tables').click();
    assert.equal(await app.page.getByTestId('table-runs').locator('tbody tr').count(), 2);
    assert.ok(await app.page.getByTestId('table-summary').locator('tbody tr').count() > 0);
    // The summary over another per-run statistic.
    await app.page.getByTestId('summary-field').selectOption('median');
    await app.page.getByTestId('table-summary').locator('h3', { hasText: 'medians' }).waitFor();
    // Two groups of runs compare as any runs do: "Compare with…" (tests/e2e/compare.test.mjs).
    assert.match(await app.page.getByTestId('compare-groups-hint').textContent(), /Compare with…/);
    assert.equal(await app.page.getByTestId('compare-with').count(), 1);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});
