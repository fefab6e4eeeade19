// MonetDB MAL traces in the browser: a TPC-H plan's critical path through
// its dataflow on the thread timeline, the load under it, the executions
// and operations tables, the dataflow graph, and the CLI's numbers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS as DATA, cliJson, openApp } from './harness.mjs';

const CORPUS = join(DATA, 'monetdb-mal');


test('a dropped TPC-H trace shows its plan\'s critical path, with the CLI\'s numbers', async () => {
  const cli = cliJson(join(CORPUS, 'compressed', 'trace.json.gz'));
  const app = await openApp();
  try {
    await app.page.getByTestId('file-input').setInputFiles(join(CORPUS, 'jan2019_sf10_10threads', 'Q01_variation001.json'));
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.equal(await app.page.getByTestId('detected-format').textContent(), 'monetdb-mal');
    assert.equal(Number(await app.page.getByTestId('mal-events').textContent()), cli.mal.events);
    assert.equal(Number(await app.page.getByTestId('mal-executions').textContent()), cli.mal.executions);
    assert.equal(Number(await app.page.getByTestId('critical-path-total-ms').textContent()), Math.floor(cli.critical_path.total_ms));
    const steps = await app.page.getByTestId('critical-path-task').evaluateAll((els) => els.map((e) => e.dataset.uid));
    assert.deepEqual(steps, cli.critical_path.tasks.map((t) => t.uid));
    // One lane per thread, bars drawn, the path toggle, the load chart.
    await app.page.locator('.chart .bars path').first().waitFor();
    const lanes = await app.page.locator('.chart .lanes text').allTextContents();
    assert.ok(lanes.some((l) => l.startsWith('thread ')), `lanes: ${lanes}`);
    await app.page.getByTestId('load-chart').waitFor();
    await app.page.getByTestId('show-blocking-chain').click();
    await app.page.getByTestId('show-critical-path').click();
    // A path step opens its details, with the statement.
    await app.page.locator('.path-list .step').first().click();
    await app.page.getByTestId('details-uid').waitFor();
    // The tables.
    await app.page.getByTestId('tab-tables').click();
    assert.equal(await app.page.getByTestId('table-executions').locator('tbody tr').count(), cli.mal.executions);
    const first = await app.page.getByTestId('table-instructions').locator('tbody tr').first().locator('td').first().textContent();
    assert.equal(first, cli.top_instructions[0].name);
    const [csv] = await Promise.all([app.page.waitForEvent('download'), app.page.getByTestId('export-instructions-csv').click()]);
    assert.match(readFileSync(await csv.path(), 'utf8'), /^operation,count,total,mean,median,p90,p99,max\r\n/);
    // The dataflow graph.
    await app.page.getByTestId('tab-graph').click();
    await app.page.getByTestId('dep-graph').waitFor();
    // The report.
    await app.page.getByTestId('tab-report').click();
    assert.match(await app.page.getByTestId('report-text').textContent(), /^MonetDB MAL trace \(2018–Apr2019\): 1,456 events/);
    assert.deepEqual(app.errors, []);
    assert.deepEqual(app.foreignRequests(), []);
  } finally {
    await app.close();
  }
});

test('a distributed query\'s supervisor and worker form one picture', async () => {
  const cli = cliJson(join(CORPUS, 'distributed', 'supervisor.json'), join(CORPUS, 'distributed', 'worker1.json'));
  const app = await openApp();
  try {
    await app.page.getByTestId('sample-monetdb-distributed').click();
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.equal(Number(await app.page.getByTestId('mal-executions').textContent()), cli.mal.executions);
    await app.page.getByTestId('tab-tables').click();
    const initiated = await app.page.getByTestId('table-executions').locator('tbody tr td:nth-child(9)').allTextContents();
    assert.ok(initiated.some((t) => t.endsWith('(remote)')), `initiated by: ${initiated}`);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});
