//! MonetDB's MAL profiler traces: one JSON object per MAL instruction event,
//! as the server streams them to stethoscope (or `profiler.openstream`).
//!
//! Three server generations write three layouts; each object's layout is
//! detected on its own ([`Generation`]):
//!
//! ```text
//! 2018–Apr2019  {"source":"trace","clk":24590811,"ctime":1544186015703392,"thread":13,
//!                "function":"user.s0_1","pc":1,"tag":16,"module":"querylog",
//!                "instruction":"define","session":"89f5…","state":"start","usec":0,
//!                "stmt":"X_6=0@0:void := querylog.define(…);","short":"define( … )",
//!                "prereq":[],"ret":[{"index":0,"name":"X_6","type":"void",…}],"arg":[…]}
//! Jun2020       {"version":"11.37.2 …","clk":<epoch µs>,"mclk":<µs since start>,"thread":8,
//!                "program":"user.s4_1","pc":1,"tag":15,"module":"querylog","function":"define",
//!                "session":"97c9…","state":"start","usec":0,"args":[{"ret":0,"var":"X_1",…}]}
//! Sep2022       {"sessionid":"0","clk":59008516,"thread":20,"phase":"mal_engine","pc":1,
//!                "tag":4,"module":"querylog","function":"define","usec":3,"args":[…]}
//! heartbeat     {"source":"heartbeat","session":"…","clk":…,"ctime":…,"rss":…,"state":"ping","cpuload":[…]}
//! ```
//!
//! **Read:** session and tag (one MAL execution each), pc, state (start,
//! done, pause; Sep2022 writes one event after the instruction ran), times
//! (the epoch where the trace gives it: 2018's `ctime`, Jun2020's `clk`;
//! else µs since server start), thread, module and instruction, the
//! enclosing function, operator, `usec`, `rss`, `size`, version, the short
//! statement, prerequisite pcs, and every variable (name, position, ret or
//! argument, constant, 2018's `eol`, scalar value). Heartbeats: clk, ctime,
//! rss, nvcsw, per-core load.
//!
//! **Kept, not interpreted:** every byte. The trace is kept as written, so
//! `longpole rewrite` gives it back byte for byte and `dump --mal-statements`
//! rebuilds statements from the objects' own text; for this format memory
//! therefore grows with the file as well as with the events.
//!
//! **Objects** may span lines (pretty-printed); see [`objects`]. An object
//! with errors (cut, not JSON, no session or tag) is skipped with the
//! diagnostic `mal.W001` ("W001 Ignoring object that contains errors", as
//! mal_analytics names it) at its first line; the rest is kept. A NUL byte
//! means the input is no longer a trace (an error).
//!
//! **Mapping** (done in `reconcile::monetdb_mal`, following mal_analytics):
//! instructions become tasks on one lane per thread, paired start/done by
//! execution and pc, with dataflow dependencies from the variables; each
//! execution's function (pc 0) and each dataflow block are phases on the
//! `executions` lane; Sep2022
//! SQL phases are phases on the `sql phases` lane.

pub mod analysis;
mod compare;
mod json;
pub mod objects;
mod reader;
pub mod reconcile;
pub(crate) mod report;
mod run_kind;
mod run_view;
pub mod statement;
pub mod tables;
mod trace;
pub mod view;

pub use reader::query_from_short;
pub use trace::{Generation, Heartbeat, MalEvent, MalTrace, State, VarName, VarUse};

use super::{Format, FormatId, FormatReader, Sniff, SniffInput};
use objects::{ObjectSplitter, Piece};

/// This format's id: a MonetDB server's MAL profiler trace.
pub const ID: FormatId = FormatId::new("monetdb-mal", "MonetDB MAL trace");

/// MonetDB's MAL profiler trace format.
pub struct MonetdbMalFormat;

impl Format for MonetdbMalFormat {
    fn id(&self) -> FormatId {
        crate::formats::monetdb_mal::ID
    }

    /// Yes when the first object is a profiler event or a heartbeat: it has
    /// a `pc`, a `phase` or a `cpuload`, with a `clk` or a `source`.
    fn sniff(&self, input: SniffInput<'_>) -> Sniff {
        let head = input.head;
        match head.iter().position(|b| !b.is_ascii_whitespace()) {
            None if input.at_eof => return Sniff::No,
            None => return Sniff::NeedMore,
            // A Chrome trace's object form, whatever the length of its first event.
            Some(i) if head[i] == b'{' && head[i + 1..].trim_ascii_start().starts_with(b"\"traceEvents\"") => {
                return Sniff::No
            }
            Some(i) if head[i] == b'{' => {}
            Some(_) => return Sniff::No,
        }
        let mut splitter = ObjectSplitter::default();
        let mut pieces = Vec::new();
        let mut offset = 0u64;
        for line in head.split(|&b| b == b'\n') {
            let complete = offset + (line.len() as u64) < head.len() as u64 || input.at_eof;
            if !complete {
                break;
            }
            splitter.line(0, offset, line, &mut pieces);
            offset += line.len() as u64 + 1;
            if let Some(piece) = pieces.first() {
                return match piece {
                    Piece::Object { start, end, .. } => {
                        let text = &head[*start as usize..*end as usize];
                        if looks_like_mal(text) {
                            Sniff::Yes
                        } else {
                            Sniff::No
                        }
                    }
                    _ => Sniff::No,
                };
            }
        }
        if input.at_eof {
            Sniff::No
        } else {
            Sniff::NeedMore
        }
    }

    fn reader(&self) -> Box<dyn FormatReader> {
        Box::new(reader::Reader::default())
    }
}

/// Whether one object's keys are a profiler event's or a heartbeat's.
fn looks_like_mal(text: &[u8]) -> bool {
    let Ok(serde_json::Value::Object(o)) = serde_json::from_slice::<serde_json::Value>(text) else { return false };
    let has = |k: &str| o.contains_key(k);
    let source = o.get("source").and_then(|s| s.as_str());
    matches!(source, Some("trace") | Some("heartbeat"))
        || (has("clk")
            && (has("pc") || has("phase") || has("cpuload"))
            && (has("session") || has("sessionid") || has("cpuload")))
}

#[cfg(test)]
mod tests;
