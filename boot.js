// Starts the app. Trunk writes the hashed file names into this script's
// data attributes (Trunk.toml, pattern_script); an external script keeps the
// Content-Security-Policy free of 'unsafe-inline'.
//
// The analysis worker starts first, so its WebAssembly loads while the
// page's own does; its messages and errors wait in `early` until the app
// takes the worker over (src/hooks/use_analysis_worker.rs).
//
// First it writes the page's Content-Security-Policy: a <meta> policy
// cannot be loosened once parsed, and only the link knows whether the page
// may connect anywhere but its own origin. By default it may not; a link
// `#src=URL` (src/link.rs) adds URL's origin to connect-src, and nothing
// else. A link `native=1` (`longpole open --native`, src/hooks/native_socket.rs)
// adds the page's own host as ws: (wss: on https), which CSP level 2
// browsers do not count as 'self'. A hash later changed to name other inputs reloads the page
// (src/hooks/use_link_load.rs), so this runs again for them.
const policy = (() => {
  const origins = new Set();
  for (const part of location.hash.replace(/^#/, '').split('&')) {
    const at = part.indexOf('=');
    if (part === 'native=1') origins.add(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}`);
    if (part.slice(0, at) !== 'src') continue;
    try {
      const url = new URL(decodeURIComponent(part.slice(at + 1)), location.href);
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== location.origin) origins.add(url.origin);
    } catch {
      // Not a URL: the app says so, and fetches nothing.
    }
  }
  const connect = ["'self'", ...origins].join(' ');
  return `default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; connect-src ${connect}; worker-src 'self'; object-src 'none'; base-uri 'self'; form-action 'none'`;
})();
const csp = document.createElement('meta');
csp.httpEquiv = 'Content-Security-Policy';
csp.content = policy;
document.head.prepend(csp);

const boot = document.querySelector('script[data-longpole-js]');
const base = document.baseURI;
try {
  const worker = new Worker(new URL('worker_loader.js', base));
  const early = [];
  worker.onmessage = (e) => early.push(e);
  worker.onerror = (e) => early.push(e);
  globalThis.longpoleWorker = { worker, early };
} catch {
  // The app starts its own worker, and says so if that fails too.
}
// The SQL tab's engine (src/sql_engine.rs): dist/sql/engine.js, built by
// scripts/build-sql-engine.mjs, imported only the first time it is asked
// for, so that nothing of DuckDB is fetched before the SQL tab opens. A
// page no service worker controlled when the engine came (a first visit:
// the worker registers once the page is quiet) asks the worker to keep the
// engine's files for offline use once it is active (sw.js, 'keep-lazy').
globalThis.longpoleSql = {
  open: async (progress) => {
    const controlled = Boolean(navigator.serviceWorker?.controller);
    const engine = await import(new URL('sql/engine.js', base).href).then((m) => m.open(progress));
    if (!controlled) navigator.serviceWorker?.ready.then((r) => r.active?.postMessage('keep-lazy'));
    return engine;
  },
};
const { default: init } = await import(new URL(boot.dataset.longpoleJs, base).href);
await init({ module_or_path: new URL(boot.dataset.longpoleWasm, base) });
