//! A build graph read in a second worker while this one reads the log.
//!
//! A graph of a million nodes is hundreds of megabytes of JSON; read after
//! the log, it added half again to the wait while the machine's other core
//! sat idle. So the analysis worker starts a second copy of itself
//! (`worker_loader.js`) for each big extra file ([`SideRead`]). That copy
//! reads the file with the core ([`serve`]) and, when it is a build graph,
//! hands it back as flat typed arrays ([`GraphParts`]) that are moved, not
//! copied, between the threads; then it is stopped. A file of any other
//! format is refused after its first slice and read by the analysis worker
//! itself, as before; so is the file of a second worker that could not load
//! or stopped on an internal error.

use crate::file_read::read_file;
use crate::protocol::{Request, Response};
use crate::worker_io::{js_error, memory_bytes, Stop, PROGRESS_EVERY_MS, SLICE};
use js_sys::{Array, Function, Object, Promise, Reflect, Uint32Array, Uint8Array};
use longpole_core::formats::ya::graph::{BuildGraph, GraphParts};
use longpole_core::formats::Parsed;
use longpole_core::ingest::InputInfo;
use longpole_core::model::TaskMeta;
use longpole_core::Input;
use serde::{Deserialize, Serialize};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{DedicatedWorkerGlobalScope, ErrorEvent, File, MessageEvent, Worker};

/// Extra files smaller than this are read in place: starting a second
/// worker and its WebAssembly costs more than they take to read.
pub const SIDE_MIN_BYTES: f64 = (16u32 << 20) as f64;

/// The typed arrays beside a [`SideMessage::Graph`], by key.
const STRINGS: &str = "strings";
const STRING_ENDS: &str = "stringEnds";
const NODES: &str = "nodes";
const DEPS: &str = "deps";
const DESCRIPTIONS: &str = "descriptions";

/// Second worker → analysis worker, as JSON under `json`.
#[derive(Serialize, Deserialize)]
enum SideMessage {
    /// Bytes of the file read so far.
    Progress { bytes: u64 },
    /// The graph; its lists come beside this message as typed arrays.
    Graph {
        /// What is known of the file.
        info: InputInfo,
        /// The graph's distinct node metadata.
        metas: Vec<TaskMeta>,
        /// The keys of its other top-level members.
        members: Vec<String>,
        /// The second worker's WebAssembly memory when done, bytes.
        memory_bytes: u64,
    },
    /// The file is not a build graph.
    NotGraph,
    /// The file could not be read; the message names it.
    Failed { message: String },
    /// The second worker itself stopped (it could not load, or hit an
    /// internal error): the file is read in place instead.
    Stopped,
}

impl SideMessage {
    /// The message as JSON; one that cannot be encoded becomes a `Failed`
    /// message saying which message failed and why (built as a JSON value,
    /// whose text form cannot fail).
    fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            let message = format!("the graph worker could not encode its {} message: {e}", self.kind());
            serde_json::json!({ "Failed": { "message": message } }).to_string()
        })
    }

    /// The message's name, for errors about it.
    fn kind(&self) -> &'static str {
        match self {
            SideMessage::Progress { .. } => "Progress",
            SideMessage::Graph { .. } => "Graph",
            SideMessage::NotGraph => "NotGraph",
            SideMessage::Failed { .. } => "Failed",
            SideMessage::Stopped => "Stopped",
        }
    }
}

fn message(json: &str) -> Object {
    let m = Object::new();
    // Setting a property of a fresh plain object does not fail.
    let _ = Reflect::set(&m, &"json".into(), &json.into());
    m
}

/// The JSON of a message: the message itself (the worker's responses) or its `json`.
fn json_of(data: &JsValue) -> String {
    data.as_string().or_else(|| Reflect::get(data, &"json".into()).ok()?.as_string()).unwrap_or_default()
}

/// One extra file being read by a second worker. Dropping it stops the worker.
pub struct SideRead {
    worker: Worker,
    bytes: Rc<Cell<u64>>,
    /// Resolves with the second worker's last message.
    answer: Promise,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

/// What a second worker gave.
pub enum SideResult {
    /// The build graph, and the second worker's memory in bytes.
    Graph(Box<Input>, u64),
    /// Not a build graph, or the second worker stopped: read the file in place.
    ReadHere,
}

impl SideRead {
    /// Starts a second worker on `file`; it begins reading once its
    /// WebAssembly has loaded.
    pub fn start(file: &File) -> Result<SideRead, String> {
        let worker = Worker::new("./worker_loader.js").map_err(js_error)?;
        let mut resolve_slot: Option<Function> = None;
        let answer = Promise::new(&mut |resolve, _reject| resolve_slot = Some(resolve));
        let Some(resolve) = resolve_slot else { return Err("no promise".into()) };
        let bytes = Rc::new(Cell::new(0));
        let on_message = {
            let (worker, file, bytes, resolve) = (worker.clone(), file.clone(), bytes.clone(), resolve.clone());
            Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
                let data = e.data();
                let json = json_of(&data);
                let response = Response::from_json(&json);
                if let Ok(Response::Failed { .. }) = response {
                    // Its panic hook's report: the worker is of no more use.
                    let _ = resolve.call1(&JsValue::NULL, &message(&SideMessage::Stopped.to_json()));
                    return;
                }
                if let Ok(Response::Ready) = response {
                    let json = match Request::ReadGraph.to_json() {
                        Ok(json) => json,
                        Err(e) => {
                            let failed = SideMessage::Failed { message: format!("longpole {e}; please report this") };
                            let _ = resolve.call1(&JsValue::NULL, &message(&failed.to_json()));
                            return;
                        }
                    };
                    let m = message(&json);
                    let _ = Reflect::set(&m, &"file".into(), &file);
                    // A failed post means the worker is gone; its error event says why.
                    let _ = worker.post_message(&m);
                    return;
                }
                match serde_json::from_str::<SideMessage>(&json) {
                    Ok(SideMessage::Progress { bytes: n }) => bytes.set(n),
                    Ok(_) => {
                        let _ = resolve.call1(&JsValue::NULL, &data);
                    }
                    // The worker's own messages (its warm-up's) are for no one here.
                    Err(_) if response.is_ok() => {}
                    Err(e) => {
                        let failed = SideMessage::Failed {
                            message: format!(
                                "longpole could not read its graph worker's message ({e}); please report this"
                            ),
                        };
                        let _ = resolve.call1(&JsValue::NULL, &message(&failed.to_json()));
                    }
                }
            })
        };
        let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |_: ErrorEvent| {
            let _ = resolve.call1(&JsValue::NULL, &message(&SideMessage::Stopped.to_json()));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(SideRead { worker, bytes, answer, _on_message: on_message, _on_error: on_error })
    }

    /// Bytes of the file read so far.
    pub fn bytes(&self) -> u64 {
        self.bytes.get()
    }

    /// The second worker's last message, if it comes within `ms`
    /// milliseconds; [`SideAnswer::take`] it once the worker is dropped.
    pub async fn answer_within(&self, ms: i32) -> Option<SideAnswer> {
        let timeout = Promise::new(&mut |resolve, _reject| {
            let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
            let _ = scope.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
        });
        let data = JsFuture::from(Promise::race(&Array::of2(&self.answer, &timeout))).await.ok()?;
        (!data.is_undefined()).then_some(SideAnswer(data))
    }
}

/// A second worker's last message, its typed arrays still JavaScript's.
pub struct SideAnswer(JsValue);

impl SideAnswer {
    /// The graph (checked) or why not. Called after the second worker is
    /// dropped, so its memory is given back before the graph is made here.
    pub fn take(self) -> Result<SideResult, Stop> {
        take(&self.0).map_err(Stop::Failed)
    }
}

impl Drop for SideRead {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// The result in a second worker's last message.
fn take(data: &JsValue) -> Result<SideResult, String> {
    let array = |key: &str| Reflect::get(data, &key.into()).map_err(js_error);
    let text = |key: &str| -> Result<String, String> {
        let bytes = array(key)?.dyn_into::<Uint8Array>().map_err(|_| format!("no {key}"))?.to_vec();
        String::from_utf8(bytes).map_err(|e| e.to_string())
    };
    let words = |key: &str| -> Result<Vec<u32>, String> {
        Ok(array(key)?.dyn_into::<Uint32Array>().map_err(|_| format!("no {key}"))?.to_vec())
    };
    match serde_json::from_str::<SideMessage>(&json_of(data)).map_err(|e| e.to_string())? {
        SideMessage::Graph { info, metas, members, memory_bytes } => {
            let parts = GraphParts {
                strings: text(STRINGS)?,
                string_ends: words(STRING_ENDS)?,
                nodes: words(NODES)?,
                deps: words(DEPS)?,
                descriptions: text(DESCRIPTIONS)?,
                metas,
                members,
            };
            let graph = BuildGraph::from_parts(parts)?;
            Ok(SideResult::Graph(Box::new(Input { info, parsed: Parsed::YaGraph(Box::new(graph)) }), memory_bytes))
        }
        SideMessage::NotGraph | SideMessage::Stopped => Ok(SideResult::ReadHere),
        SideMessage::Failed { message } => Err(message),
        SideMessage::Progress { .. } => Err("the graph reader ended without an answer".into()),
    }
}

fn post(m: &JsValue, transfer: &Array) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    // A failed post means the analysis worker is gone; nobody is left to tell.
    let _ = scope.post_message_with_transfer(m, transfer);
}

/// In the second worker: reads `file` and posts the graph back (or why not).
pub fn serve(file: File) {
    spawn_local(async move {
        let mut last_post = f64::NEG_INFINITY;
        let read = read_file(&file, SLICE, |ingest, _| {
            let p = ingest.progress();
            if p.format.is_some_and(|f| f != longpole_core::formats::ya::graph::ID) {
                return false;
            }
            let now = js_sys::Date::now();
            if now - last_post >= PROGRESS_EVERY_MS {
                last_post = now;
                post(&message(&SideMessage::Progress { bytes: p.bytes }.to_json()), &Array::new());
            }
            true
        })
        .await;
        let (info, graph) = match read {
            Ok(Input { info, parsed: Parsed::YaGraph(graph) }) => (info, graph),
            // Stopped at a slice whose format was known and not a graph.
            Ok(_) | Err(Stop::Cancelled) => {
                post(&message(&SideMessage::NotGraph.to_json()), &Array::new());
                return;
            }
            Err(Stop::Failed(message_text)) => {
                post(&message(&SideMessage::Failed { message: message_text }.to_json()), &Array::new());
                return;
            }
        };
        let Some(parts) = graph.into_parts() else {
            let failed = SideMessage::Failed { message: format!("{}: the graph's strings exceed 4 GiB", info.name) };
            post(&message(&failed.to_json()), &Array::new());
            return;
        };
        let memory_bytes = memory_bytes();
        let GraphParts { strings, string_ends, nodes, deps, descriptions, metas, members } = parts;
        let m = message(&SideMessage::Graph { info, metas, members, memory_bytes }.to_json());
        let transfer = Array::new();
        let put = |key: &str, array: JsValue, buffer: JsValue| {
            let _ = Reflect::set(&m, &key.into(), &array);
            transfer.push(&buffer);
        };
        for (key, bytes) in [(STRINGS, strings.into_bytes()), (DESCRIPTIONS, descriptions.into_bytes())] {
            let a = Uint8Array::from(&bytes[..]);
            put(key, a.clone().into(), a.buffer().into());
        }
        for (key, words) in [(STRING_ENDS, string_ends), (NODES, nodes), (DEPS, deps)] {
            let a = Uint32Array::from(&words[..]);
            put(key, a.clone().into(), a.buffer().into());
        }
        post(&m, &transfer);
    });
}
