//! One run as a comparison reads it ([`Run`]: a model's tasks and their
//! stable keys) and what it comes to by normalised key ([`Digest`]): each
//! key's group (count, total time, how many ran, came from a cache or
//! failed, which keys it waited for), the blocking chain as keys with the
//! waiting on it, each key's slack, and what a replay needs.
//!
//! Phases (a build stage, a query's whole span) are left out: they are not
//! work that can be slower. Tasks without a start or an end are too.

use super::chain::chain;
use super::normalise::normalise;
use crate::hash::{FastMap, FastSet};
use crate::model::{Model, Nanos, Role, TaskId};
use std::collections::BTreeSet;

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
}

/// How the tasks of one key ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcomes {
    /// Ran and succeeded.
    pub executed: u32,
    /// Came from a cache.
    pub cached: u32,
    /// Failed.
    pub failed: u32,
}

impl Outcomes {
    /// As people read it: `executed`, `cached`, `failed`, or the mix with counts.
    pub fn label(&self) -> String {
        let parts: Vec<(u32, &str)> = [(self.executed, "executed"), (self.cached, "cached"), (self.failed, "failed")]
            .into_iter()
            .filter(|(n, _)| *n > 0)
            .collect();
        match parts.as_slice() {
            [(_, one)] => (*one).to_owned(),
            _ => parts.iter().map(|(n, s)| format!("{n} {s}")).collect::<Vec<_>>().join(", "),
        }
    }

    /// The mix, as a share of each (so that 2 of 4 cached matches 1 of 2).
    pub fn same_mix(&self, other: &Outcomes) -> bool {
        let shares = |o: &Outcomes| {
            let n = (o.executed + o.cached + o.failed).max(1) as u64;
            [o.executed as u64 * 1000 / n, o.cached as u64 * 1000 / n, o.failed as u64 * 1000 / n]
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
    /// Keys its tasks waited for.
    pub deps: BTreeSet<String>,
    /// Keys that waited for its tasks.
    pub dependants: BTreeSet<String>,
    /// The least slack of its tasks: how much later one could have ended
    /// without the run ending later, ns.
    pub slack: Nanos,
}

/// One step of a run's blocking chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathStep {
    /// The task's key.
    pub key: String,
    /// Its duration, ns.
    pub duration: Nanos,
}

/// A task as a replay needs it: when it may start after what it waited for,
/// how long it took, and what it waited for.
#[derive(Clone, Debug)]
pub struct ReplayTask {
    /// Its key.
    pub key: String,
    /// Its start after its last dependency ended (or after the run's start,
    /// without dependencies), ns, never negative.
    pub delay: Nanos,
    /// Its duration, ns.
    pub duration: Nanos,
    /// The tasks it waited for, as indices into [`Digest::replay`].
    pub deps: Vec<u32>,
}

/// What one run comes to, by normalised key.
#[derive(Clone, Debug)]
pub struct Digest {
    /// The run's name.
    pub name: String,
    /// The groups, by key.
    pub groups: FastMap<String, Group>,
    /// The blocking chain, first step first.
    pub path: Vec<PathStep>,
    /// First start to last end, ns.
    pub wall: Nanos,
    /// The wall time not spent in the chain's tasks: before its first task
    /// and between its steps, ns ([`Digest::wall`] = chain's durations + this).
    pub waiting: Nanos,
    /// The run's tasks in order of start, for a replay.
    pub replay: Vec<ReplayTask>,
}

impl Digest {
    /// The digest of `run`.
    pub fn of(run: &Run<'_>) -> Digest {
        let model = run.model;
        let dur = |id: TaskId| model.task(id).duration().unwrap_or(0);
        let timed = |id: TaskId| {
            let t = model.task(id);
            t.role != Role::Phase && t.duration().is_some()
        };
        let mut tasks: Vec<TaskId> = run.tasks.iter().copied().filter(|&id| timed(id)).collect();
        tasks.sort_by_key(|&id| (model.task(id).start.get(), id));
        let members: FastSet<TaskId> = tasks.iter().copied().collect();
        let key_of = |id: TaskId| normalise(run.keys.keys.get(id.index()).map_or("", String::as_str));
        let weight = |id: TaskId| run.keys.weights.as_ref().and_then(|w| w.get(id.index()).copied()).unwrap_or(1);
        let keys: FastMap<TaskId, String> = tasks.iter().map(|&id| (id, key_of(id))).collect();
        let start = tasks.iter().filter_map(|&id| model.task(id).start.get()).min().unwrap_or(0);
        let end = tasks.iter().filter_map(|&id| model.task(id).end.get()).max().unwrap_or(start).max(start);
        let slack = slack(model, &tasks, &members, end);

        let mut groups: FastMap<String, Group> = FastMap::default();
        let mut dependants: Vec<(String, String)> = Vec::new();
        for &id in &tasks {
            let t = model.task(id);
            let g = groups.entry(keys[&id].clone()).or_insert_with(|| Group { slack: Nanos::MAX, ..Group::default() });
            g.count += weight(id);
            g.total += dur(id) * Nanos::from(weight(id));
            match (t.failed, t.cached) {
                (true, _) => g.outcomes.failed += 1,
                (false, true) => g.outcomes.cached += 1,
                (false, false) => g.outcomes.executed += 1,
            }
            g.slack = g.slack.min(slack[&id]);
            for d in model.deps(id).iter().filter(|d| members.contains(d)) {
                if keys[d] != keys[&id] {
                    g.deps.insert(keys[d].clone());
                    dependants.push((keys[d].clone(), keys[&id].clone()));
                }
            }
        }
        for (dep, of) in dependants {
            if let Some(g) = groups.get_mut(&dep) {
                g.dependants.insert(of);
            }
        }

        let path: Vec<PathStep> =
            chain(model, &members).iter().map(|&id| PathStep { key: keys[&id].clone(), duration: dur(id) }).collect();
        let wall = end - start;
        let waiting = wall - path.iter().map(|s| s.duration).sum::<Nanos>();

        let index: FastMap<TaskId, u32> = tasks.iter().enumerate().map(|(i, &id)| (id, i as u32)).collect();
        let replay = tasks
            .iter()
            .map(|&id| {
                let t = model.task(id);
                let deps: Vec<u32> = model.deps(id).iter().filter_map(|d| index.get(d).copied()).collect();
                let ready = deps.iter().filter_map(|&d| model.task(tasks[d as usize]).end.get()).max().unwrap_or(start);
                ReplayTask {
                    key: keys[&id].clone(),
                    delay: (t.start.get().unwrap_or(start) - ready).max(0),
                    duration: dur(id),
                    deps,
                }
            })
            .collect();
        Digest { name: run.name.clone(), groups, path, wall, waiting, replay }
    }

    /// The key each step of the path has, summed where a key repeats.
    pub fn path_time(&self) -> FastMap<&str, Nanos> {
        let mut out: FastMap<&str, Nanos> = FastMap::default();
        for s in &self.path {
            *out.entry(s.key.as_str()).or_default() += s.duration;
        }
        out
    }

    /// Gives the keys in `renamed` their new names (keys matched by structure).
    pub fn rename(&mut self, renamed: &FastMap<String, String>) {
        if renamed.is_empty() {
            return;
        }
        let new = |k: &String| renamed.get(k).cloned().unwrap_or_else(|| k.clone());
        self.groups = std::mem::take(&mut self.groups)
            .into_iter()
            .map(|(k, mut g)| {
                g.deps = g.deps.iter().map(new).collect();
                g.dependants = g.dependants.iter().map(new).collect();
                (new(&k), g)
            })
            .collect();
        for s in &mut self.path {
            s.key = new(&s.key);
        }
        for r in &mut self.replay {
            r.key = new(&r.key);
        }
    }
}

/// Each task's total slack: the latest it could have ended without the run
/// ending later (the least of its dependants' latest starts, or the run's
/// end), minus when it ended.
fn slack(model: &Model, tasks: &[TaskId], members: &FastSet<TaskId>, end: Nanos) -> FastMap<TaskId, Nanos> {
    let mut dependants: FastMap<TaskId, Vec<TaskId>> = FastMap::default();
    for &id in tasks {
        for &d in model.deps(id).iter().filter(|d| members.contains(d)) {
            dependants.entry(d).or_default().push(id);
        }
    }
    // Latest ends, from the last-ending task back: a dependant ends after
    // what it waited for, so it is done first.
    let mut by_end: Vec<TaskId> = tasks.to_vec();
    by_end.sort_by_key(|&id| std::cmp::Reverse((model.task(id).end.get(), id)));
    let mut latest_end: FastMap<TaskId, Nanos> = FastMap::default();
    for &id in &by_end {
        let latest = dependants.get(&id).map_or(end, |ds| {
            ds.iter()
                .map(|d| latest_end.get(d).copied().unwrap_or(end) - model.task(*d).duration().unwrap_or(0))
                .min()
                .unwrap_or(end)
        });
        latest_end.insert(id, latest);
    }
    tasks.iter().map(|&id| (id, latest_end[&id] - model.task(id).end.get().unwrap_or(end))).collect()
}
