//! The Chrome Trace Event Format: `chrome://tracing`, Perfetto, Bazel's
//! `--generate_json_trace_profile`, catapult, Hermes and many more.
//!
//! **Who writes it.** Chrome and its DevTools, Bazel, Perfetto's JSON
//! exporter, ninjatracing, Hermes, any program with a tracing macro. Spec:
//! `shared/specs/other-formats.md` §5 (after Google's "Trace Event Format"
//! document).
//!
//! **A record.** One element of the `traceEvents` array (or of the root
//! array):
//!
//! ```text
//! {"name": "compile", "cat": "action processing",  // label, kind
//!  "ph": "X", "ts": 1200.5, "dur": 300,             // phase, µs (fractional, may be < 0)
//!  "pid": 1, "tid": "worker-3",                     // int or string
//!  "args": {"target": "//a:b"}}                     // the frame key includes them
//! ```
//!
//! **What is read.** The container: a bare array, or an object with
//! `traceEvents`, `displayTimeUnit` (kept; it never changes what `ts`
//! means), `otherData` and `metadata` (kept as JSON), `stackFrames` and
//! `samples` (kept: the sampled stacks of Hermes-style profiles); other
//! members are named in an info diagnostic. Arrays may be unterminated (no
//! `]`, a trailing comma, trailing whitespace): read with an info
//! diagnostic. Phases: `B`/`E`/`X` slices, `i`/`I` instants (scope `s`),
//! `C` counters, nestable async `b`/`n`/`e` and legacy async `S`/`T`/`p`/`F`
//! keyed by (cat, id, id2 / scope), flows v1 `s`/`t`/`f` by id (`bp: "e"`
//! binds to the enclosing slice) and flows v2 (`bind_id`, `flow_in`,
//! `flow_out` on slices), `M` metadata (`process_name`, `thread_name`,
//! `process_sort_index`, `thread_sort_index` with a number or a string).
//! Other known phases (`P`, `N`/`O`/`D`, `R`, `c`, `(`/`)`) are counted;
//! unknown ones are counted and reported once per phase.
//!
//! **What is ignored.** Thread times (`tts`, `tdur` but as the fallback of a
//! missing `dur`), colours, arguments beyond the frame key, counter and
//! metadata values; the file is not kept (memory grows with the events
//! kept, not with the text), so it cannot be written back.
//!
//! **Mapping.** See [`crate::formats::chrome_trace::reconcile`]: one lane per
//! (pid, tid), slices matched as speedscope matches them
//! ([`crate::formats::chrome_trace::trace_stacks`]), async spans on lanes of their own,
//! flows as dependencies, counters as series.
//!
//! **Caveats.** Top-level members other than the event arrays are held
//! whole while read (a huge `systemTraceEvents` string is read, then
//! dropped). A JSON number used as a pid or tid is named as written (`1.0`
//! stays `1.0`).

mod ahead;
pub mod bazel;
mod event;
mod fast;
mod js;
mod raw;
mod reader;
pub mod reconcile;
pub(crate) mod report;
mod run_kind;
mod run_view;
pub mod tables;
#[cfg(test)]
mod tests;
pub mod trace_stacks;
pub mod view;

pub use ahead::EventsAhead;
pub use js::js_stringify;

use super::{Format, FormatId, FormatReader, Sniff, SniffInput};
use crate::intern::Interner;
use crate::json_split::{JsonSplitter, Piece};
use std::collections::BTreeMap;

/// This format's id: a Chrome Trace Event Format trace (JSON).
pub const ID: FormatId = FormatId::new("chrome-trace", "Chrome trace");

/// Title used in errors.
const TITLE: &str = "Chrome trace";

/// What a trace holds, ready for reconciliation. Strings (`u32`) are ids of
/// [`ChromeTrace::strings`].
#[derive(Debug, Default)]
pub struct ChromeTrace {
    /// Names, categories, ids and frame keys, each once.
    pub strings: Interner,
    /// Processes, in order of first mention.
    pub processes: Vec<Process>,
    /// Threads (pid, tid), in order of first mention.
    pub threads: Vec<Thread>,
    /// `B`, `E` and `X` events, in file order.
    pub slices: Vec<Slice>,
    /// `i` / `I` events.
    pub instants: Vec<Instant>,
    /// `C` events.
    pub counters: Vec<Counter>,
    /// Async events (`b`, `n`, `e`, `S`, `T`, `p`, `F`).
    pub asyncs: Vec<AsyncEvent>,
    /// Flow v1 events (`s`, `t`, `f`).
    pub flows: Vec<FlowEvent>,
    /// The `samples` array's samples.
    pub samples: Vec<Sample>,
    /// The `stackFrames` member: frame id → frame.
    pub stack_frames: BTreeMap<String, StackFrame>,
    /// Events read, per phase as written (`ph`).
    pub by_phase: BTreeMap<String, u64>,
    /// `displayTimeUnit`, if given (display only: `ts` stays in µs).
    pub display_time_unit: Option<String>,
    /// `otherData`, `metadata` and other members kept, as JSON text.
    pub members: Vec<(String, String)>,
    /// The root is an array whose first event carries Hermes' frame
    /// arguments (speedscope names such frames by their event name alone).
    pub hermes: bool,
    /// The event array had no closing `]`.
    pub unterminated: bool,
}

impl ChromeTrace {
    /// A string of the table.
    pub fn str(&self, id: u32) -> &str {
        self.strings.name(id)
    }

    /// Events read.
    pub fn events(&self) -> u64 {
        self.by_phase.values().sum()
    }
}

/// A process.
#[derive(Clone, Debug, PartialEq)]
pub struct Process {
    /// Its pid as written.
    pub pid: u32,
    /// `process_name`.
    pub name: Option<u32>,
    /// `process_sort_index`.
    pub sort_index: Option<i64>,
}

/// A thread of a process.
#[derive(Clone, Debug, PartialEq)]
pub struct Thread {
    /// Index of its process in [`ChromeTrace::processes`].
    pub process: u32,
    /// Its tid as written.
    pub tid: u32,
    /// `thread_name`.
    pub name: Option<u32>,
    /// `thread_sort_index`.
    pub sort_index: Option<i64>,
}

/// The phase of a slice event.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SlicePhase {
    /// `B`.
    Begin,
    /// `E`.
    End,
    /// `X`, with its `dur` (or `tdur`, or 0), µs.
    Complete(f64),
}

/// A `B`, `E` or `X` event.
#[derive(Clone, Debug, PartialEq)]
pub struct Slice {
    /// Its phase.
    pub phase: SlicePhase,
    /// Index of its thread.
    pub thread: u32,
    /// `name` (absent and empty differ, as in speedscope).
    pub name: Option<u32>,
    /// `cat`.
    pub cat: Option<u32>,
    /// `ts`, µs.
    pub ts: f64,
    /// `args` as `JSON.stringify` writes them, when JavaScript deems them true.
    pub args: Option<u32>,
    /// Flow v2 `bind_id`.
    pub bind_id: Option<u32>,
    /// Flow v2 `flow_in`.
    pub flow_in: bool,
    /// Flow v2 `flow_out`.
    pub flow_out: bool,
    /// 1-based line of the event.
    pub line: u64,
}

/// An instant event's scope (`s`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// `g`: the whole trace.
    Global,
    /// `p`: its process.
    Process,
    /// `t` (the default): its thread.
    Thread,
}

/// An `i` / `I` event.
#[derive(Clone, Debug, PartialEq)]
pub struct Instant {
    /// Index of its thread.
    pub thread: u32,
    /// `name`.
    pub name: Option<u32>,
    /// `cat`.
    pub cat: Option<u32>,
    /// `ts`, µs.
    pub ts: f64,
    /// `s`.
    pub scope: Scope,
}

/// A `C` event: one value per series of its `args`.
#[derive(Clone, Debug, PartialEq)]
pub struct Counter {
    /// Index of its thread (counters belong to its process).
    pub thread: u32,
    /// `name`, with `id` when given (`name[id]`).
    pub name: u32,
    /// `ts`, µs.
    pub ts: f64,
    /// (series key, value) of every numeric member of `args`.
    pub values: Vec<(u32, f64)>,
}

/// An async event.
#[derive(Clone, Debug, PartialEq)]
pub struct AsyncEvent {
    /// `b`, `n`, `e`, `S`, `T`, `p` or `F`.
    pub ph: u8,
    /// Index of its thread.
    pub thread: u32,
    /// `cat`.
    pub cat: Option<u32>,
    /// `name`.
    pub name: Option<u32>,
    /// Its (cat, id, id2 / scope) key.
    pub key: u32,
    /// `ts`, µs.
    pub ts: f64,
    /// 1-based line of the event.
    pub line: u64,
}

/// A flow v1 event.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowEvent {
    /// `s`, `t` or `f`.
    pub ph: u8,
    /// Index of its thread.
    pub thread: u32,
    /// Its id (with `cat`).
    pub id: u32,
    /// `ts`, µs.
    pub ts: f64,
    /// `bp: "e"`: binds to the enclosing slice, not the next one.
    pub enclosing: bool,
    /// 1-based line of the event.
    pub line: u64,
}

/// A sample of the `samples` array.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Index of its thread.
    pub thread: u32,
    /// `ts`, µs.
    pub ts: f64,
    /// `sf`: its leaf's id in [`ChromeTrace::stack_frames`].
    pub frame: Option<String>,
}

/// A frame of the `stackFrames` member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StackFrame {
    /// `name`.
    pub name: String,
    /// `category`.
    pub category: String,
    /// `parent`'s id.
    pub parent: Option<String>,
}

/// The Chrome Trace Event Format.
pub struct ChromeTraceFormat;

impl Format for ChromeTraceFormat {
    fn id(&self) -> FormatId {
        crate::formats::chrome_trace::ID
    }

    /// An object whose `traceEvents` array starts with an event (an object
    /// with `ph`), or an array whose first element has `ph` and `ts` or
    /// `name`. ya's graph, evlogs, MAL traces, evobench logs and speedscope
    /// files have neither.
    fn sniff(&self, input: SniffInput<'_>) -> Sniff {
        let mut splitter = JsonSplitter::new(&["traceEvents"]).skip_members();
        let mut verdict = None;
        let fed = splitter.feed(input.head, &mut |p| {
            if verdict.is_some() {
                return;
            }
            if let Piece::Element { key, value, .. } = p {
                let want_ts = key.is_none();
                verdict = Some(looks_like_event(value, want_ts));
            }
        });
        match (fed, verdict) {
            (_, Some(true)) => Sniff::Yes,
            (_, Some(false)) | (Err(_), None) => Sniff::No,
            (Ok(()), None) if input.at_eof || splitter.is_done() => Sniff::No,
            (Ok(()), None) => Sniff::NeedMore,
        }
    }

    fn reader(&self) -> Box<dyn FormatReader> {
        Box::new(reader::ChromeReader::new())
    }
    /// Measured in a tab (a 100 MB trace: 415 MB).
    fn tab_bytes_per_input_byte(&self) -> f64 {
        4.2
    }
}

/// An event object: `ph` (a string), and `ts` or `name` when it must stand
/// on its own (a root array).
fn looks_like_event(value: &[u8], want_ts: bool) -> bool {
    let Ok(serde_json::Value::Object(o)) = serde_json::from_slice::<serde_json::Value>(value) else { return false };
    o.get("ph").is_some_and(|p| p.is_string()) && (!want_ts || o.contains_key("ts") || o.contains_key("name"))
}
