// embed.js as a classic script (`<script src>`), from an app host that
// sends no CORS header at all, on a docs page of another origin: the view
// reaches analysis-ready with the CLI's wall time; as a module script from
// a host that sends CORS for it, it finds the app too. And when the app's host
// does not let the page frame it, the element says why in its fallback
// content and fires `error` with the code `no-answer`.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, ROOT, cliJson } from './harness.mjs';
import { serve } from '../../scripts/serve.mjs';

const SAMPLE = 'distbuild-example.log';
let app, refusing, withCors, docs, browser, page;

/** A docs page embedding the app at `appUrl` with a classic script (or a module one). */
const pageHtml = (appUrl, timeout, module) => `<!doctype html><meta charset="utf-8"><title>docs</title>
<script ${module ? 'type="module" ' : ''}src="${appUrl}embed.js"></script>
<longpole-view id="v" src="/logs/${SAMPLE}" timeout="${timeout}"><p>A build's critical path.</p></longpole-view>`;

before(async () => {
  app = await serve({ root: join(ROOT, 'dist'), port: 0, base: '/app/', cors: false });
  refusing = await serve({ root: join(ROOT, 'dist'), port: 0, base: '/app/', cors: false });
  withCors = await serve({ root: join(ROOT, 'dist'), port: 0, base: '/app/' });
  refusing.prependListener('request', (_req, res) => res.setHeader('Content-Security-Policy', "frame-ancestors 'none'"));
  docs = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === `/logs/${SAMPLE}`) {
      // The docs host's own file: it lets the app's frame (another origin) fetch it.
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Access-Control-Allow-Origin': '*' }).end(readFileSync(join(ROOT, 'samples', SAMPLE)));
    } else if (url.pathname === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(pageHtml(url.searchParams.get('app'), url.searchParams.get('timeout') ?? '20', url.searchParams.has('module')));
    } else {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((ok) => docs.listen(0, '127.0.0.1', ok));
  browser = await launchBrowser();
  page = browser.page;
});

after(async () => {
  await browser?.close();
  for (const s of [app, refusing, withCors, docs]) s?.close();
});

const origin = (server) => `http://127.0.0.1:${server.address().port}`;

test('a classic-script embed from a host without CORS shows the build, with the CLI wall time', async () => {
  const embedJs = await fetch(`${origin(app)}/app/embed.js`);
  assert.equal(embedJs.headers.get('access-control-allow-origin'), null, 'the app host sends no CORS header');
  await page.goto(`${origin(docs)}/?app=${encodeURIComponent(`${origin(app)}/app/`)}`);
  const frame = page.frameLocator('#v iframe');
  await frame.getByTestId('analysis-ready').waitFor({ timeout: 60_000 });
  const summary = await page.evaluate(() => document.getElementById('v').getSummary());
  const cli = cliJson(join(ROOT, 'samples', SAMPLE));
  assert.equal(summary.format, cli.format);
  assert.equal(Math.round(summary.wall_ns / 1e6), Math.round(cli.wall_ms));
  assert.equal(await page.locator('#v .longpole-unanswered').count(), 0);
  assert.equal(await page.evaluate(() => typeof customElements.get('longpole-view').LongpoleError), 'function');
});

test('as a module script (its host sending CORS for it), embed.js finds the app beside it', async () => {
  await page.goto(`${origin(docs)}/?module&app=${encodeURIComponent(`${origin(withCors)}/app/`)}`);
  await page.frameLocator('#v iframe').getByTestId('analysis-ready').waitFor({ timeout: 60_000 });
  const src = await page.locator('#v iframe').getAttribute('src');
  assert.ok(src.startsWith(`${origin(withCors)}/app/#embed=1`), src);
});

test('a frame the app host refuses leaves the fallback, which says why', async () => {
  // The element's events do not bubble: caught in capture, from the start.
  await page.addInitScript(() => document.addEventListener('error', (e) => e.target.localName === 'longpole-view' && (window.__why = e.detail), true));
  await page.goto(`${origin(docs)}/?app=${encodeURIComponent(`${origin(refusing)}/app/`)}&timeout=2`);
  const note = page.locator('#v .longpole-unanswered');
  await note.waitFor({ timeout: 15_000 });
  assert.match(await note.textContent(), /did not answer from http:\/\/127\.0\.0\.1:\d+\/app\/.*frame-ancestors/);
  assert.equal(await page.locator('#v p', { hasText: "A build's critical path." }).count(), 1, 'the page\'s own fallback stays');
  assert.equal((await page.evaluate(() => window.__why))?.code, 'no-answer');
});
