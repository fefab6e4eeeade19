// Starts the analysis worker (Trunk builds worker.js and worker_bg.wasm
// from the `worker` binary, unhashed). Relative URLs: any base path works.
importScripts('./worker.js');
wasm_bindgen({ module_or_path: './worker_bg.wasm' });
