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
//! A transfer made for a task (a distbuild copy to the host the task was
//! sent to: its target) also waits for what that task waits for other
//! than its transfers. That is how it ran: the copies start once the task
//! is placed, when all its dependencies are done. So a transfer of an
//! early result, made late because its task waited for a slower
//! dependency, moves with that dependency.
//!
//! Phases (a build stage, a query's whole span) and tasks without both
//! times take no part: no task waits for them. A dependency that closes a
//! cycle is ignored, so that every task is played after what it waits for.

use super::replay_order::{topological, IndexDeps};
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
    /// `deps[dep_start[p]..dep_start[p + 1]]`: the positions `p` waits for
    /// itself, those that are not transfers made for it first.
    dep_start: Vec<u32>,
    deps: Vec<u32>,
    /// For a transfer made for a task: that task's position, else `NONE`.
    receiver: Vec<u32>,
    /// For a receiving task: how many of its first dependencies its
    /// transfers also wait for (those before its first transfer).
    shared_len: Vec<u32>,
    /// For a receiving task: its first transfer's position, else `NONE`.
    first_transfer: Vec<u32>,
    /// The run's end less its last task's end, ns.
    tail: Nanos,
    /// The run's start, ns.
    origin: Nanos,
    /// The run's end, ns.
    close: Nanos,
}

/// Not a position (a task of the model outside the replay).
const NONE: u32 = u32::MAX;

/// The tasks of `tasks` a replay schedules (not phases; each with a start
/// and an end), once each, as (start, task) sorted: the order of the run,
/// which a topological order follows where it can (a dependency nearly
/// always started first).
pub fn by_start(model: &Model, tasks: &[TaskId]) -> Vec<(Nanos, TaskId)> {
    let mut by_start: Vec<(Nanos, TaskId)> = tasks
        .iter()
        .filter_map(|&id| {
            let t = model.task(id);
            (t.role != Role::Phase && t.duration().is_some()).then(|| (t.start.get().unwrap_or(0), id))
        })
        .collect();
    by_start.sort_unstable();
    by_start.dedup_by_key(|(_, id)| *id);
    by_start
}

impl Replay {
    /// The schedule of a run's tasks, `by_start` ([`by_start`]'s order) of
    /// `model`. `window` is the run's first and last time as its producer
    /// defines them; `None`: its tasks' first start and last end.
    fn of_sorted(model: &Model, by_start: &[(Nanos, TaskId)], window: Option<(Nanos, Nanos)>) -> Replay {
        let mut pos = vec![NONE; model.tasks().len()];
        for (i, &(_, id)) in by_start.iter().enumerate() {
            pos[id.index()] = i as u32;
        }
        let index_deps = IndexDeps::of(model, by_start, &pos);
        let receiver = receivers(model, by_start, &index_deps);
        let order = topological(&index_deps, &receiver);
        // Positions renumbered in the topological order, by index of `by_start`.
        let mut place = vec![NONE; by_start.len()];
        for (p, &i) in order.iter().enumerate() {
            place[i as usize] = p as u32;
        }
        let n = order.len();
        let mut r = Replay { dep_start: Vec::with_capacity(n + 1), ..Replay::default() };
        r.dep_start.push(0);
        r.receiver = order
            .iter()
            .map(|&i| receiver[i as usize])
            .map(|x| if x == NONE { NONE } else { place[x as usize] })
            .collect();
        r.first_transfer = vec![NONE; n];
        for (p, &x) in r.receiver.iter().enumerate() {
            if x != NONE && r.first_transfer[x as usize] == NONE {
                r.first_transfer[x as usize] = p as u32;
            }
        }
        let mut own: Vec<(u8, u32)> = Vec::new();
        for (p, &i) in order.iter().enumerate() {
            let id = by_start[i as usize].1;
            // Only what comes before it: an edge closing a cycle is dropped.
            // What its transfers also wait for goes first.
            let first = r.first_transfer[p];
            own.clear();
            own.extend(
                index_deps
                    .of_task(i as usize)
                    .iter()
                    .map(|&d| place[d as usize])
                    .filter(|&d| (d as usize) < p)
                    .map(|d| (u8::from(r.receiver[d as usize] == p as u32) * 2 + u8::from(d >= first), d)),
            );
            own.sort_by_key(|&(class, _)| class);
            r.shared_len.push(if first == NONE { 0 } else { own.iter().filter(|&&(c, _)| c == 0).count() as u32 });
            r.deps.extend(own.iter().map(|&(_, d)| d));
            r.dep_start.push(r.deps.len() as u32);
            r.durations.push(model.task(id).duration().unwrap_or(0));
            r.tasks.push(id);
        }
        let run_ends: Vec<Nanos> = r.tasks.iter().map(|&id| model.task(id).end.get().unwrap_or(0)).collect();
        let mut gates = Gates::new(n);
        r.gaps = (0..n)
            .map(|p| model.task(r.tasks[p]).start.get().unwrap_or(0) - r.ready(p, &run_ends, &mut gates).unwrap_or(0))
            .collect();
        let first = r.tasks.iter().filter_map(|&id| model.task(id).start.get()).min().unwrap_or(0);
        let last = run_ends.iter().copied().max().unwrap_or(first);
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
        Replay::of_sorted_run(model, tasks, &by_start(model, tasks))
    }

    /// [`Replay::of_run`] of `tasks`, given [`by_start`] of them.
    pub fn of_sorted_run(model: &Model, tasks: &[TaskId], by_start: &[(Nanos, TaskId)]) -> Replay {
        Replay::of_sorted(model, by_start, model.window().filter(|_| tasks.len() == model.tasks().len()))
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

    /// The positions `p` waits for itself (each before `p`).
    pub fn own_deps(&self, p: usize) -> &[u32] {
        &self.deps[self.dep_start[p] as usize..self.dep_start[p + 1] as usize]
    }

    /// For a transfer made for a task, that task's position.
    pub fn receiver(&self, p: usize) -> Option<usize> {
        Some(self.receiver[p]).filter(|&x| x != NONE).map(|x| x as usize)
    }

    /// What the transfers made for receiving task `x` also wait for (each
    /// before its first transfer).
    pub fn shared(&self, x: usize) -> &[u32] {
        let from = self.dep_start[x] as usize;
        &self.deps[from..from + self.shared_len[x] as usize]
    }

    /// The positions `p` waits for (each before `p`): its dependencies and,
    /// for a transfer made for a task, what that task waits for other than
    /// its transfers.
    pub fn waits_for(&self, p: usize) -> impl Iterator<Item = u32> + '_ {
        let shared = match self.receiver[p] {
            NONE => &[][..],
            x => self.shared(x as usize),
        };
        self.own_deps(p).iter().chain(shared).copied()
    }

    /// Position `p`'s start after the end of the last of what it waits for
    /// (without dependencies: its start), ns.
    pub fn gap(&self, p: usize) -> Nanos {
        self.gaps[p]
    }

    /// Whether any replayed task waits for another.
    pub fn has_deps(&self) -> bool {
        !self.deps.is_empty()
    }

    /// When what `p` waits for has ended, with `ends` known up to `p`.
    fn ready(&self, p: usize, ends: &[Nanos], gates: &mut Gates) -> Option<Nanos> {
        let own = self.own_deps(p).iter().map(|&d| ends[d as usize]).max();
        match self.receiver[p] {
            NONE => own,
            x => own.max(gates.of(self, x as usize, ends)),
        }
    }

    /// Every position's end with each task taking `durations` (by
    /// position), ns.
    pub fn ends(&self, durations: &[Nanos]) -> Vec<Nanos> {
        let mut ends = Vec::with_capacity(self.len());
        let mut gates = Gates::new(self.len());
        for p in 0..self.len() {
            let ready = self.ready(p, &ends, &mut gates).unwrap_or(0);
            ends.push(ready + self.gaps[p] + durations[p]);
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
    /// that ended last (the first in order on a tie), back through what it
    /// waited for that ended last, to a task that waited for nothing.
    pub fn path(&self, ends: &[Nanos]) -> Vec<usize> {
        let Some(at) = (0..ends.len()).max_by_key(|&p| (ends[p], std::cmp::Reverse(p))) else {
            return Vec::new();
        };
        self.path_from(at, ends)
    }

    /// The path of a replay's `ends` that ends at position `at`, first
    /// position first: back through what each waited for that ended last.
    pub fn path_from(&self, mut at: usize, ends: &[Nanos]) -> Vec<usize> {
        let mut out = vec![at];
        while let Some(d) = self.waits_for(at).max_by_key(|&d| (ends[d as usize], std::cmp::Reverse(d))) {
            at = d as usize;
            out.push(at);
        }
        out.reverse();
        out
    }
}

/// Each receiving task's gate in one replay: the last end among what its
/// transfers also wait for, worked out at its first transfer, when all of
/// them are known, and kept for the others.
struct Gates {
    at: Vec<Option<Option<Nanos>>>,
}

impl Gates {
    /// No gate worked out yet, for a replay of `n` positions.
    fn new(n: usize) -> Gates {
        Gates { at: vec![None; n] }
    }

    /// The gate of receiving task `x` of `replay`.
    fn of(&mut self, replay: &Replay, x: usize, ends: &[Nanos]) -> Option<Nanos> {
        *self.at[x].get_or_insert_with(|| replay.shared(x).iter().map(|&d| ends[d as usize]).max())
    }
}

/// For each task of `by_start` (sorted by start, with their dependencies
/// `deps` by index): for a transfer, the index of the task it was made
/// for, the one of its dependants whose uid is its target; else `NONE`.
fn receivers(model: &Model, by_start: &[(Nanos, TaskId)], deps: &IndexDeps) -> Vec<u32> {
    let mut receiver = vec![NONE; by_start.len()];
    for (i, &(_, id)) in by_start.iter().enumerate() {
        let uid = model.task(id).uid;
        for &d in deps.of_task(i) {
            let dep = by_start[d as usize].1;
            if model.task(dep).role == Role::Transfer && model.target(dep) == Some(uid) {
                receiver[d as usize] = i as u32;
            }
        }
    }
    receiver
}
