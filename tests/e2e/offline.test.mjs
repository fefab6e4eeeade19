// Offline and installable: the service worker (sw.js) keeps a checked copy
// of the app's shell, so a page visited once loads, analyses and exports
// Parquet (its export worker, never loaded before, is in the copy) with the
// network off; a new deployment replaces the copy at the next load and the
// page says so (a page of the old version offers a reload); the SQL tab's
// engine, used once (even before the worker controls the page), is kept
// and works offline; a file that fails its check is refused, never cached; the
// manifest's icons load; a file the system opens with the installed app
// (launchQueue) is read like a dropped one. The service worker registers
// only once the page is quiet, after its first run.
//
// Each test serves its own copy of dist/ under a sub-path, through a
// symbolic link that a "deployment" points at another copy.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { shellOf, writeServiceWorker } from '../../scripts/shell-manifest.mjs';
import { CORPUS, ROOT, cliJson, launchBrowser } from './harness.mjs';

const BASE = '/tools/longpole/';

/** A site serving copies of dist/ under BASE, and a browser on it (started with `args`, more switches). */
async function openSite({ args = [] } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'longpole-offline-'));
  const copies = [];
  /** A fresh copy of dist/, changed by `change(copyDir)`. */
  const copy = (change = () => {}) => {
    const to = join(dir, `v${copies.length + 1}`);
    cpSync(join(ROOT, 'dist'), to, { recursive: true });
    change(to);
    copies.push(to);
    return to;
  };
  /** Serves `copyDir` from now on (as a deployment replaces a site's files). */
  const deploy = (copyDir) => {
    symlinkSync(copyDir, join(dir, 'next'));
    renameSync(join(dir, 'next'), join(dir, 'current'));
  };
  deploy(copy());
  const server = await serve({ root: join(dir, 'current'), port: 0, base: BASE });
  const url = `http://127.0.0.1:${server.address().port}${BASE}`;
  const browser = await launchBrowser({ args });
  return {
    ...browser,
    url,
    copy,
    deploy,
    /** The copy served first. */
    first: copies[0],
    /** Stops the server and every connection to it: the network is gone. */
    stopServer() {
      server.closeAllConnections();
      server.close();
    },
    async close() {
      await browser.close();
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The page's caches of this scope: cache name → the URLs it holds. */
function shellCaches(page) {
  return page.evaluate(async () => {
    const out = {};
    for (const name of await caches.keys()) {
      if (!name.startsWith('longpole-shell ')) continue;
      out[name] = (await (await caches.open(name)).keys()).map((r) => r.url).sort();
    }
    return out;
  });
}

/** Waits until a service worker controls the page and the copy of `shell` is whole; gives the caches. */
async function waitForCopy(page, url, shell) {
  const name = `longpole-shell ${url} ${shell.version}`;
  const want = shell.files.map((f) => new URL(f.path, url).href).sort();
  const deadline = Date.now() + 60_000;
  for (;;) {
    const controlled = await page.evaluate(() => navigator.serviceWorker.controller !== null);
    const held = await shellCaches(page);
    if (controlled && JSON.stringify(held[name]) === JSON.stringify(want)) return held;
    if (Date.now() > deadline) assert.fail(`no whole copy of ${shell.version} after 60 s: controlled ${controlled}, caches ${JSON.stringify(held)}`);
    await page.waitForTimeout(200);
  }
}

test('a page visited once loads and analyses with the network off', async () => {
  const file = join(CORPUS, 'distbuild/example.log');
  const cli = cliJson(file);
  const site = await openSite();
  try {
    const { page } = site;
    await page.goto(site.url);
    await page.getByTestId('landing').waitFor();
    const held = await waitForCopy(page, site.url, shellOf(site.first));
    assert.equal(Object.keys(held).length, 1, 'one copy');

    await page.context().setOffline(true);
    site.stopServer();
    await page.reload();
    await page.getByTestId('landing').waitFor();
    await page.getByTestId('file-input').setInputFiles(file);
    await page.getByTestId('analysis-ready').waitFor();
    assert.equal(await page.getByTestId('detected-format').textContent(), cli.format);
    for (const kind of ['run', 'copy', 'prepare']) {
      assert.equal(Number(await page.getByTestId(`task-count-${kind}`).textContent()), cli.tasks[kind], `${kind} tasks`);
    }
    assert.equal(Number(await page.getByTestId('critical-path-total-ms').textContent()), cli.critical_path.total_ms);

    // The Parquet download's export worker, never loaded online, comes from the copy too.
    const shellPaths = shellOf(site.first).files.map((f) => f.path);
    for (const path of ['export_worker_loader.js', 'export_worker.js', 'export_worker_bg.wasm']) assert.ok(shellPaths.includes(path), path);
    await page.getByTestId('export-menu').locator('summary').click();
    const [zip] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-parquet').click()]);
    const bytes = readFileSync(await zip.path());
    assert.equal(bytes.readUInt32LE(0), 0x04034b50, 'a zip');
    assert.equal((bytes.toString('latin1').match(/PAR1/g) ?? []).length, 6, 'three Parquet files');

    // A bundled sample comes from the copy too.
    await page.reload();
    await page.getByTestId('sample-ninja').click();
    await page.getByTestId('analysis-ready').waitFor();
    assert.equal(await page.getByTestId('detected-format').textContent(), 'ninja-log');
    assert.equal(await page.getByTestId('shell-notice').count(), 0, 'nothing to say on a first visit');
    assert.deepEqual(site.errors, []);
    const origin = new URL(site.url).origin;
    assert.deepEqual(site.requests.filter((u) => !u.startsWith(origin) && !/^(data|blob):/.test(u)), [], 'no foreign request');
  } finally {
    await site.close();
  }
});

test('the service worker waits for the first run: it registers once the page has been quiet', async () => {
  const site = await openSite();
  try {
    const { page } = site;
    // A link's run is read from the page's start: no install beside it.
    await page.goto(`${site.url}#src=samples/simulated-build.log.gz&src=samples/simulated-build.graph.json.gz`);
    await page.getByTestId('analysis-ready').waitFor({ timeout: 60_000 });
    assert.equal(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()) ?? null), null, 'not registered while the run was read');
    await waitForCopy(page, site.url, shellOf(site.first));
    assert.deepEqual(site.errors, []);
  } finally {
    await site.close();
  }
});

/** Opens the ninja sample, then (after `meanwhile()`) the SQL tab; the tasks' count there. */
async function sqlCount(page, meanwhile = async () => {}) {
  await page.getByTestId('sample-ninja').click();
  await page.getByTestId('analysis-ready').waitFor();
  await meanwhile();
  await page.getByTestId('tab-sql').click();
  await page.waitForFunction(() => !document.querySelector('[data-testid=sql-run]')?.disabled, null, { timeout: 120_000 });
  await page.getByTestId('sql-editor').fill('SELECT count(*) FROM tasks');
  await page.getByTestId('sql-run').click();
  await page.getByTestId('sql-result').waitFor();
  return page.locator('[data-testid=sql-result] tbody td').first().textContent();
}

/** Waits until the SQL engine's files are kept, then stops the network: the tab counts `online` tasks again. */
async function sameCountOffline(site, online) {
  const { page } = site;
  const want = shellOf(site.first).lazy.map((f) => new URL(f.path, site.url).href);
  for (let i = 0; ; i++) {
    const cached = Object.values(await shellCaches(page)).flat();
    if (want.every((u) => cached.includes(u))) break;
    if (i > 300) assert.fail(`the engine was not kept: ${cached.filter((u) => u.includes('/sql/'))}`);
    await page.waitForTimeout(200);
  }
  await page.context().setOffline(true);
  site.stopServer();
  // The page's link now names the sample and the query: open the bare page instead.
  await page.goto(site.url);
  await page.getByTestId('landing').waitFor();
  assert.equal(await sqlCount(page), online, 'the same answer offline');
}

test('the SQL tab, once used, works with the network off; its engine is not part of the first copy', async () => {
  const site = await openSite();
  try {
    const { page } = site;
    await page.goto(site.url);
    await page.getByTestId('landing').waitFor();
    const shell = shellOf(site.first);
    await waitForCopy(page, site.url, shell);
    assert.ok(shell.lazy.some((f) => f.path === 'sql/duckdb-eh.wasm'), 'DuckDB is listed, to be checked when it comes');
    assert.ok(!shell.files.some((f) => f.path.startsWith('sql/')), 'and not fetched with the shell');
    const held = await shellCaches(page);
    const engine = new URL('sql/', site.url).href;
    assert.ok(!Object.values(held).flat().some((u) => u.startsWith(engine)), 'nothing of the engine is copied before the tab opens');

    const online = await sqlCount(page);
    // The engine's files are kept as they come, checked against their digests.
    await sameCountOffline(site, online);
    assert.deepEqual(site.errors, []);
  } finally {
    await site.close();
  }
});

test('the SQL tab used before the service worker controls the page is kept for offline use once it does', async () => {
  const site = await openSite();
  try {
    const { page } = site;
    await page.goto(site.url);
    await page.getByTestId('landing').waitFor();
    // The worker registers only once the page is quiet: the tab opens first.
    const online = await sqlCount(page, async () => {
      assert.equal(await page.evaluate(() => navigator.serviceWorker.controller), null, 'no worker controls the page yet');
    });
    // Once the worker is active it keeps the engine's files, asked by the page.
    await sameCountOffline(site, online);
    assert.deepEqual(site.errors, []);
  } finally {
    await site.close();
  }
});

test('a new deployment replaces the copy at the next load, and the page says so', async () => {
  const site = await openSite();
  try {
    const { page } = site;
    await page.goto(site.url);
    await page.getByTestId('landing').waitFor();
    const v1 = shellOf(site.first);
    await waitForCopy(page, site.url, v1);

    const next = site.copy((dir) => {
      appendFileSync(join(dir, 'boot.js'), '// deployment 2\n');
      writeServiceWorker(dir);
    });
    const v2 = shellOf(next);
    assert.notEqual(v2.version, v1.version);
    site.deploy(next);
    await page.reload();
    const notice = page.getByTestId('shell-notice');
    await notice.waitFor();
    assert.equal(await notice.getAttribute('data-kind'), 'updated');
    assert.equal(await page.getByTestId('shell-notice-text').textContent(), `Updated to a new version (${v2.version}); it is kept for offline use.`);
    const held = await waitForCopy(page, site.url, v2);
    assert.deepEqual(Object.keys(held), [`longpole-shell ${site.url} ${v2.version}`], 'the old copy is gone');
    const boot = await page.evaluate(async (url) => (await caches.match(url)).text(), new URL('boot.js', site.url).href);
    assert.match(boot, /\/\/ deployment 2\n$/);

    // The notice goes when asked, and the page goes on working.
    await notice.getByRole('button', { name: 'Hide this notice' }).click();
    await notice.waitFor({ state: 'detached' });
    await page.getByTestId('sample-distbuild-tiny').click();
    await page.getByTestId('analysis-ready').waitFor();
    assert.deepEqual(site.errors, []);
  } finally {
    await site.close();
  }
});

test('a page of the old version still open is told a new one is ready, and a reload takes it', async () => {
  const site = await openSite();
  try {
    const { page: old } = site;
    await old.goto(site.url);
    await old.getByTestId('landing').waitFor();
    await waitForCopy(old, site.url, shellOf(site.first));

    // A deployment whose page has another script than the open page's.
    const next = site.copy((dir) => {
      const html = readFileSync(join(dir, 'index.html'), 'utf8');
      const script = html.match(/data-longpole-js="\.\/([^"]+)"/)[1];
      const renamed = script.replace(/\.js$/, '-2.js');
      renameSync(join(dir, script), join(dir, renamed));
      writeFileSync(join(dir, 'index.html'), html.replaceAll(script, renamed));
      writeServiceWorker(dir);
    });
    const v2 = shellOf(next);
    site.deploy(next);
    const fresh = await old.context().newPage();
    await fresh.goto(site.url);
    await fresh.getByTestId('shell-notice').waitFor();
    assert.equal(await fresh.getByTestId('shell-notice').getAttribute('data-kind'), 'updated');
    const notice = old.getByTestId('shell-notice');
    await notice.waitFor();
    assert.equal(await notice.getAttribute('data-kind'), 'new-version-ready');
    assert.equal(await old.getByTestId('shell-notice-text').textContent(), `A new version (${v2.version}) is ready: reload to use it.`);

    await old.getByTestId('shell-reload').click();
    await old.waitForFunction(() => document.querySelector('script[data-longpole-js]')?.dataset.longpoleJs.endsWith('-2.js'));
    await old.getByTestId('landing').waitFor();
    assert.deepEqual(site.errors, []);
  } finally {
    await site.close();
  }
});

test('a file that fails its check is refused: nothing is cached, and the page says which', async () => {
  const site = await openSite();
  try {
    const { page } = site;
    const tampered = site.copy((dir) => appendFileSync(join(dir, 'samples', 'ninja-kati.ninja_log'), 'x'));
    site.deploy(tampered);
    const listed = shellOf(site.first).files.find((f) => f.path === 'samples/ninja-kati.ninja_log').sha256;
    const actual = shellOf(tampered).files.find((f) => f.path === 'samples/ninja-kati.ninja_log').sha256;
    await page.goto(site.url);
    const notice = page.getByTestId('shell-notice');
    await notice.waitFor({ timeout: 60_000 });
    assert.equal(await notice.getAttribute('data-kind'), 'refused');
    // The version refused is the one its sw.js lists: the build's.
    const version = shellOf(site.first).version;
    assert.equal(
      await page.getByTestId('shell-notice-text').textContent(),
      `The offline copy of version ${version} was refused: samples/ninja-kati.ninja_log has SHA-256 ${actual}, but this version lists ${listed}. The page works while online.`,
    );
    assert.deepEqual(await shellCaches(page), {});
    assert.equal(await page.evaluate(() => navigator.serviceWorker.controller), null);
    // Online, the page works as before.
    await page.getByTestId('file-input').setInputFiles(join(CORPUS, 'distbuild/example.log'));
    await page.getByTestId('analysis-ready').waitFor();
    assert.deepEqual(site.errors, []);
  } finally {
    await site.close();
  }
});

test('the manifest reads without an error, makes the page installable, its icons load, and it handles the formats\' files', async () => {
  const site = await openSite();
  try {
    const { page } = site;
    await page.goto(site.url);
    await page.getByTestId('landing').waitFor();
    // Chromium reads the manifest without an error and finds the page installable.
    const cdp = await page.context().newCDPSession(page);
    assert.deepEqual((await cdp.send('Page.getAppManifest')).errors, []);
    assert.deepEqual((await cdp.send('Page.getInstallabilityErrors')).installabilityErrors, []);
    const href = await page.locator('link[rel="manifest"]').evaluate((l) => l.href);
    const manifest = await page.evaluate(async (href) => (await fetch(href)).json(), href);
    assert.equal(manifest.short_name, 'longpole');
    assert.equal(manifest.display, 'standalone');
    assert.equal(manifest.start_url, './');
    assert.equal(manifest.scope, './');
    assert.equal(manifest.launch_handler.client_mode, 'focus-existing');
    const extensions = Object.values(manifest.file_handlers[0].accept).flat();
    for (const ext of ['.ninja_log', '.eventlog', '.json', '.log', '.txt', '.gz', '.bz2', '.zst', '.zstd']) assert.ok(extensions.includes(ext), ext);
    for (const icon of manifest.icons) {
      const got = await page.evaluate(async (url) => {
        const r = await fetch(url);
        const bytes = new Uint8Array(await r.arrayBuffer());
        return { status: r.status, type: r.headers.get('content-type'), head: Array.from(bytes.slice(0, 24)) };
      }, new URL(icon.src, href).href);
      assert.equal(got.status, 200, icon.src);
      assert.equal(got.type, icon.type, icon.src);
      if (icon.type === 'image/png') {
        const side = Number(icon.sizes.split('x')[0]);
        const view = Buffer.from(got.head);
        assert.equal(view.readUInt32BE(16), side, `${icon.src}'s width`);
        assert.equal(view.readUInt32BE(20), side, `${icon.src}'s height`);
      }
    }
    assert.deepEqual(site.errors, []);
  } finally {
    await site.close();
  }
});

test('a file the system opens with the installed app is read like a dropped one', async () => {
  const site = await openSite();
  try {
    const { page } = site;
    // The launch queue as the browser gives it to an installed app, recording the app's consumer
    // (defined over Chromium's own, which only an installed app's launches fill).
    await page.addInitScript(() => {
      const queue = { setConsumer: (consumer) => { window.launchConsumer = consumer; } };
      Object.defineProperty(window, 'launchQueue', { value: queue, configurable: true });
    });
    await page.goto(site.url);
    await page.getByTestId('landing').waitFor();
    await page.waitForFunction(() => typeof window.launchConsumer === 'function');
    const bytes = [...readFileSync(join(CORPUS, 'distbuild/example.log'))];
    await page.evaluate((bytes) => {
      const handle = { kind: 'file', name: 'example.log', getFile: async () => new File([new Uint8Array(bytes)], 'example.log') };
      window.launchConsumer({ files: [handle] });
    }, bytes);
    await page.getByTestId('analysis-ready').waitFor();
    assert.equal(await page.getByTestId('detected-format').textContent(), 'distbuild');
    assert.equal(await page.getByTestId('task-count-run').textContent(), '3');

    // A file the system cannot hand over is named in the error.
    await page.evaluate(() => {
      const handle = { kind: 'file', name: 'gone.log', getFile: async () => { throw new DOMException('the file was removed', 'NotFoundError'); } };
      window.launchConsumer({ files: [handle] });
    });
    await page.getByTestId('error').waitFor();
    assert.equal(await page.getByTestId('error').textContent(), 'could not open gone.log, which the system gave longpole: the file was removed');
    assert.deepEqual(site.errors, []);
  } finally {
    await site.close();
  }
});

test('on an insecure origin there is no offline copy: one informative line, no error', async () => {
  // The same server under a name that is not localhost: plain http there is not a secure context.
  const site = await openSite({ args: ['--host-resolver-rules=MAP longpole.test 127.0.0.1'] });
  try {
    const { page } = site;
    const messages = [];
    page.on('console', (m) => messages.push(`${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => messages.push(`pageerror: ${e}`));
    const url = site.url.replace('127.0.0.1', 'longpole.test');
    await page.goto(url);
    await page.getByTestId('landing').waitFor();
    assert.equal(await page.evaluate(() => isSecureContext), false);
    await page.getByTestId('sample-distbuild-tiny').click();
    await page.getByTestId('analysis-ready').waitFor();
    // The page tries for a service worker once it has been quiet 2 s.
    for (let i = 0; i < 50 && !messages.some((m) => m.includes('no offline copy here')); i++) await page.waitForTimeout(200);
    // Chromium's own warnings (a preload's integrity attribute) are not the page's.
    assert.deepEqual(messages.filter((m) => /^(error|pageerror|info|log)/.test(m)), [
      'info: longpole: no offline copy here: service workers need a secure context (https, or http on localhost), and this page is http:',
    ]);
    assert.equal(await page.getByTestId('shell-notice').count(), 0);
  } finally {
    await site.close();
  }
});
