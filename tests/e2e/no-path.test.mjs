// No invented critical path: a log that records no dependencies (a Chrome
// trace without flows, a ninja log, a GHC eventlog, an evobench log) says so
// in one line, lists its longest spans instead, and offers neither path
// toggles nor a Graph tab; a log with dependencies keeps them. The CLI's
// JSON says the same.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cliJson, openApp, ROOT } from './harness.mjs';

const WITHOUT = [
  ['chrome', 'chrome-x_event_trace.json.gz', /^This trace has no flow events: it records no dependencies, so there is no critical path\.$/],
  ['ninja', 'ninja-kati.ninja_log', /^A \.ninja_log records when each edge ran, not what it waited for/],
  ['ghc-parallel', 'ghc-testlog.eventlog', /^A GHC eventlog records when each thread ran/],
  ['evobench', 'evobench-sum_of_fibs.log.zstd', /^An evobench log records how long each probe took/],
];

test('logs without dependencies claim no path, in the app and the CLI', async () => {
  const app = await openApp();
  try {
    for (const [sample, file, reason] of WITHOUT) {
      const cli = cliJson(join(ROOT, 'samples', file));
      assert.equal(cli.critical_path, null, file);
      assert.equal(cli.blocking_chain, null, file);
      assert.match(cli.no_path_reason, reason, file);
      await app.page.goto(`${app.origin}/`);
      await app.page.getByTestId(`sample-${sample}`).click();
      await app.page.getByTestId('analysis-ready').waitFor();
      const line = await app.page.getByTestId('no-path').textContent();
      // The reason, then what stands in for the path.
      assert.ok(line.startsWith(`${cli.no_path_reason} Shown instead: the longest spans, and the busiest lane, ${cli.busiest_lane.name} (`), line);
      assert.equal(await app.page.getByTestId('tab-graph').count(), 0, sample);
      assert.equal(await app.page.getByTestId('show-critical-path').count(), 0, sample);
      assert.equal(await app.page.getByTestId('show-blocking-chain').count(), 0, sample);
      assert.equal(await app.page.locator('.path-list h2').first().textContent().then((t) => t.startsWith('Longest spans')), true, sample);
    }
    // A log with dependencies keeps its path, toggles and graph.
    await app.page.goto(`${app.origin}/`);
    await app.page.getByTestId('sample-distbuild').click();
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.equal(await app.page.getByTestId('no-path').count(), 0);
    assert.equal(await app.page.getByTestId('tab-graph').count(), 1);
    assert.equal(await app.page.getByTestId('show-blocking-chain').count(), 1);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});
