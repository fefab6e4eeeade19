//! What the reader keeps of an evobench log: its header records, the call
//! tree of its spans with one sample per closed span, and the spans
//! themselves for the timeline. No line is kept.

use serde::{Deserialize, Serialize};

/// The four timing kinds of the evaluator's sheets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TimingKind {
    /// Real (wall-clock) time, ns, from `r` (`t` in old logs).
    Real,
    /// The thread's CPU time, user + system (`u` + `s`), µs.
    Cpu,
    /// The thread's system CPU time (`s`), µs.
    Sys,
    /// Context switches, voluntary + involuntary (`nvcsw` + `nivcsw`).
    CtxSwitches,
}

impl TimingKind {
    /// Every kind, in the evaluator's sheet order.
    pub const ALL: [TimingKind; 4] = [TimingKind::Real, TimingKind::Cpu, TimingKind::Sys, TimingKind::CtxSwitches];

    /// The evaluator's sheet name (`real time`, `cpu time`, `sys time`, `ctx switches`).
    pub fn title(self) -> &'static str {
        match self {
            TimingKind::Real => "real time",
            TimingKind::Cpu => "cpu time",
            TimingKind::Sys => "sys time",
            TimingKind::CtxSwitches => "ctx switches",
        }
    }

    /// Short name with unit, for columns and the command line (`real_ns`, `cpu_us`, `sys_us`, `ctx_switches`).
    pub fn name(self) -> &'static str {
        match self {
            TimingKind::Real => "real_ns",
            TimingKind::Cpu => "cpu_us",
            TimingKind::Sys => "sys_us",
            TimingKind::CtxSwitches => "ctx_switches",
        }
    }

    /// The unit of its values.
    pub fn unit(self) -> crate::model::flame::Unit {
        use crate::model::flame::Unit;
        match self {
            TimingKind::Real => Unit::Nanos,
            TimingKind::Cpu | TimingKind::Sys => Unit::Micros,
            TimingKind::CtxSwitches => Unit::Count,
        }
    }

    /// Its index in [`TimingKind::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

impl std::str::FromStr for TimingKind {
    type Err = String;

    /// `real`, `cpu`, `sys` or `ctx` (or the names with units, `real_ns` …).
    fn from_str(s: &str) -> Result<TimingKind, String> {
        match s {
            "real" | "real_ns" => Ok(TimingKind::Real),
            "cpu" | "cpu_us" => Ok(TimingKind::Cpu),
            "sys" | "sys_us" => Ok(TimingKind::Sys),
            "ctx" | "ctx_switches" => Ok(TimingKind::CtxSwitches),
            _ => Err(format!("unknown timing kind {s:?}: real, cpu, sys or ctx")),
        }
    }
}

/// The `Start` record (line 1).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartInfo {
    /// `evobench_log_version` (1 for every log so far).
    pub log_version: u32,
    /// `evobench_version`, the writer's version (`v0.1.1`).
    pub writer_version: String,
}

/// The `Metadata` record (line 2).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metadata {
    /// The user who ran the benchmark ("" without a login tty).
    pub username: String,
    /// The machine's host name.
    pub hostname: String,
    /// `uname`: system, node, release, version, machine.
    pub uname: [String; 5],
    /// The compiler of the probes library (`GCC 12.2.0`).
    pub compiler: String,
}

/// What a node of the call tree is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Label {
    /// The process scope (TStart … TEnd), with its probe name id (`-`).
    Process(u32),
    /// A thread scope (TThreadStart … TThreadEnd): its thread number and probe name id.
    Thread(u32, u32),
    /// A probe scope (TS … TE): its probe name id (`module|action`).
    Probe(u32),
    /// A KeyValue pseudo-scope: key and value ids.
    KeyValue(u32, u32),
}

/// One node of the call tree: every span with the same chain of labels up
/// to its thread (or process) scope. Process and thread scopes are roots,
/// as the evaluator's paths stop at them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Node {
    /// The enclosing node, if any.
    pub parent: Option<u32>,
    /// What it is.
    pub label: Label,
    /// Spans opened here (KeyValues included, closed or not).
    pub opened: u64,
    /// One sample per closed span, in closing order.
    pub samples: Vec<Sample>,
}

/// One closed span's costs (end − start of each kind) and weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sample {
    /// The `n` of its start (`EVOBENCH_SCOPE_EVERY`'s divisor; 1 when absent).
    pub weight: u32,
    values: [u64; 4],
}

/// Marks a kind that a sample does not have (fields missing, as on macOS).
const ABSENT: u64 = u64::MAX;

impl Sample {
    /// A sample; `None` values are kinds the records do not have.
    pub fn new(weight: u32, values: [Option<u64>; 4]) -> Sample {
        Sample { weight, values: values.map(|v| v.unwrap_or(ABSENT)) }
    }

    /// Its cost in `kind`, if the records have it.
    pub fn value(&self, kind: TimingKind) -> Option<u64> {
        Some(self.values[kind.index()]).filter(|&v| v != ABSENT)
    }
}

/// A closed span, for the timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    /// Its node.
    pub node: u32,
    /// The thread number it ran on.
    pub thread: u32,
    /// Start, ns of `CLOCK_REALTIME`.
    pub start: u64,
    /// End, ns of `CLOCK_REALTIME`.
    pub end: u64,
    /// The calls it stands for (its sample's weight, `EVOBENCH_SCOPE_EVERY`'s n).
    pub weight: u32,
}

/// A read evobench log.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Log {
    /// Line 1.
    pub start: StartInfo,
    /// Line 2, if it was there.
    pub metadata: Option<Metadata>,
    /// Real time is called `t` (the 2025-04 dialect) rather than `r`.
    pub old_dialect: bool,
    /// Probe names, keys and values, by id.
    pub names: Vec<String>,
    /// The call tree.
    pub nodes: Vec<Node>,
    /// Every closed span, in closing order.
    pub spans: Vec<Span>,
    /// Thread ids by thread number, in order of first appearance.
    pub threads: Vec<u64>,
    /// Records by kind: KeyValue, TStart, T, TS, TE, TThreadStart, TThreadEnd, TEnd, TIO.
    pub records: [u64; 9],
    /// The last record was TEnd (else the log was cut off).
    pub ended: bool,
}

/// Record kinds, in [`Log::records`] order.
pub const RECORD_KINDS: [&str; 9] =
    ["KeyValue", "TStart", "T", "TS", "TE", "TThreadStart", "TThreadEnd", "TEnd", "TIO"];

impl Log {
    /// The name with id `id`.
    pub fn name(&self, id: u32) -> &str {
        self.names.get(id as usize).map_or("", String::as_str)
    }

    /// A node's own label as the evaluator prints it in a path: the probe
    /// name, `k=v`, `main thread`, or `thread` / `threadNN` (with `numbered`).
    pub fn label_text(&self, node: u32, numbered: bool) -> String {
        match self.nodes[node as usize].label {
            Label::Process(_) => "main thread".to_owned(),
            Label::Thread(n, _) if numbered => format!("thread{n:02}"),
            Label::Thread(..) => "thread".to_owned(),
            Label::Probe(pn) => self.name(pn).to_owned(),
            Label::KeyValue(k, v) => format!("{}={}", self.name(k), self.name(v)),
        }
    }

    /// The probe name of a node's spans (`-` for process and thread scopes
    /// as written); `None` for a KeyValue.
    pub fn probe_name(&self, node: u32) -> Option<&str> {
        match self.nodes[node as usize].label {
            Label::Process(pn) | Label::Thread(_, pn) | Label::Probe(pn) => Some(self.name(pn)),
            Label::KeyValue(..) => None,
        }
    }
}
