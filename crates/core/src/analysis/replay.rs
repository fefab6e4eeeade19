//! The replay: a run's schedule played again with some tasks' durations
//! changed, one task at a time, in integer nanoseconds.
//!
//! **Semantics.** A task starts as long after the replayed end of the last
//! of its dependencies as it did in the run (that gap is its queueing, its
//! copies' wait, and is kept as it was, even where it was negative); a task
//! without dependencies starts where it did. Every task keeps its own
//! duration unless it is changed, and ends its duration after its start.
//! The run's end stays as far after its last task's end as it was (a log's
//! last line after the last task). With no duration changed, every start,
//! every end and the wall time come back exactly.
//!
//! Phases (a build stage, a query's whole span) and tasks without both
//! times take no part: no task waits for them. A dependency that closes a
//! cycle is ignored, so that every task is played after what it waits for.

use crate::model::{Model, Nanos, Role, TaskId};

/// A run's schedule, ready to be replayed: its tasks in an order where a
/// task comes after what it waits for, with their durations, gaps and
/// dependencies as positions in that order.
#[derive(Clone, Debug, Default)]
pub struct Replay {
    /// The model's task at each position.
    tasks: Vec<TaskId>,
    /// Each position's duration, ns.
    durations: Vec<Nanos>,
    /// Each position's start after the end of the last of its dependencies
    /// (without dependencies: its start), ns.
    gaps: Vec<Nanos>,
    /// `deps[dep_start[p]..dep_start[p + 1]]`: the positions `p` waits for.
    dep_start: Vec<u32>,
    deps: Vec<u32>,
    /// The run's end less its last task's end, ns.
    tail: Nanos,
    /// The run's start, ns.
    origin: Nanos,
    /// The run's end, ns.
    close: Nanos,
}

/// Not a position (a task of the model outside the replay).
const NONE: u32 = u32::MAX;

impl Replay {
    /// The schedule of `tasks` of `model` (a run's tasks: all of the model's,
    /// or one build's). `window` is the run's first and last time as its
    /// producer defines them; `None`: its tasks' first start and last end.
    pub fn of(model: &Model, tasks: &[TaskId], window: Option<(Nanos, Nanos)>) -> Replay {
        let mut pos = vec![NONE; model.tasks().len()];
        // Sorted by start: the order of the run, which a topological order
        // follows where it can (a dependency nearly always started first).
        let mut by_start: Vec<(Nanos, TaskId)> = tasks
            .iter()
            .filter_map(|&id| {
                let t = model.task(id);
                (t.role != Role::Phase && t.duration().is_some()).then(|| (t.start.get().unwrap_or(0), id))
            })
            .collect();
        by_start.sort_unstable();
        by_start.dedup_by_key(|(_, id)| *id);
        for (i, &(_, id)) in by_start.iter().enumerate() {
            pos[id.index()] = i as u32;
        }
        let order = topological(model, &by_start, &pos);
        // Positions renumbered in the topological order.
        for (p, &i) in order.iter().enumerate() {
            pos[by_start[i as usize].1.index()] = p as u32;
        }
        let n = order.len();
        let mut r = Replay { dep_start: Vec::with_capacity(n + 1), ..Replay::default() };
        r.dep_start.push(0);
        let end = |id: TaskId| model.task(id).end.get().unwrap_or(0);
        for (p, &i) in order.iter().enumerate() {
            let id = by_start[i as usize].1;
            let t = model.task(id);
            // Only what comes before it: an edge closing a cycle is dropped.
            r.deps.extend(model.deps(id).iter().map(|d| pos[d.index()]).filter(|&d| d != NONE && (d as usize) < p));
            r.dep_start.push(r.deps.len() as u32);
            let start = t.start.get().unwrap_or(0);
            let ready = r.deps_of(p).iter().map(|&d| end(r.tasks[d as usize])).max();
            r.gaps.push(start - ready.unwrap_or(0));
            r.durations.push(t.duration().unwrap_or(0));
            r.tasks.push(id);
        }
        let first = r.tasks.iter().filter_map(|&id| model.task(id).start.get()).min().unwrap_or(0);
        let last = r.tasks.iter().map(|&id| end(id)).max().unwrap_or(first);
        let (origin, close) = window.unwrap_or((first, last));
        r.origin = origin;
        r.close = close;
        r.tail = close - last;
        r
    }

    /// The schedule of one run of `model`, `tasks`: a run that is all of
    /// its model has the window its producer defines (ya's: the log's
    /// first and last line, as `analyze` reports it), any other its tasks'
    /// first start and last end.
    pub fn of_run(model: &Model, tasks: &[TaskId]) -> Replay {
        Replay::of(model, tasks, model.window().filter(|_| tasks.len() == model.tasks().len()))
    }

    /// The run's first and last time, ns.
    pub fn window(&self) -> (Nanos, Nanos) {
        (self.origin, self.close)
    }

    /// How many tasks are replayed.
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// Whether no task is replayed.
    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// The model's task at position `p`.
    pub fn task(&self, p: usize) -> TaskId {
        self.tasks[p]
    }

    /// The duration position `p` took in the run, ns.
    pub fn duration(&self, p: usize) -> Nanos {
        self.durations[p]
    }

    /// Every position's duration in the run, ns.
    pub fn durations(&self) -> &[Nanos] {
        &self.durations
    }

    /// The positions `p` waits for (each before `p`).
    pub fn deps_of(&self, p: usize) -> &[u32] {
        &self.deps[self.dep_start[p] as usize..self.dep_start[p + 1] as usize]
    }

    /// Position `p`'s start after the end of the last of its dependencies
    /// (without dependencies: its start), ns.
    pub fn gap(&self, p: usize) -> Nanos {
        self.gaps[p]
    }

    /// Whether any replayed task waits for another.
    pub fn has_deps(&self) -> bool {
        !self.deps.is_empty()
    }

    /// Every position's end with each task taking `durations` (by
    /// position), ns.
    pub fn ends(&self, durations: &[Nanos]) -> Vec<Nanos> {
        let mut ends = Vec::with_capacity(self.len());
        for p in 0..self.len() {
            let ready = self.deps_of(p).iter().map(|&d| ends[d as usize]).max().unwrap_or(0);
            ends.push(ready + self.gaps[p] + durations[p]);
        }
        ends
    }

    /// The ends of [`Replay::ends`] with position `p`'s duration changed
    /// from `base`'s (the run's ends, or any earlier replay's) to
    /// `duration`: only what follows `p` is played again, and only where a
    /// dependency moved.
    pub fn ends_with(&self, base: &[Nanos], durations: &[Nanos], p: usize, duration: Nanos) -> Vec<Nanos> {
        let mut ends = base.to_vec();
        let mut moved = vec![false; self.len()];
        let ready = |ends: &[Nanos], q: usize| self.deps_of(q).iter().map(|&d| ends[d as usize]).max().unwrap_or(0);
        ends[p] = ready(&ends, p) + self.gaps[p] + duration;
        moved[p] = ends[p] != base[p];
        for q in p + 1..self.len() {
            if self.deps_of(q).iter().any(|&d| moved[d as usize]) {
                ends[q] = ready(&ends, q) + self.gaps[q] + durations[q];
                moved[q] = ends[q] != base[q];
            }
        }
        ends
    }

    /// The starts of `ends` played with `durations`, ns.
    pub fn starts(&self, ends: &[Nanos], durations: &[Nanos]) -> Vec<Nanos> {
        ends.iter().zip(durations).map(|(e, d)| e - d).collect()
    }

    /// The wall time of a replay's `ends`: from the run's start to its last
    /// end, with the run's tail kept, ns.
    pub fn wall(&self, ends: &[Nanos]) -> Nanos {
        let last = ends.iter().copied().max().unwrap_or(self.origin);
        last + self.tail - self.origin
    }

    /// The path of a replay's `ends`, first position first: from the task
    /// that ended last (the first in order on a tie), back through the
    /// dependency that ended last, to a task that waited for nothing.
    pub fn path(&self, ends: &[Nanos]) -> Vec<usize> {
        let Some(mut at) = (0..ends.len()).max_by_key(|&p| (ends[p], std::cmp::Reverse(p))) else {
            return Vec::new();
        };
        let mut out = vec![at];
        while let Some(&d) = self.deps_of(at).iter().max_by_key(|&&d| (ends[d as usize], std::cmp::Reverse(d))) {
            at = d as usize;
            out.push(at);
        }
        out.reverse();
        out
    }
}

/// The positions of `by_start` (tasks sorted by start, `pos` each model
/// task's index there) in an order where a task comes after what it waits
/// for: Kahn's algorithm, taking the earliest start that is ready; tasks on
/// a cycle go in start order when nothing else is ready.
fn topological(model: &Model, by_start: &[(Nanos, TaskId)], pos: &[u32]) -> Vec<u32> {
    let n = by_start.len();
    let dep_positions = |i: usize| model.deps(by_start[i].1).iter().map(|d| pos[d.index()]).filter(|&d| d != NONE);
    let mut waiting: Vec<u32> = (0..n).map(|i| dep_positions(i).count() as u32).collect();
    let mut dependants_start = vec![0u32; n + 1];
    for i in 0..n {
        for d in dep_positions(i) {
            dependants_start[d as usize + 1] += 1;
        }
    }
    for i in 0..n {
        dependants_start[i + 1] += dependants_start[i];
    }
    let mut fill = dependants_start.clone();
    let mut dependants = vec![0u32; dependants_start[n] as usize];
    for i in 0..n {
        for d in dep_positions(i) {
            dependants[fill[d as usize] as usize] = i as u32;
            fill[d as usize] += 1;
        }
    }
    let mut ready: std::collections::BinaryHeap<std::cmp::Reverse<u32>> =
        (0..n as u32).filter(|&i| waiting[i as usize] == 0).map(std::cmp::Reverse).collect();
    let mut done = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut next_unplaced = 0usize;
    while order.len() < n {
        let i = match ready.pop() {
            Some(std::cmp::Reverse(i)) => i,
            None => {
                // Only cycles are left: the earliest unplaced task goes next.
                while done[next_unplaced] {
                    next_unplaced += 1;
                }
                next_unplaced as u32
            }
        };
        if done[i as usize] {
            continue;
        }
        done[i as usize] = true;
        order.push(i);
        for &q in &dependants[dependants_start[i as usize] as usize..dependants_start[i as usize + 1] as usize] {
            let w = &mut waiting[q as usize];
            *w = w.saturating_sub(1);
            if *w == 0 && !done[q as usize] {
                ready.push(std::cmp::Reverse(q));
            }
        }
    }
    order
}
