// `longpole open --no-browser --print-url`: the link it prints opens the
// app from the CLI's own server, with the files named loaded through the
// token (a ya build, a GHC eventlog, a comparison), the same numbers as
// `longpole analyze` / `compare`; a page of another origin cannot read a
// served file; the server stops once its page is closed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliJson, launchBrowser, CORPUS, ROOT } from './harness.mjs';
import { cliCompare, inBrowser, open, showsBuild, showsComparison, simulate } from './open-harness.mjs';

test('a ya build opened by longpole open gives the numbers of longpole analyze', async () => {
  const files = [join(ROOT, 'samples/simulated-build.log.gz'), join(ROOT, 'samples/simulated-build.graph.json.gz')];
  const cli = cliJson(...files);
  const server = await open(...files);
  await inBrowser(server, async (page) => {
    await showsBuild(page, cli);
    // The hash keeps the token: a reload reads the files again.
    await page.waitForFunction(() => /[#&]v=1/.test(location.hash));
    assert.match(await page.evaluate(() => location.hash), /&token=[0-9a-f]{32}/);
  });
});

test('a GHC eventlog opened by longpole open gives the numbers of longpole analyze', async () => {
  const file = join(CORPUS, 'ghc-eventlog', 'stop.hT.eventlog');
  const cli = cliJson(file);
  const server = await open(file);
  await inBrowser(server, async (page) => {
    await page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    assert.equal(await page.getByTestId('detected-format').textContent(), 'ghc-eventlog');
    assert.equal(Number(await page.getByTestId('ghc-events').textContent()), cli.ghc.events);
    assert.equal(Number(await page.getByTestId('ghc-threads').textContent()), cli.ghc.threads);
  });
});

test('longpole open --compare opens the compare screen with the numbers of longpole compare', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'longpole-open-'));
  try {
    const a = simulate(dir, 'a', 101, []);
    const b = simulate(dir, 'b', 201, ['20:10', '150:10']);
    const cli = cliCompare(a, b);
    assert.ok(cli.wall_ms.delta > 0, 'the slowed build is slower');
    const server = await open(...a, '--compare', ...b);
    await inBrowser(server, async (page) => {
      await showsComparison(page, cli);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a page of another origin cannot read a file longpole open serves, with or without the token', async () => {
  const file = join(ROOT, 'samples/distbuild-example.log');
  const server = await open(file);
  const other = createServer((req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><p>another origin'));
  await new Promise((ok) => other.listen(0, '127.0.0.1', ok));
  const browser = await launchBrowser();
  try {
    const hash = new URL(server.url).hash.slice(1);
    const params = new URLSearchParams(hash);
    const fileUrl = new URL(params.get('src'), server.url).href;
    const token = params.get('token');
    await browser.page.goto(`http://127.0.0.1:${other.address().port}/`);
    const attempt = (headers) =>
      browser.page.evaluate(async ([u, h]) => {
        try {
          const r = await fetch(u, { headers: h });
          return `read ${r.status}: ${(await r.text()).slice(0, 20)}`;
        } catch (e) {
          return 'refused';
        }
      }, [fileUrl, headers]);
    assert.equal(await attempt({}), 'refused');
    assert.equal(await attempt({ 'X-Longpole-Token': token }), 'refused');
    // From the server's own origin, the token is what opens the file.
    const own = await fetch(fileUrl, { headers: { 'X-Longpole-Token': token } });
    assert.equal(own.status, 200);
    assert.equal((await fetch(fileUrl)).status, 403);
  } finally {
    await browser.close();
    other.close();
    server.kill();
  }
});
