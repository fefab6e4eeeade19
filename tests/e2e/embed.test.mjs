// The example docs site (examples/docs-site) embedding three views of the
// app, served cross-origin as a real docs site is: the site on one port,
// the app (dist/, under a sub-path, with the frame-ancestors header
// docs/embedding.md asks for) on another. Each view's numbers are checked against the
// CLI's; frames size to their content; selections reach the host page;
// getSummary and query answer; a page at an origin the element did not allow gets
// nothing; no request leaves the two origins; no CSP violation happens.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { launchBrowser, ROOT, cliJson } from './harness.mjs';
import { serve } from '../../scripts/serve.mjs';
import { serveDocs } from '../../examples/docs-site/serve.mjs';

const BASE = '/docs/longpole/';
const CLI = join(ROOT, 'target', 'release', 'longpole');

/** `longpole analyze --format json` of the samples (the release CLI if built). */
function analyze(...names) {
  const files = names.map((n) => join(ROOT, 'samples', n));
  if (!existsSync(CLI)) return cliJson(...files);
  return JSON.parse(execFileSync(CLI, ['analyze', '--format', 'json', ...files], { maxBuffer: 256 << 20, stdio: ['ignore', 'pipe', 'ignore'] }).toString());
}

let app, docs, evil, browser, page, appUrl, docsOrigin, evilOrigin;

before(async () => {
  app = await serve({ root: join(ROOT, 'dist'), port: 0, base: BASE });
  appUrl = `http://127.0.0.1:${app.address().port}${BASE}`;
  docs = await serveDocs({ port: 0, app: appUrl });
  docsOrigin = `http://127.0.0.1:${docs.address().port}`;
  // A page at an origin no element allowed: it frames the app itself.
  evil = createServer((req, res) => {
    const allowed = new URL(req.url, 'http://x').searchParams.get('allow');
    const listen = `<script>window.heard = []; addEventListener('message', (e) => heard.push(e.data?.type));</script>`;
    res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<!doctype html>${listen}<iframe id="f" src="${appUrl}#embed=1&origin=${encodeURIComponent(allowed)}"></iframe>`);
  });
  await new Promise((ok) => evil.listen(0, '127.0.0.1', ok));
  evilOrigin = `http://127.0.0.1:${evil.address().port}`;
  // The header a host of the app sets so that only its docs sites may frame it.
  app.prependListener('request', (_req, res) => res.setHeader('Content-Security-Policy', `frame-ancestors 'self' ${docsOrigin} ${evilOrigin}`));

  browser = await launchBrowser();
  page = browser.page;
  // Every frame records the CSP violations it sees, and the host page the
  // element's events (capture: they do not bubble).
  await page.context().addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
    window.__events = [];
    for (const type of ['ready', 'loaded', 'selection', 'viewchanged', 'resized', 'error']) {
      document.addEventListener(type, (e) => e.target.localName === 'longpole-view' && window.__events.push({ id: e.target.id, type, detail: e.detail }), true);
    }
  });
  await page.goto(`${docsOrigin}/`);
});

after(async () => {
  await browser?.close();
  app?.close();
  docs?.close();
  evil?.close();
});

/** The app's frame inside the element `id`. */
const frameOf = (id) => page.frameLocator(`#${id} iframe`);

/** Waits for the view `id` to show its run. */
async function shown(id) {
  await frameOf(id).getByTestId('analysis-ready').waitFor({ timeout: 60_000 });
}

/** `getSummary` of the view `id`. */
const summaryOf = (id) => page.evaluate((id) => document.getElementById(id).getSummary(), id);

test('the GHC eventlog given as a File shows its timeline, with the CLI wall time', async () => {
  await shown('ghc');
  const cli = analyze('ghc-testlog.eventlog');
  const frame = frameOf('ghc');
  assert.equal(await frame.getByTestId('detected-format').textContent(), 'ghc-eventlog');
  await frame.getByTestId('timeline-chart').waitFor();
  assert.equal(await frame.locator('.topbar').count(), 0, 'no header in embed mode');
  const s = await summaryOf('ghc');
  assert.equal(s.format, cli.format);
  assert.equal(Math.round(s.wall_ns / 1000), Math.round(cli.wall_ms * 1000));
  assert.equal(s.critical_path, null);
  assert.equal(s.no_path_reason !== null, cli.no_path_reason !== null);
  assert.equal(s.files[0], 'ghc-testlog.eventlog');
  assert.equal(await page.locator('#ghc img').count(), 0, 'the fallback picture is replaced by the frame');
  // theme="light" holds whatever the system's setting; "Open in longpole" opens the full app on the same view.
  await page.emulateMedia({ colorScheme: 'dark' });
  assert.equal(await frame.locator('body').evaluate((b) => getComputedStyle(b).backgroundColor), 'rgb(251, 251, 250)');
  assert.equal(await frameOf('bench').locator('body').evaluate((b) => getComputedStyle(b).backgroundColor), 'rgb(22, 24, 27)');
  await page.emulateMedia({ colorScheme: 'light' });
  assert.equal(await frame.getByTestId('open-full-app').getAttribute('href'), `${appUrl}#v=1&tab=timeline`);
});

test('the evobench log given as bytes shows its flame graph, with the CLI wall time', async () => {
  await shown('bench');
  const cli = analyze('evobench-sum_of_fibs.log.zstd');
  const frame = frameOf('bench');
  await frame.locator('svg.flame').waitFor();
  assert.equal(await frame.getByTestId('detected-format').textContent(), 'evobench');
  const s = await summaryOf('bench');
  assert.equal(s.format, cli.format);
  assert.equal(Math.round(s.wall_ns / 1000), Math.round(cli.wall_ms * 1000));
  const changed = await page.evaluate(() => window.__events.filter((e) => e.id === 'bench' && e.type === 'viewchanged').map((e) => e.detail.view));
  assert.equal(changed.at(-1), 'flame');
});

/** Checks the build view `id` against the CLI, and selects a step of its path through the API. */
async function checkBuild(id) {
  await shown(id);
  const cli = analyze('simulated-build.log.gz', 'simulated-build.graph.json.gz');
  const frame = frameOf(id);
  assert.equal(await frame.getByTestId('detected-format').textContent(), 'distbuild');
  assert.equal(Number(await frame.getByTestId('critical-path-total-ms').textContent()), cli.critical_path.total_ms);
  await frame.locator('.graph-frame').waitFor();
  const s = await summaryOf(id);
  assert.equal(Math.floor(s.critical_path.total_ns / 1e6), cli.critical_path.total_ms);
  assert.equal(Math.round(s.wall_ns / 1e6), cli.wall_ms);
  assert.equal(s.tasks, cli.tasks.run + cli.tasks.copy + cli.tasks.prepare);
  const top = s.critical_path.top[0];
  const selected = await page.evaluate(({ id, uid }) => new Promise((resolve, reject) => {
    const el = document.getElementById(id);
    el.addEventListener('selection', (e) => e.detail.key && resolve(e.detail));
    el.select(uid).catch(reject);
  }), { id, uid: top.uid });
  assert.equal(selected.uid, top.uid);
  return selected;
}

test('the build loaded by URL shows its critical path as the CLI finds it', async () => {
  const selected = await checkBuild('build');
  await page.waitForFunction((name) => document.getElementById('build-selected').textContent === name, selected.name);
});

test('a log and its graph.json given together through the API show the CLI critical path', async () => {
  // The select attribute names a step of the path: it is selected once the run is shown.
  const step = analyze('simulated-build.log.gz', 'simulated-build.graph.json.gz').critical_path.tasks.find((t) => t.kind === 'run');
  await page.evaluate(async (uid) => {
    const el = document.createElement('longpole-view');
    el.id = 'build-bytes';
    el.setAttribute('view', 'graph');
    el.setAttribute('select', uid);
    document.body.append(el);
    const get = async (name) => ({ name, data: await (await fetch(`logs/${name}`)).arrayBuffer() });
    const summary = await el.load([await get('simulated-build.log.gz'), await get('simulated-build.graph.json.gz')]);
    if (summary.format !== 'distbuild') throw new Error(`loaded as ${summary.format}`);
  }, step.uid);
  await page.waitForFunction((uid) => window.__events.some((e) => e.id === 'build-bytes' && e.type === 'selection' && e.detail.uid === uid), step.uid);
  await checkBuild('build-bytes');
  // SQL over the run's tables (docs/sql.md): the path's steps, as the CLI counts them; DuckDB's error with its code.
  const path = analyze('simulated-build.log.gz', 'simulated-build.graph.json.gz').critical_path.tasks.length;
  const answer = await page.evaluate(() => document.getElementById('build-bytes').query('SELECT count(*) AS n FROM tasks WHERE on_critical_path'));
  assert.deepEqual([answer.columns[0].name, answer.row_count, answer.rows], ['n', 1, [[path]]]);
  const refused = await page.evaluate(() => document.getElementById('build-bytes').query('SELECT * FORM tasks').catch((e) => [e.code, e.message]));
  assert.equal(refused[0], 'sql');
  assert.match(refused[1], /syntax error at or near "tasks"/);
  await page.evaluate(() => document.getElementById('build-bytes').remove());
});

test('bytes that are no log are refused with a code, and the frame says why', async () => {
  const refused = await page.evaluate(async () => {
    const el = document.createElement('longpole-view');
    el.id = 'noise';
    document.body.append(el);
    const noise = new Uint8Array(8192).map((_, i) => (Math.imul(i, 2654435761) >>> 13) & 0xff);
    return el.load(noise, 'noise.bin').then(() => null, (e) => ({ code: e.code, message: e.message }));
  });
  assert.equal(refused?.code, 'load-failed');
  assert.match(refused.message, /^noise\.bin: not a format longpole reads/);
  assert.equal(await frameOf('noise').getByTestId('error').textContent(), refused.message);
  const events = await page.evaluate(() => window.__events.filter((e) => e.id === 'noise' && e.type === 'error').map((e) => e.detail.code));
  assert.deepEqual(events, ['load-failed']);
  const bad = await page.evaluate(() => document.getElementById('noise').load({ not: 'bytes' }, 'x.log').then(() => null, (e) => e.code));
  assert.equal(bad, 'bad-file');
  await page.evaluate(() => document.getElementById('noise').remove());
});

test('a click in a frame selects a task, and the host page names it', async () => {
  await shown('ghc');
  // Bars of a kind are one path of rectangles: click the middle of the widest.
  const chart = frameOf('ghc').getByTestId('timeline-chart');
  const at = await chart.locator('.bar').first().evaluate((bar) => {
    const rects = [...bar.getAttribute('d').matchAll(/M([\d.]+) ([\d.]+)h([\d.]+)v([\d.]+)/g)].map((m) => m.slice(1).map(Number));
    const [x, y, w, h] = rects.reduce((a, b) => (b[2] > a[2] ? b : a));
    return { x: x + w / 2, y: y + h / 2 };
  });
  await chart.click({ position: at });
  await page.waitForFunction(() => document.getElementById('ghc-selected').textContent !== 'nothing yet');
  const event = await page.evaluate(() => window.__events.findLast((e) => e.id === 'ghc' && e.type === 'selection').detail);
  assert.ok(event.key?.uid, JSON.stringify(event));
  assert.equal(await page.locator('#ghc-selected').textContent(), event.name);
  // The key names the task back; a key that names nothing is refused by code.
  // "Open in longpole" names the selected task by its key.
  const href = await frameOf('ghc').getByTestId('open-full-app').getAttribute('href');
  assert.ok(href.includes(`&uid=${encodeURIComponent(event.key.uid)}`), href);
  const again = await page.evaluate((key) => document.getElementById('ghc').select(key), event.key);
  assert.deepEqual(again.key, event.key);
  const refused = await page.evaluate(() => document.getElementById('ghc').select('no such task').then(() => null, (e) => e.code));
  assert.equal(refused, 'not-found');
});

test('setView switches the view and the window, and says when it cannot', async () => {
  await shown('ghc');
  const s = await summaryOf('ghc');
  const view = await page.evaluate(() => document.getElementById('ghc').setView({ view: 'table Threads' }).then(() => 'ok', (e) => e.code));
  assert.equal(view, 'ok');
  const frame = frameOf('ghc');
  await frame.locator('.tables').waitFor();
  assert.deepEqual(await frame.locator('.table-section h3').evaluateAll((hs) => hs.map((h) => h.firstChild.textContent)), ['Threads']);
  await page.evaluate(() => document.getElementById('ghc').setView({ view: 'summary' }));
  assert.match(await frame.getByTestId('report-text').textContent(), /ghc/i);
  const bad = await page.evaluate(() => document.getElementById('ghc').setView({ view: 'pie chart' }).then(() => 'ok', (e) => e.code));
  assert.equal(bad, 'bad-request');
  await page.evaluate((half) => document.getElementById('ghc').setView({ view: 'timeline', range: half }), [0, Math.floor(s.wall_ns / 2)]);
  await frame.getByTestId('timeline-chart').waitFor();
  await page.waitForFunction(() => window.__events.findLast((e) => e.id === 'ghc' && e.type === 'viewchanged')?.detail.view === 'timeline');
  // Changing the range attribute changes the window in place; times are exact strings of ns.
  const quarter = String(Math.floor(s.wall_ns / 4));
  await page.evaluate((q) => document.getElementById('ghc').setAttribute('range', `0,${q}`), quarter);
  await page.waitForFunction((q) => {
    const r = window.__events.findLast((e) => e.id === 'ghc' && e.type === 'viewchanged')?.detail.range;
    return r && BigInt(r[1]) - BigInt(r[0]) === BigInt(q);
  }, quarter);
  await page.evaluate(() => document.getElementById('ghc').removeAttribute('range'));
  await page.waitForFunction(() => window.__events.findLast((e) => e.id === 'ghc' && e.type === 'viewchanged')?.detail.range === null);
});

test('each frame is as tall as its content', async () => {
  for (const id of ['ghc', 'bench']) {
    await shown(id);
    // A browser draws a frame out of view only once it is scrolled to.
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    await page.waitForFunction((id) => window.__events.some((e) => e.id === id && e.type === 'resized' && e.detail.height > 200), id);
    const content = await frameOf(id).locator('body').evaluate((b) => Math.ceil(b.getBoundingClientRect().height));
    await page.waitForFunction(([id, h]) => Math.abs(document.querySelector(`#${id} iframe`).offsetHeight - h) <= 1, [id, content]);
    assert.ok(content > 200, `${id}: ${content}px`);
  }
});

test('a page at an origin the frame was not told of gets no hello and no answer', async () => {
  const probe = async (allow) => {
    const other = await page.context().newPage();
    try {
      await other.goto(`${evilOrigin}/?allow=${encodeURIComponent(allow)}`);
      // The app is running (and listening, and has said hello if it would).
      await other.frameLocator('#f').getByTestId('embed-waiting').waitFor({ timeout: 60_000 });
      await other.waitForTimeout(500);
      return await other.evaluate(async () => {
        const frame = document.getElementById('f');
        const channel = new MessageChannel();
        const answers = [];
        channel.port1.onmessage = (e) => answers.push(e.data);
        frame.contentWindow.postMessage({ longpole: 1, type: 'connect' }, '*', [channel.port2]);
        channel.port1.postMessage({ longpole: 1, id: 1, type: 'getSummary' });
        await new Promise((ok) => setTimeout(ok, 1500));
        return { heard: window.heard, answers: answers.filter((a) => a.id === 1).map((a) => a.error?.code) };
      });
    } finally {
      await other.close();
    }
  };
  // Told of the page's origin, the frame says hello and answers (no run: no-run)...
  assert.deepEqual(await probe(evilOrigin), { heard: ['ready'], answers: ['no-run'] });
  // ...told of another, it does neither.
  assert.deepEqual(await probe(docsOrigin), { heard: [], answers: [] });
});

test('no request leaves the two origins, no CSP is violated, nothing is logged as an error', async () => {
  await shown('ghc');
  await shown('bench');
  const local = (u) => u.startsWith(docsOrigin) || u.startsWith(appUrl.replace(/\/docs.*/, '')) || u.startsWith(evilOrigin) || /^(data|blob|about):/.test(u);
  assert.deepEqual(browser.requests.filter((u) => !local(u)), []);
  for (const frame of page.frames()) {
    assert.deepEqual(await frame.evaluate(() => window.__csp ?? []), [], frame.url());
  }
  assert.deepEqual(await page.locator('#problems').textContent(), '');
  assert.deepEqual(browser.errors, []);
});
