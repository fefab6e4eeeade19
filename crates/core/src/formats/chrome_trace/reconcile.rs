//! A Chrome trace as a [`Model`] and a [`ChromeRun`].
//!
//! Lanes: one per (pid, tid) that has slices or instants, named
//! `process / thread` from the `M` metadata (`pid N` / `tid N` without it;
//! the ids are added when two lanes would share a name), ordered by
//! process sort index, pid, thread sort index, tid. Slices: `B`/`E`/`X`
//! matched per thread as speedscope matches them, except that a complete
//! event lasts exactly its `dur`
//! ([`crate::formats::chrome_trace::trace_stacks`]), each a task of kind `cat` (or its
//! name when it has none); calls left open end at the thread's last time.
//! Instants are zero-length tasks of kind `instant`, on their thread's lane
//! (scope `t`), on `process / instants` (scope `p`) or on `global instants`
//! (scope `g`). Async spans (`b`…`e`, `S`…`F`, paired by key, innermost
//! first) are tasks on `process / async`. Flows become dependencies: v1
//! (`s`/`t`/`f` by id; `s` binds to the enclosing slice, `t`/`f` to the next
//! slice to start on their thread unless `bp: "e"`) and v2 (`flow_in` on a
//! slice waits for the last `flow_out` slice of the same `bind_id`).
//! Counters become series of the [`ChromeRun`]. A Bazel profile's own
//! critical path and facts come from [`super::bazel`].

use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::formats::chrome_trace::trace_stacks::{self, Call, Edge, StackFrameName, ThreadStacks};
use crate::formats::chrome_trace::{ChromeTrace, Scope, SlicePhase};
use crate::hash::{FastMap, FastSet};
use crate::join::{in_turn, Join};
use crate::model::flame::FlameGraph;
use crate::model::{KindId, LaneId, Model, ModelBuilder, Nanos, Role, Sym, Task, TaskId};
use std::collections::BTreeMap;
use std::sync::Arc;

/// One counter series.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CounterSeries {
    /// The counter's name (with its id) and the series' key.
    pub name: String,
    /// Its process's label.
    pub process: String,
    /// (time ns, value), in time order.
    pub points: Vec<(Nanos, f64)>,
}

/// What a Chrome trace says beyond its model.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChromeRun {
    /// Events read.
    pub events: u64,
    /// Events per phase as written.
    pub by_phase: BTreeMap<String, u64>,
    /// Processes.
    pub processes: u64,
    /// Threads.
    pub threads: u64,
    /// Dependencies made from flows.
    pub flows: u64,
    /// Counter series.
    pub counters: Vec<CounterSeries>,
    /// Bazel's own critical path, in Bazel's order: each `critical path
    /// component`'s action, or the component itself where none was found.
    pub bazel_critical_path: Vec<TaskId>,
    /// What a Bazel profile says beyond its slices.
    pub bazel: Option<Box<super::bazel::BazelRun>>,
    /// The flame graph of every thread's stacks (from the samples when the
    /// trace has them, as speedscope does, else from the slices); shared
    /// with the run's view.
    pub flame: Arc<FlameGraph>,
    /// `displayTimeUnit`, if given.
    pub display_time_unit: Option<String>,
    /// The event array had no closing `]`.
    pub unterminated: bool,
}

/// µs to ns.
fn ns(us: f64) -> Nanos {
    (us * 1000.0).round() as Nanos
}

/// A pid or tid as a sort key: numbers by value, before other text.
fn id_key(s: &str) -> (bool, f64, &str) {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() => (false, x, s),
        _ => (true, 0.0, s),
    }
}

/// Thread indices in lane order.
pub fn thread_order(trace: &ChromeTrace) -> Vec<u32> {
    let mut order: Vec<u32> = (0..trace.threads.len() as u32).collect();
    order.sort_by(|&a, &b| {
        let (ta, tb) = (&trace.threads[a as usize], &trace.threads[b as usize]);
        let (pa, pb) = (&trace.processes[ta.process as usize], &trace.processes[tb.process as usize]);
        let key = |p: &crate::formats::chrome_trace::Process, t: &crate::formats::chrome_trace::Thread| {
            (p.sort_index.unwrap_or(0), id_key(trace.str(p.pid)), t.sort_index.unwrap_or(0), id_key(trace.str(t.tid)))
        };
        key(pa, ta).partial_cmp(&key(pb, tb)).unwrap_or(std::cmp::Ordering::Equal)
    });
    order
}

/// A process's label: its name, else `pid N`.
pub fn process_label(trace: &ChromeTrace, process: u32) -> String {
    let p = &trace.processes[process as usize];
    p.name.map_or_else(|| format!("pid {}", trace.str(p.pid)), |n| trace.str(n).to_owned())
}

/// A thread's lane name: `process / thread`.
pub fn thread_label(trace: &ChromeTrace, thread: u32) -> String {
    let t = &trace.threads[thread as usize];
    let name = t.name.map_or_else(|| format!("tid {}", trace.str(t.tid)), |n| trace.str(n).to_owned());
    format!("{} / {name}", process_label(trace, t.process))
}

/// Each thread's slices as calls, in file order (indices into `trace.slices`).
fn calls_by_thread(trace: &ChromeTrace) -> Vec<Vec<usize>> {
    let mut by: Vec<Vec<usize>> = vec![Vec::new(); trace.threads.len()];
    for (i, s) in trace.slices.iter().enumerate() {
        by[s.thread as usize].push(i);
    }
    by
}

fn call_of<'a>(trace: &'a ChromeTrace, i: usize) -> Call<'a> {
    let s = &trace.slices[i];
    let edge = match s.phase {
        SlicePhase::Begin => Edge::Begin,
        SlicePhase::End => Edge::End,
        SlicePhase::Complete(d) => Edge::Complete(d),
    };
    Call { edge, ts: s.ts, name: s.name.map(|n| trace.str(n)), args: s.args.map(|a| trace.str(a)) }
}

/// The trace is a sampled profile (`samples` with `stackFrames`): speedscope
/// shows its samples, not its slices.
pub fn sampled(trace: &ChromeTrace) -> bool {
    !trace.samples.is_empty() && !trace.stack_frames.is_empty()
}

/// The frames of a sample's stack, from the root (a cycle or a missing frame ends it).
fn sample_frames(trace: &ChromeTrace, leaf: Option<&str>) -> Vec<StackFrameName> {
    let mut out = Vec::new();
    let mut at = leaf;
    while let Some(f) = at.and_then(|id| trace.stack_frames.get(id)) {
        if out.len() > trace.stack_frames.len() {
            break;
        }
        out.push(StackFrameName { key: format!("{}:{}", f.name, f.category), name: f.name.clone() });
        at = f.parent.as_deref();
    }
    out.reverse();
    out
}

/// Each thread's stacks as speedscope computes them (threads in first
/// mention order, those without calls or samples left out): from the
/// samples for a sampled profile, else from the `B`/`E`/`X` events.
pub fn thread_stacks(trace: &ChromeTrace) -> Vec<(u32, ThreadStacks)> {
    if sampled(trace) {
        let mut by: Vec<Vec<(f64, Vec<StackFrameName>)>> = vec![Vec::new(); trace.threads.len()];
        for s in &trace.samples {
            by[s.thread as usize].push((s.ts, sample_frames(trace, s.frame.as_deref())));
        }
        return by
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.is_empty())
            .map(|(t, s)| (t as u32, ThreadStacks::from_samples(s)))
            .collect();
    }
    numbered(stacks_of_calls(trace, &calls_by_thread(trace), &in_turn))
}

/// The threads' stacks that exist, with their thread's index.
fn numbered(stacks: Vec<Option<ThreadStacks>>) -> Vec<(u32, ThreadStacks)> {
    stacks.into_iter().enumerate().filter_map(|(t, s)| Some((t as u32, s?))).collect()
}

/// Each thread's stacks from its calls (`None` for a thread without any),
/// the threads split in two runs of about as many calls each, run by
/// `join` (two, so that at most two threads' work is in memory at once):
/// each thread's stacks are its own, so the result is the same whatever
/// the join.
fn stacks_of_calls(trace: &ChromeTrace, by_thread: &[Vec<usize>], join: Join<'_>) -> Vec<Option<ThreadStacks>> {
    let mut out: Vec<Option<ThreadStacks>> = (0..by_thread.len()).map(|_| None).collect();
    let total: usize = by_thread.iter().map(Vec::len).sum();
    // Where the calls before are nearest to half of them.
    let (mut at, mut off) = (0, total);
    let mut before: usize = 0;
    for (t, calls) in by_thread.iter().enumerate() {
        if (2 * before).abs_diff(total) < off {
            (at, off) = (t, (2 * before).abs_diff(total));
        }
        before += calls.len();
    }
    let (threads_a, threads_b) = by_thread.split_at(at);
    let (out_a, out_b) = out.split_at_mut(at);
    join(&mut || fill_stacks(trace, threads_a, out_a), &mut || fill_stacks(trace, threads_b, out_b));
    out
}

/// The stacks of each thread of `by_thread` that has calls, into `out`.
fn fill_stacks(trace: &ChromeTrace, by_thread: &[Vec<usize>], out: &mut [Option<ThreadStacks>]) {
    for (slices, stacks) in by_thread.iter().zip(out).filter(|(s, _)| !s.is_empty()) {
        let calls: Vec<Call<'_>> = slices.iter().map(|&i| call_of(trace, i)).collect();
        *stacks = Some(ThreadStacks::from_calls(&calls));
    }
}

/// Lanes named once each.
struct Lanes {
    used: FastSet<String>,
}

impl Lanes {
    fn unique(&mut self, name: String, ids: impl FnOnce() -> String) -> String {
        let name = if self.used.contains(&name) { format!("{name} ({})", ids()) } else { name };
        self.used.insert(name.clone());
        name
    }
}

/// A thread's slices as (start, end, task), by start (longer first on ties).
type Placed = Vec<(Nanos, Nanos, TaskId)>;

/// The deepest slice that contains `t`.
fn enclosing(placed: &Placed, t: Nanos) -> Option<TaskId> {
    let upto = placed.partition_point(|p| p.0 <= t);
    placed[..upto].iter().rev().find(|p| p.1 >= t).map(|p| p.2)
}

/// The first slice to start at or after `t`.
fn next_slice(placed: &Placed, t: Nanos) -> Option<TaskId> {
    placed.get(placed.partition_point(|p| p.0 < t)).map(|p| p.2)
}

/// The model and run of a trace; the threads' stacks are computed, and the
/// flame graph made beside the model, through `join`.
pub fn reconcile(trace: &ChromeTrace, diags: &mut Diagnostics, join: Join<'_>) -> (Model, ChromeRun) {
    let mut b = ModelBuilder::new();
    let mut lanes = Lanes { used: FastSet::default() };
    let mut lane_of: Vec<Option<LaneId>> = vec![None; trace.threads.len()];
    for t in thread_order(trace) {
        let th = &trace.threads[t as usize];
        let ids = || format!("pid {}, tid {}", trace.str(trace.processes[th.process as usize].pid), trace.str(th.tid));
        let name = lanes.unique(thread_label(trace, t), ids);
        lane_of[t as usize] = Some(b.lane(&name));
    }
    let lane = |t: u32| lane_of[t as usize].unwrap_or(LaneId(0));
    let mut run = ChromeRun {
        events: trace.events(),
        by_phase: trace.by_phase.clone(),
        processes: trace.processes.len() as u64,
        threads: trace.threads.len() as u64,
        display_time_unit: trace.display_time_unit.clone(),
        unterminated: trace.unterminated,
        ..ChromeRun::default()
    };

    // Slices, matched per thread; the flame graph made of their stacks
    // beside the model.
    let by_thread = calls_by_thread(trace);
    let stacks = stacks_of_calls(trace, &by_thread, join);
    let mut flame = FlameGraph::default();
    let mut make_flame = || {
        let sampled_stacks = sampled(trace).then(|| thread_stacks(trace));
        let by_thread: Vec<(u32, &ThreadStacks)> = match &sampled_stacks {
            Some(s) => s.iter().map(|(t, s)| (*t, s)).collect(),
            None => stacks.iter().enumerate().filter_map(|(t, s)| Some((t as u32, s.as_ref()?))).collect(),
        };
        let named: Vec<(String, &ThreadStacks)> = by_thread.iter().map(|&(t, s)| (thread_label(trace, t), s)).collect();
        flame = trace_stacks::flame(&named);
    };
    let mut rest = || {
        let mut slice_task: Vec<Option<TaskId>> = vec![None; trace.slices.len()];
        let mut placed: Vec<Placed> = vec![Vec::new(); trace.threads.len()];
        // A slice's uid and kind by its (name, cat), made once each.
        let mut named: FastMap<(Option<u32>, Option<u32>), (Sym, KindId)> = FastMap::default();
        for (t, (slices, stacks)) in by_thread.iter().zip(&stacks).enumerate() {
            let Some(stacks) = stacks else { continue };
            for span in &stacks.spans {
                let i = slices[span.begin];
                let s = &trace.slices[i];
                let (uid, kind) = *named.entry((s.name, s.cat)).or_insert_with(|| {
                    let uid = b.sym(call_of(trace, i).shown_name());
                    (uid, b.kind(s.cat.or(s.name).map_or("(unnamed)", |k| trace.str(k)), None))
                });
                let (start, end) = (ns(s.ts), ns(span.end_ts).max(ns(s.ts)));
                let id = b.task(Task::new(uid, kind, Role::Work, lane(t as u32), Some(start), Some(end)));
                slice_task[i] = Some(id);
                placed[t].push((start, end, id));
            }
        }
        for p in &mut placed {
            p.sort_by_key(|&(s, e, _)| (s, std::cmp::Reverse(e)));
        }
        instants(trace, &mut b, &mut lanes, &lane_of);
        async_spans(trace, &mut b, &mut lanes, diags);
        let mut edges = FastSet::default();
        flows_v1(trace, &placed, &mut b, &mut edges, diags);
        flows_v2(trace, &slice_task, &mut b, &mut edges);
        run.flows = edges.len() as u64;
        run.counters = counters(trace);
        if let Some(bazel) = super::bazel::reconcile(trace, &slice_task, &mut b, &mut edges, diags) {
            run.bazel_critical_path = bazel.path.iter().map(|s| s.task()).collect();
            run.bazel = Some(Box::new(bazel));
        }
    };
    join(&mut make_flame, &mut rest);
    run.flame = Arc::new(flame);
    if !sampled(trace) {
        overlapping(&stacks, diags);
    }

    let times = (0..b.len() as u32).map(|i| b.get(TaskId(i))).filter_map(|t| Some((t.start.get()?, t.end.get()?)));
    if let Some((first, last)) =
        times.fold(None, |w: Option<(Nanos, Nanos)>, (s, e)| Some(w.map_or((s, e), |(a, z)| (a.min(s), z.max(e)))))
    {
        b.window(first, last);
    }
    (b.build(), run)
}

/// One note for the slices that overlap a complete event without nesting
/// in it: how the flame graph placed them.
fn overlapping(stacks: &[Option<ThreadStacks>], diags: &mut Diagnostics) {
    let n: u64 = stacks.iter().flatten().map(|s| s.overlapping).sum();
    if n > 0 {
        diags.report(
            Severity::Info,
            "chrome.overlapping-slices",
            Position::Whole,
            format!(
                "{n} slices outlast a complete event (`X`) they start inside: each keeps its own start and end; the flame graph puts its time after that event's end one level up"
            ),
        );
    }
}

/// Instants as zero-length tasks.
fn instants(trace: &ChromeTrace, b: &mut ModelBuilder, lanes: &mut Lanes, lane_of: &[Option<LaneId>]) {
    if trace.instants.is_empty() {
        return;
    }
    let kind = b.kind("instant", Some("magenta"));
    let mut process_lanes: FastMap<u32, LaneId> = FastMap::default();
    let mut global = None;
    for i in &trace.instants {
        let th = &trace.threads[i.thread as usize];
        let lane = match i.scope {
            Scope::Thread => match lane_of[i.thread as usize] {
                Some(l) => l,
                None => continue,
            },
            Scope::Process => *process_lanes.entry(th.process).or_insert_with(|| {
                let name = lanes.unique(format!("{} / instants", process_label(trace, th.process)), || {
                    format!("pid {}", trace.str(trace.processes[th.process as usize].pid))
                });
                b.lane(&name)
            }),
            Scope::Global => *global.get_or_insert_with(|| {
                let name = lanes.unique("global instants".to_owned(), || "trace".to_owned());
                b.lane(&name)
            }),
        };
        let uid = b.sym(i.name.map_or("(unnamed)", |n| trace.str(n)));
        let t = ns(i.ts);
        b.task(Task::new(uid, kind, Role::Work, lane, Some(t), Some(t)));
    }
}

/// Async spans: a begin (`b`, `S`) and the end (`e`, `F`) of the same key,
/// the innermost open first (by name when the end has one).
fn async_spans(trace: &ChromeTrace, b: &mut ModelBuilder, lanes: &mut Lanes, diags: &mut Diagnostics) {
    let mut order: Vec<usize> = (0..trace.asyncs.len()).collect();
    order.sort_by(|&x, &y| trace.asyncs[x].ts.total_cmp(&trace.asyncs[y].ts));
    let mut open: FastMap<u32, Vec<usize>> = FastMap::default();
    let mut process_lanes: FastMap<u32, LaneId> = FastMap::default();
    let mut unmatched = 0u64;
    for i in order {
        let e = &trace.asyncs[i];
        match e.ph {
            b'b' | b'S' => open.entry(e.key).or_default().push(i),
            b'e' | b'F' => {
                let stack = open.entry(e.key).or_default();
                let at = match e.name {
                    Some(n) => stack.iter().rposition(|&o| trace.asyncs[o].name == Some(n)),
                    None => stack.len().checked_sub(1),
                };
                let Some(at) = at else {
                    unmatched += 1;
                    continue;
                };
                let begin = &trace.asyncs[stack.remove(at)];
                let process = trace.threads[begin.thread as usize].process;
                let lane = *process_lanes.entry(process).or_insert_with(|| {
                    let name = lanes.unique(format!("{} / async", process_label(trace, process)), || {
                        format!("pid {}", trace.str(trace.processes[process as usize].pid))
                    });
                    b.lane(&name)
                });
                let uid = b.sym(begin.name.map_or("(unnamed)", |n| trace.str(n)));
                let kind = b.kind(begin.cat.or(begin.name).map_or("(unnamed)", |k| trace.str(k)), None);
                let (start, end) = (ns(begin.ts), ns(e.ts).max(ns(begin.ts)));
                b.task(Task::new(uid, kind, Role::Work, lane, Some(start), Some(end)));
            }
            _ => {}
        }
    }
    let left: usize = open.values().map(Vec::len).sum();
    if unmatched > 0 || left > 0 {
        diags.report(
            Severity::Info,
            "chrome.async-unmatched",
            Position::Whole,
            format!("{left} async begins without an end and {unmatched} ends without a begin; not shown"),
        );
    }
}

/// Flow v1: each step of an id's flow waits for the step before it.
fn flows_v1(
    trace: &ChromeTrace,
    placed: &[Placed],
    b: &mut ModelBuilder,
    edges: &mut FastSet<(TaskId, TaskId)>,
    diags: &mut Diagnostics,
) {
    let mut by_id: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (i, f) in trace.flows.iter().enumerate() {
        by_id.entry(f.id).or_default().push(i);
    }
    let mut unbound = 0u64;
    let mut first_unbound = None;
    for steps in by_id.values_mut() {
        steps.sort_by(|&x, &y| trace.flows[x].ts.total_cmp(&trace.flows[y].ts));
        let mut prev: Option<TaskId> = None;
        for &i in steps.iter() {
            let f = &trace.flows[i];
            let slices = &placed[f.thread as usize];
            let t = ns(f.ts);
            let bound = if f.ph == b's' || f.enclosing {
                enclosing(slices, t)
            } else {
                next_slice(slices, t).or_else(|| enclosing(slices, t))
            };
            let Some(task) = bound else {
                unbound += 1;
                first_unbound.get_or_insert(f.line);
                continue;
            };
            if let Some(p) = prev.filter(|&p| p != task) {
                if edges.insert((task, p)) {
                    b.depends(task, p);
                }
            }
            prev = Some(task);
        }
    }
    if let Some(line) = first_unbound {
        diags.report(
            Severity::Info,
            "chrome.flow-unbound",
            Position::Line(line),
            format!("{unbound} flow events have no slice to bind to on their thread; left out"),
        );
    }
}

/// Flow v2: a `flow_in` slice waits for the last `flow_out` slice of its `bind_id`.
fn flows_v2(
    trace: &ChromeTrace,
    slice_task: &[Option<TaskId>],
    b: &mut ModelBuilder,
    edges: &mut FastSet<(TaskId, TaskId)>,
) {
    let mut bound: Vec<(Nanos, usize)> = trace
        .slices
        .iter()
        .enumerate()
        .filter(|(i, s)| s.bind_id.is_some() && slice_task[*i].is_some())
        .map(|(i, s)| (ns(s.ts), i))
        .collect();
    bound.sort();
    let mut source: FastMap<u32, TaskId> = FastMap::default();
    for (_, i) in bound {
        let s = &trace.slices[i];
        let (Some(bind), Some(task)) = (s.bind_id, slice_task[i]) else { continue };
        if s.flow_in {
            if let Some(&p) = source.get(&bind).filter(|&&p| p != task) {
                if edges.insert((task, p)) {
                    b.depends(task, p);
                }
            }
        }
        if s.flow_out {
            source.insert(bind, task);
        }
    }
}

/// Counter series, by process, counter and key, in time order.
fn counters(trace: &ChromeTrace) -> Vec<CounterSeries> {
    let mut series: BTreeMap<(u32, u32, u32), Vec<(Nanos, f64)>> = BTreeMap::new();
    for c in &trace.counters {
        let process = trace.threads[c.thread as usize].process;
        for &(key, v) in &c.values {
            series.entry((process, c.name, key)).or_default().push((ns(c.ts), v));
        }
    }
    series
        .into_iter()
        .map(|((process, name, key), mut points)| {
            points.sort_by_key(|p| p.0);
            CounterSeries {
                name: format!("{}: {}", trace.str(name), trace.str(key)),
                process: process_label(trace, process),
                points,
            }
        })
        .collect()
}
