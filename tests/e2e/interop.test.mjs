// Exports open in the tools they are meant for: speedscope's own static
// build (from its npm package) loads every speedscope export without an
// error, and the single-file HTML report opens from a file:// URL, shows
// its charts and asks for nothing over the network.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve } from '../../scripts/serve.mjs';
import { CORPUS, launchBrowser, ROOT } from './harness.mjs';

const INPUTS = [
  join(ROOT, 'samples', 'simulated-build.log.gz'),
  join(CORPUS, 'ghc-eventlog', 'testlog.eventlog'),
  join(CORPUS, 'monetdb-mal', 'stethoscope', 'q01_Sep2022.json'),
  join(ROOT, 'samples', 'ninja-kati.ninja_log'),
  join(CORPUS, 'evobench', 'bench-v1-sum_of_fibs.log'),
  join(ROOT, 'samples', 'starrocks-profile1.txt'),
];

function exportTo(to, input, output) {
  execFileSync('cargo', ['run', '--quiet', '-p', 'longpole-cli', '--', 'export', '--to', to, '-o', output, input], { cwd: ROOT });
}

test('speedscope loads every speedscope export', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'longpole-speedscope-'));
  cpSync(join(ROOT, 'node_modules', 'speedscope', 'dist', 'release'), dir, { recursive: true });
  INPUTS.forEach((input, i) => exportTo('speedscope', input, join(dir, `profile-${i}.json`)));
  const server = await serve({ root: dir, port: 0, base: '/' });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await launchBrowser();
  try {
    for (const [i, input] of INPUTS.entries()) {
      const name = JSON.parse(readFileSync(join(dir, `profile-${i}.json`), 'utf8')).name;
      // A new hash alone does not reload speedscope: start from a blank page.
      await browser.page.goto('about:blank');
      await browser.page.goto(`${origin}/index.html#profileURL=${encodeURIComponent(`${origin}/profile-${i}.json`)}`);
      await browser.page.waitForFunction((n) => document.title.startsWith(n), name, { timeout: 30000 });
      await browser.page.locator('canvas').first().waitFor();
      const text = await browser.page.locator('body').textContent();
      assert.ok(!/something went wrong|could not|unrecognized/i.test(text), `${input}: ${text.slice(0, 200)}`);
    }
    assert.deepEqual(browser.errors.filter((e) => !/favicon/.test(e)), []);
  } finally {
    await browser.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the HTML report opens from disk and shows its charts', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'longpole-html-'));
  const file = join(dir, 'report.html');
  exportTo('html', join(ROOT, 'samples', 'simulated-build.log.gz'), file);
  const browser = await launchBrowser();
  try {
    await browser.page.goto(pathToFileURL(file).href);
    await browser.page.locator('[data-chart="timeline"] svg').waitFor();
    assert.ok(await browser.page.locator('[data-chart="timeline"] svg path, [data-chart="timeline"] svg rect').count() > 10);
    await browser.page.locator('[data-chart="graph"] svg').waitFor();
    assert.ok(browser.requests.every((u) => u.startsWith('file:') || u.startsWith('data:')), browser.requests.join(' '));
    assert.deepEqual(browser.errors, []);
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
