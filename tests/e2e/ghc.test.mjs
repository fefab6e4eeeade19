// A GHC eventlog in the browser: its capabilities' timeline with thread and
// GC spans, the heap under it, the GC, thread and mark tables, the report,
// and the same numbers as the CLI.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS as DATA, cliJson, openApp } from './harness.mjs';

const CORPUS = join(DATA, 'ghc-eventlog');


test('the GHC sample shows its capabilities, heap and tables, with the CLI\'s numbers', async () => {
  const cli = cliJson(join(CORPUS, 'stop.hT.eventlog'));
  const app = await openApp();
  try {
    await app.page.getByTestId('sample-ghc').click();
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.equal(await app.page.getByTestId('detected-format').textContent(), 'ghc-eventlog');
    assert.equal(Number(await app.page.getByTestId('ghc-events').textContent()), cli.ghc.events);
    assert.equal(Number(await app.page.getByTestId('ghc-threads').textContent()), cli.ghc.threads);
    const all = cli.ghc.gc.find((r) => r.generation === 'all');
    assert.equal(Number(await app.page.getByTestId('ghc-gc-count').textContent()), all.count);
    // The timeline: capability lanes first, bars drawn, the heap under it; no path toggle.
    await app.page.locator('.chart .bars path').first().waitFor();
    const lanes = await app.page.locator('.chart .lanes text').allTextContents();
    assert.ok(lanes[0].startsWith('cap 0'), `lanes: ${lanes}`);
    await app.page.getByTestId('heap-chart').waitFor();
    assert.equal(await app.page.getByTestId('show-blocking-chain').count(), 0);
    assert.equal(await app.page.getByTestId('tab-graph').count(), 0);
    // The left panel lists the longest spans; a click selects one.
    await app.page.locator('.path-list .step').first().click();
    await app.page.getByTestId('details-uid').waitFor();
    // The tables.
    await app.page.getByTestId('tab-tables').click();
    const gcRows = await app.page.getByTestId('table-gc').locator('tbody tr').count();
    assert.equal(gcRows, cli.ghc.gc.length);
    assert.equal(await app.page.getByTestId('table-threads').locator('tbody tr').count(), cli.ghc.threads);
    assert.equal(await app.page.getByTestId('table-marks').locator('tbody tr').count(), cli.ghc.marks);
    const [csv] = await Promise.all([app.page.waitForEvent('download'), app.page.getByTestId('export-gc-csv').click()]);
    assert.match(readFileSync(await csv.path(), 'utf8'), /^generation,collections,total pause,longest pause,mean pause,copied\r\n/);
    // The report.
    await app.page.getByTestId('tab-report').click();
    // The report says first that an eventlog records no dependencies, then reports the run.
    assert.match(await app.page.getByTestId('report-text').textContent(), /^No critical path: A GHC eventlog records .*\n\nGHC eventlog: /);
    assert.deepEqual(app.errors, []);
    assert.deepEqual(app.foreignRequests(), []);
  } finally {
    await app.close();
  }
});

test('a multi-capability eventlog gets one lane per capability and exports its timeline as SVG', async () => {
  const app = await openApp();
  try {
    await app.page.getByTestId('sample-ghc-parallel').click();
    await app.page.getByTestId('analysis-ready').waitFor();
    const lanes = await app.page.locator('.chart .lanes text').allTextContents();
    const caps = lanes.filter((l) => l.startsWith('cap '));
    assert.ok(caps.length >= 2, `lanes: ${lanes}`);
    const [download] = await Promise.all([app.page.waitForEvent('download'), app.page.getByTestId('export-timeline-svg').click()]);
    const text = readFileSync(await download.path(), 'utf8');
    assert.match(text, /cap 1/);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});

test('a cut eventlog shows what came before the cut, and says where it was cut', async () => {
  const app = await openApp();
  try {
    await app.page.getByTestId('file-input').setInputFiles(join(CORPUS, 'testlog-part.eventlog'));
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.equal(Number(await app.page.getByTestId('ghc-events').textContent()), 718);
    await app.page.getByTestId('tab-diagnostics').click();
    assert.match(await app.page.locator('.diagnostics').textContent(), /ghc-eventlog\.truncated/);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});
