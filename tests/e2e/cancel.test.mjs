// Reading a large file shows moving progress, and Cancel really stops it;
// the worker then reads the next file. A file of many slices comes through
// the slice reader (slice_reader.js) whole: every line, every byte.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createWriteStream, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApp, CORPUS } from './harness.mjs';

/** Writes a distbuild log of about `mb` megabytes: runs of many nodes on 20 hosts; its lines and bytes. */
async function bigLog(path, mb) {
  const out = createWriteStream(path);
  let size = 0;
  for (let i = 0; size < mb * 1e6; i++) {
    const t = 1732000000000 + i * 3;
    const host = `host-${String(i % 20).padStart(3, '0')}`;
    const chunk = `${t} deployed node${i} ${host}\n${t + 1} started node${i} ${host}\n${t + 40} finished node${i} ${host} OK 1234\n`;
    size += chunk.length;
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

test('a file of many slices is read whole through the slice reader', async () => {
  const path = join(tmpdir(), `longpole-slices-${process.pid}.log`);
  await bigLog(path, 40);
  const nodes = (readFileSync(path, 'utf8').split('\n').length - 1) / 3;
  const app = await openApp();
  try {
    await app.page.getByTestId('file-input').setInputFiles(path);
    await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    // A slice lost, repeated or out of order would cut a line in two: a
    // node fewer or one more.
    assert.equal(Number(await app.page.getByTestId('task-count-run').textContent()), nodes);
    assert.ok(app.requests.some((u) => u.endsWith('/slice_reader.js')), 'the slice reader was started');
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
    rmSync(path, { force: true });
  }
});

test('Cancel stops a long read, and the next file is read', async () => {
  const path = join(tmpdir(), `longpole-cancel-${process.pid}.log`);
  await bigLog(path, 300);
  const app = await openApp();
  try {
    await app.page.getByTestId('file-input').setInputFiles(path);
    await app.page.getByTestId('reading').waitFor();
    await app.page.waitForFunction(() => Number(document.querySelector('[data-testid="progress"]')?.value) > 0);
    assert.equal(await app.page.getByTestId('reading-format').textContent(), 'distbuild');
    await app.page.getByTestId('cancel').click();
    await app.page.getByTestId('cancelled').waitFor();
    assert.equal(await app.page.getByTestId('analysis-ready').count(), 0);

    await app.page.getByTestId('file-input').setInputFiles(join(CORPUS, 'distbuild/example.log'));
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.equal(await app.page.getByTestId('detected-format').textContent(), 'distbuild');
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
    rmSync(path, { force: true });
  }
});
