// The docs site built into dist/docs/ (mdBook, scripts/build.sh): each
// format's page embeds its sample with <longpole-view>, every file it names
// is in the bundle, and each embed reaches analysis-ready with the format
// and wall time `longpole analyze` finds for the same files. Served under
// a sub-path, as a host would.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, ROOT, cliJson } from './harness.mjs';
import { serve } from '../../scripts/serve.mjs';

const BASE = '/lp/';
const DIST = join(ROOT, 'dist');
/** Each format's page, from the docs' root. */
const PAGES = [
  'formats/distbuild.html', 'formats/ghc-eventlog.html', 'formats/monetdb-mal.html', 'formats/evobench.html',
  'formats/starrocks.html', 'formats/ninja.html', 'formats/chrome-trace.html', 'bazel.html', 'cargo.html', 'dbt.html', 'spark.html',
];

let app, browser, page, origin;

before(async () => {
  app = await serve({ root: DIST, port: 0, base: BASE });
  origin = `http://127.0.0.1:${app.address().port}`;
  browser = await launchBrowser();
  page = browser.page;
});

after(async () => {
  await browser?.close();
  app?.close();
});

/** The bundle's files a page's element names, from its built HTML. */
function samplesOf(pagePath) {
  const html = readFileSync(join(DIST, 'docs', pagePath), 'utf8');
  const found = [...html.matchAll(/<longpole-view src="([^"]+)"/g)];
  assert.equal(found.length, 1, `${pagePath} embeds one view`);
  const pageUrl = new URL(`${origin}${BASE}docs/${pagePath}`);
  return found[0][1].split(' ').map((src) => new URL(src, pageUrl).pathname.slice(BASE.length));
}

test('every format page names files the bundle holds, and the docs are in the offline shell', () => {
  for (const p of PAGES) for (const f of samplesOf(p)) assert.ok(existsSync(join(DIST, f)), `${p}: ${f}`);
  const sw = readFileSync(join(DIST, 'sw.js'), 'utf8');
  assert.ok(sw.includes('"docs/formats/ninja.html"'), 'the service worker keeps the docs for offline use');
});

for (const p of PAGES) {
  test(`${p} shows its sample live, as the CLI reads it`, async () => {
    await page.goto(`${origin}${BASE}docs/${p}`);
    const frame = page.frameLocator('longpole-view iframe');
    await frame.getByTestId('analysis-ready').waitFor({ timeout: 60_000 });
    const summary = await page.evaluate(() => document.querySelector('longpole-view').getSummary());
    const cli = cliJson(...samplesOf(p).map((f) => join(DIST, f)));
    assert.equal(summary.format, cli.format);
    assert.equal(Math.round(summary.wall_ns / 1e6), Math.round(cli.wall_ms));
    assert.deepEqual(browser.errors ?? [], []);
  });
}
