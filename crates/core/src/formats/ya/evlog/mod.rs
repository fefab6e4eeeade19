//! ya's local event log (evlog): what a local `ya make` did, node by node.
//!
//! **Who writes it.** `ya make` on a developer's machine (no distbuild),
//! as JSON lines, usually zstd-compressed (`.evlog.zst`). Spec:
//! `shared/specs/distbuild-log.md`, "ya's local event log".
//!
//! **A record.** One JSON object per line:
//!
//! ```text
//! {"timestamp": 1732000000.5, "thread_name": "worker-3",   // when, which thread
//!  "namespace": "worker_threads", "event": "node-finished",
//!  "value": {"name": "Run(A)", "time": [1732000000.1, 1732000000.5], "tag": "CC"}}
//!                    ^ the node's uid  ^ start and end, seconds     ^ short type
//! ```
//!
//! **What is read.** `worker_threads`/`node-finished` (a run task: uid from
//! `name`, start and end from `time`, type from `tag`; `restore[CC]` is a CC
//! result restored from cache) and `stages`/`stage-finished` (a phase of
//! the whole build). Times become milliseconds as ya takes them
//! (`int(seconds * 1000)`).
//!
//! **What is ignored.** Every other namespace and event: counted per kind
//! and reported once.
//!
//! **Mapping.** Threads are lanes; run tasks are work; stages are phases on
//! a `stages` lane. Dependencies come from the build graph given with it.
//!
//! **Caveats.** A line that is not a JSON object is reported and skipped; a
//! binary line (a NUL byte) ends the log.

pub(crate) mod model;

use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::error::FormatError;
use crate::formats::{Format, FormatId, FormatReader, Parsed, ReadCounts, Sniff, SniffInput};
use crate::lines::LineSplitter;
use serde::Deserialize;
use std::collections::BTreeMap;

/// This format's id: ya's local event log (evlog).
pub const ID: FormatId = FormatId::new("ya-evlog", "ya event log");

/// One finished node.
#[derive(Clone, Debug, PartialEq)]
pub struct EvlogNode {
    /// Its uid (from `Run(<uid>...)`).
    pub uid: String,
    /// What ran it (`Run`, ...), the text before the parenthesis.
    pub action: String,
    /// The thread it ran on.
    pub thread: String,
    /// The type (`tag`, without `restore[...]`).
    pub kind: String,
    /// Restored from cache (`restore[...]` tag).
    pub restored: bool,
    /// Start, ms.
    pub start: i64,
    /// End, ms.
    pub end: i64,
    /// Line number.
    pub line: u64,
}

/// One finished stage of the build.
#[derive(Clone, Debug, PartialEq)]
pub struct EvlogStage {
    /// Its name.
    pub name: String,
    /// Start, ms.
    pub start: i64,
    /// End, ms.
    pub end: i64,
}

/// A read evlog.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evlog {
    /// Finished nodes, in file order.
    pub nodes: Vec<EvlogNode>,
    /// Finished stages, in file order.
    pub stages: Vec<EvlogStage>,
}

#[derive(Deserialize)]
struct Line {
    thread_name: Option<String>,
    namespace: Option<String>,
    event: Option<String>,
    #[serde(default)]
    value: serde_json::Value,
}

#[derive(Deserialize)]
struct Finished {
    name: String,
    time: (f64, f64),
    tag: Option<String>,
}

/// The evlog format.
pub struct YaEvlogFormat;

const TITLE: &str = "ya event log";

impl Format for YaEvlogFormat {
    fn id(&self) -> FormatId {
        crate::formats::ya::evlog::ID
    }

    /// Yes when the first line is a JSON object with `namespace`, `event` and `timestamp`.
    fn sniff(&self, input: SniffInput<'_>) -> Sniff {
        let line = match memchr::memchr(b'\n', input.head) {
            Some(i) => &input.head[..i],
            None if input.at_eof => input.head,
            None if input.head.len() < crate::formats::SNIFF_LIMIT => return Sniff::NeedMore,
            None => return Sniff::No,
        };
        match serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(line) {
            Ok(o) if o.contains_key("namespace") && o.contains_key("event") && o.contains_key("timestamp") => {
                Sniff::Yes
            }
            _ => Sniff::No,
        }
    }

    fn reader(&self) -> Box<dyn FormatReader> {
        Box::new(YaEvlogReader::default())
    }
}

#[derive(Default)]
struct YaEvlogReader {
    lines: LineSplitter,
    log: Evlog,
    ignored: BTreeMap<(String, String), (u64, u64)>,
    events: u64,
}

/// ya's `int(seconds * 1000)`.
fn ms(seconds: f64) -> i64 {
    (seconds * 1000.0) as i64
}

/// `Run(<uid>...)` → ("Run", uid).
fn split_name(name: &str) -> Option<(&str, &str)> {
    let open = name.find('(')?;
    let rest = &name[open + 1..];
    let end = rest.find(|c: char| c == ')' || c == ',' || c.is_whitespace()).unwrap_or(rest.len());
    (end > 0).then(|| (&name[..open], &rest[..end]))
}

impl YaEvlogReader {
    fn line(&mut self, n: u64, raw: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError> {
        let raw = raw.trim_ascii();
        if raw.is_empty() {
            return Ok(());
        }
        if memchr::memchr(0, raw).is_some() {
            return Err(FormatError::new(
                TITLE,
                Position::Line(n),
                "a NUL byte: this is binary data, not JSON lines",
                raw,
            ));
        }
        let at = Position::Line(n);
        let line: Line = match serde_json::from_slice(raw) {
            Ok(l) => l,
            Err(e) => {
                diags.report(Severity::Warning, "ya-evlog.bad-line", at, format!("not a JSON event ({e}); skipped"));
                return Ok(());
            }
        };
        self.events += 1;
        let (namespace, event) = (line.namespace.unwrap_or_default(), line.event.unwrap_or_default());
        match (namespace.as_str(), event.as_str()) {
            ("worker_threads", "node-finished") => {
                let Ok(f) = serde_json::from_value::<Finished>(line.value) else {
                    diags.report(
                        Severity::Warning,
                        "ya-evlog.bad-node",
                        at,
                        "node-finished without a name and a [start, end] time; skipped",
                    );
                    return Ok(());
                };
                let Some((action, uid)) = split_name(&f.name) else {
                    diags.report(
                        Severity::Warning,
                        "ya-evlog.bad-node",
                        at,
                        format!("cannot find a uid in the node name {:?}; skipped", f.name),
                    );
                    return Ok(());
                };
                let tag = f.tag.unwrap_or_else(|| "UNKNOWN".to_owned());
                let (kind, restored) = match tag.strip_prefix("restore[").and_then(|t| t.strip_suffix(']')) {
                    Some(inner) => (inner.to_owned(), true),
                    None => (tag, false),
                };
                self.log.nodes.push(EvlogNode {
                    uid: uid.to_owned(),
                    action: action.to_owned(),
                    thread: line.thread_name.unwrap_or_default(),
                    kind,
                    restored,
                    start: ms(f.time.0),
                    end: ms(f.time.1),
                    line: n,
                });
            }
            ("stages", "stage-finished") => match serde_json::from_value::<Finished>(line.value) {
                Ok(f) => self.log.stages.push(EvlogStage { name: f.name, start: ms(f.time.0), end: ms(f.time.1) }),
                Err(_) => diags.report(
                    Severity::Warning,
                    "ya-evlog.bad-stage",
                    at,
                    "stage-finished without a name and a [start, end] time; skipped",
                ),
            },
            _ => {
                let e = self.ignored.entry((namespace, event)).or_insert((n, 0));
                e.1 += 1;
            }
        }
        Ok(())
    }
}

impl FormatReader for YaEvlogReader {
    fn feed(&mut self, chunk: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError> {
        let mut lines = std::mem::take(&mut self.lines);
        let r = lines.feed(chunk, |n, l| self.line(n, l, diags));
        self.lines = lines;
        r
    }

    fn finish(mut self: Box<Self>, diags: &mut Diagnostics) -> Result<Parsed, FormatError> {
        let mut lines = std::mem::take(&mut self.lines);
        lines.finish(|n, l| self.line(n, l, diags))?;
        self.lines = lines;
        for ((namespace, event), (first, count)) in &self.ignored {
            diags.report(
                Severity::Info,
                "ya-evlog.other-event",
                Position::Line(*first),
                format!("{namespace}/{event}: not used for the timeline ({count} lines)"),
            );
        }
        Ok(Parsed::YaEvlog(self.log))
    }

    fn counts(&self) -> ReadCounts {
        ReadCounts { lines: self.lines.lines(), events: self.events }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::read_bytes;

    const LOG: &str = r#"{"timestamp": 1.0, "thread_name": "main", "namespace": "stages", "event": "stage-started", "value": {"name": "build"}}
{"timestamp": 2.5, "thread_name": "w1", "namespace": "worker_threads", "event": "node-finished", "value": {"name": "Run(A)", "time": [1.0005, 2.4999], "tag": "CC"}}
{"timestamp": 2.6, "thread_name": "w2", "namespace": "worker_threads", "event": "node-finished", "value": {"name": "Run(B, extra)", "time": [1.2, 1.2], "tag": "restore[CC]"}}
not json
{"timestamp": 3.0, "thread_name": "main", "namespace": "stages", "event": "stage-finished", "value": {"name": "build", "time": [1.0, 3.0]}}
"#;

    #[test]
    fn reads_nodes_and_stages_at_any_chunk_size() {
        for chunk in [1, 7, 4096] {
            let input = read_bytes("x.evlog", LOG.as_bytes(), chunk).unwrap();
            assert_eq!(input.info.format, crate::formats::ya::evlog::ID);
            let Parsed::YaEvlog(log) = input.parsed else { panic!() };
            assert_eq!(log.nodes.len(), 2);
            assert_eq!((log.nodes[0].uid.as_str(), log.nodes[0].start, log.nodes[0].end), ("A", 1000, 2499));
            assert_eq!(
                (log.nodes[1].uid.as_str(), log.nodes[1].kind.as_str(), log.nodes[1].restored),
                ("B", "CC", true)
            );
            assert_eq!(log.stages, [EvlogStage { name: "build".into(), start: 1000, end: 3000 }]);
            let codes: Vec<String> =
                input.info.diagnostics.kept().iter().map(|d| format!("{} {}", d.position, d.code)).collect();
            assert_eq!(codes, ["line 4 ya-evlog.bad-line", "line 1 ya-evlog.other-event"]);
        }
    }
}
