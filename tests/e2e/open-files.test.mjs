// Opening files: picked, dropped, or a bundled sample; bad input reported,
// and the page stays usable.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApp, CORPUS } from './harness.mjs';

test('a corpus log picked with the file input is read and its format detected', async () => {
  const app = await openApp();
  try {
    await app.page.getByTestId('file-input').setInputFiles(join(CORPUS, 'distbuild/example.log'));
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.equal(await app.page.getByTestId('detected-format').textContent(), 'distbuild');
    assert.match(await app.page.locator('.headline').textContent(), /23 lines/);
    const counts = {};
    for (const kind of ['run', 'copy', 'prepare']) counts[kind] = Number(await app.page.getByTestId(`task-count-${kind}`).textContent());
    assert.deepEqual(counts, { run: 3, copy: 2, prepare: 4 });
    assert.deepEqual(app.errors, []);
    assert.deepEqual(app.foreignRequests(), []);
  } finally {
    await app.close();
  }
});

test('a file dropped on the page is read like a picked one', async () => {
  const app = await openApp();
  try {
    const bytes = [...readFileSync(join(CORPUS, 'distbuild/edge.log'))];
    const dataTransfer = await app.page.evaluateHandle((bytes) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(bytes)], 'edge.log'));
      return dt;
    }, bytes);
    await app.page.dispatchEvent('.page', 'drop', { dataTransfer });
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.equal(await app.page.getByTestId('detected-format').textContent(), 'distbuild');
    await app.page.getByTestId('tab-diagnostics').click();
    const diagnostics = await app.page.getByTestId('diagnostics').textContent();
    assert.match(diagnostics, /line 3.*distbuild\.no-prepare-start/);
    assert.match(diagnostics, /'something_new': unknown event type/);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});

test('random bytes give an error that says what went wrong, and the next file still works', async () => {
  const app = await openApp();
  try {
    const noise = Buffer.alloc(8192);
    for (let i = 0; i < noise.length; i++) noise[i] = (Math.imul(i, 2654435761) >>> 13) & 0xff;
    await app.page.getByTestId('file-input').setInputFiles({ name: 'noise.bin', mimeType: 'application/octet-stream', buffer: noise });
    const error = app.page.getByTestId('error');
    await error.waitFor();
    assert.match(await error.textContent(), /^noise\.bin: not a format longpole reads; no reader recognises its first bytes "/);
    assert.equal(await app.page.getByTestId('analysis-ready').count(), 0);

    await app.page.getByTestId('file-input').setInputFiles(join(CORPUS, 'distbuild/example.log'));
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.equal(await app.page.getByTestId('error').count(), 0);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});

test('every bundled sample opens in one click, from a sub-path too', async () => {
  const app = await openApp({ base: '/docs/longpole/' });
  try {
    const samples = await app.page.locator('[data-testid^="sample-"]').evaluateAll((els) => els.map((e) => e.dataset.testid));
    assert.ok(samples.length >= 4, `samples: ${samples}`);
    for (const id of samples) {
      await app.page.getByTestId(id).click();
      await app.page.getByTestId('analysis-ready').waitFor();
      const format = await app.page.getByTestId('detected-format').textContent();
      const expected = id.startsWith('sample-ghc') ? 'ghc-eventlog' : id.startsWith('sample-monetdb') ? 'monetdb-mal' : id.startsWith('sample-evobench') ? 'evobench' : id.startsWith('sample-ninja') ? 'ninja-log' : id.startsWith('sample-starrocks') ? 'starrocks' : id.startsWith('sample-chrome') ? 'chrome-trace' : id.startsWith('sample-cargo') ? 'cargo-timings' : id.startsWith('sample-dbt') ? 'dbt' : id.startsWith('sample-spark') ? 'spark' : 'distbuild';
      assert.equal(format, expected, `${id}'s format`);
      // Back to the landing page for the next one: the page's address
      // without its hash (which names the sample, and would open it again).
      await app.page.goto(`${app.origin}/docs/longpole/`);
      await app.page.getByTestId('landing').waitFor();
    }
    await app.page.getByTestId('sample-distbuild').click();
    await app.page.getByTestId('analysis-ready').waitFor();
    const headline = await app.page.locator('.headline').textContent();
    assert.match(headline, /simulated-build\.log\.gz \+ simulated-build\.graph\.json\.gz/);
    assert.equal(await app.page.getByTestId('task-count-run').textContent(), '3000');
    assert.deepEqual(app.errors, []);
    assert.deepEqual(app.foreignRequests(), []);
  } finally {
    await app.close();
  }
});

test('keyboard: ? shows the help and Esc closes it', async () => {
  const app = await openApp();
  try {
    await app.page.keyboard.press('?');
    await app.page.getByTestId('help').waitFor();
    await app.page.keyboard.press('Escape');
    await app.page.getByTestId('help').waitFor({ state: 'detached' });
  } finally {
    await app.close();
  }
});
