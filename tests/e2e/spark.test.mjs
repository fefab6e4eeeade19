// Real Spark event logs (PySpark runs kept as fixtures): the lz4-compressed
// log dropped shows the CLI's path over the stages and the Stages table;
// the zstd sample opens on the same path as the CLI gives for it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cliJson, openApp, ROOT } from './harness.mjs';

const DIR = join(ROOT, 'crates', 'core', 'tests', 'fixtures', 'spark');
const uids = (cli) => cli.critical_path.tasks.map((t) => `stage ${t.stage_id}.${t.attempt}`);

test('an lz4-compressed Spark event log shows the CLI\'s path over the stages', async () => {
  const file = join(DIR, 'skewed-join.lz4');
  const cli = cliJson(file);
  const app = await openApp();
  try {
    await app.page.getByTestId('file-input').setInputFiles([file]);
    await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    assert.equal(await app.page.getByTestId('detected-format').textContent(), 'spark');
    assert.equal(Number(await app.page.getByTestId('critical-path-total-ms').textContent()), Math.floor(cli.critical_path.total_ms));
    const steps = await app.page.getByTestId('critical-path-task').evaluateAll((els) => els.map((e) => e.dataset.uid));
    assert.deepEqual(steps, uids(cli));
    await app.page.getByTestId('tab-tables').click();
    const rows = await app.page.getByTestId('table-stages').locator('tbody tr').count();
    assert.equal(rows, Math.min(cli.spark.stage_list.length, 50));
    assert.deepEqual(app.errors, []);
    assert.deepEqual(app.foreignRequests(), []);
  } finally {
    await app.close();
  }
});

test('the sample Spark application opens on its path', async () => {
  const cli = cliJson(join(ROOT, 'samples', 'spark-skewed-join.zstd'));
  const app = await openApp();
  try {
    await app.page.getByTestId('sample-spark').click();
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.equal(await app.page.getByTestId('detected-format').textContent(), 'spark');
    const steps = await app.page.getByTestId('critical-path-task').evaluateAll((els) => els.map((e) => e.dataset.uid));
    assert.deepEqual(steps, uids(cli));
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});
