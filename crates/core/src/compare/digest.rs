//! One run as a comparison reads it ([`Run`]: a model's tasks and their
//! stable keys) and what it comes to by normalised key ([`Digest`]): each
//! key's group (count, total time, how many ran, came from a cache or
//! failed, which keys it waited for), the chain it waited for as keys with
//! the waiting on it, each key's slack, and what a replay needs.
//!
//! Phases (a build stage, a query's whole span) are left out: they are not
//! work that can be slower. Tasks without a start or an end are too. Keys
//! are held once, interned, and used by id; what a key waited for is one
//! list for all keys: a build has millions of tasks and edges.

use super::chain::chain;
use super::execution::{Execution, Place};
use super::normalise::normalise;
use crate::analysis::replay::{self, Replay};
use crate::analysis::slack::slack;
use crate::hash::FastMap;
use crate::intern::Interner;
use crate::model::{Model, Nanos, TaskId};
use std::borrow::Cow;

/// One run to compare.
#[derive(Clone, Debug)]
pub struct Run<'a> {
    /// What to call it (`kati.ninja_log#2`).
    pub name: String,
    /// The model it is part of.
    pub model: &'a Model,
    /// Its tasks (all of the model's, or one build's, one execution's).
    pub tasks: Vec<TaskId>,
    /// What the format says of every task of the model.
    pub keys: &'a TaskKeys,
}

/// What a format says of every task of a model for a comparison, by [`TaskId`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TaskKeys {
    /// Each task's stable key (the format's, before normalising).
    pub keys: Vec<String>,
    /// The calls each task stands for, when it is a sample (an evobench
    /// span recorded every n calls): its time counts that many times in its
    /// key's total and count. `None`: one each.
    pub weights: Option<Vec<u32>>,
    /// How each task ran beyond cached and failed (remote or local, a
    /// retry, a remote cache hit), when the format records it. `None`:
    /// nothing recorded.
    pub executions: Option<Vec<Execution>>,
}

/// How the tasks of one key ended. `executed`, `remote`, `local`,
/// `cached` and `failed` count each task once; `retried` counts again
/// those started more than once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcomes {
    /// Ran and succeeded, where the format does not say.
    pub executed: u32,
    /// Ran on a remote executor and succeeded.
    pub remote: u32,
    /// Ran locally, where the format tells local from remote, and succeeded.
    pub local: u32,
    /// Came from a cache.
    pub cached: u32,
    /// Failed.
    pub failed: u32,
    /// Of all the above, started more than once.
    pub retried: u32,
}

impl Outcomes {
    /// Counts one task that ended so (`failed` and `cached` from the model,
    /// the rest from its format, [`Execution`]).
    pub fn count(&mut self, failed: bool, cached: bool, how: Execution) {
        let n = match (failed, cached || how.cache_hit, how.place) {
            (true, ..) => &mut self.failed,
            (false, true, _) => &mut self.cached,
            (false, false, Place::Remote) => &mut self.remote,
            (false, false, Place::Local) => &mut self.local,
            (false, false, Place::Unknown) => &mut self.executed,
        };
        *n += 1;
        self.retried += u32::from(how.retried);
    }

    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &Outcomes) {
        for (to, from) in self.counts_mut().into_iter().zip(other.counts()) {
            *to += from;
        }
    }

    /// The counts, in [`Outcomes::NAMES`]' order.
    fn counts(&self) -> [u32; 6] {
        [self.executed, self.remote, self.local, self.cached, self.failed, self.retried]
    }

    fn counts_mut(&mut self) -> [&mut u32; 6] {
        [&mut self.executed, &mut self.remote, &mut self.local, &mut self.cached, &mut self.failed, &mut self.retried]
    }

    /// What each count is called in a label.
    const NAMES: [&'static str; 6] =
        ["executed", "executed remotely", "executed locally", "cached", "failed", "retried"];

    /// As people read it: `executed`, `executed remotely`, `executed
    /// locally`, `cached`, `failed`, with `, retried` when all were, or the
    /// mix with counts (borrowed for one outcome, the common case).
    pub fn label(&self) -> Cow<'static, str> {
        let counts = self.counts();
        let tasks: u32 = counts[..5].iter().sum();
        let mut some = counts[..5].iter().zip(Self::NAMES).filter(|(n, _)| **n > 0);
        match (some.next(), some.next(), self.retried) {
            (Some((_, one)), None, 0) => Cow::Borrowed(one),
            (Some((_, one)), None, r) if r == tasks => Cow::Owned(format!("{one}, retried")),
            _ => Cow::Owned(
                counts
                    .iter()
                    .zip(Self::NAMES)
                    .filter(|(n, _)| **n > 0)
                    .map(|(n, s)| format!("{n} {s}"))
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
        }
    }

    /// The mix, as a share of each (so that 2 of 4 cached matches 1 of 2).
    pub fn same_mix(&self, other: &Outcomes) -> bool {
        let shares = |o: &Outcomes| {
            let c = o.counts();
            let n = u64::from(c[..5].iter().sum::<u32>().max(1));
            c.map(|x| u64::from(x) * 1000 / n)
        };
        shares(self) == shares(other)
    }
}

/// The tasks of one key in one run: repeated or sharded tasks are one group.
#[derive(Clone, Debug, Default)]
pub struct Group {
    /// Tasks (or the calls they stand for, [`TaskKeys::weights`]).
    pub count: u32,
    /// The sum of their durations, ns.
    pub total: Nanos,
    /// How they ended.
    pub outcomes: Outcomes,
    /// The least slack of its tasks: how much later one could have ended
    /// without the run ending later, ns.
    pub slack: Nanos,
}

/// One step of a run's chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathStep {
    /// The task's key, as an id ([`Digest::key`]).
    pub key: u32,
    /// Its duration, ns.
    pub duration: Nanos,
}

/// What one run comes to, by normalised key.
#[derive(Clone, Debug)]
pub struct Digest {
    /// The run's name.
    pub name: String,
    /// Every key, by id.
    keys: Interner,
    /// Each key's group, by id.
    pub groups: Vec<Group>,
    /// The keys each key's tasks waited for, sorted: `deps[deps_start[k]..deps_start[k + 1]]`.
    deps: Vec<u32>,
    deps_start: Vec<u32>,
    /// The keys that waited for each key's tasks, sorted, likewise.
    dependants: Vec<u32>,
    dependants_start: Vec<u32>,
    /// The chain the run waited for, first step first ([`chain`]).
    pub path: Vec<PathStep>,
    /// The run's first time to its last, ns: a run that is all of its
    /// model has its producer's window (as `analyze` reports it), any other
    /// its tasks' first start to last end.
    pub wall: Nanos,
    /// The wall time not spent in the chain's tasks: before its first task
    /// and between its steps, ns ([`Digest::wall`] = chain's durations + this).
    pub waiting: Nanos,
    /// The run's schedule, for a replay ([`Replay`]).
    pub replay: Replay,
    /// The key of each of the replay's positions, as an id.
    pub replay_keys: Vec<u32>,
}

/// Not one of the run's tasks (in [`Digest::of`]'s index of positions).
const NOT_IN_RUN: u32 = u32::MAX;

impl Digest {
    /// The digest of `run`.
    pub fn of(run: &Run<'_>) -> Digest {
        let model = run.model;
        let dur = |id: TaskId| model.task(id).duration().unwrap_or(0);
        // Sorted as (start, id) pairs (looking each task up in the sort's
        // comparisons is a cache miss each on a big build), once for the
        // digest and its replay.
        let by_start = replay::by_start(model, &run.tasks);
        let tasks: Vec<TaskId> = by_start.iter().map(|&(_, id)| id).collect();
        // Each model task's position in `tasks`.
        let mut pos = vec![NOT_IN_RUN; model.tasks().len()];
        for (i, &id) in tasks.iter().enumerate() {
            pos[id.index()] = i as u32;
        }
        let at = |id: TaskId| Some(pos[id.index()]).filter(|&p| p != NOT_IN_RUN);
        let weight = |id: TaskId| run.keys.weights.as_ref().and_then(|w| w.get(id.index()).copied()).unwrap_or(1);

        let mut keys = Interner::new();
        // Room for a key a task: growing the table would hash every key again.
        keys.reserve(0, tasks.len().min(1 << 22));
        // Interned in the model's order, which is the order the keys lie in
        // memory: in the run's order of start, each key would be a cache miss.
        let mut kid = pos.clone();
        for (i, k) in kid.iter_mut().enumerate().filter(|(_, k)| **k != NOT_IN_RUN) {
            *k = keys.intern(&normalise(run.keys.keys.get(i).map_or("", String::as_str)));
        }
        let kid: Vec<u32> = tasks.iter().map(|&id| kid[id.index()]).collect();
        let first = tasks.iter().filter_map(|&id| model.task(id).start.get()).min().unwrap_or(0);
        let end = tasks.iter().filter_map(|&id| model.task(id).end.get()).max().unwrap_or(first).max(first);
        let slack = slack(model, &tasks, &at, end);
        let replay = Replay::of_sorted_run(model, &run.tasks, &by_start);
        let (start, close) = replay.window();

        let mut groups: Vec<Group> = vec![Group { slack: Nanos::MAX, ..Group::default() }; keys.len()];
        // Edges between keys as one number each (from, to): sorted faster
        // than pairs, in the same order.
        let pack = |(x, y): (u32, u32)| u64::from(x) << 32 | u64::from(y);
        let unpack = |e: u64| ((e >> 32) as u32, e as u32);
        let mut packed: Vec<u64> = Vec::new();
        for (p, &id) in tasks.iter().enumerate() {
            let t = model.task(id);
            let k = kid[p];
            let w = weight(id);
            let g = &mut groups[k as usize];
            g.count = g.count.saturating_add(w);
            g.total = g.total.saturating_add(dur(id).saturating_mul(Nanos::from(w)));
            let how = run.keys.executions.as_ref().and_then(|e| e.get(id.index()).copied()).unwrap_or_default();
            g.outcomes.count(t.failed, t.cached, how);
            g.slack = g.slack.min(slack[p]);
            packed.extend(
                model
                    .deps(id)
                    .iter()
                    .filter_map(|&d| at(d))
                    .map(|d| (k, kid[d as usize]))
                    .filter(|(k, d)| k != d)
                    .map(pack),
            );
        }
        packed.sort_unstable();
        packed.dedup();
        let edges: Vec<(u32, u32)> = packed.iter().map(|&e| unpack(e)).collect();
        let (deps, deps_start) = lists(keys.len(), &edges);
        let flipped: Vec<(u32, u32)> = {
            let mut f: Vec<u64> = edges.iter().map(|&(k, d)| pack((d, k))).collect();
            f.sort_unstable();
            f.into_iter().map(unpack).collect()
        };
        let (dependants, dependants_start) = lists(keys.len(), &flipped);

        let path: Vec<PathStep> = chain(model, &|id| at(id).is_some())
            .iter()
            .map(|&id| PathStep { key: kid[pos[id.index()] as usize], duration: dur(id) })
            .collect();
        let wall = close - start;
        let waiting = wall - path.iter().map(|s| s.duration).sum::<Nanos>();

        let replay_keys = (0..replay.len()).map(|p| kid[pos[replay.task(p).index()] as usize]).collect();
        Digest {
            name: run.name.clone(),
            keys,
            groups,
            deps,
            deps_start,
            dependants,
            dependants_start,
            path,
            wall,
            waiting,
            replay,
            replay_keys,
        }
    }

    /// The id of `key`, if the run has it.
    pub fn id(&self, key: &str) -> Option<u32> {
        self.keys.get(key)
    }

    /// The group of `key`, if the run has it.
    pub fn group(&self, key: &str) -> Option<&Group> {
        self.id(key).map(|k| &self.groups[k as usize])
    }

    /// Every key with its id and group.
    pub fn keyed_groups(&self) -> impl Iterator<Item = (u32, &str, &Group)> {
        self.groups.iter().enumerate().map(|(k, g)| (k as u32, self.keys.name(k as u32), g))
    }

    /// The key of the id `k`.
    pub fn key(&self, k: u32) -> &str {
        self.keys.name(k)
    }

    /// The keys that the tasks of key `k` waited for, as ids, sorted.
    pub fn deps_of(&self, k: u32) -> &[u32] {
        &self.deps[self.deps_start[k as usize] as usize..self.deps_start[k as usize + 1] as usize]
    }

    /// The keys that waited for the tasks of key `k`, as ids, sorted.
    pub fn dependants_of(&self, k: u32) -> &[u32] {
        let (a, b) = (self.dependants_start[k as usize], self.dependants_start[k as usize + 1]);
        &self.dependants[a as usize..b as usize]
    }

    /// Whether any task of the run waited for another.
    pub fn has_edges(&self) -> bool {
        !self.deps.is_empty()
    }

    /// The time of each key on the path, summed where a key repeats.
    pub fn path_time(&self) -> FastMap<&str, Nanos> {
        let mut out: FastMap<&str, Nanos> = FastMap::default();
        for s in &self.path {
            *out.entry(self.key(s.key)).or_default() += s.duration;
        }
        out
    }

    /// Gives the keys in `renamed` their new names (keys matched by structure).
    /// The new names are not keys of this run, so the ids stay as they are.
    pub fn rename(&mut self, renamed: &FastMap<String, String>) {
        if renamed.is_empty() {
            return;
        }
        let mut keys = Interner::new();
        for k in 0..self.keys.len() as u32 {
            let name = self.keys.name(k);
            keys.intern(renamed.get(name).map_or(name, String::as_str));
        }
        self.keys = keys;
    }
}

/// Sorted `(from, to)` pairs as one list of `to`s and where each `from`'s
/// part starts (`n + 1` entries).
fn lists(n: usize, pairs: &[(u32, u32)]) -> (Vec<u32>, Vec<u32>) {
    let mut start = vec![0u32; n + 1];
    for &(from, _) in pairs {
        start[from as usize + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    (pairs.iter().map(|&(_, to)| to).collect(), start)
}
