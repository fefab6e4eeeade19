// What each WebAssembly module of the built bundle (dist/) carries: the
// page's module and the analysis worker's, which every visit loads, hold
// none of the heavy writers (the `.xlsx` workbook, the Parquet tables;
// the analysis worker holds only arrow-rs's IPC writer, for the SQL tab);
// the export worker, loaded only for those downloads, holds both. The
// writers' own constant strings stand for their code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './harness.mjs';

const DIST = join(ROOT, 'dist');
/** Strings only the writers' code holds: rust_xlsxwriter's namespace, parquet's `created_by`. */
const WRITERS = { xlsx: 'schemas.openxmlformats.org/spreadsheetml', parquet: 'parquet-rs version' };

const holds = (file, text) => readFileSync(join(DIST, file)).includes(Buffer.from(text));

test('the modules every page loads carry no workbook or Parquet writer; the export worker carries both', () => {
  const wasm = readdirSync(DIST).filter((f) => f.endsWith('_bg.wasm'));
  const page = wasm.filter((f) => f.startsWith('app-'));
  assert.equal(page.length, 1, `one page module in dist/: ${wasm}`);
  for (const file of [...page, 'worker_bg.wasm']) {
    for (const [writer, text] of Object.entries(WRITERS)) {
      assert.ok(!holds(file, text), `${file} carries the ${writer} writer`);
    }
  }
  for (const [writer, text] of Object.entries(WRITERS)) {
    assert.ok(holds('export_worker_bg.wasm', text), `the export worker lacks the ${writer} writer`);
  }
});
