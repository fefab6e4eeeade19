// A StarRocks query profile in the browser: plan nodes on fragment lanes
// with the critical path over them, the long pole named as ANALYZE PROFILE
// ranks it (the CONNECTOR_SCAN's remote IO on the sample), the operator
// flame graph, where each pipeline's time went, hints, and the CLI's numbers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cliJson, openApp, ROOT } from './harness.mjs';

test('a StarRocks profile names its long pole: the CONNECTOR_SCAN reading remotely', async () => {
  const cli = cliJson(join(ROOT, 'samples', 'starrocks-profile1.txt'));
  // The CLI's answer, read by hand from the profile: __MAX_OF_ScanTime 9m41s
  // (line 1244) plus 1.628529 ms of operator time, of
  // QueryCumulativeOperatorTime 9m41s (line 64).
  const top = cli.starrocks.nodes[0];
  assert.equal(top.name, 'CONNECTOR_SCAN');
  assert.equal(top.plan_node_id, 0);
  assert.equal(top.total_ns, 581_001_628_529);
  const app = await openApp();
  try {
    await app.page.getByTestId('sample-starrocks').click();
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.equal(await app.page.getByTestId('detected-format').textContent(), 'starrocks');
    // The headline names the top node and its share.
    assert.equal(await app.page.getByTestId('long-pole').textContent(),
      'CONNECTOR_SCAN (plan_node_id=0) 9m41s, 100.00% of QueryCumulativeOperatorTime 9m41s');
    // The left panel: the critical path over plan nodes, the scan first,
    // with where its data came from.
    const steps = await app.page.getByTestId('critical-path-task').evaluateAll((els) => els.map((e) => e.dataset.uid));
    assert.deepEqual(steps, cli.critical_path.tasks.map((t) => t.uid));
    assert.equal(steps[0], 'CONNECTOR_SCAN (plan_node_id=0)');
    assert.equal(await app.page.locator('.path-list .step .name').first().textContent(), 'CONNECTOR_SCAN (plan_node_id=0)');
    const note = await app.page.getByTestId('path-note').textContent();
    assert.match(note, /^read 23\.757 GB from remote storage in 179,200 IOs/);
    assert.match(note, /0\.000 B from the local data cache/);
    // The hints, as the CLI gives them: the long pole, then its remote IO;
    // the scan's own pipeline waits on its IO, not upstream.
    await app.page.locator('.chart .bars path').first().waitFor();
    assert.equal(await app.page.getByTestId('pipeline-row').count(), cli.starrocks.pipelines);
    const hints = app.page.getByTestId('hints').locator('li');
    assert.equal(await hints.count(), cli.starrocks_hints.length);
    assert.match(await hints.nth(0).textContent(), /the long pole: CONNECTOR_SCAN \(plan_node_id=0\) takes 9m41s, 100\.00%/);
    assert.equal(await hints.nth(1).getAttribute('data-kind'), 'remote-io');
    assert.match(await hints.nth(1).textContent(), /CompressedBytesReadLocalDisk is 0/);
    const scanPipeline = await hints.evaluateAll((els) => els
      .filter((e) => e.querySelector('strong').textContent === 'Fragment 2 · Pipeline 0')
      .map((e) => e.dataset.kind));
    assert.deepEqual(scanPipeline, ['io']);
    // The operator flame graph and the plan-node graph.
    await app.page.getByTestId('tab-flame').click();
    await app.page.getByTestId('flame-graph').waitFor();
    // Operators weighed as StarRocks accounts them: the scan's IO makes it the hottest frame.
    const hot = await app.page.locator('[data-testid="flame-frame"][data-hot="true"]').evaluateAll((els) => els.map((e) => e.dataset.name));
    assert.equal(hot[hot.length - 1], 'CONNECTOR_SCAN (plan_node_id=0)');
    await app.page.getByTestId('tab-graph').click();
    await app.page.getByTestId('dep-graph').waitFor();
    // The tables: the plan nodes largest first, the operators, the pipelines.
    await app.page.getByTestId('tab-tables').click();
    const nodeRows = app.page.getByTestId('table-nodes').locator('tbody tr');
    assert.equal(await nodeRows.count(), cli.starrocks.nodes.length);
    assert.match(await nodeRows.first().textContent(), /CONNECTOR_SCAN \(plan_node_id=0\).*100\.00%.*red/);
    assert.equal(await app.page.getByTestId('table-operators').locator('tbody tr').count(), cli.starrocks.operators);
    assert.equal(await app.page.getByTestId('table-pipelines').locator('tbody tr').count(), cli.starrocks.pipelines);
    assert.deepEqual(app.errors, []);
    assert.deepEqual(app.foreignRequests(), []);
  } finally {
    await app.close();
  }
});
