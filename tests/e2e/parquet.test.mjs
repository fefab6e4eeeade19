// The Export menu's "Parquet (tasks, path, run)": a zip of the three fleet
// tables, written by the worker with the core's code. Its files must be
// the very bytes `longpole export --to parquet` writes for the same log and
// graph (the same run id, the same paths), each a Parquet file, and DuckDB
// (the venv scripts/setup.sh makes) must read them back as a run.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { openApp, ROOT } from './harness.mjs';

const LOG = join(ROOT, 'samples', 'simulated-build.log.gz');
const GRAPH = join(ROOT, 'samples', 'simulated-build.graph.json.gz');
const PYTHON = join(ROOT, 'target', 'venv-tools', 'bin', 'python');

/** The entries of a zip whose files are stored, from its local headers: name → bytes. */
function unzipStored(zip) {
  const files = new Map();
  let at = 0;
  while (zip.readUInt32LE(at) === 0x04034b50) {
    const method = zip.readUInt16LE(at + 8);
    assert.equal(method, 0, 'stored');
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

test('the Parquet download is the CLI export of the same run, and DuckDB reads it', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'longpole-parquet-'));
  const app = await openApp();
  try {
    // The CLI's export of the same two files, alone in a folder.
    const run = join(tmp, 'run');
    mkdirSync(run);
    copyFileSync(LOG, join(run, 'simulated-build.log.gz'));
    copyFileSync(GRAPH, join(run, 'simulated-build.graph.json.gz'));
    execFileSync('cargo', ['run', '--quiet', '-p', 'longpole-cli', '--', 'export', run, '--to', 'parquet', '--output', join(tmp, 'cli')], { cwd: ROOT });
    const cli = tree(join(tmp, 'cli'));
    assert.equal(cli.size, 3);

    await app.page.getByTestId('file-input').setInputFiles([LOG, GRAPH]);
    await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    await app.page.getByTestId('export-menu').locator('summary').click();
    const [download] = await Promise.all([app.page.waitForEvent('download'), app.page.getByTestId('export-parquet').click()]);
    const zip = readFileSync(await download.path());
    const files = unzipStored(zip);
    assert.deepEqual([...files.keys()].map((n) => n.split('/')[0]), ['runs', 'tasks', 'critical_path']);
    const id = [...files.keys()][0].match(/part-([0-9a-f]{32})\.parquet$/)[1];
    assert.equal(download.suggestedFilename(), `longpole-fleet-${id.slice(0, 12)}.zip`);
    for (const [name, bytes] of files) {
      assert.equal(bytes.subarray(0, 4).toString(), 'PAR1', name);
      assert.equal(bytes.subarray(bytes.length - 4).toString(), 'PAR1', name);
      assert.ok(cli.has(name), `the CLI wrote no ${name}`);
      assert.ok(cli.get(name).equals(bytes), `${name} differs from the CLI's`);
    }
    assert.deepEqual(app.errors, []);

    if (existsSync(PYTHON)) {
      const out = join(tmp, 'app');
      for (const [name, bytes] of files) {
        mkdirSync(join(out, name, '..'), { recursive: true });
        writeFileSync(join(out, name), bytes);
      }
      const script = `import duckdb, sys
d = duckdb.connect()
r = d.sql("SELECT run_id, format, task_count, typeof(dt) FROM read_parquet('${out}/runs/*/*.parquet', hive_partitioning = true)").fetchall()
n = d.sql("SELECT count(*) FROM read_parquet('${out}/tasks/*/*.parquet')").fetchall()[0][0]
print(r[0][0], r[0][1], r[0][2], n, r[0][3])`;
      const [rid, format, count, rows, dt] = execFileSync(PYTHON, ['-c', script]).toString().trim().split(' ');
      assert.deepEqual([rid, format, dt], [id, 'distbuild', 'DATE']);
      assert.equal(Number(count), Number(rows));
    }
  } finally {
    await app.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});
