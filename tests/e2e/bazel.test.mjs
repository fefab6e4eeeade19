// A Bazel profile in Chromium: the critical path is Bazel's own, each
// component on the action it names. The components are read here from the
// sample itself (gunzip, JSON, the `critical path component` events in file
// order), apart from the app and the CLI; the app must list them on the
// left on their evaluator thread, outline and join them on the timeline,
// total them as Bazel does, and show the summary and suggestions.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { cliJson, openApp, ROOT } from './harness.mjs';

const SAMPLE = join(ROOT, 'samples', 'bazel-tiny.json.gz');

function components() {
  const doc = JSON.parse(gunzipSync(readFileSync(SAMPLE)).toString());
  const events = doc.traceEvents.filter((e) => e.cat === 'critical path component');
  return {
    descriptions: events.map((e) => e.name.replace(/^action '(.*)'$/, '$1')),
    totalUs: events.reduce((s, e) => s + e.dur, 0),
  };
}

test('a Bazel profile shows Bazel\'s critical path on its actions', async () => {
  const want = components();
  assert.ok(want.descriptions.length >= 2);
  const cli = cliJson(SAMPLE);
  assert.deepEqual(cli.critical_path.tasks.map((t) => t.uid), want.descriptions);
  const app = await openApp();
  try {
    await app.page.getByTestId('sample-chrome-bazel').click();
    await app.page.getByTestId('analysis-ready').waitFor();
    // Bazel's order, each step's uid the action's description, Bazel's total.
    const uids = await app.page.getByTestId('critical-path-task').evaluateAll((els) => els.map((e) => e.dataset.uid));
    assert.deepEqual(uids, want.descriptions);
    assert.equal(await app.page.getByTestId('critical-path-total-ms').textContent(), String(Math.floor(want.totalUs / 1000)));
    // The left panel lists the actions, on their evaluator threads.
    const steps = app.page.locator('.path-list .step');
    assert.equal(await steps.count(), want.descriptions.length);
    for (let i = 0; i < want.descriptions.length; i++) {
      assert.equal(await steps.nth(i).locator('.name').textContent(), want.descriptions[i]);
      assert.match(await steps.nth(i).locator('.host').textContent(), /skyframe-evaluator/);
    }
    // The timeline outlines each action and joins them.
    const outlined = app.page.locator('.chart rect.path-step');
    await outlined.first().waitFor();
    const tips = await outlined.evaluateAll((els) => els.map((e) => e.dataset.tip.split(' · ')[0]));
    assert.deepEqual(tips, want.descriptions);
    assert.ok(await app.page.locator('.chart .path-arrow').count() >= 1);
    // A click on an outline (the bar under it takes the pointer) selects that action, on the critical path.
    const box = await outlined.first().boundingBox();
    await app.page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await app.page.getByTestId('details-uid').waitFor();
    assert.equal(await app.page.getByTestId('details-uid').textContent(), want.descriptions[0]);
    assert.equal(await app.page.getByTestId('details-on-path').textContent(), 'on it ✓');
    // The summary: suggestions in plain words, the load against the jobs, the tables.
    const ids = await app.page.getByTestId('bazel-suggestions').locator('li').evaluateAll((els) => els.map((e) => e.dataset.id));
    assert.deepEqual(ids, cli.bazel.suggestions.map((s) => s.id));
    await app.page.getByTestId('bazel-load').waitFor();
    assert.match(await app.page.getByTestId('bazel-facts').textContent(), new RegExp(`--jobs at least ${cli.bazel.cores.jobs_at_least}`));
    await app.page.getByTestId('tab-tables').click();
    const phases = await app.page.getByTestId('table-bazel-phases').locator('tbody tr').count();
    assert.equal(phases, cli.bazel.phases.length);
    await app.page.getByTestId('table-bazel-mnemonics').waitFor();
    await app.page.getByTestId('tab-report').click();
    assert.match(await app.page.getByTestId('report-text').textContent(), /=== PHASE SUMMARY INFORMATION ===/);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});

// Bazel's remote-execution spans overlap without nesting: an `execute
// remotely` starts inside its `queue` and ends after it. Each slice must be
// drawn from its ts for its dur: the details say its dur, and the selected
// bar's width is its dur at the one scale of the chart.
const OVERLAPPING = {
  traceEvents: [
    { name: 'thread_name', ph: 'M', pid: 1, tid: 10, args: { name: 'skyframe-evaluator 0' } },
    { cat: 'build phase marker', name: 'Build artifacts', ph: 'i', ts: 0, pid: 1, tid: 2 },
    { cat: 'action processing', name: 'Compiling a.cc', ph: 'X', ts: 0, dur: 20000000, pid: 1, tid: 10, args: { mnemonic: 'CppCompile' } },
    { cat: 'Remote execution queuing time', name: 'queue', ph: 'X', ts: 1000000, dur: 4000000, pid: 1, tid: 10 },
    { cat: 'remote action execution', name: 'execute remotely', ph: 'X', ts: 4000000, dur: 12000000, pid: 1, tid: 10 },
    { cat: 'critical path component', name: "action 'Compiling a.cc'", ph: 'X', ts: 0, dur: 20000000, pid: 1, tid: 0 },
    { cat: 'build phase marker', name: 'Complete build', ph: 'i', ts: 30000000, pid: 1, tid: 2 },
  ],
};

test('no slice of a Bazel profile is drawn longer than its dur', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'bazel-')), 'overlap.json');
  writeFileSync(path, JSON.stringify(OVERLAPPING));
  const slices = OVERLAPPING.traceEvents.filter((e) => e.cat && e.ph === 'X' && e.tid === 10);
  const app = await openApp();
  try {
    await app.page.getByTestId('file-input').setInputFiles(path);
    await app.page.getByTestId('analysis-ready').waitFor();
    const widths = [];
    for (const e of slices) {
      await app.page.getByTestId('tab-tables').click();
      const cell = app.page.getByRole('cell', { name: e.name, exact: true });
      await app.page.getByTestId('table-longest').locator('tbody tr').filter({ has: cell }).first().click();
      await app.page.getByTestId('tab-timeline').click();
      assert.equal(await app.page.getByTestId('details-uid').textContent(), e.name);
      assert.equal(await app.page.getByTestId('details-duration').textContent(), `${e.dur / 1e6} s`);
      const rect = app.page.locator('.chart rect.bar.selected');
      await rect.waitFor();
      widths.push(Number(await rect.getAttribute('width')) / e.dur);
    }
    // One scale: px per µs the same for every slice (to a pixel of the shortest).
    const shortest = Math.min(...slices.map((e) => e.dur));
    for (const w of widths) assert.ok(Math.abs(w - widths[0]) * shortest <= 1, `widths per µs ${widths}`);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});
