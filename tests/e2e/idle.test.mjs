// A page left alone stays quiet: the landing page idle for 10 s (while its
// worker warms up) shows no error and logs no console error, and so does
// every sample once shown and left idle.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './harness.mjs';

const IDLE_MS = 10_000;

/** The page's error panel and console errors, after `IDLE_MS` of nothing. */
async function afterIdle(app) {
  await app.page.waitForTimeout(IDLE_MS);
  const panels = await app.page.getByTestId('error').allTextContents();
  return { panels, console: [...app.errors] };
}

test('the landing page left idle shows no error', async () => {
  const app = await openApp();
  try {
    assert.deepEqual(await afterIdle(app), { panels: [], console: [] });
    // Still the landing page, with every format the registry reads.
    assert.match(await app.page.getByTestId('landing-formats').textContent(), /^Reads: distbuild execution log · .*Chrome trace$/);
  } finally {
    await app.close();
  }
});

test('every sample, shown and left idle, shows no error', async () => {
  const app = await openApp();
  try {
    const ids = await app.page.locator('[data-testid^="sample-"]').evaluateAll((els) => els.map((e) => e.dataset.testid));
    assert.ok(ids.length >= 10, `samples: ${ids}`);
    for (const id of ids) {
      await app.page.goto(`${app.origin}/`);
      await app.page.getByTestId(id).click();
      await app.page.getByTestId('analysis-ready').waitFor();
      const { panels, console } = await afterIdle(app);
      assert.deepEqual({ id, panels, console }, { id, panels: [], console: [] });
    }
  } finally {
    await app.close();
  }
});
