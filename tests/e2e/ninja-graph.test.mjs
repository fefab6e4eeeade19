// A real CMake build's .ninja_log dropped with its build.ninja, the
// rules.ninja it includes and its .ninja_deps: one run whose critical path,
// blocking chain and weighted times are the CLI's, with a Graph tab.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cliJson, openApp, ROOT } from './harness.mjs';

const DIR = join(ROOT, 'crates', 'core', 'tests', 'fixtures', 'ninja', 'cmake-chain');
const FILES = ['.ninja_log', 'build.ninja', 'rules.ninja', '.ninja_deps'].map((f) => join(DIR, f));

test('a ninja log dropped with its build graph shows the CLI\'s critical path', async () => {
  const cli = cliJson(...FILES);
  const app = await openApp();
  try {
    await app.page.getByTestId('file-input').setInputFiles(FILES);
    await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    assert.equal(await app.page.getByTestId('detected-format').textContent(), 'ninja-log');
    assert.equal(Number(await app.page.getByTestId('critical-path-total-ms').textContent()), cli.critical_path.total_ms);
    assert.equal(Number(await app.page.getByTestId('blocking-chain-total-ms').textContent()), cli.blocking_chain.total_ms);
    const steps = await app.page.getByTestId('critical-path-task').evaluateAll((els) => els.map((e) => e.dataset.uid));
    assert.deepEqual(steps, cli.critical_path.steps.map((s) => s.output.split(', ')[0]));
    assert.ok(steps.includes('gen/config.h'), steps.join(' '));
    await app.page.locator('.chart .bars path').first().waitFor();
    await app.page.getByTestId('tab-graph').click();
    await app.page.locator('.graph[data-scale]').waitFor();
    assert.equal(await app.page.locator('.graph .node.on-path').count(), steps.length);
    await app.page.getByTestId('tab-tables').click();
    const rows = await app.page.getByTestId('table-weighted-by-extension').locator('tbody tr').count();
    assert.equal(rows, cli.weighted_by_extension.length);
    assert.deepEqual(app.errors, []);
    assert.deepEqual(app.foreignRequests(), []);
  } finally {
    await app.close();
  }
});

test('the sample ninja build opens on its critical path', async () => {
  const app = await openApp();
  try {
    await app.page.getByTestId('sample-ninja-graph').click();
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.equal(await app.page.getByTestId('detected-format').textContent(), 'ninja-log');
    const steps = await app.page.getByTestId('critical-path-task').evaluateAll((els) => els.map((e) => e.dataset.uid));
    assert.deepEqual(steps, ['gen/config.h', 'CMakeFiles/app.dir/src/f4.c.o', 'app']);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});
