//! The SQL tab's engine, DuckDB-wasm, as the page sees it: the JavaScript
//! module `sql/engine.mjs` (bundled into `dist/sql/` by
//! `scripts/build-sql-engine.mjs`), imported by `boot.js`'s
//! `longpoleSql.open` only when [`open`] is first called (a global, not a
//! wasm-bindgen snippet: the workers' builds take no JS modules). Each
//! call answers a JSON text or throws DuckDB's own message.

use js_sys::{Promise, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = longpoleSql, js_name = open, catch)]
    fn open_sql_engine(progress: &js_sys::Function) -> Result<Promise, JsValue>;
}

#[wasm_bindgen]
extern "C" {
    /// The engine: DuckDB and its connection, and the last result.
    #[derive(Clone)]
    pub type Engine;

    #[wasm_bindgen(method, js_name = reset)]
    fn drop_all(this: &Engine) -> Promise;

    #[wasm_bindgen(method, js_name = addArrow)]
    fn add_arrow(this: &Engine, name: &str, bytes: &Uint8Array) -> Promise;

    #[wasm_bindgen(method)]
    fn schema(this: &Engine) -> Promise;

    #[wasm_bindgen(method)]
    fn run(this: &Engine, sql: &str, by: &str, desc: bool) -> Promise;

    #[wasm_bindgen(method, js_name = sample)]
    fn sample_rows(this: &Engine, sql: &str, count: f64) -> Promise;

    #[wasm_bindgen(method, catch)]
    fn page(this: &Engine, offset: f64, count: f64) -> Result<String, JsValue>;

    #[wasm_bindgen(method, catch)]
    fn csv(this: &Engine) -> Result<String, JsValue>;
}

/// A thrown value's message.
pub fn message(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).or_else(|| e.as_string()).unwrap_or_else(|| {
        js_sys::JSON::stringify(e).ok().and_then(|s| s.as_string()).unwrap_or_else(|| "an unknown error".into())
    })
}

/// The text a promise resolves to.
async fn text(promise: Promise) -> Result<String, String> {
    let v = JsFuture::from(promise).await.map_err(|e| message(&e))?;
    Ok(v.as_string().unwrap_or_default())
}

/// Loads the engine; `progress(bytes loaded, bytes total)` hears its download.
pub async fn open(progress: &js_sys::Function) -> Result<Engine, String> {
    let promise = open_sql_engine(progress).map_err(|e| message(&e))?;
    let engine = JsFuture::from(promise).await.map_err(|e| message(&e))?;
    Ok(engine.unchecked_into())
}

impl Engine {
    /// Drops every table and view.
    pub async fn reset(&self) -> Result<(), String> {
        JsFuture::from(self.drop_all()).await.map(drop).map_err(|e| message(&e))
    }

    /// Adds (or replaces) table `name` from an Arrow IPC stream.
    pub async fn add_table(&self, name: &str, ipc: &Uint8Array) -> Result<(), String> {
        JsFuture::from(self.add_arrow(name, ipc)).await.map(drop).map_err(|e| message(&e))
    }

    /// The tables and their columns, as JSON text.
    pub async fn tables(&self) -> Result<String, String> {
        text(self.schema()).await
    }

    /// Runs `sql`, sorted by the column `by` (none if empty), and keeps its
    /// result; answers its head as JSON text, or DuckDB's message.
    pub async fn query(&self, sql: &str, by: &str, desc: bool) -> Result<String, String> {
        text(self.run(sql, by, desc)).await
    }

    /// Runs `sql` without keeping its result, and answers its head and
    /// first `count` rows as JSON text.
    pub async fn sample(&self, sql: &str, count: usize) -> Result<String, String> {
        text(self.sample_rows(sql, count as f64)).await
    }

    /// Rows of the last result, as JSON text.
    pub fn rows(&self, offset: u64, count: usize) -> Result<String, String> {
        self.page(offset as f64, count as f64).map_err(|e| message(&e))
    }

    /// The last result as CSV.
    pub fn result_csv(&self) -> Result<String, String> {
        self.csv().map_err(|e| message(&e))
    }
}
