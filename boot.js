// Starts the app. Trunk writes the hashed file names into this script's
// data attributes (Trunk.toml, pattern_script); an external script keeps the
// Content-Security-Policy free of 'unsafe-inline'.
const boot = document.querySelector('script[data-longpole-js]');
const base = document.baseURI;
const { default: init } = await import(new URL(boot.dataset.longpoleJs, base).href);
await init({ module_or_path: new URL(boot.dataset.longpoleWasm, base) });
