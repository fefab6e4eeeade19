// A .ninja_log in the browser: its builds one after another on
// ninjatracing's slots, the builds table with the CLI's numbers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cliJson, openApp, ROOT } from './harness.mjs';

test('a ninja log shows its builds on slots, with the CLI\'s numbers', async () => {
  const cli = cliJson(join(ROOT, 'samples', 'ninja-kati.ninja_log'));
  const app = await openApp();
  try {
    await app.page.getByTestId('sample-ninja').click();
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.equal(await app.page.getByTestId('detected-format').textContent(), 'ninja-log');
    await app.page.locator('.chart .bars path').first().waitFor();
    const lanes = await app.page.locator('.chart .lanes text').allTextContents();
    assert.equal(lanes.filter((l) => l.startsWith('slot ')).length, Math.max(...cli.ninja.builds.map((b) => b.slots)));
    assert.equal(await app.page.getByTestId('show-blocking-chain').count(), 0);
    assert.equal(await app.page.getByTestId('tab-graph').count(), 0);
    await app.page.getByTestId('tab-tables').click();
    assert.equal(await app.page.getByTestId('table-builds').locator('tbody tr').count(), cli.ninja.builds.length);
    const first = await app.page.getByTestId('table-longest').locator('tbody tr').first().locator('td').nth(2).textContent();
    assert.equal(first, cli.longest[0].output);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});
