//! Reading and posting, shared by the analysis worker ([`crate::worker`]),
//! its comparisons, its warm-up
//! ([`crate::warm_up`]) and its second workers ([`crate::graph_worker`]):
//! the slice and feed sizes, bytes fed to an [`Ingest`], messages and made
//! files posted to the page, a timer, the worker's memory. Reading a
//! `File` is [`crate::file_read`].

use crate::protocol::{Response, RunId, FILE_MESSAGE};
use js_sys::{Array, Promise, Reflect, Uint8Array};
use longpole_answer::Sink;
use longpole_core::Ingest;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::DedicatedWorkerGlobalScope;

/// Bytes read per slice: Chromium hands a worker a file at about 370 MB/s
/// in 4 MiB slices and 715 MB/s in 16 MiB ones (measured here), and that
/// reading takes CPU the parse needs.
pub const SLICE: usize = 16 << 20;
/// Bytes handed to the core per call. V8 first runs WebAssembly in its
/// baseline tier and swaps in optimized code only when a function is next
/// called, so the parse loop is entered afresh every MiB instead of
/// running a whole slice unoptimized. (A quarter MiB was no faster and, for
/// a 1 GB log, left WebAssembly's memory 340 MB higher: 864 MB against 521.)
pub const FEED: usize = 1 << 20;
/// Least time between two progress messages, in ms.
pub const PROGRESS_EVERY_MS: f64 = 100.0;

/// The worker's global scope.
pub fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

/// Posts `response` to the page; if it cannot be encoded, posts instead a
/// failure naming the message and its run.
pub fn post(response: &Response) {
    let json = response.to_json().unwrap_or_else(|e| e.failure_json("longpole's analysis worker"));
    // A failed post means the page is gone; there is nobody left to tell.
    let _ = scope().post_message(&JsValue::from_str(&json));
}

/// Why reading stopped early.
#[derive(Debug, PartialEq)]
pub enum Stop {
    /// The caller asked to stop (a cancel, or a newer run).
    Cancelled,
    /// The input could not be read; the message names file, position and bytes.
    Failed(String),
}

impl Stop {
    /// What the page is told of run `run`, stopped so.
    pub fn response(self, run: RunId) -> Response {
        match self {
            Stop::Cancelled => Response::Cancelled { run },
            Stop::Failed(message) => Response::Failed { run, message },
        }
    }
}

/// Hands `bytes` to `ingest` in pieces of [`FEED`] bytes.
pub fn feed(ingest: &mut Ingest, bytes: &[u8]) -> Result<(), longpole_core::Error> {
    bytes.chunks(FEED).try_for_each(|piece| ingest.feed(piece))
}

/// Resolves after `ms` milliseconds, the worker's messages handled meanwhile.
pub fn sleep(ms: i32) -> JsFuture {
    JsFuture::from(Promise::new(&mut |resolve, _reject| {
        let _ = scope().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    }))
}

/// This worker's WebAssembly memory, bytes (it only ever grows).
pub fn memory_bytes() -> u64 {
    wasm_bindgen::memory()
        .unchecked_into::<js_sys::WebAssembly::Memory>()
        .buffer()
        .unchecked_into::<js_sys::ArrayBuffer>()
        .byte_length() as u64
}

/// The message of a JavaScript error.
pub fn js_error(e: JsValue) -> String {
    e.as_string()
        .or_else(|| Reflect::get(&e, &"message".into()).ok()?.as_string())
        .unwrap_or_else(|| "unknown error".into())
}

/// Posts a made file to the page, its bytes moved rather than copied into
/// JSON (see [`FILE_MESSAGE`]).
pub fn post_file(run: RunId, name: &str, mime: &str, bytes: &[u8]) {
    let array = Uint8Array::from(bytes);
    let message = js_sys::Object::new();
    let fields: [(&str, JsValue); 5] = [
        ("type", FILE_MESSAGE.into()),
        ("run", run.into()),
        ("name", name.into()),
        ("mime", mime.into()),
        ("bytes", array.clone().into()),
    ];
    for (key, value) in fields {
        // Setting a field of a plain new object cannot fail.
        let _ = Reflect::set(&message, &key.into(), &value);
    }
    // A failed post means the page is gone; there is nobody left to tell.
    let _ = scope().post_message_with_transfer(&message, &Array::of1(&array.buffer()));
}

/// The worker's [`Sink`]: answers posted to the page.
pub struct Post;

impl Sink for Post {
    fn send(&mut self, response: &Response) {
        post(response);
    }

    fn file(&mut self, run: RunId, name: &str, mime: &str, bytes: &[u8]) {
        post_file(run, name, mime, bytes);
    }
}
