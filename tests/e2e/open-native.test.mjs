// `longpole open --native`: the files are analysed by the longpole
// process and the page asks it over its WebSocket (docs/native.md); the
// page never fetches them, and shows the numbers of `longpole analyze` /
// `compare`. A page of another origin, or without the token, cannot open
// the socket.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliJson, launchBrowser, ROOT } from './harness.mjs';
import { cliCompare, inBrowser, open, showsBuild, showsComparison, simulate } from './open-harness.mjs';

/** The page fetched no input: the process read them. */
const fetchedNone = (requests) => assert.deepEqual(requests.filter((u) => u.includes('/_longpole/f/')), []);

test('a ya build opened with --native gives the numbers of longpole analyze', async () => {
  const files = [join(ROOT, 'samples/simulated-build.log.gz'), join(ROOT, 'samples/simulated-build.graph.json.gz')];
  const cli = cliJson(...files);
  const server = await open('--native', ...files);
  assert.match(server.url, /&native=1$/);
  await inBrowser(server, async (page, requests) => {
    await showsBuild(page, cli);
    // The policy names the socket's own origin: browsers of CSP level 2 do not count ws: as 'self'.
    const policy = await page.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]').content);
    assert.ok(policy.includes(`connect-src 'self' ${server.origin.replace('http:', 'ws:')};`), policy);
    // The hash written back keeps the token and native=1: a reload asks the process again.
    await page.waitForFunction(() => /[#&]v=1/.test(location.hash));
    assert.match(await page.evaluate(() => location.hash), /&token=[0-9a-f]{32}&native=1&/);
    await page.reload();
    await page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    assert.equal(Number(await page.getByTestId('critical-path-total-ms').textContent()), cli.critical_path.total_ms);
    fetchedNone(requests);
  });
});

test('longpole open --native --compare opens the compare screen with the numbers of longpole compare', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'longpole-native-'));
  try {
    const a = simulate(dir, 'a', 101, []);
    const b = simulate(dir, 'b', 201, ['20:10', '150:10']);
    const cli = cliCompare(a, b);
    const server = await open('--native', ...a, '--compare', ...b);
    await inBrowser(server, async (page, requests) => {
      await showsComparison(page, cli);
      fetchedNone(requests);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('only the page longpole open --native served, with its token, opens the socket', async () => {
  const server = await open('--native', join(ROOT, 'samples/distbuild-example.log'));
  const other = createServer((req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><p>another origin'));
  await new Promise((ok) => other.listen(0, '127.0.0.1', ok));
  const browser = await launchBrowser();
  try {
    const token = new URLSearchParams(new URL(server.url).hash.slice(1)).get('token');
    const socketUrl = server.origin.replace('http:', 'ws:') + '/_longpole/ws';
    const attempt = (protocol) =>
      browser.page.evaluate(
        ([u, p]) =>
          new Promise((ok) => {
            const s = new WebSocket(u, p);
            s.onopen = () => {
              s.close();
              ok('opened');
            };
            s.onclose = () => ok('refused');
          }),
        [socketUrl, protocol],
      );
    await browser.page.goto(`http://127.0.0.1:${other.address().port}/`);
    assert.equal(await attempt(`longpole.${token}`), 'refused', 'another origin, with the token');
    assert.equal(await attempt('longpole.0123456789abcdef0123456789abcdef'), 'refused', 'another origin, without it');
    // The server's own page: a wrong token is refused, its own opens it.
    await browser.page.goto(`${server.origin}/`);
    assert.equal(await attempt('longpole.0123456789abcdef0123456789abcdef'), 'refused', 'a wrong token');
    assert.equal(await attempt(`longpole.${token}`), 'opened', 'its own page, with its token');
  } finally {
    await browser.close();
    other.close();
    server.kill();
  }
});
