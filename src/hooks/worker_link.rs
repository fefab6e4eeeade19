//! What the page's handles on its workers share: the link that holds
//! messages until a worker (or a `longpole open --native` server's socket)
//! is ready ([`Link`]), and saving a file a worker made ([`save_file`]). Used by [`super::use_analysis_worker`] and
//! [`super::use_export_worker`].

use crate::protocol::FILE_MESSAGE;
use js_sys::Array;
use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{File, WebSocket, Worker};

/// The worker and the messages waiting for it to be ready.
///
/// A worker drops messages that arrive before its WebAssembly has loaded and
/// installed its handler, so requests wait here until it says `Ready`.
#[derive(Default)]
pub struct Link {
    /// The worker, once started.
    pub worker: Option<Worker>,
    /// Or the native server's socket, once opened: it is sent the
    /// messages' JSON only (the server reads its own files).
    pub socket: Option<WebSocket>,
    /// It said it is ready.
    pub ready: bool,
    /// Messages waiting for it to be ready.
    pub waiting: Vec<Object>,
}

impl Link {
    /// Posts `message` now, or once the worker is ready; false if no worker runs.
    pub fn post(&mut self, message: Object) -> bool {
        match (&self.worker, &self.socket) {
            (_, Some(s)) if self.ready => {
                let json = Reflect::get(&message, &JsValue::from_str("json")).ok().and_then(|j| j.as_string());
                json.is_some_and(|j| s.send_with_str(&j).is_ok())
            }
            (Some(w), _) if self.ready => w.post_message(&message).is_ok(),
            (Some(_), _) | (_, Some(_)) => {
                self.waiting.push(message);
                true
            }
            (None, None) => false,
        }
    }

    /// The worker is ready: posts what waited.
    pub fn ready(&mut self) {
        self.ready = true;
        for m in std::mem::take(&mut self.waiting) {
            self.post(m);
        }
    }
}

/// Saves a file the worker made ([`FILE_MESSAGE`]) through the browser's download.
pub fn save_file(data: &JsValue) -> Result<(), String> {
    let field = |key: &str| Reflect::get(data, &key.into()).ok();
    let text = |key: &str| field(key).and_then(|v| v.as_string());
    if text("type").as_deref() != Some(FILE_MESSAGE) {
        return Err("a worker of longpole sent a message the page does not know; please report this".into());
    }
    let (name, mime) = (text("name").unwrap_or_default(), text("mime").unwrap_or_default());
    let bytes: js_sys::Uint8Array =
        field("bytes").and_then(|b| b.dyn_into().ok()).ok_or("the worker's file came without its bytes")?;
    crate::download::download_array(&name, &mime, &bytes)
}

/// A request for a worker: its JSON under `json` and `files` beside it
/// (structured-cloned by `postMessage`); `None` if it cannot be built.
pub fn request(json: &str, files: &[File]) -> Option<Object> {
    let message = Object::new();
    let list: Array = files.iter().collect();
    let set = |k: &str, v: &JsValue| Reflect::set(&message, &JsValue::from_str(k), v).is_ok();
    (set("json", &JsValue::from_str(json)) && set("files", &list)).then_some(message)
}
