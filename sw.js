// The service worker: keeps a verified copy of the app's shell, so that a
// page visited once loads and analyses with the network off.
//
// scripts/shell-manifest.mjs writes dist/sw.js as this file preceded by
// `const SHELL = { version, files: [{ path, sha256 }], lazy: [...] }`, every
// file of the bundle with its SHA-256 (`lazy`: the SQL tab's engine, too big
// to fetch before it is wanted), the version being a hash of that list and of this
// code. A new deployment changes SHELL, so the browser installs this worker
// again.
//
// - install: fetches every file of SHELL, checks its SHA-256 and, only when
//   every one matches, puts them all in the cache of this version; a failed
//   fetch or a wrong digest refuses the whole copy (nothing is kept), and the
//   open pages are told which file and why.
// - activate: deletes the caches of other versions (of this scope only),
//   takes the open pages and, if an older version was replaced, tells them.
// - fetch: answers only GET requests for the shell's own files (and the
//   scope's own address, the page): from the network while it answers, else
//   from the cache. A lazy file is answered from the cache once it is there;
//   the first time, from the network, and kept if its SHA-256 is the one
//   listed (the SQL tab then works offline); the page gets the network's
//   answer as it comes, not after the check. Any other request (another
//   origin, a log loaded by URL, a path outside the shell) is left alone.
// - message 'keep-lazy': keeps the lazy files not kept yet, fetched again
//   (the page used them before this worker controlled it).
/* global SHELL */

/** Where this scope's caches are named, one per version. */
const PREFIX = `longpole-shell ${self.registration.scope} `;
/** This version's cache. */
const CACHE = PREFIX + SHELL.version;
/** The shell's paths, relative to the scope. */
const PATHS = new Set(SHELL.files.map((f) => f.path));
/** The lazy files' digests by path. */
const LAZY = new Map((SHELL.lazy ?? []).map((f) => [f.path, f.sha256]));

/** Sends `message` (JSON text) to every page of this origin, controlled or not. */
async function tell(message) {
  const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const page of pages) page.postMessage(JSON.stringify(message));
}

/** Hexadecimal SHA-256 of `bytes`. */
async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Fetches one file of the shell and checks it; throws, naming the file, if it is not the one listed. */
async function fetchVerified({ path, sha256: expected }) {
  const url = new URL(path, self.registration.scope).href;
  let response;
  try {
    response = await fetch(url, { cache: 'no-cache' });
  } catch (e) {
    throw new Error(`${path} could not be fetched (${e.message})`);
  }
  if (!response.ok) throw new Error(`${path} could not be fetched (HTTP ${response.status})`);
  const bytes = await response.arrayBuffer();
  const actual = await sha256(bytes);
  if (actual !== expected) throw new Error(`${path} has SHA-256 ${actual}, but this version lists ${expected}`);
  const headers = new Headers(response.headers);
  return { url, response: new Response(bytes, { status: response.status, statusText: response.statusText, headers }) };
}

/** Fetches, checks and caches the whole shell, or nothing of it. */
async function install() {
  try {
    const verified = await Promise.all(SHELL.files.map(fetchVerified));
    const cache = await caches.open(CACHE);
    for (const { url, response } of verified) await cache.put(url, response);
  } catch (e) {
    await caches.delete(CACHE);
    console.warn(`longpole: the offline copy of version ${SHELL.version} was refused: ${e.message}`);
    await tell({ event: 'refused', version: SHELL.version, reason: e.message });
    throw e;
  }
}

/** Drops the other versions' caches, takes the open pages, and tells them of an update. */
async function activate() {
  const old = (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== CACHE);
  await Promise.all(old.map((name) => caches.delete(name)));
  await self.clients.claim();
  if (old.length > 0) await tell({ event: 'updated', version: SHELL.version, files: [...PATHS] });
}

/** The cache key of a request for a shell file, or null for any other request. */
function shellKey(request) {
  if (request.method !== 'GET') return null;
  const url = new URL(request.url);
  const scope = new URL(self.registration.scope);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return null;
  let path = url.pathname.slice(scope.pathname.length);
  if (request.mode === 'navigate' && path === '') path = 'index.html';
  else if (url.search !== '' && !(request.mode === 'navigate' && path === 'index.html')) return null;
  return PATHS.has(path) || LAZY.has(path) ? new URL(path, scope).href : null;
}

/** Keeps `response`, a lazy file's, when its SHA-256 is the one listed for `path`. */
async function keep(response, key, path) {
  const bytes = await response.arrayBuffer();
  if ((await sha256(bytes)) !== LAZY.get(path)) return;
  const cache = await caches.open(CACHE);
  await cache.put(key, new Response(bytes, { status: response.status, statusText: response.statusText, headers: new Headers(response.headers) }));
}

/**
 * A lazy file: this version's copy, else the network's, answered as it
 * comes (the page does not wait for the whole file and its digest) and kept
 * meanwhile, from a copy of the response.
 */
async function cacheFirst(event, key, path) {
  const cached = await caches.match(key, { cacheName: CACHE });
  if (cached) return cached;
  const response = await fetch(event.request);
  if (response.ok) event.waitUntil(keep(response.clone(), key, path));
  return response;
}

/**
 * Keeps every lazy file not kept yet, fetched again (the browser's HTTP
 * cache mostly answers): the page asks when it used them before this
 * worker controlled it, as on the first visit.
 */
async function keepLazy() {
  for (const path of LAZY.keys()) {
    const key = new URL(path, self.registration.scope).href;
    if (await caches.match(key, { cacheName: CACHE })) continue;
    const response = await fetch(key);
    if (response.ok) await keep(response, key, path);
  }
}

/** The network's answer while it answers, else this version's copy. */
async function networkFirst(request, key) {
  try {
    return await fetch(request);
  } catch (networkError) {
    const cached = await caches.match(key, { cacheName: CACHE });
    if (cached) return cached;
    throw networkError;
  }
}

self.addEventListener('install', (event) => event.waitUntil(install().then(() => self.skipWaiting())));
self.addEventListener('activate', (event) => event.waitUntil(activate()));
self.addEventListener('fetch', (event) => {
  const key = shellKey(event.request);
  if (key === null) return;
  const path = key.slice(self.registration.scope.length);
  event.respondWith(LAZY.has(path) ? cacheFirst(event, key, path) : networkFirst(event.request, key));
});
self.addEventListener('message', (event) => {
  if (event.data === 'keep-lazy') event.waitUntil(keepLazy());
});
