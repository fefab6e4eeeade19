// The Export menu's "Parquet (tasks, path, run)": a zip of the three fleet
// tables, written by the export worker (src/export_worker.rs) with the
// core's code. For runs of every format, opened as files, by a link's URLs
// and as a sample, the zip must hold what `longpole export --to parquet`
// writes for the same files: the same paths (so the same run id), the same
// bytes, and — read back by DuckDB (the venv scripts/setup.sh makes), an
// engine of its own — the same rows and values in all three tables. The
// export worker's WebAssembly is fetched only once the download is asked
// for, never with the page; Cancel stops it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { openApp, CORPUS, ROOT } from './harness.mjs';

const PYTHON = join(ROOT, 'target', 'venv-tools', 'bin', 'python');
const SAMPLES = join(ROOT, 'samples');

/** The entries of a zip whose files are stored, from its local headers: name → bytes. */
function unzipStored(zip) {
  const files = new Map();
  let at = 0;
  while (zip.readUInt32LE(at) === 0x04034b50) {
    assert.equal(zip.readUInt16LE(at + 8), 0, 'stored');
    const size = zip.readUInt32LE(at + 18);
    const nameLen = zip.readUInt16LE(at + 26);
    const extraLen = zip.readUInt16LE(at + 28);
    const name = zip.subarray(at + 30, at + 30 + nameLen).toString('utf8');
    const start = at + 30 + nameLen + extraLen;
    files.set(name, zip.subarray(start, start + size));
    at = start + size;
  }
  return files;
}

/** Every file under `dir`, by its path relative to it. */
function tree(dir) {
  const out = new Map();
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

/** The CLI's export of `files`, copied alone into a folder of `tmp` (one run): path → bytes. */
function cliExport(tmp, label, files) {
  const run = join(tmp, `${label}-in`);
  mkdirSync(run);
  for (const f of files) copyFileSync(f, join(run, basename(f)));
  const out = join(tmp, `${label}-cli`);
  execFileSync('cargo', ['run', '--quiet', '-p', 'longpole-cli', '--', 'export', run, '--to', 'parquet', '--output', out], { cwd: ROOT });
  return out;
}

/**
 * Each table of both exports read by DuckDB: its rows (sorted, as text) and
 * the runs' ids and formats. `{ table: { app, cli, same } }` and `runs`.
 */
function duckdbCompare(appDir, cliDir) {
  const script = `import duckdb, json, sys
d = duckdb.connect()
out = {}
for t in ['runs', 'tasks', 'critical_path']:
    rows = [sorted(map(repr, d.sql(f"SELECT * FROM read_parquet('{x}/{t}/*/*.parquet', hive_partitioning = true)").fetchall())) for x in sys.argv[1:3]]
    out[t] = {'app': len(rows[0]), 'cli': len(rows[1]), 'same': rows[0] == rows[1]}
out['runs_of_app'] = d.sql(f"SELECT run_id, format, task_count, typeof(dt) FROM read_parquet('{sys.argv[1]}/runs/*/*.parquet', hive_partitioning = true) ORDER BY run_id").fetchall()
print(json.dumps(out))`;
  return JSON.parse(execFileSync(PYTHON, ['-c', script, appDir, cliDir]).toString());
}

/** Asks for the download and gives the zip's bytes and suggested name; checks the progress went away. */
async function download(page) {
  const menu = page.getByTestId('export-menu');
  if (!(await menu.evaluate((d) => d.open))) await menu.locator('summary').click();
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), page.getByTestId('export-parquet').click()]);
  await page.getByTestId('export-progress').waitFor({ state: 'detached' });
  return { zip: readFileSync(await file.path()), name: file.suggestedFilename() };
}

/** Checks the downloaded zip against the CLI's export of `files`, byte for byte and row for row. */
function checkAgainstCli(tmp, label, files, { zip, name }, format) {
  const entries = unzipStored(zip);
  const cliDir = cliExport(tmp, label, files);
  const cli = tree(cliDir);
  assert.ok(cli.size >= 3, `${label}: the CLI wrote ${cli.size} files`);
  assert.deepEqual([...entries.keys()].sort(), [...cli.keys()].sort(), `${label}: the same paths, so the same run id`);
  const id = [...entries.keys()][0].match(/part-([0-9a-f]{32})\.parquet$/)[1];
  assert.equal(name, `longpole-fleet-${id.slice(0, 12)}.zip`);
  for (const [path, bytes] of entries) {
    assert.equal(bytes.subarray(0, 4).toString(), 'PAR1', path);
    assert.ok(cli.get(path).equals(bytes), `${label}: ${path} differs from the CLI's`);
  }
  if (!existsSync(PYTHON)) {
    console.log(`# ${label}: no ${PYTHON} (scripts/setup.sh makes it): the rows were not read back by DuckDB`);
    return;
  }
  const appDir = join(tmp, `${label}-app`);
  for (const [path, bytes] of entries) {
    mkdirSync(join(appDir, path, '..'), { recursive: true });
    writeFileSync(join(appDir, path), bytes);
  }
  const read = duckdbCompare(appDir, cliDir);
  for (const table of ['runs', 'tasks', 'critical_path']) {
    const { app, cli: rows, same } = read[table];
    assert.equal(app, rows, `${label}: ${table} has ${app} rows in the app's zip, ${rows} in the CLI's`);
    assert.ok(same, `${label}: ${table}'s values differ from the CLI's`);
  }
  assert.ok(read.tasks.app > 0, `${label}: the run has tasks`);
  const [runId, runFormat, taskCount, dt] = read.runs_of_app[0];
  assert.deepEqual([runId, runFormat], [id, format], label);
  // A run with dates is partitioned by its day; one without, by Hive's default partition (text).
  if (label === 'distbuild') assert.equal(dt, 'DATE');
  assert.equal(read.runs_of_app.reduce((n, r) => n + r[2], 0), read.tasks.app, `${label}: task_count is the tasks' rows`);
  assert.ok(taskCount > 0);
}

/** The page's requests (not its service worker's) for the export worker's files. */
const exportWorkerRequests = (seen) => seen.filter((u) => /export_worker/.test(u));

test('the Parquet download of runs opened as files is the CLI export of the same files, and DuckDB reads the same rows', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'longpole-parquet-'));
  const app = await openApp();
  const seen = [];
  app.page.on('request', (r) => seen.push(r.url()));
  try {
    const runs = [
      ['distbuild', 'distbuild', [join(SAMPLES, 'simulated-build.log.gz'), join(SAMPLES, 'simulated-build.graph.json.gz')]],
      ['chrome', 'chrome-trace', [join(CORPUS, 'chrome-trace/catapult/flow_simple.json')]],
      ['ninja', 'ninja-log', [join(CORPUS, 'ninja-log/kati-v5.ninja_log')]],
      ['ghc', 'ghc-eventlog', [join(CORPUS, 'ghc-eventlog/hello-ghc-8.6.5.eventlog')]],
      ['starrocks', 'starrocks', [join(CORPUS, 'starrocks-profile/starrocks-3.5.2-profile2.txt')]],
      ['evobench', 'evobench', [join(CORPUS, 'evobench/bench-v1-sum_of_fibs.log')]],
    ];
    let first = true;
    for (const [label, format, files] of runs) {
      await app.page.getByTestId('file-input').setInputFiles(files);
      await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
      if (first) {
        assert.deepEqual(exportWorkerRequests(seen), [], 'the page fetched nothing of the export worker before the download');
        first = false;
      }
      const got = await download(app.page);
      checkAgainstCli(tmp, label, files, got, format);
    }
    const fetched = exportWorkerRequests(seen).map((u) => new URL(u).pathname);
    for (const file of ['/export_worker_loader.js', '/export_worker.js', '/export_worker_bg.wasm']) {
      assert.ok(fetched.includes(file), `the download fetched ${file}: ${fetched}`);
    }
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('a run a link names by URL and a sample are exported too, reading their bytes again', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'longpole-parquet-'));
  // MonetDB's distributed query, as two URLs of the page's own origin.
  const mal = ['monetdb-supervisor.json', 'monetdb-worker1.json'];
  const hash = `#${mal.map((n) => `src=${encodeURIComponent(`samples/${n}`)}`).join('&')}`;
  const app = await openApp({ hash, waitFor: null });
  try {
    await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    checkAgainstCli(tmp, 'mal-url', mal.map((n) => join(SAMPLES, n)), await download(app.page), 'monetdb-mal');

    assert.deepEqual(app.errors, []);
    assert.deepEqual(app.foreignRequests(), []);
  } finally {
    await app.close();
  }
  // A sample: the page fetched its files, and keeps them.
  const sample = await openApp();
  try {
    await sample.page.getByTestId('sample-ninja-graph').click();
    await sample.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    const ninja = ['ninja-cmake.ninja_log', 'ninja-cmake-build.ninja', 'rules.ninja', 'ninja-cmake.ninja_deps'];
    checkAgainstCli(tmp, 'ninja-sample', ninja.map((n) => join(SAMPLES, n)), await download(sample.page), 'ninja-log');
    assert.deepEqual(sample.errors, []);
  } finally {
    await sample.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('Cancel stops the export worker: no file comes, and the next download is whole', async () => {
  const app = await openApp();
  const downloads = [];
  app.page.on('download', (d) => downloads.push(d));
  try {
    await app.page.getByTestId('file-input').setInputFiles([join(SAMPLES, 'simulated-build.log.gz'), join(SAMPLES, 'simulated-build.graph.json.gz')]);
    await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    await app.page.getByTestId('export-menu').locator('summary').click();
    await app.page.getByTestId('export-parquet').click();
    // The worker's WebAssembly is still loading: the export has not begun reading.
    await app.page.getByTestId('export-cancel').click();
    await app.page.getByTestId('export-progress').waitFor({ state: 'detached' });
    await app.page.waitForTimeout(3000);
    assert.equal(downloads.length, 0, 'a cancelled export saves nothing');
    assert.equal(await app.page.getByTestId('export-refused').count(), 0, 'a cancel is no failure');
    const { zip } = await download(app.page);
    assert.equal(unzipStored(zip).size, 3);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});
