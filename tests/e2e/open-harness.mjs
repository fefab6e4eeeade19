// What the `longpole open` tests share (open.test.mjs, open-native.test.mjs):
// starting the server for its link, two small simulated builds, and a
// fresh Chromium on the link that checks no request left the server and
// that the server stopped once its page was closed.

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { launchBrowser, ROOT } from './harness.mjs';

export const LONGPOLE = join(ROOT, 'target', 'debug', 'longpole');
execFileSync('cargo', ['build', '--quiet', '-p', 'longpole-cli'], { cwd: ROOT, stdio: 'inherit' });

/**
 * Starts `longpole open ARGS --no-browser --print-url --linger 8` and gives
 * its link and its exit. The linger outlasts the page's ping (every 5 s), so
 * an open page that is only reading keeps its server.
 */
export async function open(...args) {
  const child = spawn(LONGPOLE, ['open', '--no-browser', '--print-url', '--linger', '8', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((ok) => child.on('exit', (code) => ok(code)));
  const url = await new Promise((ok, fail) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) ok(out.split('\n')[0].trim());
    });
    child.on('exit', (code) => fail(new Error(`longpole open exited with ${code} before printing its link`)));
  });
  return { url, origin: new URL(url).origin, exited, kill: () => child.kill() };
}

/** What `longpole compare A... --vs B... --format json` prints. */
export function cliCompare(a, b) {
  const out = execFileSync(LONGPOLE, ['compare', ...a, '--vs', ...b, '--format', 'json'], { maxBuffer: 256 << 20 });
  return JSON.parse(out.toString());
}

/** One run of a small simulated build (its log and graph.json) in `dir`. */
export function simulate(dir, name, rerun, slow) {
  const [log, graph] = [join(dir, `${name}.log`), join(dir, `${name}.graph.json`)];
  const args = ['--nodes', '200', '--hosts', '20', '--slots', '4', '--seed', '5', '--cache-hits', '0', '--failures', '0',
    '--rerun', String(rerun), ...slow.flatMap((s) => ['--slow', s]), '--log', log, '--graph', graph];
  execFileSync('cargo', ['run', '--quiet', '-p', 'longpole-distbuild-sim', '--', ...args], { cwd: ROOT });
  return [log, graph];
}

/**
 * Opens `server`'s link in a fresh Chromium; closes both after
 * `check(page, requests)` (the URLs the browser asked for), and waits for
 * the server to stop.
 */
export async function inBrowser(server, check) {
  const browser = await launchBrowser();
  try {
    await browser.page.goto(server.url);
    await check(browser.page, browser.requests);
    const foreign = browser.requests.filter((u) => !u.startsWith(server.origin) && !/^(data|blob):/.test(u));
    assert.deepEqual(foreign, [], 'no request left the server');
    assert.deepEqual(browser.errors, []);
  } finally {
    await browser.close();
  }
  // Its page gone, the server stops by itself (--linger 8).
  const code = await Promise.race([server.exited, new Promise((ok) => setTimeout(() => ok('still running'), 60_000))]);
  if (code === 'still running') server.kill();
  assert.equal(code, 0, 'the server stopped once its page was closed');
}

/** Waits for a ya build's run in `page` and checks it shows `cli`'s (`longpole analyze --format json`) numbers. */
export async function showsBuild(page, cli) {
  await page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
  assert.equal(await page.getByTestId('detected-format').textContent(), 'distbuild');
  for (const kind of ['run', 'copy', 'prepare']) {
    assert.equal(Number(await page.getByTestId(`task-count-${kind}`).textContent()), cli.tasks[kind], kind);
  }
  assert.equal(Number(await page.getByTestId('critical-path-total-ms').textContent()), cli.critical_path.total_ms);
}

/** Waits for the compare screen in `page` and checks it shows `cli`'s (`longpole compare --format json`) numbers. */
export async function showsComparison(page, cli) {
  await page.getByTestId('compare-ready').waitFor({ timeout: 120_000 });
  const number = async (id, attr) => Number(await page.getByTestId(id).getAttribute(attr));
  assert.equal(await number('compare-wall', 'data-delta-ms'), cli.wall_ms.delta);
  assert.equal(await number('compare-part-shared', 'data-ms'), cli.attribution.shared_path_ms);
}
