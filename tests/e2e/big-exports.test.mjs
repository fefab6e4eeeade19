// Exports far bigger than the run, in the browser: a realistic Chrome
// trace's folded stacks repeat stacks hundreds of frames deep, 50 times the
// trace's size. Up to the worker's limit they download whole (their bytes
// moved to the page, not sent as JSON); past it the worker says why and
// gives the native command, and the run stays on screen.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApp, ROOT } from './harness.mjs';

/// Scratch directories, removed when the tests end (the traces and the
/// folded stacks come to half a gigabyte a run).
const scratch = [];
after(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const scratchDir = () => scratch[scratch.push(mkdtempSync(join(tmpdir(), 'longpole-exports-'))) - 1];

/// A realistic trace of `mb` MB (crates/bench/chrome/realistic.py).
function trace(mb) {
  const path = join(scratchDir(), `realistic-${mb}.json`);
  execFileSync('python3', [join(ROOT, 'crates/bench/chrome/realistic.py'), path, String(mb)]);
  return path;
}

/// Loads `path`, opens the flame graph and asks for its folded stacks.
async function exportFolded(app, path) {
  await app.page.getByTestId('file-input').setInputFiles(path);
  await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120000 });
  await app.page.getByTestId('tab-flame').click();
  await app.page.getByTestId('flame-graph').waitFor({ timeout: 120000 });
  await app.page.getByTestId('export-folded').click();
}

test('folded stacks 50 times the trace download whole', async () => {
  const path = trace(10);
  const app = await openApp();
  try {
    const downloaded = app.page.waitForEvent('download', { timeout: 120000 });
    await exportFolded(app, path);
    const size = statSync(await (await downloaded).path()).size;
    const out = join(scratchDir(), 'stacks.folded');
    execFileSync('cargo', ['run', '--quiet', '-p', 'longpole-cli', '--', 'export', path, '--to', 'folded', '--output', out], { cwd: ROOT });
    assert.equal(size, statSync(out).size);
    assert.ok(size > 100e6, `${size} bytes`);
  } finally {
    await app.close();
  }
});

test('folded stacks past the tab\'s limit are refused with the native command, and the run stays', async () => {
  const path = trace(30);
  const app = await openApp();
  try {
    await exportFolded(app, path);
    const refused = app.page.getByTestId('export-refused');
    await refused.waitFor({ timeout: 120000 });
    const message = await refused.textContent();
    assert.match(message, /would take \d+ MiB/);
    assert.match(message, /longpole export realistic-30\.json --to folded --output stacks\.folded/);
    assert.equal(await app.page.getByTestId('error').count(), 0);
    await app.page.getByTestId('flame-graph').waitFor();
    await refused.getByRole('button', { name: 'Close' }).click();
    assert.equal(await refused.count(), 0);
  } finally {
    await app.close();
  }
});
