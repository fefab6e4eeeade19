// A StarRocks query profile in the browser: operators on pipeline lanes
// with the heaviest operator path, the operator flame graph, where each
// pipeline's time went, hints, and the CLI's numbers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cliJson, openApp, ROOT } from './harness.mjs';

test('a StarRocks profile shows where the query\'s time went', async () => {
  const cli = cliJson(join(ROOT, 'samples', 'starrocks-profile1.txt'));
  const app = await openApp();
  try {
    await app.page.getByTestId('sample-starrocks').click();
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.equal(await app.page.getByTestId('detected-format').textContent(), 'starrocks');
    const steps = await app.page.getByTestId('critical-path-task').evaluateAll((els) => els.map((e) => e.dataset.uid));
    assert.deepEqual(steps, cli.critical_path.tasks.map((t) => t.uid));
    // Pipelines as lanes, where each pipeline waited, the hints.
    await app.page.locator('.chart .bars path').first().waitFor();
    assert.equal(await app.page.getByTestId('pipeline-row').count(), cli.starrocks.pipelines);
    if (cli.starrocks_hints.length > 0) {
      assert.equal(await app.page.getByTestId('hints').locator('li').count(), cli.starrocks_hints.length);
    }
    // The operator flame graph and the operator graph.
    await app.page.getByTestId('tab-flame').click();
    await app.page.getByTestId('flame-graph').waitFor();
    assert.ok(await app.page.getByTestId('flame-frame').count() >= cli.starrocks.operators);
    await app.page.getByTestId('tab-graph').click();
    await app.page.getByTestId('dep-graph').waitFor();
    // The tables.
    await app.page.getByTestId('tab-tables').click();
    assert.equal(await app.page.getByTestId('table-operators').locator('tbody tr').count(), cli.starrocks.operators);
    assert.equal(await app.page.getByTestId('table-pipelines').locator('tbody tr').count(), cli.starrocks.pipelines);
    assert.deepEqual(app.errors, []);
    assert.deepEqual(app.foreignRequests(), []);
  } finally {
    await app.close();
  }
});
