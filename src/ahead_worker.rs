//! A large log's chunks read ahead in a second worker while this one builds.
//!
//! The CLI reads a distbuild log's lines or a trace's events ahead on a
//! second thread (the core's [`Preparer`]). Web Workers share no memory, so
//! here a second copy of the worker (`worker_loader.js`) reads the same
//! file itself, reads each chunk ahead and posts it back [`Packed`]: plain
//! words and text in typed arrays that are moved, not copied, between the
//! threads. The analysis worker unpacks each chunk and feeds it with what
//! was read ahead ([`Ingest::feed_prepared`]), which gives the same result
//! as reading it alone.
//!
//! The two share the work by chunk: the analysis worker says which chunk it
//! is at ([`Request::AheadAt`]), and the second worker never starts one
//! behind it, nor more than [`IN_FLIGHT`] ahead. A chunk that has not come
//! when it is needed, and is not the one the second worker is reading, is
//! read here, so a second worker that is late (still compiling) or gone
//! (it could not load, or stopped) costs nothing but its own core.

use crate::line_cells::chunk_of;
use crate::protocol::{Request, Response};
use crate::worker_io::{js_error, memory_bytes, scope, sleep, FEED, SLICE};
use js_sys::{Array, BigUint64Array, Function, Object, Promise, Reflect, Uint8Array};
use longpole_core::formats::{preparer_for, FormatId, Packed, Prepared};
use longpole_core::Ingest;
use serde::{Deserialize, Serialize};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{ErrorEvent, File, MessageEvent, Worker};

/// Files smaller than this are read by one worker: starting a second one
/// and its WebAssembly costs more than sharing their reading saves.
pub const AHEAD_MIN_BYTES: f64 = (48u32 << 20) as f64;

/// Chunks the second worker reads at most beyond the one the analysis
/// worker is at: what waits to be fed is bounded, not the file.
const IN_FLIGHT: u64 = 24;

/// The typed arrays beside an [`AheadMessage::Chunk`], by key.
const WORDS: &str = "words";
const TEXT: &str = "text";

/// Second worker → analysis worker, as JSON under `json`.
#[derive(Serialize, Deserialize)]
enum AheadMessage {
    /// Chunk `k` ([`chunk_of`]), which starts at byte `at`, read ahead;
    /// its packing comes beside this message as typed arrays. `memory` is
    /// the second worker's WebAssembly memory, bytes.
    Chunk { k: u64, at: u64, memory: u64 },
    /// The second worker stopped reading ahead; the message says why.
    Stopped { why: String },
}

/// A message object with `json` set.
fn message(json: &str) -> Object {
    let m = Object::new();
    // Setting a property of a fresh plain object does not fail.
    let _ = Reflect::set(&m, &"json".into(), &json.into());
    m
}

/// What the analysis worker knows of its second worker.
#[derive(Default)]
struct Shared {
    /// Chunks read ahead and not yet fed, by their number, with their first byte.
    chunks: BTreeMap<u64, (u64, Packed)>,
    /// The number of the chunk the second worker posted last.
    last: Option<u64>,
    /// The second worker's WebAssembly memory, bytes, at its last chunk.
    memory: u64,
    /// The second worker stopped (or never started); why.
    stopped: Option<String>,
    /// Resolves the analysis worker's wait for the next message.
    wake: Option<Function>,
}

impl Shared {
    fn wake(&mut self) {
        if let Some(wake) = self.wake.take() {
            let _ = wake.call0(&JsValue::NULL);
        }
    }
}

/// The chunks of a file read ahead by a second worker. Dropping it stops
/// the worker.
pub struct AheadRead {
    worker: Worker,
    shared: Rc<RefCell<Shared>>,
    /// The chunk this worker last said it is at.
    at: Cell<u64>,

    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

impl AheadRead {
    /// Starts a second worker reading `file`'s chunks of format `format`
    /// ahead, from the chunk of the cell at byte `from` (a multiple of
    /// [`FEED`], the cell size).
    pub fn start(file: &File, format: FormatId, from: u64) -> Result<AheadRead, String> {
        let request = Request::ReadAhead { format, from }.to_json().map_err(|e| e.to_string())?;
        let worker = Worker::new("./worker_loader.js").map_err(js_error)?;
        let shared = Rc::new(RefCell::new(Shared::default()));
        let on_message = {
            let (worker, file, shared) = (worker.clone(), file.clone(), shared.clone());
            Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
                let data = e.data();
                let json = data
                    .as_string()
                    .or_else(|| Reflect::get(&data, &"json".into()).ok()?.as_string())
                    .unwrap_or_default();
                let mut s = shared.borrow_mut();
                match serde_json::from_str::<Response>(&json) {
                    Ok(Response::Ready) => {
                        let m = message(&request);
                        let _ = Reflect::set(&m, &"file".into(), &file);
                        // A failed post means the worker is gone; its error event says why.
                        let _ = worker.post_message(&m);
                        return;
                    }
                    Ok(Response::Failed { message, .. }) => s.stopped = Some(message),
                    // The worker's own messages (its warm-up's) are for no one here.
                    Ok(_) => return,
                    Err(_) => match serde_json::from_str::<AheadMessage>(&json) {
                        Ok(AheadMessage::Chunk { k, at, memory }) => match packed_of(&data) {
                            Ok(packed) => {
                                s.chunks.insert(k, (at, packed));
                                (s.last, s.memory) = (Some(k), memory);
                            }
                            Err(why) => s.stopped = Some(why),
                        },
                        Ok(AheadMessage::Stopped { why }) => s.stopped = Some(why),
                        Err(e) => s.stopped = Some(format!("an unreadable message ({e})")),
                    },
                }
                s.wake();
            })
        };
        let on_error = {
            let shared = shared.clone();
            Closure::<dyn FnMut(ErrorEvent)>::new(move |e: ErrorEvent| {
                let mut s = shared.borrow_mut();
                s.stopped = Some(e.message());
                s.wake();
            })
        };
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let at = Cell::new(from / FEED as u64);
        Ok(AheadRead { worker, shared, at, _on_message: on_message, _on_error: on_error })
    }

    /// What was read ahead of chunk `k`, which starts at byte `at`, if the
    /// second worker has it or is reading it now (then this waits for it);
    /// `None` means: read it here. Chunks before `k` are let go.
    pub async fn take(&self, k: u64, at: u64) -> Option<Packed> {
        if k != self.at.get() {
            self.at.set(k);
            if let Ok(json) = (Request::AheadAt { k }).to_json() {
                // A failed post means the worker is gone; its error event says so.
                let _ = self.worker.post_message(&message(&json));
            }
        }
        loop {
            let wait = {
                let mut s = self.shared.borrow_mut();
                s.chunks = s.chunks.split_off(&k);
                if let Some((from, packed)) = s.chunks.remove(&k) {
                    // Both workers cut chunks alike; one that differs is not used.
                    return (from == at).then_some(packed);
                }
                // Waiting pays only for the chunk the second worker reads now.
                let reading_it = s.last.is_some_and(|last| last + 1 == k);
                if s.stopped.is_some() || !reading_it {
                    return None;
                }
                Promise::new(&mut |resolve, _reject| s.wake = Some(resolve))
            };
            // The promise never rejects.
            let _ = JsFuture::from(wait).await;
        }
    }
}

impl AheadRead {
    /// The second worker's WebAssembly memory, bytes, as it last said.
    pub fn memory_bytes(&self) -> u64 {
        self.shared.borrow().memory
    }
}

/// What second workers reading ahead did for a run.
#[derive(Debug, Default)]
pub struct AheadTally {
    /// Bytes fed with what they read ahead.
    pub bytes: Cell<u64>,
    /// The most WebAssembly memory one held with the analysis worker's, bytes.
    pub memory: Cell<u64>,
}

impl Drop for AheadRead {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// The packing beside a chunk message.
fn packed_of(data: &JsValue) -> Result<Packed, String> {
    let get = |key: &str| Reflect::get(data, &key.into()).map_err(js_error);
    let words = get(WORDS)?.dyn_into::<BigUint64Array>().map_err(|_| "a chunk without its words")?.to_vec();
    let text = get(TEXT)?.dyn_into::<Uint8Array>().map_err(|_| "a chunk without its text")?.to_vec();
    let text = String::from_utf8(text).map_err(|e| format!("a chunk whose text is not UTF-8 ({e})"))?;
    Ok(Packed { words, text })
}

thread_local! {
    /// In the second worker: the chunk the analysis worker said it is at.
    static WANTED: Cell<u64> = const { Cell::new(0) };
}

/// In the second worker: the analysis worker is at chunk `k`.
pub fn wanted(k: u64) {
    WANTED.with(|w| w.set(w.get().max(k)));
}

fn post(m: &JsValue, transfer: &Array) {
    // A failed post means the analysis worker is gone; nobody is left to tell.
    let _ = scope().post_message_with_transfer(m, transfer);
}

fn stop(why: String) {
    let json = serde_json::to_string(&AheadMessage::Stopped { why }).unwrap_or_default();
    post(&message(&json), &Array::new());
}

/// In the second worker: reads `file`'s chunks of format `format` ahead
/// from the chunk of the cell at byte `from`, posting each one packed.
pub fn serve(file: File, format: FormatId, from: u64) {
    spawn_local(async move {
        let Some(preparer) = preparer_for(format) else {
            return stop(format!("{} is not read ahead", format.name()));
        };
        let (size, cell, slice) = (file.size() as u64, FEED as u64, SLICE as u64);
        wanted(from / cell);
        let mut prepared = Prepared::default();
        let mut k = from / cell;
        while k * cell < size {
            // Never behind the analysis worker, and never far ahead of it.
            k = k.max(WANTED.with(Cell::get));
            while k >= WANTED.with(Cell::get) + IN_FLIGHT {
                let _ = sleep(2).await;
            }
            // The cells up to the slice's end, and the one after: a chunk
            // ends in the cell after its own.
            let (at, last) = (k * cell, ((k * cell) / slice + 1) * (slice / cell));
            let data = match read_bytes(&file, at, ((last + 1) * cell).min(size)).await {
                Ok(data) => data,
                Err(e) => return stop(format!("{}: cannot read the file: {e}", file.name())),
            };
            for k in k..last {
                if k < WANTED.with(Cell::get) {
                    continue;
                }
                let Some((chunk_at, range)) = chunk_of(k, cell, at, &data) else { continue };
                preparer.prepare(&data[range], &mut prepared);
                let Some(packed) = preparer.pack(&prepared) else {
                    return stop("a chunk read ahead could not be packed".into());
                };
                let chunk = AheadMessage::Chunk { k, at: chunk_at, memory: memory_bytes() };
                let m = message(&serde_json::to_string(&chunk).unwrap_or_default());
                let words = BigUint64Array::from(&packed.words[..]);
                let text = Uint8Array::from(packed.text.as_bytes());
                let _ = Reflect::set(&m, &WORDS.into(), &words);
                let _ = Reflect::set(&m, &TEXT.into(), &text);
                post(&m, &Array::of2(&words.buffer(), &text.buffer()));
            }
            k = last;
        }
    });
}

/// Bytes `start..end` of `file`.
async fn read_bytes(file: &File, start: u64, end: u64) -> Result<Vec<u8>, String> {
    let blob = file.slice_with_f64_and_f64(start as f64, end as f64).map_err(js_error)?;
    let buffer = JsFuture::from(blob.array_buffer()).await.map_err(js_error)?;
    Ok(Uint8Array::new(&buffer).to_vec())
}

/// Feeds `piece`, chunk `k` starting at byte `at`, to `ingest`: with what
/// `ahead` read of it when it has it, else read here; `tally` counts it.
pub async fn feed_ahead(
    ingest: &mut Ingest,
    ahead: &AheadRead,
    tally: &AheadTally,
    (k, at): (u64, u64),
    piece: &[u8],
) -> Result<(), longpole_core::Error> {
    let prepared = match (ahead.take(k, at).await, ingest.preparer()) {
        (Some(packed), Some(preparer)) => preparer.unpack(&packed),
        _ => None,
    };
    match prepared {
        Some(prepared) => {
            ingest.feed_prepared(piece, &prepared)?;
            tally.bytes.set(tally.bytes.get() + piece.len() as u64);
            let together = memory_bytes() + ahead.memory_bytes();
            tally.memory.set(tally.memory.get().max(together));
            Ok(())
        }
        None => ingest.feed(piece),
    }
}
