//! A GHC [`Eventlog`] as a [`Model`] and a [`GhcRun`].
//!
//! The model has two lanes per capability, in capability order: on `cap N`,
//! each time a Haskell thread ran (run-thread to stop-thread on that
//! capability) is a task of kind `thread`; on `cap N GC`, each garbage
//! collection it took part in (start to end of GC) is a task of kind `GC`
//! (apart, so that pauses stay visible when a zoomed-out chart merges bars). User spans (a `START x`
//! message or marker and the next `STOP x`) are tasks of kind `user span` on
//! a lane of their own; other user markers and messages are instants on the
//! `markers` lane.
//!
//! Events of one capability come in time order (they are written per
//! capability, block by block); blocks of different capabilities interleave,
//! so every pairing here is per capability. A span still open when the log
//! ends closes at the last time its capability logged.

use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::formats::ghc_eventlog::decode::{decode, Event};
use crate::formats::ghc_eventlog::Eventlog;
use crate::hash::FastMap;
use crate::model::{KindId, LaneId, Model, ModelBuilder, Nanos, Role, Sym, Task};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a GHC eventlog says beyond its model.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GhcRun {
    /// Events of the data section, block markers included.
    pub events: u64,
    /// Capabilities that logged events.
    pub capabilities: u32,
    /// Events per type id.
    pub events_by_type: BTreeMap<u16, u64>,
    /// The declared description of each type id.
    pub type_names: BTreeMap<u16, String>,
    /// Garbage collections, in time order.
    pub collections: Vec<Collection>,
    /// Heap figures over time, in time order.
    pub heap: Vec<HeapSample>,
    /// Every Haskell thread, by id.
    pub threads: Vec<ThreadStats>,
    /// User markers and user messages, in time order.
    pub marks: Vec<Mark>,
}

/// One garbage collection: from the first capability starting it to the
/// last one finishing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Collection {
    /// Start, ns.
    pub start: Nanos,
    /// End, ns.
    pub end: Nanos,
    /// The generation collected, when the log has GC statistics.
    pub generation: Option<u16>,
    /// Bytes copied, when the log has GC statistics.
    pub copied: Option<u64>,
}

/// The heap's figures at one time; each event gives one of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeapSample {
    /// When, ns.
    pub time: Nanos,
    /// Which figure.
    pub figure: HeapFigure,
    /// Bytes.
    pub bytes: u64,
}

/// A heap figure the runtime reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HeapFigure {
    /// The heap's current size.
    Size,
    /// Live data after the last major collection.
    Live,
    /// Bytes allocated since the program started.
    Allocated,
}

/// What a thread did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadStats {
    /// Its id.
    pub id: u32,
    /// Its label, if the program gave one.
    pub label: Option<String>,
    /// When it was created, if the log says.
    pub created: Option<Nanos>,
    /// How many times it ran.
    pub runs: u64,
    /// Total time it ran, ns.
    pub run_time: Nanos,
    /// Its longest run, ns.
    pub longest_run: Nanos,
    /// First time it ran, ns.
    pub first_run: Option<Nanos>,
    /// When its last run ended, ns.
    pub last_stop: Option<Nanos>,
    /// Capabilities it ran on.
    pub caps: u32,
}

/// A user marker or message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    /// When, ns.
    pub time: Nanos,
    /// The capability that logged it.
    pub cap: Option<u16>,
    /// Byte offset of its event in the file.
    pub offset: u64,
    /// A marker (`traceMarker`) rather than a message (`traceEvent`).
    pub marker: bool,
    /// Its text.
    pub text: String,
}

/// The latest time taken as is (2^62 ns, 146 years): differences and sums
/// of times stay far from overflowing.
const MAX_TIME: Nanos = 1 << 62;

/// Per-capability pairing state.
#[derive(Default)]
struct Cap {
    /// Its lanes: (threads, GC).
    lanes: Option<(LaneId, LaneId)>,
    /// The running thread and since when.
    running: Option<(u32, Nanos)>,
    gc_since: Option<Nanos>,
    last: Nanos,
}

/// A thread while the log is read: its numbers, the capabilities it ran on,
/// and its uid and name in the model's string table once made.
#[derive(Default)]
struct Thread {
    stats: ThreadStats,
    caps: Vec<Option<u16>>,
    syms: Option<(Sym, Option<Sym>)>,
}

/// Threads by id (ordered by id once the log is read).
type Threads = FastMap<u32, Thread>;

fn thread(threads: &mut Threads, id: u32) -> &mut Thread {
    threads
        .entry(id)
        .or_insert_with(|| Thread { stats: ThreadStats { id, ..ThreadStats::default() }, ..Thread::default() })
}

/// The kinds of the capabilities' spans.
struct Kinds {
    thread: KindId,
    gc: KindId,
    gc_uid: Sym,
}

/// Reconciles an eventlog; problems (a STOP with no START...) go to `diags`.
pub fn reconcile(log: &Eventlog, diags: &mut Diagnostics) -> (Model, GhcRun) {
    let mut run = GhcRun { events: log.events.len() as u64, ..GhcRun::default() };
    run.type_names = log.types.iter().map(|t| (t.id, t.description.clone())).collect();
    let mut b = ModelBuilder::new();
    // Lanes in capability order, before any other lane.
    let mut seen = vec![false; usize::from(u16::MAX) + 1];
    for c in log.events.iter().filter_map(|e| e.cap) {
        seen[usize::from(c)] = true;
    }
    let cap_ids: Vec<u16> = (0..=u16::MAX).filter(|&c| seen[usize::from(c)]).collect();
    run.capabilities = cap_ids.len() as u32;
    let mut caps: FastMap<Option<u16>, Cap> = FastMap::default();
    for &c in &cap_ids {
        let lanes = (b.lane(&format!("cap {c}")), b.lane(&format!("cap {c} GC")));
        caps.insert(Some(c), Cap { lanes: Some(lanes), ..Cap::default() });
    }
    // ThreadScope's colours: running green, GC orange.
    let kinds =
        Kinds { thread: b.kind("thread", Some("green")), gc: b.kind("GC", Some("orange")), gc_uid: b.sym("GC") };
    let mut threads = Threads::default();
    let mut gc_spans: Vec<(Nanos, Nanos)> = Vec::new();
    let mut stats: Vec<(Nanos, u16, u64)> = Vec::new();
    let mut first: Option<Nanos> = None;
    let mut last: Nanos = 0;
    for e in &log.events {
        *run.events_by_type.entry(e.ty).or_default() += 1;
        let time = match Nanos::try_from(e.time) {
            Ok(t) if t <= MAX_TIME => t,
            _ => {
                diags.report(
                    Severity::Warning,
                    "ghc.time-out-of-range",
                    Position::Byte(e.offset),
                    format!("event time {} ns is past {MAX_TIME} ns (146 years): read as {MAX_TIME}", e.time),
                );
                MAX_TIME
            }
        };
        if e.ty != 18 {
            first = Some(first.map_or(time, |f| f.min(time)));
            last = last.max(time);
        }
        let cap = caps.entry(e.cap).or_default();
        cap.last = cap.last.max(time);
        match decode(log, e).event {
            Event::CreateThread { thread: id } => thread(&mut threads, id).stats.created = Some(time),
            Event::ThreadLabel { thread: id, label } => {
                let t = thread(&mut threads, id);
                t.stats.label = Some(label);
                t.syms = None;
            }
            Event::RunThread { thread } => {
                if let Some((open, since)) = cap.running.take() {
                    close_run(&mut b, &kinds, &mut threads, cap, e.cap, open, since, time);
                }
                cap.running = Some((thread, time));
            }
            Event::StopThread { thread, .. } => {
                if let Some((open, since)) = cap.running.take() {
                    close_run(&mut b, &kinds, &mut threads, cap, e.cap, open, since, time);
                    if open != thread {
                        diags.report(
                            Severity::Warning,
                            "ghc.stop-other-thread",
                            Position::Byte(e.offset),
                            format!("thread {thread} stops while thread {open} was running on this capability"),
                        );
                    }
                }
            }
            Event::StartGc => cap.gc_since = Some(time),
            Event::EndGc => {
                if let Some(since) = cap.gc_since.take() {
                    add_gc(&mut b, &kinds, cap, e.cap, since, time, &mut gc_spans);
                }
            }
            Event::GcStatsGhc { gen, copied, .. } => stats.push((time, gen, copied)),
            Event::HeapSize { size, .. } => run.heap.push(HeapSample { time, figure: HeapFigure::Size, bytes: size }),
            Event::HeapLive { live, .. } => run.heap.push(HeapSample { time, figure: HeapFigure::Live, bytes: live }),
            Event::HeapAllocated { alloc, .. } => {
                run.heap.push(HeapSample { time, figure: HeapFigure::Allocated, bytes: alloc })
            }
            Event::UserMessage { message } => {
                run.marks.push(Mark { time, cap: e.cap, offset: e.offset, marker: false, text: message })
            }
            Event::UserMarker { marker } => {
                run.marks.push(Mark { time, cap: e.cap, offset: e.offset, marker: true, text: marker })
            }
            _ => {}
        }
    }
    // Spans still open end where their capability's log ends.
    let mut open: Vec<Option<u16>> = caps.keys().copied().collect();
    open.sort_unstable();
    for c in open {
        let cap = caps.get_mut(&c).expect("a capability seen");
        let end = cap.last;
        if let Some((thread, since)) = cap.running.take() {
            close_run(&mut b, &kinds, &mut threads, cap, c, thread, since, end);
        }
        if let Some(since) = cap.gc_since.take() {
            add_gc(&mut b, &kinds, cap, c, since, end, &mut gc_spans);
        }
    }
    run.collections = collections(gc_spans, &stats);
    let mut threads: Vec<Thread> = threads.into_values().collect();
    threads.sort_unstable_by_key(|t| t.stats.id);
    run.threads = threads.into_iter().map(|t| ThreadStats { caps: t.caps.len() as u32, ..t.stats }).collect();
    run.marks.sort_by_key(|m| m.time);
    user_spans(&mut b, &run.marks, diags);
    run.heap.sort_by_key(|h| h.time);
    if let Some(first) = first {
        b.window(first, last);
    }
    (b.build(), run)
}

/// The (threads, GC) lanes of a capability.
fn lanes_of(b: &mut ModelBuilder, cap: &mut Cap, id: Option<u16>) -> (LaneId, LaneId) {
    *cap.lanes.get_or_insert_with(|| match id {
        Some(c) => (b.lane(&format!("cap {c}")), b.lane(&format!("cap {c} GC"))),
        None => (b.lane("no cap"), b.lane("no cap GC")),
    })
}

#[allow(clippy::too_many_arguments)]
fn close_run(
    b: &mut ModelBuilder,
    kinds: &Kinds,
    threads: &mut Threads,
    cap: &mut Cap,
    cap_id: Option<u16>,
    id: u32,
    since: Nanos,
    until: Nanos,
) {
    let lane = lanes_of(b, cap, cap_id).0;
    let t = thread(threads, id);
    let d = (until - since).max(0);
    let s = &mut t.stats;
    s.runs += 1;
    s.run_time = s.run_time.saturating_add(d);
    s.longest_run = s.longest_run.max(d);
    s.first_run = Some(s.first_run.map_or(since, |f| f.min(since)));
    s.last_stop = Some(s.last_stop.map_or(until, |l| l.max(until)));
    if !t.caps.contains(&cap_id) {
        t.caps.push(cap_id);
    }
    let (uid, name) = *t.syms.get_or_insert_with(|| {
        let name = s.label.as_ref().map(|l| b.sym(&format!("thread {id} ({l})")));
        (b.sym(&format!("thread {id}")), name)
    });
    b.task(Task { name, ..Task::new(uid, kinds.thread, Role::Work, lane, Some(since), Some(until.max(since))) });
}

fn add_gc(
    b: &mut ModelBuilder,
    kinds: &Kinds,
    cap: &mut Cap,
    cap_id: Option<u16>,
    since: Nanos,
    until: Nanos,
    spans: &mut Vec<(Nanos, Nanos)>,
) {
    let lane = lanes_of(b, cap, cap_id).1;
    b.task(Task::new(kinds.gc_uid, kinds.gc, Role::Work, lane, Some(since), Some(until.max(since))));
    spans.push((since, until.max(since)));
}

/// Joins overlapping GC spans of all capabilities into collections, and
/// gives each the statistics logged after it started.
fn collections(mut spans: Vec<(Nanos, Nanos)>, stats: &[(Nanos, u16, u64)]) -> Vec<Collection> {
    spans.sort_unstable();
    let mut out: Vec<Collection> = Vec::new();
    for (s, e) in spans {
        match out.last_mut() {
            Some(c) if s <= c.end => c.end = c.end.max(e),
            _ => out.push(Collection { start: s, end: e, generation: None, copied: None }),
        }
    }
    let mut stats = stats.to_vec();
    stats.sort_by_key(|s| s.0);
    for (time, gen, copied) in stats {
        // The last collection that started by then and has no statistics yet.
        let i = out.partition_point(|c| c.start <= time);
        if let Some(c) = out[..i].iter_mut().rev().find(|c| c.generation.is_none()) {
            c.generation = Some(gen);
            c.copied = Some(copied);
        }
    }
    out
}

/// The label of a `START label` or `STOP label` text.
fn span_edge(text: &str) -> Option<(bool, &str)> {
    if let Some(l) = text.strip_prefix("START ") {
        Some((true, l.trim()))
    } else {
        text.strip_prefix("STOP ").map(|l| (false, l.trim()))
    }
}

/// Pairs `START x` and `STOP x` marks (in time order, innermost first) into
/// user-span tasks; marks that are not span edges become instants.
fn user_spans(b: &mut ModelBuilder, marks: &[Mark], diags: &mut Diagnostics) {
    if marks.is_empty() {
        return;
    }
    let mut open: FastMap<&str, Vec<Nanos>> = FastMap::default();
    let span_kind = b.kind("user span", Some("blue"));
    let marker_kind = b.kind("marker", Some("magenta"));
    let message_kind = b.kind("message", Some("cyan"));
    let spans_lane = b.lane("user spans");
    let marks_lane = b.lane("markers");
    for m in marks {
        match span_edge(&m.text) {
            Some((true, label)) => open.entry(label).or_default().push(m.time),
            Some((false, label)) => match open.get_mut(label).and_then(|s| s.pop()) {
                Some(since) => {
                    let uid = b.sym(label);
                    b.task(Task::new(uid, span_kind, Role::Work, spans_lane, Some(since), Some(m.time)));
                }
                None => diags.report(
                    Severity::Info,
                    "ghc.stop-without-start",
                    Position::Byte(m.offset),
                    format!("\"STOP {label}\" at {} ns has no START before it", m.time),
                ),
            },
            None => {
                let uid = b.sym(&m.text);
                let kind = if m.marker { marker_kind } else { message_kind };
                b.task(Task::new(uid, kind, Role::Work, marks_lane, Some(m.time), Some(m.time)));
            }
        }
    }
    let mut unclosed: Vec<(&str, usize)> =
        open.iter().filter(|(_, v)| !v.is_empty()).map(|(&k, v)| (k, v.len())).collect();
    unclosed.sort();
    for (label, n) in unclosed {
        diags.report(
            Severity::Info,
            "ghc.start-without-stop",
            Position::Whole,
            format!("\"START {label}\" has no STOP after it ({n} times)"),
        );
    }
}
