// Real Spark event logs (PySpark runs kept as fixtures): the lz4-compressed
// log dropped shows the CLI's path over the stages and the Stages table;
// the zstd sample opens on the same path as the CLI gives for it; the
// parts of a rolling log, given in any order, open as the one application
// the CLI reads from their folder, and a missing part or a part of another
// application is said.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliJson, openApp, ROOT } from './harness.mjs';

const DIR = join(ROOT, 'crates', 'core', 'tests', 'fixtures', 'spark');
const uids = (cli) => cli.critical_path.tasks.map((t) => `stage ${t.stage_id}.${t.attempt}`);

/** Opens `files` in `app` and checks the page shows the path total, the path and the stages of `cli`'s answer. */
async function opensAsTheCli(app, files, cli) {
  await app.page.getByTestId('file-input').setInputFiles(files);
  await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
  assert.equal(await app.page.getByTestId('detected-format').textContent(), 'spark');
  assert.equal(Number(await app.page.getByTestId('critical-path-total-ms').textContent()), Math.floor(cli.critical_path.total_ms));
  const steps = await app.page.getByTestId('critical-path-task').evaluateAll((els) => els.map((e) => e.dataset.uid));
  assert.deepEqual(steps, uids(cli));
  await app.page.getByTestId('tab-tables').click();
  assert.equal(await app.page.getByTestId('table-stages').locator('tbody tr').count(), Math.min(cli.spark.stage_list.length, 50));
}

test('an lz4-compressed Spark event log shows the CLI\'s path over the stages', async () => {
  const file = join(DIR, 'skewed-join.lz4');
  const cli = cliJson(file);
  const app = await openApp();
  try {
    await opensAsTheCli(app, [file], cli);
    assert.deepEqual(app.errors, []);
    assert.deepEqual(app.foreignRequests(), []);
  } finally {
    await app.close();
  }
});

test('the sample Spark application opens on its path', async () => {
  const cli = cliJson(join(ROOT, 'samples', 'spark-skewed-join.zstd'));
  const app = await openApp();
  try {
    await app.page.getByTestId('sample-spark').click();
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.equal(await app.page.getByTestId('detected-format').textContent(), 'spark');
    const steps = await app.page.getByTestId('critical-path-task').evaluateAll((els) => els.map((e) => e.dataset.uid));
    assert.deepEqual(steps, uids(cli));
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});

const APP = 'local-1795825148987';

/**
 * The rolling fixture's one part split at line ends into three, as Spark's
 * writer rolls between events, in a folder `eventlog_v2_<app>` of a temp
 * directory; gives the folder and the parts' paths.
 */
function splitRolling() {
  const lines = readFileSync(join(DIR, `eventlog_v2_${APP}`, `events_1_${APP}`), 'utf8').split(/(?<=\n)/);
  const dir = mkdtempSync(join(tmpdir(), 'longpole-rolling-'));
  const folder = join(dir, `eventlog_v2_${APP}`);
  mkdirSync(folder);
  const cuts = [0, Math.floor(lines.length / 3), Math.floor((2 * lines.length) / 3), lines.length];
  const parts = [1, 2, 3].map((n) => {
    const path = join(folder, `events_${n}_${APP}`);
    writeFileSync(path, lines.slice(cuts[n - 1], cuts[n]).join(''));
    return path;
  });
  return { dir, folder, parts };
}

test('the parts of a rolling Spark log, given in any order, open as the application the CLI reads from their folder', async () => {
  const { dir, folder, parts } = splitRolling();
  const app = await openApp();
  try {
    const cli = cliJson(folder);
    assert.equal(cli.wall_ms, 99790); // the History Server's duration (the fixture's .reference)
    await opensAsTheCli(app, [parts[2], parts[0], parts[1]], cli);
    await app.page.getByTestId('tab-diagnostics').click();
    const diagnostics = await app.page.getByTestId('diagnostics').textContent();
    assert.ok(!diagnostics.includes('spark.rolling'), diagnostics);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a missing part of a rolling log and a part of another application are said', async () => {
  const { dir, folder, parts } = splitRolling();
  const stray = join(dir, 'events_4_local-1');
  writeFileSync(stray, readFileSync(parts[2]));
  const app = await openApp();
  try {
    await app.page.getByTestId('file-input').setInputFiles([parts[0], parts[2], stray]);
    await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    assert.equal(await app.page.getByTestId('detected-format').textContent(), 'spark');
    await app.page.getByTestId('tab-diagnostics').click();
    const diagnostics = await app.page.getByTestId('diagnostics').textContent();
    assert.match(diagnostics, /spark\.rolling-gap.*part 2 is missing/);
    assert.match(diagnostics, /spark\.rolling-other-app.*events_4_local-1 /);
    // The CLI says the same of the folder without its part 2.
    rmSync(parts[1]);
    const cli = cliJson(folder);
    assert.ok(cli.diagnostics.some((d) => d.code === 'spark.rolling-gap'), JSON.stringify(cli.diagnostics));
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
