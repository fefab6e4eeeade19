//! Reading and posting, shared by the analysis worker ([`crate::worker`]),
//! its warm-up ([`crate::warm_up`]) and its second workers
//! ([`crate::graph_worker`]): a `File` read in slices through an
//! [`Ingest`], messages posted to the page, a timer, the worker's memory.

use crate::protocol::{EncodeError, Response};
use js_sys::{Promise, Reflect, Uint8Array};
use longpole_core::{Ingest, Input};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{DedicatedWorkerGlobalScope, File};

/// Bytes read per slice: Chromium hands a worker a file at about 370 MB/s
/// in 4 MiB slices and 715 MB/s in 16 MiB ones (measured here), and that
/// reading takes CPU the parse needs.
pub const SLICE: usize = 16 << 20;
/// Bytes handed to the core per call. V8 first runs WebAssembly in its
/// baseline tier and swaps in optimized code only when a function is next
/// called, so the parse loop is entered afresh every MiB instead of
/// running a whole slice unoptimized. (A quarter MiB was no faster and, for
/// a 1 GB log, left WebAssembly's memory 340 MB higher: 864 MB against 521.)
const FEED: usize = 1 << 20;
/// Least time between two progress messages, in ms.
pub const PROGRESS_EVERY_MS: f64 = 100.0;

/// The worker's global scope.
pub fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

/// Posts `response` to the page; if it cannot be encoded, posts instead a
/// failure naming the message and its run.
pub fn post(response: &Response) {
    let json = response.to_json().unwrap_or_else(|e| encode_failure(&e));
    // A failed post means the page is gone; there is nobody left to tell.
    let _ = scope().post_message(&JsValue::from_str(&json));
}

/// A [`Response::Failed`] about a message that could not be encoded, built
/// as a JSON value (whose text form cannot fail).
fn encode_failure(e: &EncodeError) -> String {
    let message = format!("longpole's analysis worker {e}; please report this");
    serde_json::json!({ "type": "Failed", "run": e.run.unwrap_or(0), "message": message }).to_string()
}

/// Why reading stopped early.
#[derive(Debug, PartialEq)]
pub enum Stop {
    /// The caller asked to stop (a cancel, or a newer run).
    Cancelled,
    /// The input could not be read; the message names file, position and bytes.
    Failed(String),
}

/// Reads `file` in slices of `slice` bytes through an [`Ingest`].
///
/// After each slice `between(ingest, bytes)` is told how many bytes came;
/// returning false stops the reading with [`Stop::Cancelled`]. Each slice is
/// awaited, so the worker's other messages (a cancel) are handled meanwhile.
/// The next slice is asked for before this one is parsed, so the browser
/// reads the file while the core parses it.
pub async fn read_file(
    file: &File,
    slice: usize,
    mut between: impl FnMut(&Ingest, u64) -> bool,
) -> Result<Input, Stop> {
    let name = file.name();
    let failed = |e: String| Stop::Failed(format!("{name}: cannot read the file: {e}"));
    let mut ingest = Ingest::new(&name);
    let mut buf = vec![0u8; slice.max(1)];
    let size = file.size();
    ingest.expect_bytes(size as u64);
    let step = buf.len() as f64;
    let mut next = (size > 0.0).then(|| ask_slice(file, 0.0, step.min(size)));
    let mut at = 0.0;
    while let Some(asked) = next.take() {
        let array = asked.map_err(failed)?.await.map_err(|e| failed(js_error(e)))?;
        at = (at + step).min(size);
        if at < size {
            next = Some(ask_slice(file, at, (at + step).min(size)));
        }
        let bytes = Uint8Array::new(&array);
        let n = (bytes.length() as usize).min(buf.len());
        bytes.subarray(0, n as u32).copy_to(&mut buf[..n]);
        feed(&mut ingest, &buf[..n]).map_err(|e| Stop::Failed(e.to_string()))?;
        if !between(&ingest, n as u64) {
            return Err(Stop::Cancelled);
        }
    }
    ingest.finish().map_err(|e| Stop::Failed(e.to_string()))
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

/// Starts reading bytes `start..end` of `file`; the future gives them.
fn ask_slice(file: &File, start: f64, end: f64) -> Result<JsFuture, String> {
    let blob = file.slice_with_f64_and_f64(start, end).map_err(js_error)?;
    Ok(JsFuture::from(blob.array_buffer()))
}
