//! A GHC eventlog's [`Model`] and [`GhcRun`], built event by event as the
//! reader frames them, so that no event has to be kept to analyse a log.
//!
//! The model has two lanes per capability, in capability order: on `cap N`,
//! each time a Haskell thread ran (run-thread to stop-thread on that
//! capability) is a task of kind `thread`; on `cap N GC`, each garbage
//! collection it took part in (start to end of GC) is a task of kind `GC`
//! (apart, so that pauses stay visible when a zoomed-out chart merges bars).
//! User spans (a `START x` message or marker and the next `STOP x`) are
//! tasks of kind `user span` on a lane of their own; other user markers and
//! messages are instants on the `markers` lane.
//!
//! Events of one capability come in time order (they are written per
//! capability, block by block); blocks of different capabilities interleave,
//! so every pairing here is per capability. A span still open when the log
//! ends closes at the last time its capability logged.

use super::collections::{collections, GcSpan, GcStats};
use super::decode::{decode_hot, decode_payload, decode_text_bytes, Event, Hot};
use super::marks::Marks;
use super::run::{GhcRun, HeapFigure, HeapSample, ThreadStats};
use super::threads::Threads;
use super::user_spans::user_spans;
use super::Eventlog;
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::model::{KindId, LaneId, Model, ModelBuilder, Nanos, Role, Sym, Task};

/// The latest time taken as is (2^62 ns, 146 years): differences and sums
/// of times stay far from overflowing.
const MAX_TIME: Nanos = 1 << 62;

/// The block marker's type id.
const BLOCK_MARKER: u16 = 18;

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

/// The kinds of the capabilities' spans.
struct Kinds {
    thread: KindId,
    gc: KindId,
    gc_uid: Sym,
}

/// Whether the timeline reads the whole [`Event`] of type `ty` (beyond the
/// [`Hot`] ones; the others are only counted).
fn wanted(ty: u16) -> bool {
    // Thread label; heap allocated, size, live; GC statistics (user
    // messages and markers are read as their text alone).
    matches!(ty, 44 | 49 | 50 | 51 | 53)
}

/// Where an event sits: what the reader framed around its payload.
#[derive(Clone, Copy, Debug)]
pub(super) struct Framed {
    /// Its type id.
    pub ty: u16,
    /// Its time, ns, as written.
    pub time: u64,
    /// The capability of its block.
    pub cap: Option<u16>,
    /// Its byte offset in the file.
    pub offset: u64,
}

/// The model and run of one eventlog, as its events go by.
pub(super) struct Timeline {
    b: ModelBuilder,
    run: GhcRun,
    kinds: Kinds,
    /// Per capability: index 0 for events outside any capability's block, `c + 1` for cap `c`.
    caps: Vec<Option<Cap>>,
    threads: Threads,
    /// User markers and messages, made into spans at the end.
    marks: Marks,
    gc_spans: Vec<GcSpan>,
    stats: Vec<GcStats>,
    first: Option<Nanos>,
    last: Nanos,
    /// Events per type id.
    by_type: Vec<u64>,
}

impl Default for Timeline {
    fn default() -> Self {
        let mut b = ModelBuilder::new();
        // ThreadScope's colours: running green, GC orange.
        let kinds =
            Kinds { thread: b.kind("thread", Some("green")), gc: b.kind("GC", Some("orange")), gc_uid: b.sym("GC") };
        Timeline {
            b,
            run: GhcRun::default(),
            kinds,
            caps: Vec::new(),
            threads: Threads::default(),
            marks: Marks::default(),
            gc_spans: Vec::new(),
            stats: Vec::new(),
            first: None,
            last: 0,
            by_type: vec![0; usize::from(u16::MAX) + 1],
        }
    }
}

impl Timeline {
    /// Reads one event, framed by the reader, with its payload; `log`'s
    /// header declares the types.
    pub(super) fn event(&mut self, log: &Eventlog, framed: Framed, payload: &[u8], diags: &mut Diagnostics) {
        let Framed { ty, time, cap: cap_id, offset } = framed;
        self.by_type[usize::from(ty)] += 1;
        let time = match Nanos::try_from(time) {
            Ok(t) if t <= MAX_TIME => t,
            _ => {
                diags.report(
                    Severity::Warning,
                    "ghc.time-out-of-range",
                    Position::Byte(offset),
                    format!("event time {time} ns is past {MAX_TIME} ns (146 years): read as {MAX_TIME}"),
                );
                MAX_TIME
            }
        };
        if ty != BLOCK_MARKER {
            self.first = Some(self.first.map_or(time, |f| f.min(time)));
            self.last = self.last.max(time);
        }
        let at = cap_id.map_or(0, |c| usize::from(c) + 1);
        if self.caps.len() <= at {
            self.caps.resize_with(at + 1, || None);
        }
        let cap = self.caps[at].get_or_insert_with(|| {
            // A capability's lanes from its first event; events outside any
            // capability's block get theirs with their first span.
            let mut cap = Cap::default();
            if cap_id.is_some() {
                lanes_of(&mut self.b, &mut cap, cap_id);
            }
            cap
        });
        cap.last = cap.last.max(time);
        let (b, kinds, threads, run) = (&mut self.b, &self.kinds, &mut self.threads, &mut self.run);
        if let Some(hot) = decode_hot(log, ty, payload) {
            match hot {
                Hot::CreateThread(id) => threads.get(id).stats.created = Some(time),
                Hot::RunThread(thread) => {
                    if let Some((open, since)) = cap.running.take() {
                        close_run(b, kinds, threads, cap, cap_id, open, since, time);
                    }
                    cap.running = Some((thread, time));
                }
                Hot::StopThread(thread) => {
                    if let Some((open, since)) = cap.running.take() {
                        close_run(b, kinds, threads, cap, cap_id, open, since, time);
                        if open != thread {
                            diags.report(
                                Severity::Warning,
                                "ghc.stop-other-thread",
                                Position::Byte(offset),
                                format!("thread {thread} stops while thread {open} was running on this capability"),
                            );
                        }
                    }
                }
                Hot::StartGc => cap.gc_since = Some(time),
                Hot::EndGc => {
                    if let Some(since) = cap.gc_since.take() {
                        add_gc(b, kinds, cap, cap_id, since, time, &mut self.gc_spans);
                    }
                }
            }
            return;
        }
        if let Some((text, marker)) = decode_text_bytes(log, ty, payload) {
            // Text that is not UTF-8 is no mark (ghc-events fails on it).
            if self.marks.push(time, cap_id, offset, marker, text) {
                return;
            }
        }
        if !wanted(ty) {
            return;
        }
        match decode_payload(log, ty, payload).event {
            Event::ThreadLabel { thread: id, label } => {
                let t = threads.get(id);
                t.stats.label = Some(label);
                t.syms = None;
            }
            Event::GcStatsGhc { gen, copied, .. } => {
                self.stats.push(GcStats { time, cap: cap_id, generation: gen, copied })
            }
            Event::HeapSize { size, .. } => {
                run.heap.push(HeapSample { time, figure: HeapFigure::Size, bytes: size, cap: cap_id })
            }
            Event::HeapLive { live, .. } => {
                run.heap.push(HeapSample { time, figure: HeapFigure::Live, bytes: live, cap: cap_id })
            }
            Event::HeapAllocated { alloc, .. } => {
                run.heap.push(HeapSample { time, figure: HeapFigure::Allocated, bytes: alloc, cap: cap_id })
            }
            _ => {}
        }
    }

    /// The finished model and run of `log` (its declared types); problems
    /// (a STOP with no START...) go to `diags`.
    pub(super) fn finish(mut self, log: &Eventlog, diags: &mut Diagnostics) -> (Model, GhcRun) {
        let mut run = std::mem::take(&mut self.run);
        run.events = self.by_type.iter().sum();
        run.events_by_type =
            self.by_type.iter().enumerate().filter(|(_, &n)| n > 0).map(|(ty, &n)| (ty as u16, n)).collect();
        run.type_names = log.types.iter().map(|t| (t.id, t.description.clone())).collect();
        // `caps[c + 1]` is capability c's: they come in capability order.
        let cap_lanes: Vec<LaneId> =
            self.caps.iter().skip(1).flatten().filter_map(|c| c.lanes).flat_map(|(t, g)| [t, g]).collect();
        run.capabilities = (cap_lanes.len() / 2) as u32;
        let b = &mut self.b;
        // Spans still open end where their capability's log ends.
        for (i, cap) in self.caps.iter_mut().enumerate() {
            let Some(cap) = cap else { continue };
            let id = i.checked_sub(1).map(|c| c as u16);
            let end = cap.last;
            if let Some((thread, since)) = cap.running.take() {
                close_run(b, &self.kinds, &mut self.threads, cap, id, thread, since, end);
            }
            if let Some(since) = cap.gc_since.take() {
                add_gc(b, &self.kinds, cap, id, since, end, &mut self.gc_spans);
            }
        }
        // The capabilities' lanes first, in capability order.
        b.lanes_first(&cap_lanes);
        run.collections = collections(std::mem::take(&mut self.gc_spans), std::mem::take(&mut self.stats));
        run.threads = self
            .threads
            .into_sorted()
            .into_iter()
            .map(|t| ThreadStats { caps: t.caps.len() as u32, ..t.stats })
            .collect();
        let mut marks = std::mem::take(&mut self.marks);
        marks.order();
        run.marks = user_spans(b, marks, diags);
        run.heap.sort_by_key(|h| h.time);
        if let Some(first) = self.first {
            b.window(first, self.last);
        }
        (self.b.build(), run)
    }
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
    let t = threads.get(id);
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
    b.named_task(Task::new(uid, kinds.thread, Role::Work, lane, Some(since), Some(until.max(since))), name);
}

fn add_gc(
    b: &mut ModelBuilder,
    kinds: &Kinds,
    cap: &mut Cap,
    cap_id: Option<u16>,
    since: Nanos,
    until: Nanos,
    spans: &mut Vec<GcSpan>,
) {
    let lane = lanes_of(b, cap, cap_id).1;
    b.task(Task::new(kinds.gc_uid, kinds.gc, Role::Work, lane, Some(since), Some(until.max(since))));
    spans.push(GcSpan { cap: cap_id, start: since, end: until.max(since) });
}
