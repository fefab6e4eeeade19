// Comparing two runs in the browser, checked against `longpole compare
// --format json` on the same files: two simulated builds (the same graph,
// another schedule and jitter, three nodes slowed tenfold) picked as sides
// A and B on the landing page (with the two timelines' linked selection
// and shared zoom), two big ones (20,000 nodes: the timelines culled by
// pixel in time and rows, zoomed by keys, wheel, drag and buttons),
// and kati's ninja log build 2 against build 3
// through "Compare with…" on the loaded log, then a pick of runs; and the
// two evobench logs, with their differential flame graph in each measure.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORPUS, openApp, ROOT } from './harness.mjs';

/** What `longpole compare A... --vs B... --format json` prints. */
function cliCompare(a, b) {
  const args = ['run', '--quiet', '-p', 'longpole-cli', '--', 'compare', ...a, '--vs', ...b, '--format', 'json'];
  return JSON.parse(execFileSync('cargo', args, { cwd: ROOT, maxBuffer: 256 << 20 }).toString());
}

/**
 * The evobench statistics of `file` as `longpole export --to csv` writes
 * them: each `A:` path's sum by `kind path` (`cpu_us A:thread`).
 */
function cliStatistics(file) {
  const dir = mkdtempSync(join(tmpdir(), 'longpole-statistics-'));
  try {
    const out = join(dir, 'statistics.csv');
    execFileSync('cargo', ['run', '--quiet', '-p', 'longpole-cli', '--', 'export', '--to', 'csv', '-o', out, file], { cwd: ROOT });
    const sums = new Map();
    for (const line of readFileSync(out, 'utf8').split('\n').slice(1)) {
      const [kind, mode, path, , sum] = line.split(',');
      if (mode === 'A' && sum !== '') sums.set(`${kind} ${path}`, Number(sum));
    }
    return sums;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes one run of a simulated build (300 nodes, a slot for each) into `dir`. */
function simulate(dir, name, rerun, slow) {
  const [log, graph] = [join(dir, `${name}.log`), join(dir, `${name}.graph.json`)];
  const args = ['--nodes', '300', '--hosts', '38', '--slots', '8', '--seed', '3', '--cache-hits', '0', '--failures', '0',
    '--rerun', String(rerun), '--jitter', '0.002', ...slow.flatMap((s) => ['--slow', s]), '--log', log, '--graph', graph];
  execFileSync('cargo', ['run', '--quiet', '-p', 'longpole-distbuild-sim', '--', ...args], { cwd: ROOT });
  return [log, graph];
}

/**
 * Asserts `actual` is `expected`, numbers within a relative 1e-9 (the
 * browser's WebAssembly and the native CLI may round a logarithm apart).
 */
function assertClose(actual, expected, path = '') {
  if (typeof expected === 'number' && typeof actual === 'number') {
    assert.ok(Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)), `${path}: ${actual} is not ${expected}`);
  } else if (expected && typeof expected === 'object') {
    assert.equal(typeof actual, 'object', path);
    assert.deepEqual(Object.keys(actual ?? {}).sort(), Object.keys(expected).sort(), path);
    for (const k of Object.keys(expected)) assertClose(actual[k], expected[k], `${path}.${k}`);
  } else {
    assert.equal(actual, expected, path);
  }
}

/**
 * Waits until the compare screen's sides are exactly `a` and `b` (a run's
 * name each): a name that is only among a side's several runs does not count.
 */
async function sidesName(page, a, b) {
  const want = `A (before): ${a}B (after): ${b}`;
  await page.waitForFunction((w) => document.querySelector('[data-testid="compare-side-names"]')?.textContent === w, want);
}

/** The number in a test id's `data-ms` (or another data attribute). */
async function dataNumber(page, testid, attr = 'data-ms') {
  return Number(await page.getByTestId(testid).getAttribute(attr));
}

/** Clicks `bar` (a press and release in place, as a click that is not a drag). */
async function clickBar(bar) {
  await bar.dispatchEvent('mousedown', { button: 0, clientX: 500 });
  await bar.dispatchEvent('mouseup', { button: 0, clientX: 500 });
}

/** The window of the two timelines: [from ms, to ms, top, bottom]. */
async function windowOf(page) {
  const svg = page.locator('svg.compare-timeline');
  return Promise.all(['data-from-ms', 'data-to-ms', 'data-top', 'data-bottom'].map(async (a) => Number(await svg.getAttribute(a))));
}

/** Does `act` and waits for another window of the timelines. */
async function stepWindow(page, act) {
  const was = (await windowOf(page)).join();
  await act();
  await page.waitForFunction((w) => {
    const d = document.querySelector('svg.compare-timeline')?.dataset;
    return d && [d.fromMs, d.toMs, d.top, d.bottom].map(Number).join() !== w;
  }, was);
  return windowOf(page);
}

/** Checks the compare screen's headline, aligned paths and first row against the CLI's JSON. */
async function checkAgainst(page, cli) {
  assert.equal(await dataNumber(page, 'compare-wall', 'data-delta-ms'), cli.wall_ms.delta);
  assert.equal(await dataNumber(page, 'compare-part-shared'), cli.attribution.shared_path_ms);
  assert.equal(await dataNumber(page, 'compare-part-changes'), cli.attribution.path_changes_ms);
  assert.equal(await dataNumber(page, 'compare-part-waiting'), cli.attribution.waiting_ms);
  assert.ok(Math.abs((await dataNumber(page, 'compare-part-sum')) - cli.wall_ms.delta) < 1e-6, 'the parts add up');
  assert.equal(await dataNumber(page, 'compare-what-if'), cli.attribution.explained_by_durations_ms);
  const steps = page.getByTestId('compare-step');
  const shown = await steps.evaluateAll((rows) => rows.map((r) => [r.dataset.key, r.dataset.on]));
  assert.deepEqual(shown, cli.critical_path.aligned.slice(0, 300).map((s) => [s.key, s.on]));
  const critical = cli.critical_path.aligned.slice(0, 300).filter((s) => s.newly_critical).length;
  assert.equal(await page.getByTestId('newly-critical').count(), critical);
  const first = page.getByTestId('table-compare-tasks').locator('tbody tr').first().locator('td');
  assert.ok((await first.nth(1).textContent()).startsWith(cli.tasks[0].key));
  assert.equal(await first.nth(2).textContent(), cli.tasks[0].status);
}

/** Waits until the comparison's table shows the rows last asked of the worker. */
async function tableSettled(page) {
  await page.waitForFunction(() => document.querySelector('[data-testid="table-compare-tasks"]')?.getAttribute('aria-busy') === 'false');
}

/**
 * The comparison's table stays in the worker: a search, a sort, "show
 * more" and the CSV export ask it for rows, checked against the CLI's
 * JSON of the same comparison (its `tasks`, ranked as the table's natural
 * order).
 */
async function checkTable(page, cli) {
  const table = page.getByTestId('table-compare-tasks');
  const count = async () => Number((await table.locator('h3 .muted').textContent()).replace(/[^0-9]/g, ''));
  assert.equal(await count(), cli.tasks.length);
  assert.equal(await table.locator('tbody tr').count(), Math.min(200, cli.tasks.length));
  await page.getByTestId('more-compare-tasks').click();
  await tableSettled(page);
  assert.equal(await table.locator('tbody tr').count(), Math.min(400, cli.tasks.length));
  const keys = async () => (await table.locator('tbody tr td:nth-child(2)').allTextContents());
  assert.deepEqual((await keys()).slice(0, 400), cli.tasks.slice(0, 400).map((t) => t.key));
  // Sorted by Δ, descending: the CLI's largest delta first.
  const delta = table.locator('thead th button').nth(6);
  assert.equal(await delta.textContent(), 'Δ');
  await delta.click();
  await tableSettled(page);
  const byDelta = [...cli.tasks].sort((x, y) => y.delta_ms - x.delta_ms);
  assert.equal((await keys())[0], byDelta[0].key);
  // A search keeps the keys that contain it, in the same order.
  const needle = cli.tasks[7].key.split('/').pop().toLowerCase();
  await page.getByTestId('table-search').fill(needle);
  await tableSettled(page);
  const kept = byDelta.filter((t) => t.key.toLowerCase().includes(needle));
  assert.equal(await count(), kept.length);
  assert.deepEqual(await keys(), kept.slice(0, 400).map((t) => t.key));
  // The CSV holds every row the search keeps, in the shown order.
  const downloaded = page.waitForEvent('download');
  await page.getByTestId('export-compare-tasks-csv').click();
  const lines = readFileSync(await (await downloaded).path(), 'utf8').trim().split('\n');
  assert.equal(lines.length, kept.length + 1);
  assert.ok(lines[1].includes(kept[0].key), lines[1]);
  await page.getByTestId('table-search').fill('');
  await delta.click();
  await tableSettled(page);
}

test('two simulated builds compare in the browser as the CLI compares them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'longpole-compare-'));
  const app = await openApp();
  try {
    const a = simulate(dir, 'a', 101, []);
    const b = simulate(dir, 'b', 201, ['20:10', '150:10', '290:10']);
    const cli = cliCompare(a, b);
    assert.ok(cli.wall_ms.delta > 0, 'the slowed build is slower');
    await app.page.getByTestId('compare-a-input').setInputFiles(a);
    await app.page.getByTestId('compare-b-input').setInputFiles(b);
    await app.page.getByTestId('compare-sides-go').click();
    await app.page.getByTestId('compare-ready').waitFor({ timeout: 60000 });
    await checkAgainst(app.page, cli);
    // The timelines follow the screen, once every task's is built.
    await app.page.locator('svg.compare-timeline').waitFor();
    // A task clicked in A's timeline is found in B's as well.
    await clickBar(app.page.locator('svg.compare-timeline g.side').first().locator('rect.bar[data-key]').first());
    await app.page.getByTestId('compare-timeline-selected').waitFor();
    const hot = app.page.locator('svg.compare-timeline g.side');
    assert.ok((await hot.nth(0).locator('rect.bar.hot').count()) >= 1);
    assert.ok((await hot.nth(1).locator('rect.bar.hot').count()) >= 1, 'the same key is lit in B');
    await checkTable(app.page, cli);
    // Zooming moves both timelines' window at once: the middle half, every
    // bar within the time axis (150 to 1000 px), then the whole again.
    const svg = app.page.locator('svg.compare-timeline');
    const [zero, whole] = await windowOf(app.page);
    assert.equal(zero, 0);
    const [from, to] = await stepWindow(app.page, () => app.page.getByTestId('compare-zoom-in').click());
    assertClose(from, whole / 4);
    assertClose(to, (3 * whole) / 4);
    const edges = await svg.locator('rect.bar').evaluateAll((rs) => rs.map((r) => [Number(r.getAttribute('x')), Number(r.getAttribute('width'))]));
    assert.ok(edges.length > 0);
    for (const [x, w] of edges) assert.ok(x >= 149.9 && x + w <= 1000.6, `a bar at ${x}, ${w} px`);
    for (const [d, n] of await svg.locator('path.bar.merged').evaluateAll((ps) => ps.map((p) => [p.getAttribute('d'), Number(p.dataset.tasks)]))) {
      assert.ok(d === '' ? n === 0 : n >= 2 * d.split('M').length - 2, 'each merged bar stands for several tasks');
    }
    assert.deepEqual(await stepWindow(app.page, () => app.page.getByTestId('compare-zoom-whole').click()), [0, whole, 0, 1]);
    await app.page.screenshot({ path: '/tmp/longpole-compare.png', fullPage: true });
    await app.page.screenshot({ path: '/tmp/longpole-compare-top.png', clip: { x: 0, y: 0, width: 1280, height: 1300 }, fullPage: true });
    // The export is the CLI's JSON, but for the runs' names (a browser
    // knows a file by its name only).
    const downloaded = app.page.waitForEvent('download');
    await app.page.getByTestId('export-compare-json').click();
    const exported = JSON.parse(readFileSync(await (await downloaded).path(), 'utf8'));
    assert.deepEqual(exported.runs.a, ['a.log']);
    delete exported.runs;
    delete cli.runs;
    assertClose(exported, cli);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('two big simulated builds: both timelines culled by pixel in time and rows, zoomed together, selection linked', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'longpole-compare-big-'));
  const app = await openApp();
  try {
    // 20,000 nodes on 401 hosts of 8 slots: thousands of rows a side.
    const sim = (name, rerun, slow) => {
      const [log, graph] = [join(dir, `${name}.log`), join(dir, `${name}.graph.json`)];
      const args = ['--nodes', '20000', '--hosts', '401', '--slots', '8', '--seed', '5', '--rerun', String(rerun), '--jitter', '0.02',
        ...slow, '--log', log, '--graph', graph];
      execFileSync('cargo', ['run', '--quiet', '--release', '-p', 'longpole-distbuild-sim', '--', ...args], { cwd: ROOT });
      return [log, graph];
    };
    const [a, b] = [sim('a', 1, []), sim('b', 2, ['--slow', '7:3'])];
    const tasksOf = (files) => {
      const out = execFileSync('cargo', ['run', '--quiet', '-p', 'longpole-cli', '--', 'analyze', '--format', 'json', ...files], { cwd: ROOT, maxBuffer: 256 << 20 });
      const t = JSON.parse(out.toString()).tasks;
      return t.run + t.copy + t.prepare;
    };
    const cli = cliCompare(a, b);
    await app.page.getByTestId('compare-a-input').setInputFiles(a);
    await app.page.getByTestId('compare-b-input').setInputFiles(b);
    await app.page.getByTestId('compare-sides-go').click();
    await app.page.getByTestId('compare-ready').waitFor({ timeout: 120000 });
    await app.page.locator('svg.compare-timeline').waitFor();
    assert.equal(await dataNumber(app.page, 'compare-wall', 'data-delta-ms'), cli.wall_ms.delta);
    const sides = app.page.locator('svg.compare-timeline g.side');
    const side = async (i) => {
      const g = sides.nth(i);
      // Bars of one task each are rectangles; merged ones are one path, their tasks counted on it.
      const single = await g.locator('rect.bar:not(.marked)').count();
      const merged = Number(await g.locator('path.bar.merged').getAttribute('data-tasks'));
      return {
        rows: Number(await g.getAttribute('data-rows')),
        packed: Number(await g.getAttribute('data-packed')),
        tasks: Number(await g.getAttribute('data-tasks')),
        counted: single + merged,
        elements: await g.locator('*').count(),
      };
    };
    // The whole runs: rows packed into at most 120 rows of pixels, every
    // task counted in the bars (the CLI's count of the run's tasks), and
    // far fewer elements than tasks.
    const [tasksA, tasksB] = [tasksOf(a), tasksOf(b)];
    for (const [i, tasks] of [[0, tasksA], [1, tasksB]]) {
      const s = await side(i);
      assert.ok(s.rows <= 120 && s.packed > 1, JSON.stringify(s));
      assert.equal(s.tasks, tasks, 'every task is in the window');
      assert.equal(s.counted, tasks, 'every task is counted in a bar');
      assert.ok(s.elements < tasks / 10, `${s.elements} elements for ${tasks} tasks`);
      assert.ok((await sides.nth(i).locator('path.path').getAttribute('d')).startsWith('M'), 'the critical path is drawn on top');
    }
    await app.page.getByTestId('compare-timelines').screenshot({ path: '/tmp/longpole-compare-big-whole.png' });
    // W zooms both into the same window; the wheel over the plot too, around the pointer.
    const [, whole] = await windowOf(app.page);
    const [f1, t1] = await stepWindow(app.page, () => app.page.keyboard.press('w'));
    assertClose(t1 - f1, whole * 0.8);
    await app.page.locator('svg.compare-timeline').scrollIntoViewIfNeeded();
    const box = await app.page.locator('svg.compare-timeline').boundingBox();
    await app.page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2);
    const [f2, t2] = await stepWindow(app.page, () => app.page.mouse.wheel(0, -400));
    assert.ok(t2 - f2 < t1 - f1 && f2 > f1, `the wheel zoomed in towards the right: ${f2}–${t2}`);
    // Dragging pans both to earlier times.
    await app.page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
    await app.page.mouse.down();
    const [f3, t3] = await stepWindow(app.page, () => app.page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2));
    await app.page.mouse.up();
    assert.ok(f3 < f2 && Math.abs(t3 - f3 - (t2 - f2)) < 1e-6 * whole, `dragged to ${f3}–${t3}`);
    // Into the rows: halving the band until no row is packed; then every
    // bar drawn is within the time axis, bars of one task carry their key.
    let band = await windowOf(app.page);
    while ((await side(0)).packed > 1 || (await side(1)).packed > 1) {
      band = await stepWindow(app.page, () => app.page.getByTestId('compare-rows-in').click());
    }
    assert.ok(band[3] - band[2] < 0.1, `rows ${band[2]}–${band[3]}`);
    const edges = await app.page.locator('svg.compare-timeline rect.bar').evaluateAll((rs) => rs.map((r) => [Number(r.getAttribute('x')), Number(r.getAttribute('width'))]));
    for (const [x, w] of edges) assert.ok(x >= 149.9 && x + w <= 1000.6, `a bar at ${x}, ${w} px`);
    // Selection linked both ways: a task of B lights its key in A, one of A in B.
    for (const from of [1, 0]) {
      const bar = sides.nth(from).locator('rect.bar[data-key]:not(.marked)').first();
      const was = await app.page.locator('[data-testid="compare-timeline-selected"]').count() ? await app.page.getByTestId('compare-timeline-selected').textContent() : '';
      await clickBar(bar);
      await app.page.waitForFunction((w) => {
        const t = document.querySelector('[data-testid="compare-timeline-selected"]')?.textContent;
        return t && t !== w;
      }, was);
      const key = (await app.page.getByTestId('compare-timeline-selected').textContent()).split(' — ')[0];
      // The same graph on both sides: the key is in both, as the CLI says, and counted on both.
      assert.ok(cli.tasks.some((t) => t.key === key && t.a_ms !== null && t.b_ms !== null), key);
      assert.match(await app.page.getByTestId('compare-timeline-selected').textContent(), /A: [^;]*\(\d+ tasks?\); B: .*\(\d+ tasks?\)/);
      assert.ok((await sides.nth(from).locator('rect.hot').count()) >= 1, 'lit where clicked');
    }
    await app.page.getByTestId('compare-timelines').screenshot({ path: '/tmp/longpole-compare-big-zoomed.png' });
    // Back to the whole: both runs, every row.
    assert.deepEqual(await stepWindow(app.page, () => app.page.getByTestId('compare-zoom-whole').click()), [0, whole, 0, 1]);
    for (const i of [0, 1]) assert.ok((await sides.nth(i).locator('rect.hot').count()) >= 1, 'the selection is kept and lit on both sides');
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('kati build 2 against build 3 through "Compare with…" and a pick of runs', async () => {
  const kati = join(CORPUS, 'ninja-log', 'kati-v5.ninja_log');
  const cli = cliCompare([`${kati}#2`], [`${kati}#3`]);
  const app = await openApp();
  try {
    await app.page.getByTestId('file-input').setInputFiles(kati);
    await app.page.getByTestId('analysis-ready').waitFor();
    await app.page.keyboard.press('?');
    assert.match(await app.page.getByTestId('help').textContent(), /compare this run/);
    await app.page.keyboard.press('Escape');
    await app.page.getByTestId('compare-input').setInputFiles(kati);
    await app.page.getByTestId('compare-ready').waitFor();
    // All three builds a side at first: tested, with the under-5-runs warning.
    assert.match(await app.page.getByTestId('compare-warnings').textContent(), /fewer than 5 runs a side \(3 and 3\)/);
    // 10 columns (the last: saved if B went back), then the tests' 7 (p, q,
    // test, Welch p, interval, MDE, verdict).
    const headers = app.page.getByTestId('table-compare-tasks').locator('thead th');
    assert.equal(await headers.count(), 17);
    assert.ok((await headers.allTextContents()).some((h) => h.startsWith('Welch p')));
    await app.page.getByTestId('compare-pick-a').selectOption('2');
    await app.page.getByTestId('compare-pick-b').selectOption('3');
    await app.page.getByTestId('compare-apply').click();
    await sidesName(app.page, 'kati-v5.ninja_log#2', 'kati-v5.ninja_log#3');
    await checkAgainst(app.page, cli);
    // A threshold that is not a number is refused in place.
    await app.page.getByTestId('compare-min-relative').fill('lots');
    await app.page.getByTestId('compare-apply').click();
    assert.match(await app.page.getByTestId('compare-refused').textContent(), /not "lots"/);
    await app.page.getByTestId('compare-pick-b').selectOption('1');
    await app.page.getByTestId('compare-min-relative').fill('5');
    await app.page.getByTestId('compare-apply').click();
    await sidesName(app.page, 'kati-v5.ninja_log#2', 'kati-v5.ninja_log#1');
    assert.equal(await app.page.getByTestId('compare-refused').count(), 0);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});

test('two evobench logs compare as the CLI compares them, with a differential flame graph', async () => {
  const a = join(CORPUS, 'evobench', 'bench-v1-sum_of_fibs.log');
  const b = join(CORPUS, 'evobench', 'generated-current-format', 'evobench.log.zstd');
  const cli = cliCompare([a], [b]);
  const app = await openApp();
  try {
    await app.page.getByTestId('compare-a-input').setInputFiles(a);
    await app.page.getByTestId('compare-b-input').setInputFiles(b);
    await app.page.getByTestId('compare-sides-go').click();
    await app.page.getByTestId('compare-ready').waitFor({ timeout: 60000 });
    await checkAgainst(app.page, cli);
    const frames = app.page.locator('svg.compare-flame-svg g.frame');
    assert.ok((await frames.count()) > 1, 'B\'s frames are drawn');
    await frames.nth(1).locator('rect').dispatchEvent('click');
    assert.match(await app.page.getByTestId('compare-flame-selected').textContent(), /total|only in B/);
    // The measure is picked as on the run's flame graph; a frame's totals
    // in each measure are the evaluator's sums of its path on each side
    // (`longpole export --to csv`: kind, mode, path, count, sum).
    const sums = [cliStatistics(a), cliStatistics(b)];
    const selected = app.page.getByTestId('compare-flame-selected');
    const heading = app.page.getByTestId('compare-flame').locator('h3');
    for (const [name, title] of [['real_ns', 'real time'], ['cpu_us', 'cpu time'], ['sys_us', 'sys time']]) {
      await app.page.getByTestId(`compare-flame-kind-${name}`).click();
      await app.page.waitForFunction((t) => document.querySelector('[data-testid="compare-flame"] h3')?.textContent.includes(t), title);
      assert.match(await heading.textContent(), new RegExp(title));
      await frames.nth(2).locator('rect').dispatchEvent('click');
      const path = await selected.getAttribute('data-path');
      assert.equal(path, 'A:thread > main|main');
      assert.equal(Number(await selected.getAttribute('data-a-total')), sums[0].get(`${name} ${path}`), `${name}: A`);
      assert.equal(Number(await selected.getAttribute('data-b-total')), sums[1].get(`${name} ${path}`), `${name}: B`);
    }
    assert.notEqual(sums[1].get('real_ns A:thread > main|main'), sums[1].get('cpu_us A:thread > main|main'));
    await app.page.screenshot({ path: '/tmp/longpole-compare-evobench.png', fullPage: true });
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});
