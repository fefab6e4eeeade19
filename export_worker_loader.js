// Starts the export worker (Trunk builds export_worker.js and
// export_worker_bg.wasm from the `export_worker` binary, unhashed). The page
// starts it only when the Parquet download is asked for. Relative URLs: any
// base path works.
importScripts('./export_worker.js');
wasm_bindgen({ module_or_path: './export_worker_bg.wasm' });
