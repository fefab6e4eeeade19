// The SQL tab (docs/sql.md): DuckDB-wasm over the run's tables, loaded only
// when the tab first opens. The cookbook's queries (docs/fleet.md) give, in
// the page, the rows DuckDB gives in Python (tests/fleet/sql_rows.py) over
// `longpole export --to parquet` of the same files; a folder of fleet tables
// added on the tab answers them too; an error is DuckDB's own, with its
// position; a result pages, sorts and saves as CSV; a row selects its task;
// a query drawn as a track shows on the timeline and comes back with the link.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { openApp, CORPUS, ROOT } from './harness.mjs';

const PYTHON = join(ROOT, 'target', 'venv-tools', 'bin', 'python');
const SAMPLES = join(ROOT, 'samples');
/** The simulated builds' week, for the cookbook's `current_date` (as tests/fleet/duckdb_test.py). */
const WEEK_END = "DATE '2024-11-25'";

/** The cookbook's queries by name, as docs/fleet.md writes them (the views apart). */
function cookbook() {
  const text = readFileSync(join(ROOT, 'docs', 'fleet.md'), 'utf8');
  const out = {};
  for (const [, name, sql] of text.matchAll(/```sql\n-- cookbook: (\w+)\n([\s\S]*?)```/g)) if (name !== 'views') out[name] = sql;
  return out;
}

/** `longpole export --to parquet` of each group of `files` into one folder. */
function cliExport(tmp, groups) {
  const out = join(tmp, 'fleet');
  groups.forEach((files, i) => {
    const run = join(tmp, `in-${i}`);
    mkdirSync(run, { recursive: true });
    for (const f of files) copyFileSync(f, join(run, basename(f)));
    execFileSync('cargo', ['run', '--quiet', '-p', 'longpole-cli', '--', 'export', run, '--to', 'parquet', '--output', out], { cwd: ROOT });
  });
  return out;
}

/** The cookbook answered by DuckDB in Python over `folder`. */
const pythonRows = (folder) => JSON.parse(execFileSync(PYTHON, [join(ROOT, 'tests', 'fleet', 'sql_rows.py'), folder, WEEK_END]).toString());

/** Runs `sql` on the tab and waits for its answer: the result's rows as text, or the error. */
async function query(page, sql) {
  const answers = Number(await page.getByTestId('sql').getAttribute('data-answers'));
  await page.getByTestId('sql-editor').fill(sql);
  await page.getByTestId('sql-run').click();
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=sql]')?.dataset.answers) > n, answers, { timeout: 60_000 });
  if (await page.getByTestId('sql-error').count()) return { error: await page.getByTestId('sql-error').textContent() };
  const table = page.getByTestId('sql-result');
  const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  return { count: Number(await table.getAttribute('data-row-count')), rows };
}

/** Whether a shown cell is the value DuckDB gave in Python (numbers to 1e-9, NULL, dates as YYYY-MM-DD). */
function same(shown, want) {
  if (want === null) return shown === 'NULL';
  if (typeof want === 'number') return Math.abs(Number(shown) - want) <= 1e-9 * Math.max(1, Math.abs(want));
  if (typeof want === 'boolean') return shown === String(want);
  return shown === String(want) || shown.slice(0, 10) === String(want);
}

/** Checks every cookbook query on the tab against Python's rows. */
async function checkCookbook(page, want, label) {
  let answered = 0;
  for (const [name, sql] of Object.entries(cookbook())) {
    const got = await query(page, sql.replaceAll('current_date', WEEK_END));
    assert.equal(got.error, undefined, `${label} ${name}: ${got.error}`);
    assert.equal(got.count, want[name].length, `${label} ${name}: ${got.count} rows, Python's DuckDB ${want[name].length}`);
    got.rows.forEach((row, i) => {
      assert.ok(row.every((cell, j) => same(cell, want[name][i][j])), `${label} ${name} row ${i}: ${JSON.stringify(row)} vs ${JSON.stringify(want[name][i])}`);
    });
    answered += got.count;
  }
  assert.ok(answered > 0, `${label}: the cookbook answered nothing`);
}

/** Opens the SQL tab and waits until the engine holds the run's tables. */
async function openTab(page) {
  await page.getByTestId('tab-sql').click();
  await page.waitForFunction(() => !document.querySelector('[data-testid=sql-run]')?.disabled, null, { timeout: 120_000 });
}

test('the cookbook run on the SQL tab gives the rows DuckDB gives over the CLI export of the same files', async (t) => {
  if (!existsSync(PYTHON)) return t.skip(`no ${PYTHON} (scripts/setup.sh makes it)`);
  const tmp = mkdtempSync(join(tmpdir(), 'longpole-sql-'));
  const app = await openApp();
  const sqlRequests = () => app.requests.filter((u) => new URL(u).pathname.startsWith('/sql/'));
  try {
    // The analysis worker makes the tables of the run it holds, whatever the
    // order its files were given in (the graph first here).
    const runs = [
      ['distbuild', [join(SAMPLES, 'simulated-build.log.gz'), join(SAMPLES, 'simulated-build.graph.json.gz')], 'distbuild_'],
      ['distbuild, graph first', [join(SAMPLES, 'simulated-build.graph.json.gz'), join(SAMPLES, 'simulated-build.log.gz')], 'distbuild_'],
      ['ghc', [join(CORPUS, 'ghc-eventlog/hello-ghc-8.6.5.eventlog')], 'ghc_eventlog_'],
      ['starrocks', [join(CORPUS, 'starrocks-profile/starrocks-3.5.2-profile2.txt')], 'starrocks_'],
    ];
    for (const [label, files, prefix] of runs) {
      await app.page.getByTestId('file-input').setInputFiles(files);
      await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
      if (label === 'distbuild') assert.deepEqual(sqlRequests(), [], 'nothing of the SQL engine is fetched before the tab opens');
      await openTab(app.page);
      await checkCookbook(app.page, pythonRows(cliExport(join(tmp, label), [files])), label);
      // The format's own tables are there, led by the run's id.
      const tables = await app.page.getByTestId('sql-schema').locator('a[data-table]').evaluateAll((as) => as.map((a) => a.dataset.table));
      assert.ok(tables.includes('runs') && tables.includes('tasks') && tables.includes('critical_path'), `${label}: ${tables}`);
      assert.ok(tables.some((n) => n.startsWith(prefix)), `${label}: ${tables}`);
      await app.page.getByTestId('tab-timeline').click();
    }
    const fetched = sqlRequests().map((u) => new URL(u).pathname);
    for (const file of ['/sql/engine.js', '/sql/duckdb-browser-eh.worker.js', '/sql/duckdb-eh.wasm']) assert.ok(fetched.includes(file), `${file}: ${fetched}`);
    assert.deepEqual(app.foreignRequests(), []);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('a folder of fleet tables added on the SQL tab answers the cookbook as DuckDB does', async (t) => {
  if (!existsSync(PYTHON)) return t.skip(`no ${PYTHON} (scripts/setup.sh makes it)`);
  const tmp = mkdtempSync(join(tmpdir(), 'longpole-sql-folder-'));
  const app = await openApp();
  try {
    const folder = cliExport(tmp, [
      [join(SAMPLES, 'simulated-build.log.gz'), join(SAMPLES, 'simulated-build.graph.json.gz')],
      [join(CORPUS, 'distbuild/example.log')],
      [join(CORPUS, 'ninja-log/kati-v5.ninja_log')],
      [join(CORPUS, 'starrocks-profile/starrocks-3.5.2-profile2.txt')],
    ]);
    await app.page.getByTestId('sample-ninja').click();
    await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    await openTab(app.page);
    await app.page.getByTestId('sql-folder').setInputFiles(folder);
    // The export worker reads the folder's files; the tab says so until they are tables.
    await app.page.getByTestId('sql-loading').waitFor();
    await app.page.getByTestId('sql-loading').waitFor({ state: 'detached', timeout: 120_000 });
    assert.equal(await app.page.getByTestId('sql-failed').count(), 0);
    const runs = await query(app.page, 'SELECT count(*) FROM runs');
    assert.deepEqual(runs.rows, [['4']], 'the four runs of the folder');
    await checkCookbook(app.page, pythonRows(folder), 'folder');
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('a result pages, sorts and saves as CSV; an error is DuckDB own, with its position; a row selects its task', async () => {
  const app = await openApp();
  try {
    await app.page.getByTestId('sample-distbuild').click();
    await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    await openTab(app.page);

    const bad = await query(app.page, 'SELECT * FORM tasks');
    assert.match(bad.error, /Parser Error: syntax error at or near "tasks"/);
    assert.match(bad.error, /LINE 1: SELECT \* FORM tasks\n\s+\^/);

    const all = await query(app.page, 'SELECT range AS n, range % 7 AS r FROM range(250)');
    assert.equal(all.count, 250);
    assert.equal(all.rows.length, 100, 'a page of 100 rows');
    await app.page.getByTestId('sql-next').click();
    await app.page.waitForFunction(() => document.querySelector('[data-testid=sql-result] tbody td')?.textContent === '100');
    await app.page.getByTestId('sql-result').locator('th', { hasText: 'r' }).click();
    await app.page.waitForFunction(() => document.querySelector('[data-testid=sql-result] th[data-col="1"]')?.textContent.includes('▼'));
    assert.equal(await app.page.locator('[data-testid=sql-result] tbody tr td:nth-child(2)').first().textContent(), '6', 'sorted by r, descending');
    const [csv] = await Promise.all([app.page.waitForEvent('download'), app.page.getByTestId('sql-csv').click()]);
    const lines = readFileSync(await csv.path(), 'utf8').trim().split('\r\n');
    assert.equal(lines.length, 251, 'a header and every row');
    assert.equal(lines[0], 'n,r');

    // The longest task, selected from its row, shows its details.
    const longest = await query(app.page, 'SELECT task_id, uid FROM tasks ORDER BY duration_us DESC LIMIT 1');
    await app.page.getByTestId('sql-result').locator('tbody tr').first().click();
    await app.page.getByTestId('details-uid').waitFor();
    assert.equal(await app.page.getByTestId('details-uid').textContent(), longest.rows[0][1], 'its uid in the details');
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});

test('a query drawn as a track shows on the timeline, selects its tasks, and comes back with the link after a reload', async () => {
  const files = ['simulated-build.log.gz', 'simulated-build.graph.json.gz'];
  const app = await openApp({ hash: `#${files.map((f) => `src=samples/${f}`).join('&')}`, waitFor: null });
  try {
    await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    await openTab(app.page);
    const path = await query(app.page, 'SELECT count(*) FROM tasks WHERE on_critical_path');
    const sql = "SELECT uid AS name, lane, task_id, start_offset_us / 1000 AS start_ms, (start_offset_us + duration_us) / 1000 AS end_ms FROM tasks WHERE on_critical_path";
    const shown = await query(app.page, sql);
    assert.equal(String(shown.count), path.rows[0][0]);
    await app.page.getByTestId('sql-track').click();
    const track = app.page.getByTestId('query-track');
    await track.waitFor();
    assert.equal(await track.getAttribute('data-bars'), path.rows[0][0], 'a bar per row');
    // A bar selects its task.
    const bar = track.getByTestId('track-bar').first();
    const task = await bar.getAttribute('data-task');
    await bar.click();
    await app.page.getByTestId('details-uid').waitFor();
    const uid = shown.rows.find((r) => r[2] === task)?.[0];
    assert.equal(await app.page.getByTestId('details-uid').textContent(), uid);

    const hash = new URL(app.page.url()).hash;
    assert.match(hash, /&sql=SELECT%20uid%20AS%20name/);
    assert.match(hash, /&track=1/);
    await app.page.reload();
    await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    await app.page.getByTestId('query-track').waitFor({ timeout: 120_000 });
    assert.equal(await app.page.getByTestId('query-track').getAttribute('data-bars'), path.rows[0][0], 'the same track after the reload');
    assert.deepEqual(app.errors, []);
    assert.deepEqual(app.foreignRequests(), []);
  } finally {
    await app.close();
  }
});
