// Shared set-up of the end-to-end tests: serve dist/ on a free port, start
// Debian's Chromium through playwright-core with a fresh profile, and record
// every console error and every request so that tests can assert none was
// made outside the page's own origin.

import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../scripts/serve.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The repository's test data (tests/data/, credited in its README), or $LONGPOLE_CORPUS. */
export const CORPUS = process.env.LONGPOLE_CORPUS ?? join(ROOT, 'tests', 'data');

/** What `longpole analyze --format json` prints for `files` (the CLI the app is checked against). */
export function cliJson(...files) {
  const out = execFileSync('cargo', ['run', '--quiet', '-p', 'longpole-cli', '--', 'analyze', '--format', 'json', ...files], { cwd: ROOT, maxBuffer: 256 << 20 });
  return JSON.parse(out.toString());
}

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  // More switches for a diagnosis (V8's flags, say), space-separated.
  ...(process.env.LONGPOLE_CHROMIUM_ARGS ?? '').split(' ').filter(Boolean),
];

/** A fresh headless Chromium with one page, recording console errors and requests; `args` are more command-line switches; `serviceWorkers: 'block'` keeps the page from registering one. */
export async function launchBrowser({ args = [], serviceWorkers = 'allow' } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'longpole-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [...ARGS, ...args],
    serviceWorkers,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors = [];
  const requests = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  context.on('request', (r) => requests.push(r.url()));
  return {
    page,
    context,
    errors,
    requests,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Serves the bundle under `base` and opens it in a fresh Chromium, at
 * `hash` (a link's `#src=…`, built from the page's origin by `hash(origin)`
 * if it is a function); waits for the landing page unless `waitFor` is null.
 */
export async function openApp({ base = '/', hash = '', waitFor = 'landing' } = {}) {
  const server = await serve({ root: join(ROOT, 'dist'), port: 0, base });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await launchBrowser();
  const { page, errors, requests } = browser;
  await page.goto(`${origin}${base}${typeof hash === 'function' ? hash(origin) : hash}`);
  if (waitFor) await page.getByTestId(waitFor).waitFor();
  return {
    page,
    origin,
    errors,
    requests,
    context: browser.context,
    /** Requests that left the page's origin (data: and blob: URLs are local). */
    foreignRequests: () => requests.filter((u) => !u.startsWith(origin) && !/^(data|blob):/.test(u)),
    async close() {
      await browser.close();
      server.close();
    },
  };
}

/**
 * A build of `nodes` nodes simulated by distbuild-sim (200 hosts, 8 slots;
 * about 2.9 tasks a node): its log and graph.json in the temp directory,
 * named after `stem` and written once. For the measuring scripts.
 */
export function simulatedBuild(nodes, stem) {
  const log = join(tmpdir(), `longpole-${stem}-${nodes}.log`);
  const graph = join(tmpdir(), `longpole-${stem}-${nodes}.graph.json`);
  if (!existsSync(log) || !existsSync(graph)) {
    execFileSync('cargo', ['build', '--release', '-q', '-p', 'longpole-distbuild-sim'], { cwd: ROOT, stdio: 'inherit' });
    execFileSync(join(ROOT, 'target/release/distbuild-sim'), ['--nodes', String(nodes), '--hosts', '200', '--slots', '8', '--log', log, '--graph', graph], { stdio: 'inherit' });
  }
  return { log, graph };
}

/** Median and range of `xs`, rounded to 0.1 ms. For the measuring scripts. */
export function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const r = (x) => Math.round(x * 10) / 10;
  return { median: r(s[Math.floor(s.length / 2)]), min: r(s[0]), max: r(s[s.length - 1]), n: s.length };
}

/** The app at 1400 × 900 with `files` given and analysed (a measuring script's run). */
export async function openBuild(files) {
  const app = await openApp();
  await app.page.setViewportSize({ width: 1400, height: 900 });
  await app.page.getByTestId('file-input').setInputFiles(files);
  await app.page.getByTestId('analysis-ready').waitFor({ timeout: 300_000 });
  return app;
}
