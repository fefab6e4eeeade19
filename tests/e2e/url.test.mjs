// Loading by URL (`#src=…`) from a second server on another port (another
// origin, as a real file host is): the numbers the CLI gives, a log with its
// graph.json, gzip, sha256 checked, every failure said in the page, Cancel,
// no request but to the page and the named URL; and deep links (`v=1`):
// a link's view restored, "Copy link to this view" copying a link that
// opens the same view in a fresh page, and links of the first form upgraded.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson, launchBrowser, openApp, CORPUS, ROOT } from './harness.mjs';
import { serve } from '../../scripts/serve.mjs';

const FILES = {
  'example.log': join(CORPUS, 'distbuild/example.log'),
  'build.log.gz': join(ROOT, 'samples/simulated-build.log.gz'),
  'build.graph.json.gz': join(ROOT, 'samples/simulated-build.graph.json.gz'),
  'trace.json.gz': join(ROOT, 'samples/chrome-x_event_trace.json.gz'),
};

/**
 * The file host: `/cors/NAME` with Access-Control-Allow-Origin, `/plain/NAME`
 * without, `/cut/NAME` (half the body, then the socket destroyed), `/slow/NAME`
 * (a chunk every 200 ms, no Content-Length), anything else 404. Records the
 * paths asked for.
 */
async function fileHost() {
  const asked = [];
  const server = createServer((req, res) => {
    asked.push(req.url);
    const [, mode, name] = req.url.split('/');
    const path = FILES[name];
    if (!path) return res.writeHead(404, { 'Access-Control-Allow-Origin': '*' }).end('no such file');
    const body = readFileSync(path);
    const cors = mode === 'plain' ? {} : { 'Access-Control-Allow-Origin': '*' };
    if (mode === 'cut') {
      res.writeHead(200, { ...cors, 'Content-Length': body.length });
      res.write(body.subarray(0, body.length >> 1), () => setTimeout(() => res.destroy(), 100));
    } else if (mode === 'slow') {
      res.writeHead(200, cors);
      let at = 0;
      const step = () => {
        if (res.destroyed || at >= body.length) return res.end();
        res.write(body.subarray(at, at + 64));
        at += 64;
        setTimeout(step, 200);
      };
      step();
    } else {
      res.writeHead(200, { ...cors, 'Content-Length': body.length }).end(body);
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { origin, asked, close: () => server.close() };
}

/** A link's hash loading `urls` (with `digests` in order), then `rest`. */
const link = (urls, digests = [], rest = '') =>
  `#${[...urls.map((u) => `src=${encodeURIComponent(u)}`), ...digests.map((d) => `sha256=${d}`)].join('&')}${rest}`;

const sha256 = (name) => createHash('sha256').update(readFileSync(FILES[name])).digest('hex');

/** Opens the app at a hash made from the file host's origin, without waiting for the landing page. */
const openAt = (hash) => openApp({ hash, waitFor: null });

/** The page's error once shown. */
async function errorOf(app) {
  await app.page.getByTestId('error').waitFor();
  assert.equal(await app.page.getByTestId('analysis-ready').count(), 0, 'no analysis is shown');
  return app.page.getByTestId('error').textContent();
}

test('a log named by #src is read from another origin and gives the CLI numbers; only the page and that URL are asked', async () => {
  const host = await fileHost();
  const cli = cliJson(FILES['example.log']);
  const url = `${host.origin}/cors/example.log`;
  const app = await openAt(link([url]));
  try {
    await app.page.getByTestId('analysis-ready').waitFor();
    assert.equal(await app.page.getByTestId('detected-format').textContent(), 'distbuild');
    for (const kind of ['run', 'copy', 'prepare']) {
      assert.equal(Number(await app.page.getByTestId(`task-count-${kind}`).textContent()), cli.tasks[kind], kind);
    }
    assert.equal(Number(await app.page.getByTestId('critical-path-total-ms').textContent()), cli.critical_path.total_ms);
    const policy = await app.page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    assert.match(policy, new RegExp(`connect-src 'self' ${host.origin};`));
    assert.deepEqual(app.foreignRequests(), [url]);
    assert.deepEqual(host.asked, ['/cors/example.log']);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
    host.close();
  }
});

test('without #src the policy allows no other origin', async () => {
  const app = await openApp();
  try {
    const policy = await app.page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    assert.match(policy, /connect-src 'self';/);
    assert.deepEqual(app.foreignRequests(), []);
  } finally {
    await app.close();
  }
});

test('a gzipped log and its gzipped graph.json, two src, are read together as when dropped together', async () => {
  const host = await fileHost();
  const cli = cliJson(FILES['build.log.gz'], FILES['build.graph.json.gz']);
  const urls = [`${host.origin}/cors/build.log.gz`, `${host.origin}/cors/build.graph.json.gz`];
  const app = await openAt(link(urls, [sha256('build.log.gz'), sha256('build.graph.json.gz')]));
  try {
    await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    assert.equal(Number(await app.page.getByTestId('critical-path-total-ms').textContent()), cli.critical_path.total_ms);
    assert.equal(Number(await app.page.getByTestId('blocking-chain-total-ms').textContent()), cli.blocking_chain.total_ms);
    const steps = await app.page.getByTestId('critical-path-task').evaluateAll((els) => els.map((e) => e.dataset.uid));
    assert.deepEqual(steps, cli.critical_path.tasks.map((t) => (t.kind === 'prepare' ? t.type : t.uid)));
    assert.deepEqual(app.foreignRequests(), urls);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
    host.close();
  }
});

test('a sha256 that does not match is an error naming the URL and both digests', async () => {
  const host = await fileHost();
  const url = `${host.origin}/cors/example.log`;
  const wrong = '0'.repeat(64);
  const app = await openAt(link([url], [wrong]));
  try {
    const message = await errorOf(app);
    assert.ok(message.includes(url), message);
    assert.ok(message.includes(`expected ${wrong}, got ${sha256('example.log')}`), message);
  } finally {
    await app.close();
    host.close();
  }
});

test('a missing file, a refused cross-origin read and a connection cut mid-way are each said', async () => {
  const host = await fileHost();
  const cases = [
    [`${host.origin}/cors/nothing.log`, /: the server answered HTTP 404 Not Found$/],
    [`${host.origin}/plain/example.log`, /could not be fetched \(Failed to fetch\).*Access-Control-Allow-Origin/],
    [`${host.origin}/cut/build.log.gz`, /the connection was lost after \d+ bytes/],
    ['ftp://example.com/x.log', /only http and https URLs are loaded, not ftp:/],
  ];
  for (const [url, expected] of cases) {
    const app = await openAt(link([url]));
    try {
      const message = await errorOf(app);
      assert.match(message, expected);
      if (url.startsWith('http')) assert.ok(message.startsWith(url), message);
      // The page stays usable.
      await app.page.getByTestId('landing').waitFor();
    } finally {
      await app.close();
    }
  }
  host.close();
});

test('Cancel stops a URL load whose size the server does not say', async () => {
  const host = await fileHost();
  const app = await openAt(link([`${host.origin}/slow/build.log.gz`]));
  try {
    await app.page.waitForFunction(() => /read \(size not known\)/.test(document.querySelector('[data-testid="reading-bytes"]')?.textContent ?? '') && !/^0 B/.test(document.querySelector('[data-testid="reading-bytes"]').textContent));
    await app.page.getByTestId('cancel').click();
    await app.page.getByTestId('cancelled').waitFor();
    assert.equal(await app.page.getByTestId('analysis-ready').count(), 0);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
    host.close();
  }
});

test('a link restores its view: tab, window, selected task by uid, path; copied, it opens the same view in a fresh page', async () => {
  const host = await fileHost();
  const urls = [`${host.origin}/cors/build.log.gz`, `${host.origin}/cors/build.graph.json.gz`];
  const cli = cliJson(FILES['build.log.gz'], FILES['build.graph.json.gz']);
  const uid = cli.blocking_chain.tasks.find((t) => t.kind === 'run').uid;
  const app = await openAt(link(urls, [], `&v=1&tab=graph&uid=${encodeURIComponent(uid)}&path=chain`));
  let copied, window;
  try {
    await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    await app.page.getByTestId('details-uid').waitFor();
    assert.equal(await app.page.getByTestId('details-uid').textContent(), uid);
    assert.equal(await app.page.getByTestId('tab-graph').getAttribute('aria-selected'), 'true');
    // A window of its own: zoom the timeline in.
    await app.page.getByTestId('tab-timeline').click();
    assert.match(await app.page.getByTestId('show-blocking-chain').getAttribute('class'), /\bon\b/);
    await app.page.keyboard.press('w');
    await app.page.keyboard.press('w');
    await app.page.waitForFunction(() => /&window=\d+,\d+&/.test(location.hash));
    const hash = await app.page.evaluate(() => location.hash);
    window = await app.page.locator('.window-label').textContent();
    assert.match(hash, /&v=1&tab=timeline&window=\d+,\d+&uid=[^&]+(&at=\d+)?&path=chain$/);
    await app.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
    await app.page.getByTestId('copy-link').click();
    await app.page.getByTestId('copy-feedback').waitFor();
    assert.equal(await app.page.getByTestId('copy-feedback').textContent(), 'Link copied');
    copied = await app.page.evaluate(() => navigator.clipboard.readText());
    assert.equal(new URL(copied).hash, hash);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
  const fresh = await launchBrowser();
  const server = await serve({ root: join(ROOT, 'dist'), port: Number(new URL(copied).port) });
  try {
    await fresh.page.goto(copied);
    await fresh.page.getByTestId('details-uid').waitFor({ timeout: 120_000 });
    assert.equal(await fresh.page.getByTestId('details-uid').textContent(), uid);
    assert.equal(await fresh.page.getByTestId('tab-timeline').getAttribute('aria-selected'), 'true');
    assert.match(await fresh.page.getByTestId('show-blocking-chain').getAttribute('class'), /\bon\b/);
    await fresh.page.waitForFunction((w) => document.querySelector('.window-label')?.textContent === w, window);
    await fresh.page.waitForFunction((h) => location.hash === h, new URL(copied).hash);
    assert.deepEqual(fresh.errors, []);
  } finally {
    await fresh.close();
    server.close();
    host.close();
  }
});

test('a flame graph zoom and measure come back from a link', async () => {
  const host = await fileHost();
  const url = `${host.origin}/cors/trace.json.gz`;
  const app = await openAt(link([url]));
  let zoomed;
  try {
    await app.page.getByTestId('analysis-ready').waitFor();
    await app.page.getByTestId('tab-flame').click();
    await app.page.getByTestId('flame-frame').nth(1).click();
    await app.page.waitForFunction(() => /zoom=\d+/.test(location.hash));
    zoomed = await app.page.evaluate(() => location.hash);
    const crumbs = await app.page.getByTestId('flame-crumbs').textContent();
    await app.page.goto('about:blank');
    await app.page.goto(`${app.origin}/${zoomed}`);
    await app.page.getByTestId('flame-crumbs').waitFor();
    await app.page.waitForFunction((c) => document.querySelector('[data-testid="flame-crumbs"]')?.textContent === c, crumbs);
    assert.equal(await app.page.evaluate(() => location.hash), zoomed);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
    host.close();
  }
});

test('a link of the first form (tab, window, task index) is upgraded to v=1 with the task by uid', async () => {
  const app = await openApp({ hash: '#tab=tables&task=2' });
  try {
    await app.page.getByTestId('file-input').setInputFiles(FILES['example.log']);
    await app.page.getByTestId('details-uid').waitFor();
    const uid = await app.page.getByTestId('details-uid').textContent();
    assert.equal(await app.page.getByTestId('tab-tables').getAttribute('aria-selected'), 'true');
    await app.page.waitForFunction(() => location.hash.includes('uid='));
    assert.equal(await app.page.evaluate(() => location.hash), `#v=1&tab=tables&uid=${encodeURIComponent(uid)}`);
    // A dropped file cannot travel in a link, and the page says so.
    await app.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
    assert.match(await app.page.getByTestId('copy-link').getAttribute('title'), /must be opened again/);
    await app.page.keyboard.press('l');
    assert.match(await app.page.getByTestId('copy-feedback').textContent(), /keeps the view; the file must be opened again/);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});
