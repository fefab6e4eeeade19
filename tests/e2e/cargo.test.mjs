// A Cargo build's --timings page in the browser: units packed on
// concurrency slots, the path with how each unit was made ready, the
// CLI's numbers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cliJson, openApp, ROOT } from './harness.mjs';

test('the sample Cargo build shows the CLI\'s path on its slots', async () => {
  const cli = cliJson(join(ROOT, 'samples', 'cargo-longpole.html'));
  const app = await openApp();
  try {
    await app.page.getByTestId('sample-cargo').click();
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.equal(await app.page.getByTestId('detected-format').textContent(), 'cargo-timings');
    await app.page.locator('.chart .bars path').first().waitFor();
    const lanes = await app.page.locator('.chart .lanes text').allTextContents();
    assert.equal(lanes.filter((l) => l.startsWith('slot ')).length, cli.cargo.slots);
    assert.equal(Number(await app.page.getByTestId('critical-path-total-ms').textContent()), cli.critical_path.total_ms);
    const steps = await app.page.getByTestId('critical-path-task').evaluateAll((els) => els.map((e) => e.dataset.uid));
    assert.deepEqual(steps, cli.critical_path.tasks.map((t) => t.name));
    await app.page.getByTestId('tab-tables').click();
    assert.equal(await app.page.getByTestId('table-critical-path').locator('tbody tr').count(), cli.critical_path.tasks.length);
    assert.equal(await app.page.getByTestId('table-sections').locator('tbody tr').count(), cli.cargo.sections.length);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});

test('a build-analysis log dropped on the page opens as a Cargo build', async () => {
  const file = join(ROOT, 'crates', 'core', 'tests', 'fixtures', 'cargo', 'chain-build-analysis.jsonl');
  const cli = cliJson(file);
  const app = await openApp();
  try {
    await app.page.getByTestId('file-input').setInputFiles([file]);
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.equal(await app.page.getByTestId('detected-format').textContent(), 'cargo-timings');
    const steps = await app.page.getByTestId('critical-path-task').evaluateAll((els) => els.map((e) => e.dataset.uid));
    assert.deepEqual(steps, cli.critical_path.tasks.map((t) => t.name));
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});
