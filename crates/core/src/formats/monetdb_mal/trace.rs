//! A MAL trace as read: every byte, and for each profiler object what the
//! reconciliation needs.

use crate::intern::Interner;
use std::ops::Range;

/// The server generation whose field layout an object has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Generation {
    /// 2018 – Apr2019 (11.29–11.33): `source`, `state`, `ret`/`arg`, `clk` since server start, `ctime`.
    Y2018,
    /// Jun2020 – Oct2020 (11.37–11.40): `program`, merged `args`, `clk` since the epoch.
    Jun2020,
    /// Sep2022 (11.45) and later: one event per instruction, `phase`, `sessionid`.
    Sep2022,
}

impl Generation {
    /// How the generation is named in reports.
    pub fn name(self) -> &'static str {
        match self {
            Generation::Y2018 => "2018–Apr2019",
            Generation::Jun2020 => "Jun2020–Oct2020",
            Generation::Sep2022 => "Sep2022 and later",
        }
    }
}

/// An event's execution state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// The instruction starts (`state: start`).
    Start,
    /// The instruction is done (`state: done`).
    Done,
    /// The instruction paused (`state: pause`).
    Pause,
    /// Sep2022: the one event written after the instruction ran.
    Once,
    /// Any other or no state.
    Other,
}

/// Where a variable's name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarName {
    /// In the trace's bytes, as written (no escapes): offset and length.
    Raw(u64, u32),
    /// A symbol of [`MalTrace::strings`] (a name written with escapes).
    Interned(u32),
}

/// One variable an event names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VarUse {
    /// Its name.
    pub name: VarName,
    /// Its position in the instruction (`index`, or `ret`/`arg`).
    pub index: Option<i64>,
    /// A returned variable (else an argument).
    pub ret: bool,
    /// A constant.
    pub constant: bool,
    /// 2018: `eol` is 1.
    pub eol: bool,
    /// Its value as Python prints it, kept for `remote.register_supervisor`
    /// and `querylog.define` (the rest stays in the trace's bytes).
    pub value: Option<u32>,
}

/// One profiler object about an instruction (or an SQL phase).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MalEvent {
    /// The line it starts on.
    pub line: u64,
    /// Its bytes in [`MalTrace::raw`].
    pub bytes: Range<u64>,
    /// Its field layout.
    pub generation: Generation,
    /// The server session (2018/Jun2020: the server's UUID; Sep2022: the client index).
    pub session: u32,
    /// The plan's tag.
    pub tag: Option<i64>,
    /// Instruction index.
    pub pc: Option<i64>,
    /// Start, done...
    pub state: State,
    /// Sep2022: a phase other than `mal_engine` (`text_to_sql`...).
    pub phase: Option<u32>,
    /// When, in µs: the epoch when the trace gives it (`ctime`, Jun2020's
    /// `clk`), else since server start.
    pub time: Option<i64>,
    /// `time` counts from the epoch.
    pub epoch: bool,
    /// The thread.
    pub thread: Option<i64>,
    /// The instruction's module.
    pub module: u32,
    /// The instruction (`join`, `define`).
    pub instruction: u32,
    /// The enclosing MAL function (`user.s4_1`).
    pub function: u32,
    /// A non-call token (`function`, `end`), if any.
    pub operator: Option<u32>,
    /// Duration in µs, where the event gives it.
    pub usec: Option<i64>,
    /// RSS in MB.
    pub rss: Option<i64>,
    /// MB created.
    pub size: Option<i64>,
    /// The server version.
    pub version: Option<u32>,
    /// A statement to show: 2018's `short`, else `module.instruction`.
    pub label: u32,
    /// 2018: the short statement starts with `function` (a definition).
    pub defines: bool,
    /// The SQL text, on `querylog.define` and `text_to_sql`.
    pub query: Option<u32>,
    /// Prerequisite pcs (2018).
    pub prereq: Range<u32>,
    /// The variables it names, in [`MalTrace::vars`].
    pub vars: Range<u32>,
}

/// A heartbeat: the server's load at one moment.
#[derive(Clone, Debug, PartialEq)]
pub struct Heartbeat {
    /// The line it starts on.
    pub line: u64,
    /// The session, if given.
    pub session: Option<u32>,
    /// µs since server start.
    pub clk: Option<i64>,
    /// µs since the epoch.
    pub ctime: Option<i64>,
    /// RSS in MB.
    pub rss: Option<i64>,
    /// Voluntary context switches.
    pub nvcsw: Option<i64>,
    /// Load per core, 0..1.
    pub cpuload: Vec<f64>,
}

/// A whole trace file.
#[derive(Clone, Debug, Default)]
pub struct MalTrace {
    /// Every byte as read (decompressed), so the trace can be written back.
    pub raw: Vec<u8>,
    /// The instruction events, in file order.
    pub events: Vec<MalEvent>,
    /// The heartbeats, in file order.
    pub heartbeats: Vec<Heartbeat>,
    /// Objects skipped because they contain errors.
    pub rejected: u64,
    /// Objects of no known kind.
    pub unknown: u64,
    /// Variables named by events.
    pub vars: Vec<VarUse>,
    /// Prerequisite pcs of events.
    pub prereqs: Vec<i64>,
    /// Names, labels and values.
    pub strings: Interner,
}

impl MalTrace {
    /// A string of the trace's table.
    pub fn str(&self, id: u32) -> &str {
        self.strings.name(id)
    }

    /// The variables event `e` names.
    pub fn vars_of(&self, e: &MalEvent) -> &[VarUse] {
        &self.vars[e.vars.start as usize..e.vars.end as usize]
    }

    /// The name of variable `v`.
    pub fn var_name(&self, v: &VarUse) -> &str {
        match v.name {
            VarName::Raw(at, len) => self
                .raw
                .get(at as usize..at as usize + len as usize)
                .and_then(|b| std::str::from_utf8(b).ok())
                .unwrap_or(""),
            VarName::Interned(s) => self.str(s),
        }
    }

    /// The prerequisite pcs of event `e`.
    pub fn prereqs_of(&self, e: &MalEvent) -> &[i64] {
        &self.prereqs[e.prereq.start as usize..e.prereq.end as usize]
    }

    /// The text of event `e` as written.
    pub fn text_of(&self, e: &MalEvent) -> &[u8] {
        &self.raw[e.bytes.start as usize..e.bytes.end as usize]
    }

    /// The generations seen, in order.
    pub fn generations(&self) -> Vec<Generation> {
        let mut g: Vec<Generation> = self.events.iter().map(|e| e.generation).collect();
        g.sort();
        g.dedup();
        g
    }
}
