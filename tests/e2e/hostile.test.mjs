// Hostile inputs in the browser (tests/hostile/generate.py): each one, given
// to the same page in turn, ends in the result or the one exact error the
// CLI gives (crates/cli/tests/hostile.rs), nothing from a file becomes
// markup, no console error is logged, and the page takes the next file.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApp, ROOT } from './harness.mjs';

test('every hostile input gives a result or its exact error, and the page goes on', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'longpole-hostile-'));
  execFileSync('python3', [join(ROOT, 'tests/hostile/generate.py'), dir]);
  const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8'));
  const app = await openApp();
  try {
    for (const { file, outcome, message } of expected) {
      await app.page.goto(`${app.origin}/`);
      await app.page.getByTestId('landing').waitFor();
      await app.page.getByTestId('file-input').setInputFiles(join(dir, file));
      const ends = app.page.locator('[data-testid="error"], [data-testid="analysis-ready"]');
      await ends.first().waitFor({ timeout: 60_000 });
      if (outcome === 'error') {
        assert.match(await app.page.getByTestId('error').textContent(), new RegExp(message), file);
      } else {
        assert.equal(await app.page.getByTestId('error').count(), 0, file);
        await app.page.getByTestId('analysis-ready').waitFor();
      }
      // Names are text: the markup in markup.json never became elements.
      const pwned = await app.page.evaluate(() => [window.pwned, document.querySelectorAll('img[onerror], .run script').length]);
      assert.deepEqual(pwned, [undefined, 0], file);
      assert.deepEqual(app.errors, [], file);
      if (file === 'markup.json') {
        // ...and is shown as the text it is, where the name appears.
        assert.match(await app.page.locator('.path-list').innerText(), /<script>window\.pwned=1<\/script>"><img src=x onerror="window\.pwned=2">/);
      }
    }
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
