// Chrome traces in the browser: a real Chrome trace's threads and slices
// with the CLI's numbers, and a Bazel profile with Bazel's own critical
// path shown as such.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cliJson, openApp, ROOT } from './harness.mjs';

test('a Chrome trace shows its threads, slices and flame graph', async () => {
  const cli = cliJson(join(ROOT, 'samples', 'chrome-x_event_trace.json.gz'));
  const app = await openApp();
  try {
    await app.page.getByTestId('sample-chrome').click();
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.equal(await app.page.getByTestId('detected-format').textContent(), 'chrome-trace');
    assert.ok(Number(await app.page.getByTestId('lane-count').textContent()) > 1);
    await app.page.locator('.chart .bars path').first().waitFor();
    await app.page.getByTestId('tab-flame').click();
    await app.page.getByTestId('flame-graph').waitFor();
    await app.page.getByTestId('tab-tables').click();
    const phases = await app.page.getByTestId('table-phases').locator('tbody tr').count();
    assert.equal(phases, Object.keys(cli.chrome.by_phase).length);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});

test('a Bazel profile shows Bazel\'s own critical path', async () => {
  const cli = cliJson(join(ROOT, 'samples', 'bazel-tiny.json.gz'));
  const app = await openApp();
  try {
    await app.page.getByTestId('sample-chrome-bazel').click();
    await app.page.getByTestId('analysis-ready').waitFor();
    await app.page.getByTestId('bazel-critical-path').waitFor();
    await app.page.getByTestId('tab-tables').click();
    const rows = await app.page.getByTestId('table-bazel-critical-path').locator('tbody tr').count();
    assert.equal(rows, cli.critical_path.tasks.length);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});
