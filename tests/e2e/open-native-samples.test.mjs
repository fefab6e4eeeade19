// Every sample the app offers (src/samples.rs), opened by `longpole open`
// twice: analysed in the tab's worker, and analysed by the process
// (`--native`). The page must show the same run either way: the formats it
// detected, and the run's key numbers and critical path (the hidden
// `run-facts` the tests read).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, ROOT } from './harness.mjs';
import { open } from './open-harness.mjs';

/** Each sample's files, as src/samples.rs lists them. */
const SAMPLES = [...readFileSync(join(ROOT, 'src/samples.rs'), 'utf8').matchAll(/files: &\[([^\]]*)\]/g)].map((m) =>
  [...m[1].matchAll(/"([^"]+)"/g)].map((f) => join(ROOT, 'samples', f[1])),
);

/** What `page` shows of the run `server` gives it, once it is all on the page. */
async function shown(page, server) {
  await page.goto(server.url);
  await page.getByTestId('analysis-ready').first().waitFor({ timeout: 120_000 });
  return page.evaluate(() => ({
    formats: [...document.querySelectorAll('[data-testid="detected-format"]')].map((e) => e.textContent),
    facts: [...document.querySelectorAll('[data-testid="run-facts"]')].map((e) => e.innerHTML),
  }));
}

test('every sample shows the same run analysed in the tab and by longpole open --native', async () => {
  assert.ok(SAMPLES.length >= 15, `the samples were read from src/samples.rs: ${SAMPLES.length}`);
  const browser = await launchBrowser();
  try {
    for (const files of SAMPLES) {
      const name = files.map((f) => f.split('/').pop()).join(' + ');
      const [tab, native] = [await open(...files), await open('--native', ...files)];
      try {
        const inTab = await shown(browser.page, tab);
        const byProcess = await shown(browser.page, native);
        assert.ok(inTab.formats.length > 0, `${name}: no format shown`);
        assert.deepEqual(byProcess, inTab, name);
      } finally {
        // Off the page first, so that no ping or socket of it meets a stopped server.
        await browser.page.goto('about:blank');
        tab.kill();
        native.kill();
      }
    }
    assert.deepEqual(browser.errors, []);
  } finally {
    await browser.close();
  }
});
