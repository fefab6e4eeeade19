// A real dbt build's run_results.json and manifest.json dropped together:
// one run whose path is the CLI's, with a Nodes table of every node; alone,
// the results claim no path. The sample opens on the same path.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cliJson, openApp, ROOT } from './harness.mjs';

const DIR = join(ROOT, 'crates', 'core', 'tests', 'fixtures', 'dbt', 'build');
const FILES = ['manifest.json', 'run_results.json'].map((f) => join(DIR, f));

test('a dbt build dropped with its manifest shows the CLI\'s path and nodes', async () => {
  const cli = cliJson(...FILES);
  const app = await openApp();
  try {
    await app.page.getByTestId('file-input').setInputFiles(FILES);
    await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    assert.equal(await app.page.getByTestId('detected-format').textContent(), 'dbt');
    assert.equal(Number(await app.page.getByTestId('critical-path-total-ms').textContent()), Math.floor(cli.critical_path.total_ms)); // the page gives whole ms
    const steps = await app.page.getByTestId('critical-path-task').evaluateAll((els) => els.map((e) => e.dataset.uid));
    assert.deepEqual(steps, cli.critical_path.tasks.map((t) => t.unique_id));
    assert.ok(steps.includes('model.longpole_dbt.slow_4'), steps.join(' '));
    await app.page.getByTestId('tab-tables').click();
    const rows = await app.page.getByTestId('table-nodes').locator('tbody tr').count();
    assert.equal(rows, Math.min(cli.dbt.nodes.length, 50));
    assert.deepEqual(app.errors, []);
    assert.deepEqual(app.foreignRequests(), []);
  } finally {
    await app.close();
  }
});

test('run_results.json alone opens without a path and says why', async () => {
  const app = await openApp();
  try {
    await app.page.getByTestId('file-input').setInputFiles([FILES[1]]);
    await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    assert.equal(await app.page.getByTestId('critical-path-task').count(), 0);
    assert.match(await app.page.locator('body').textContent(), /manifest\.json/);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});

test('the sample dbt build opens on its path', async () => {
  const cli = cliJson(...FILES);
  const app = await openApp();
  try {
    await app.page.getByTestId('sample-dbt').click();
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.equal(await app.page.getByTestId('detected-format').textContent(), 'dbt');
    const steps = await app.page.getByTestId('critical-path-task').evaluateAll((els) => els.map((e) => e.dataset.uid));
    assert.deepEqual(steps, cli.critical_path.tasks.map((t) => t.unique_id));
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});
