// The page's what-if against `longpole whatif`: a ya build (the simulated
// sample, by link) and a ninja build (a CMake build's log with its
// manifest, dropped), a lever selected in the Levers view and its speed-up
// slider at 40 %, give the CLI's wall, what-if wall and saving for the same
// files and factor (0.6). The what-if survives a reload through the link,
// and a host sets and reads it through the embed API.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { launchBrowser, openApp, ROOT } from './harness.mjs';
import { serve } from '../../scripts/serve.mjs';
import { serveDocs } from '../../examples/docs-site/serve.mjs';

const YA = ['simulated-build.log.gz', 'simulated-build.graph.json.gz'];
const NINJA_DIR = join(ROOT, 'crates', 'core', 'tests', 'fixtures', 'ninja', 'cmake-chain');
const NINJA = ['.ninja_log', 'build.ninja', 'rules.ninja', '.ninja_deps'].map((f) => join(NINJA_DIR, f));
const SPEEDUP = 40;
const FACTOR = '0.6';

/** `longpole whatif FILES --faster KEY=FACTOR --format json`. */
function cliWhatIf(files, key, factor = FACTOR) {
  const args = ['run', '--quiet', '-p', 'longpole-cli', '--', 'whatif', ...files, '--faster', `${key}=${factor}`, '--format', 'json'];
  return JSON.parse(execFileSync('cargo', args, { cwd: ROOT, maxBuffer: 64 << 20 }).toString());
}

/** The page's what-if shown, in ms as the CLI gives it. */
async function pageWhatIf(page, speedup = SPEEDUP) {
  const result = page.locator(`[data-testid=what-if-result][data-speedup="${speedup}"]`);
  await result.waitFor({ timeout: 60_000 });
  const ms = async (id) => Number(await result.getByTestId(id).getAttribute('data-ns')) / 1e6;
  return { wall_ms: await ms('what-if-wall'), what_if_wall_ms: await ms('what-if-new-wall'), saved_ms: await ms('what-if-saved') };
}

/** The levers listed, `[{task, name}]`, once the Levers view shows them. */
async function levers(page) {
  await page.getByTestId('show-levers').click();
  await page.getByTestId('lever').first().waitFor({ timeout: 60_000 });
  return page.getByTestId('lever').evaluateAll((els) => els.map((e) => ({ task: e.dataset.task, name: e.title })));
}

/** The first lever whose name the CLI takes for that one task only, with the CLI's what-if. */
function leverForCli(list, files) {
  for (const lever of list) {
    const cli = cliWhatIf(files, lever.name);
    if (cli.changed.length === 1) return { lever, cli };
  }
  throw new Error(`no lever's name names one task: ${list.map((l) => l.name).join(', ')}`);
}

/** Selects `lever` in the Levers view and moves its slider. */
async function tryLever(page, lever, speedup = SPEEDUP) {
  await page.locator(`[data-testid=lever][data-task="${lever.task}"]`).click();
  await page.getByTestId('what-if-slider').fill(String(speedup));
}

const figures = (x) => ({ wall_ms: x.wall_ms, what_if_wall_ms: x.what_if_wall_ms, saved_ms: x.saved_ms });

test('a ya build: the slider gives longpole whatif\'s figures, and a reload through the link keeps them', async () => {
  const files = YA.map((f) => join(ROOT, 'samples', f));
  const app = await openApp({ hash: `#${YA.map((f) => `src=samples/${f}`).join('&')}`, waitFor: 'analysis-ready' });
  try {
    const { lever, cli } = leverForCli(await levers(app.page), files);
    await tryLever(app.page, lever);
    assert.deepEqual(await pageWhatIf(app.page), figures(cli));
    assert.ok(cli.saved_ms > 0, 'the top levers save time');
    await app.page.getByTestId('what-if-end').waitFor();
    // The link keeps the task and the speed-up: a reload shows the same what-if.
    await app.page.waitForFunction((s) => location.hash.includes(`speedup=${s}`), SPEEDUP);
    await app.page.reload();
    await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    assert.deepEqual(await pageWhatIf(app.page), figures(cli));
    assert.equal(await app.page.getByTestId('what-if-slider').inputValue(), String(SPEEDUP));
    assert.deepEqual(app.errors, []);
    assert.deepEqual(app.foreignRequests(), []);
  } finally {
    await app.close();
  }
});

test('a ninja build with its manifest: the slider gives longpole whatif\'s figures', async () => {
  const app = await openApp();
  try {
    await app.page.getByTestId('file-input').setInputFiles(NINJA);
    await app.page.getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    const { lever, cli } = leverForCli(await levers(app.page), NINJA);
    await tryLever(app.page, lever);
    assert.deepEqual(await pageWhatIf(app.page), figures(cli));
    // 100 %: the task takes no time, and saves its drag.
    await app.page.getByTestId('what-if-slider').fill('100');
    const none = cliWhatIf(NINJA, lever.name, '0');
    assert.deepEqual(await pageWhatIf(app.page, 100), figures(none));
    assert.equal(Number(await app.page.getByTestId('what-if-drag').getAttribute('data-ns')) / 1e6, none.saved_ms);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});

test('a host sets the what-if through the embed API and reads longpole whatif\'s figures back', async () => {
  const BASE = '/docs/longpole/';
  const app = await serve({ root: join(ROOT, 'dist'), port: 0, base: BASE });
  const docs = await serveDocs({ port: 0, app: `http://127.0.0.1:${app.address().port}${BASE}` });
  const browser = await launchBrowser();
  const { page } = browser;
  try {
    await page.context().addInitScript(() => {
      window.__whatif = [];
      document.addEventListener('whatif', (e) => window.__whatif.push(e.detail), true);
    });
    await page.goto(`http://127.0.0.1:${docs.address().port}/`);
    await page.frameLocator('#build iframe').getByTestId('analysis-ready').waitFor({ timeout: 120_000 });
    const summary = await page.evaluate(() => document.getElementById('build').getSummary());
    // The longest path step whose name the CLI takes for that one task,
    // selected by its key (uid and start: a copy shares its uid).
    const files = YA.map((f) => join(ROOT, 'samples', f));
    const { step, cli } = summary.critical_path.top
      .map((s) => ({ step: s, cli: cliWhatIf(files, s.label) }))
      .find((c) => c.cli.changed.length === 1);
    const key = { uid: step.uid, start: step.start_ns };
    await page.evaluate(([key, speedup]) => document.getElementById('build').setWhatIf({ select: key, speedup }), [key, SPEEDUP]);
    await page.waitForFunction(() => window.__whatif.length > 0, null, { timeout: 60_000 });
    const read = await page.evaluate(() => document.getElementById('build').getWhatIf());
    assert.equal(read.speedup, SPEEDUP);
    assert.equal(read.key.uid, step.uid);
    assert.deepEqual(figures(read), figures(cli));
    assert.deepEqual(figures(await page.evaluate(() => window.__whatif.at(-1))), figures(cli));
    // Back to as it was.
    await page.evaluate(() => document.getElementById('build').setWhatIf({ speedup: 0 }));
    const cleared = await page.evaluate(() => document.getElementById('build').getWhatIf());
    assert.equal(cleared.speedup, null);
    assert.equal(cleared.saved_ms, undefined);
  } finally {
    await browser.close();
    app.close();
    docs.close();
  }
});
