// Starts the app. Trunk writes the hashed file names into this script's
// data attributes (Trunk.toml, pattern_script); an external script keeps the
// Content-Security-Policy free of 'unsafe-inline'.
//
// The analysis worker starts first, so its WebAssembly loads while the
// page's own does; its messages and errors wait in `early` until the app
// takes the worker over (src/hooks/use_analysis_worker.rs).
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
const { default: init } = await import(new URL(boot.dataset.longpoleJs, base).href);
await init({ module_or_path: new URL(boot.dataset.longpoleWasm, base) });
