// Writes the service worker of a built bundle: lists every file of DIR
// (the app's shell; the SQL engine's files under sql/ apart, as fetched
// only when first asked for) with its SHA-256, names the version by a hash of that
// list and of the worker's code, and writes DIR/sw.js as that list followed by sw.js (the worker's
// code). scripts/build.sh runs it on dist/ after trunk; the end-to-end
// tests run it on copies of dist/ to make a new deployment.
//
//   node scripts/shell-manifest.mjs [DIR]    (DIR defaults to dist)

import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The worker's code, at the repository's root. */
const SOURCE = join(dirname(fileURLToPath(import.meta.url)), '..', 'sw.js');
/** The file this script writes, which is not part of the list. */
const OUTPUT = 'sw.js';
/** Files fetched only when first asked for (the SQL tab's engine): listed with their digests, not installed. */
const LAZY = 'sql/';

/** Every file under `dir`, as sorted paths relative to it with '/' between folders. */
function filesOf(dir, root = dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesOf(join(dir, e.name), root) : [relative(root, join(dir, e.name)).split(sep).join('/')]))
    .sort();
}

/** Hexadecimal SHA-256 of `bytes`. */
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** The shell of `dir`: its version, its files with their digests, and the lazy ones likewise. */
export function shellOf(dir) {
  const all = filesOf(dir)
    .filter((path) => path !== OUTPUT)
    .map((path) => ({ path, sha256: sha256(readFileSync(join(dir, path))) }));
  const files = all.filter((f) => !f.path.startsWith(LAZY));
  const lazy = all.filter((f) => f.path.startsWith(LAZY));
  if (!files.some((f) => f.path === 'index.html')) throw new Error(`${dir} holds no index.html: build it first`);
  // The worker's own code counts too: a new worker is a new version, never a new writer of an old one's cache.
  const version = sha256(all.map((f) => `${f.sha256} ${f.path}\n`).join('') + readFileSync(SOURCE, 'utf8')).slice(0, 16);
  return { version, files, lazy };
}

/** Writes `dir`/sw.js for the shell of `dir`; returns that shell. */
export function writeServiceWorker(dir) {
  const shell = shellOf(dir);
  const header = '// Written by scripts/shell-manifest.mjs from sw.js: the shell\'s files and digests, then the worker.\n';
  writeFileSync(join(dir, OUTPUT), `${header}const SHELL = ${JSON.stringify(shell, null, 1)};\n${readFileSync(SOURCE, 'utf8')}`);
  return shell;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = resolve(process.argv[2] ?? 'dist');
  const shell = writeServiceWorker(dir);
  console.log(`${join(dir, OUTPUT)}: shell version ${shell.version}, ${shell.files.length} files`);
}
