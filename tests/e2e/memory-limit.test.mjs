// A clear limit instead of a dead tab: with the worker's memory limit
// lowered (`?memory-limit=BYTES`), a run whose model will not fit stops
// with the figures and the command that reads the same files natively,
// and the page takes the next file.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CORPUS, openApp } from './harness.mjs';

test('an input that will not fit stops with its figures and the CLI command', async () => {
  const app = await openApp();
  try {
    await app.page.goto(`${app.origin}/?memory-limit=1000000`);
    await app.page.getByTestId('landing').waitFor();
    await app.page.getByTestId('sample-distbuild').click();
    const error = app.page.getByTestId('error');
    await error.waitFor();
    assert.match(
      await error.textContent(),
      /^too big for this browser tab: after reading [\d.]+ MiB of [\d.]+ MiB, memory in use is [\d.]+ MiB, and the whole input would need about [\d.]+ MiB, over the tab's limit of 1\.0 MiB; stopped before the tab runs out\. Read it natively, where memory is the machine's: longpole analyze simulated-build\.log\.gz simulated-build\.graph\.json\.gz$/,
    );
    assert.equal(await app.page.getByTestId('analysis-ready').count(), 0);
    // Under the default limit the same page reads the next file.
    await app.page.goto(`${app.origin}/`);
    await app.page.getByTestId('file-input').setInputFiles(join(CORPUS, 'distbuild/example.log'));
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});
