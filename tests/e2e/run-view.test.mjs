// The run screen on a distbuild log with its graph.json: the same critical
// path and totals as the CLI, details on click, an SVG export that parses,
// and hostile names that stay text.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cliJson, openApp, ROOT } from './harness.mjs';

const LOG = join(ROOT, 'samples', 'simulated-build.log.gz');
const GRAPH = join(ROOT, 'samples', 'simulated-build.graph.json.gz');


/** Drops `files` and checks the totals and ya's path against the CLI's for `cliFiles`. */
async function showsTheCliPath(files, cliFiles = files) {
  const cli = cliJson(...cliFiles);
  const app = await openApp();
  try {
    await app.page.getByTestId('file-input').setInputFiles(files);
    await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    assert.equal(await app.page.getByTestId('detected-format').textContent(), 'distbuild');
    assert.equal(Number(await app.page.getByTestId('critical-path-total-ms').textContent()), cli.critical_path.total_ms);
    assert.equal(Number(await app.page.getByTestId('blocking-chain-total-ms').textContent()), cli.blocking_chain.total_ms);
    for (const kind of ['run', 'copy', 'prepare']) {
      assert.equal(Number(await app.page.getByTestId(`task-count-${kind}`).textContent()), cli.tasks[kind], kind);
    }
    const steps = await app.page.getByTestId('critical-path-task').evaluateAll((els) => els.map((e) => [e.dataset.kind, e.dataset.uid]));
    const want = cli.critical_path.tasks.map((t) => [t.kind, t.kind === 'prepare' ? t.type : t.uid]);
    assert.deepEqual(steps, want);
    // The facts stay in the DOM whichever tab is open.
    await app.page.getByTestId('tab-tables').click();
    assert.equal(await app.page.getByTestId('critical-path-task').count(), want.length);
    assert.deepEqual(app.errors, []);
    assert.deepEqual(app.foreignRequests(), []);
    return await app.page.locator('.headline').textContent();
  } finally {
    await app.close();
  }
}

/** A simulated build of `nodes` nodes in the temp directory: [log, graph]. */
function simulated(nodes) {
  const dir = mkdtempSync(join(tmpdir(), 'longpole-sim-'));
  const [log, graph] = [join(dir, `build-${nodes}.log`), join(dir, `build-${nodes}.graph.json`)];
  execFileSync('cargo', ['run', '--quiet', '-p', 'longpole-distbuild-sim', '--', '--nodes', String(nodes), '--hosts', '40', '--log', log, '--graph', graph], { cwd: ROOT });
  return [log, graph];
}

test('a log dropped with its graph.json shows the CLI\'s critical path and totals', async () => {
  await showsTheCliPath([GRAPH, LOG], [LOG, GRAPH]);
});

test('a big graph.json read by a second worker gives the same path as the CLI', async () => {
  // 40,000 nodes: a 17 MB graph, over the size a second worker reads.
  const [log, graph] = simulated(40_000);
  assert.ok(statSync(graph).size >= 16 << 20);
  try {
    const headline = await showsTheCliPath([log, graph]);
    assert.match(headline, /build-40000\.log \+ build-40000\.graph\.json/);
  } finally {
    rmSync(dirname(log), { recursive: true, force: true });
  }
});

test('a big extra file that is not a graph is handed back and read in place', async () => {
  // Two logs: the second worker sees a distbuild log, not a graph, and refuses it.
  const [big, bigGraph] = simulated(40_000);
  const [small, smallGraph] = simulated(16_000);
  assert.ok(statSync(small).size >= 16 << 20);
  const app = await openApp();
  try {
    await app.page.getByTestId('file-input').setInputFiles([big, small]);
    await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    const cli = cliJson(big);
    assert.equal(Number(await app.page.getByTestId('critical-path-total-ms').textContent()), cli.critical_path.total_ms);
    assert.match(await app.page.locator('.headline').textContent(), /build-40000\.log \+ build-16000\.log/);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
    for (const f of [big, bigGraph, small, smallGraph]) rmSync(dirname(f), { recursive: true, force: true });
  }
});

test('clicking a task of the critical path shows its details', async () => {
  const app = await openApp();
  try {
    await app.page.getByTestId('sample-distbuild').click();
    await app.page.getByTestId('analysis-ready').waitFor();
    const uid = await app.page.getByTestId('critical-path-task').nth(2).getAttribute('data-uid');
    await app.page.locator('.path-list .step').nth(2).click();
    await app.page.getByTestId('details-uid').waitFor();
    assert.equal(await app.page.getByTestId('details-uid').textContent(), uid);
    assert.equal(await app.page.getByTestId('details-on-path').textContent(), 'on it ✓');
    // A bar of the chart selects too.
    await app.page.locator('.chart .bar').first().click();
    await app.page.waitForFunction(() => document.querySelector('[data-testid="details-uid"]')?.textContent !== undefined);
    await app.page.keyboard.press('Escape');
    await app.page.getByText('Click a task to see its details.').waitFor();
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});

test('the timeline exports as an SVG file that parses as XML', async () => {
  const app = await openApp();
  try {
    await app.page.getByTestId('sample-distbuild').click();
    await app.page.getByTestId('analysis-ready').waitFor();
    const [download] = await Promise.all([app.page.waitForEvent('download'), app.page.getByTestId('export-timeline-svg').click()]);
    const text = readFileSync(await download.path(), 'utf8');
    assert.match(text, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const ok = await app.page.evaluate((svg) => {
      const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
      return doc.getElementsByTagName('parsererror').length === 0 && doc.documentElement.nodeName === 'svg';
    }, text);
    assert.ok(ok, 'the export parses as SVG');
    assert.equal(download.suggestedFilename(), 'longpole-timeline.svg');
    const [csv] = await Promise.all([
      app.page.waitForEvent('download'),
      app.page.getByTestId('tab-tables').click().then(() => app.page.getByTestId('export-longest-csv').click()),
    ]);
    assert.match(readFileSync(await csv.path(), 'utf8'), /^duration,type,uid,name,host,started,finished\r\n/);
  } finally {
    await app.close();
  }
});

test('hostile uids and hosts stay text: no script runs, no element is injected', async () => {
  const path = join(tmpdir(), `longpole-xss-${process.pid}.log`);
  const evil = '<script>window.__pwned=1</script>';
  const host = '"><img_src=x_onerror=window.__pwned=2>';
  writeFileSync(path, [
    '1000 prepare_start  7',
    '1100 resources_prepared  7',
    `1200 deploy ${evil} 7 1`,
    `1300 started ${evil} ${host}`,
    `1400 finished ${evil} ${host} OK 1`,
    '',
  ].join('\n'));
  const app = await openApp();
  let dialogs = 0;
  app.page.on('dialog', (d) => { dialogs += 1; d.dismiss(); });
  try {
    await app.page.getByTestId('file-input').setInputFiles(path);
    await app.page.getByTestId('analysis-ready').waitFor();
    await app.page.locator('.path-list .step').last().click();
    await app.page.getByTestId('details-uid').waitFor();
    assert.equal(await app.page.getByTestId('details-uid').textContent(), evil);
    await app.page.getByTestId('tab-tables').click();
    await app.page.getByTestId('tab-report').click();
    assert.ok((await app.page.getByTestId('report-text').textContent()).includes(evil));
    assert.equal(await app.page.evaluate(() => window.__pwned), undefined);
    assert.equal(await app.page.locator('img').count(), 0);
    assert.equal(await app.page.locator('.run script').count(), 0);
    assert.equal(dialogs, 0);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
    rmSync(path, { force: true });
  }
});

test('the dependency graph shows the path, folds big graphs, unfolds on click, and exports', async () => {
  const app = await openApp();
  try {
    await app.page.getByTestId('sample-distbuild').click();
    await app.page.getByTestId('analysis-ready').waitFor();
    await app.page.getByTestId('tab-graph').click();
    await app.page.locator('.graph[data-scale]').waitFor();
    // The view draws what it shows: Fit shows every node, groups included.
    await app.page.getByTestId('graph-fit').click();
    const pathNodes = await app.page.locator('.graph .node.on-path').count();
    const pathLength = await app.page.getByTestId('critical-path-task').count();
    assert.equal(pathNodes, pathLength, 'every step of the path is a highlighted node');
    const before = await app.page.getByTestId('graph-summary').textContent();
    assert.match(before, /tasks folded into groups/);
    await app.page.locator('.graph .node.group').first().click({ force: true });
    await app.page.waitForFunction((b) => document.querySelector('[data-testid="graph-summary"]')?.textContent !== b, before);
    const uid = await app.page.getByTestId('critical-path-task').nth(1).getAttribute('data-uid');
    // The unfolded layout is bigger: Fit again, then click a path step.
    await app.page.getByTestId('graph-fit').click();
    await app.page.locator('.graph .node.on-path[data-task]').first().dispatchEvent('click');
    await app.page.getByTestId('details-uid').waitFor();
    const [download] = await Promise.all([app.page.waitForEvent('download'), app.page.getByTestId('export-graph-svg').click()]);
    const text = readFileSync(await download.path(), 'utf8');
    const ok = await app.page.evaluate((svg) => new DOMParser().parseFromString(svg, 'image/svg+xml').getElementsByTagName('parsererror').length === 0, text);
    assert.ok(ok);
    assert.equal(download.suggestedFilename(), 'longpole-graph.svg');
    assert.ok(uid);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});

test('the URL hash keeps the sample, the tab, the window and the selection across a reload', async () => {
  const app = await openApp();
  try {
    await app.page.getByTestId('sample-distbuild-tiny').click();
    await app.page.getByTestId('analysis-ready').waitFor();
    await app.page.locator('.path-list .step').nth(1).click();
    await app.page.getByTestId('details-uid').waitFor();
    await app.page.keyboard.press('w');
    await app.page.getByTestId('tab-tables').click();
    await app.page.waitForFunction(() => /^#src=samples\/.*&v=1&tab=tables&window=.*&uid=/.test(location.hash));
    const hash = await app.page.evaluate(() => location.hash);
    // The link names the sample by its URL: the reload opens it again.
    await app.page.reload();
    await app.page.getByTestId('analysis-ready').waitFor();
    await app.page.getByTestId('details-uid').waitFor();
    assert.equal(await app.page.getByTestId('tab-tables').getAttribute('aria-selected'), 'true');
    assert.equal(await app.page.evaluate(() => location.hash), hash);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});
