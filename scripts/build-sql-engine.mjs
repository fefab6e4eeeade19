// Builds the SQL tab's engine into DIR (default target/web/sql), which
// index.html copies to dist/sql/: sql/engine.mjs bundled with DuckDB-wasm's
// page API and its Arrow library (esbuild, one ES module), DuckDB's worker
// and its WebAssembly (the build for browsers with WebAssembly exceptions,
// which every browser the app supports has). scripts/build.sh runs it before
// trunk. Nothing is downloaded: both packages come from node_modules.
//
//   node scripts/build-sql-engine.mjs [DIR]

import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(root, 'target', 'web', 'sql'));
const duck = join(root, 'node_modules', '@duckdb', 'duckdb-wasm', 'dist');
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(root, 'sql', 'engine.mjs')],
  outfile: join(out, 'engine.js'),
  bundle: true,
  format: 'esm',
  minify: true,
  target: 'es2022',
  legalComments: 'linked',
  logLevel: 'warning',
});
for (const file of ['duckdb-browser-eh.worker.js', 'duckdb-eh.wasm']) copyFileSync(join(duck, file), join(out, file));
console.log(`${out}: the SQL engine (engine.js, duckdb-browser-eh.worker.js, duckdb-eh.wasm)`);
