// A big log read on two workers: while the analysis worker builds the run,
// a second one reads the next chunks' lines or events ahead and posts them
// packed (src/ahead_worker.rs). The run must be the one the CLI reads from
// the same file, and the page says that a second worker shared the reading.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApp, ROOT } from './harness.mjs';

/** Files smaller than this are read by one worker (AHEAD_MIN_BYTES). */
const AHEAD_MIN_BYTES = 48 << 20;

/** Asserts that the page's report is the run's report in `longpole analyze FILE` (which heads it with a summary of the inputs). */
function assertCliReport(path, report) {
  const cli = execFileSync('cargo', ['run', '--quiet', '-p', 'longpole-cli', '--', 'analyze', path], { cwd: ROOT, maxBuffer: 256 << 20 }).toString();
  assert.ok(report.trim().length > 500, `a whole report: ${report.slice(0, 200)}`);
  assert.ok(cli.trim().endsWith(report.trim()), `the CLI's report ends with the page's:\n--- page\n${report.slice(0, 2000)}\n--- CLI\n${cli.slice(0, 2000)}`);
}

/** Opens `path` in a fresh page; gives the report text and the bytes read ahead. */
async function readInPage(path) {
  const app = await openApp();
  try {
    await app.page.getByTestId('file-input').setInputFiles(path);
    await app.page.getByTestId('analysis-ready').waitFor({ timeout: 180000 });
    const ahead = Number(await app.page.getByTestId('read-ahead').getAttribute('data-bytes'));
    await app.page.getByTestId('tab-report').click();
    const report = await app.page.getByTestId('report-text').textContent();
    assert.deepEqual(app.errors, []);
    return { report, ahead };
  } finally {
    await app.close();
  }
}

const dir = () => mkdtempSync(join(tmpdir(), 'longpole-ahead-'));

test('a distbuild log of 70 MB read on two workers gives the report the CLI gives', async () => {
  const log = join(dir(), 'build.log');
  execFileSync('cargo', ['run', '--quiet', '--release', '-p', 'longpole-distbuild-sim', '--', '--nodes', '58000', '--hosts', '300', '--slots', '8', '--seed', '11', '--log', log], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const size = statSync(log).size;
  assert.ok(size > AHEAD_MIN_BYTES + (16 << 20), `the log is big enough to share: ${size} bytes`);
  const { report, ahead } = await readInPage(log);
  assertCliReport(log, report);
  // All but the first slice (read before the format is known) and what the
  // second worker had not reached while it started.
  assert.ok(ahead > size / 2, `${ahead} of ${size} bytes read ahead`);
});

test('a realistic Chrome trace of 72 MB read on two workers gives the report the CLI gives', async () => {
  const trace = join(dir(), 'trace.json');
  execFileSync('python3', [join(ROOT, 'crates/bench/chrome/realistic.py'), trace, '72']);
  const size = statSync(trace).size;
  assert.ok(size > AHEAD_MIN_BYTES + (16 << 20), `the trace is big enough to share: ${size} bytes`);
  const { report, ahead } = await readInPage(trace);
  assertCliReport(trace, report);
  assert.ok(ahead > size / 2, `${ahead} of ${size} bytes read ahead`);
});
