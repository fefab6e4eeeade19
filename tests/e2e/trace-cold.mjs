// A Chrome trace of a cold page (a fresh browser) given FILE... the moment
// it shows, for finding where a first visit's time goes (docs/numbers.md,
// "Cold start"); open OUT in Perfetto or chrome://tracing.
//
//   OUT=/tmp/cold-trace.json node tests/e2e/trace-cold.mjs FILE...
import { chromium } from 'playwright-core';
import { join } from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { ROOT } from './harness.mjs';
const out = process.env.OUT ?? '/tmp/cold-trace.json';
const files = process.argv.slice(2);
const server = await serve({ root: join(ROOT, 'dist'), port: 0, base: '/' });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
const page = await browser.newPage();
await browser.startTracing(page, { path: out, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.wasm', 'disabled-by-default-v8.wasm.detailed', 'disabled-by-default-v8.compile', 'v8.execute', 'blink', 'toplevel'] });
await page.goto(`http://127.0.0.1:${server.address().port}/`);
await page.getByTestId('landing').waitFor();
const t0 = Date.now();
await page.getByTestId('file-input').setInputFiles(files);
await page.getByTestId('analysis-ready').waitFor({ timeout: 120000 });
console.log('ready after', Date.now() - t0, 'ms');
await new Promise((r) => setTimeout(r, 300));
await browser.stopTracing();
await browser.close();
server.close();
