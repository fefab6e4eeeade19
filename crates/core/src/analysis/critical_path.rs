//! Two critical paths through a model's dependencies.
//!
//! **ya's path (duration sum).** `crit(t) = dur(t) + max crit(d)` over the
//! tasks `t` waited for; the path ends at the work or setup task with the
//! largest `crit` and follows the maximising dependency back. Exactly as
//! ya's `GraphStats.get_critical_path`: dependencies are compared in the
//! model's order and the first maximum wins (strict `<`); end candidates
//! are the work tasks in id order, then the setup tasks in id order; tasks
//! without a duration take no part. Gaps between tasks are not counted.
//!
//! **The blocking chain.** What the run really waited for: start at the task
//! that finished last (phases aside), step to the dependency that became available last
//! (the latest end; the first in order on a tie), and repeat, noting each
//! idle gap between a dependency's end and its dependant's start.

use crate::model::{Model, Nanos, Role, TaskId};

/// A path of tasks, first task first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Path {
    /// The tasks, in order of execution.
    pub tasks: Vec<TaskId>,
    /// ya's path: the sum of durations. Blocking chain: the wall time from
    /// the first task's start to the last task's end.
    pub total: Nanos,
}

/// A dependency cycle found while computing ya's path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// The tasks on the cycle, in dependency order (each waits for the next).
    pub tasks: Vec<TaskId>,
}

/// ya's path, and the cycles that had to be cut to compute it (ya stops with
/// "cyclic dependency detected"; here the closing edge is ignored).
pub fn ya_path(model: &Model) -> (Path, Vec<Cycle>) {
    let n = model.tasks().len();
    // Durations, and each task's path length once known, with `UNKNOWN` for
    // none: 8 bytes a task each, read in place of the tasks themselves.
    const UNKNOWN: Nanos = Nanos::MIN;
    let dur: Vec<Nanos> = model.tasks().iter().map(|t| t.duration().unwrap_or(UNKNOWN)).collect();
    let mut crit: Vec<Nanos> = vec![UNKNOWN; n];
    // The dependency each task's path goes through (`NONE`: none); a plain
    // index keeps this at 4 bytes a task.
    const NONE: u32 = u32::MAX;
    let mut best: Vec<u32> = vec![NONE; n];
    let mut on_stack = vec![false; n];
    let mut cycles = Vec::new();
    // Explicit DFS: (task, index of the next dependency to look at).
    let mut stack: Vec<(TaskId, usize)> = Vec::new();

    let candidates = model
        .tasks()
        .iter()
        .enumerate()
        .filter(|(_, t)| t.role == Role::Work)
        .chain(model.tasks().iter().enumerate().filter(|(_, t)| t.role == Role::Setup))
        .map(|(i, _)| TaskId(i as u32));
    let mut end: Option<TaskId> = None;
    for c in candidates {
        if dur[c.index()] == UNKNOWN {
            continue;
        }
        if crit[c.index()] == UNKNOWN {
            on_stack[c.index()] = true;
            stack.push((c, 0));
            while let Some(&mut (t, ref mut next)) = stack.last_mut() {
                let deps = model.deps(t);
                if let Some(&d) = deps.get(*next) {
                    *next += 1;
                    if on_stack[d.index()] {
                        let from = stack.iter().position(|&(s, _)| s == d).unwrap_or(0);
                        cycles.push(Cycle { tasks: stack[from..].iter().map(|&(s, _)| s).collect() });
                        continue;
                    }
                    if crit[d.index()] == UNKNOWN && dur[d.index()] != UNKNOWN {
                        on_stack[d.index()] = true;
                        stack.push((d, 0));
                    }
                    continue;
                }
                // Every dependency is done: choose the first maximum, as ya does.
                let mut chosen: Option<(TaskId, Nanos)> = None;
                for &d in deps {
                    let cd = crit[d.index()];
                    if cd != UNKNOWN && chosen.is_none_or(|(_, cb)| cb < cd) {
                        chosen = Some((d, cd));
                    }
                }
                // Saturating, so no sum becomes `UNKNOWN` (or wraps).
                let own = dur[t.index()];
                crit[t.index()] = own.saturating_add(chosen.map_or(0, |(_, c)| c)).max(UNKNOWN + 1);
                best[t.index()] = chosen.map_or(NONE, |(d, _)| d.0);
                on_stack[t.index()] = false;
                stack.pop();
            }
        }
        let known = |t: TaskId| Some(crit[t.index()]).filter(|&c| c != UNKNOWN).unwrap_or(0);
        let tm = known(c);
        if end.is_none_or(|e| known(e) < tm) {
            end = Some(c);
        }
    }
    let Some(end) = end else { return (Path::default(), cycles) };
    let mut tasks = vec![end];
    let mut at = end;
    while best[at.index()] != NONE {
        at = TaskId(best[at.index()]);
        tasks.push(at);
    }
    tasks.reverse();
    let total = Some(crit[end.index()]).filter(|&c| c != UNKNOWN).unwrap_or(0);
    (Path { tasks, total }, cycles)
}

/// One step of the blocking chain: a task and how long it sat idle after
/// the dependency before it in the chain became available.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The task.
    pub task: TaskId,
    /// Its start minus the end of the previous task in the chain (0 for the first).
    pub gap: Nanos,
}

/// The blocking chain, first task first, with the idle gap before each step.
pub fn blocking_chain(model: &Model) -> (Path, Vec<Step>) {
    blocking_chain_in(model, &|_| true)
}

/// The blocking chain through the tasks `keep` accepts (one build of a log
/// holding several, one execution of a trace), first task first.
pub fn blocking_chain_in(model: &Model, keep: &dyn Fn(TaskId) -> bool) -> (Path, Vec<Step>) {
    let tasks = model.tasks();
    let last = tasks.iter().enumerate().filter(|(i, t)| t.duration().is_some() && keep(TaskId(*i as u32))).fold(
        None::<(usize, Nanos)>,
        |acc, (i, t)| {
            let end = t.end.get().unwrap_or(Nanos::MIN);
            match acc {
                Some((_, e)) if e >= end => acc,
                _ => Some((i, end)),
            }
        },
    );
    let Some((last, _)) = last else { return (Path::default(), Vec::new()) };
    let mut chain = vec![TaskId(last as u32)];
    let mut seen = vec![false; tasks.len()];
    seen[last] = true;
    let mut at = TaskId(last as u32);
    loop {
        let mut next: Option<(TaskId, Nanos)> = None;
        for &d in model.deps(at) {
            let Some(end) = model.task(d).end.get() else { continue };
            if !seen[d.index()] && keep(d) && next.is_none_or(|(_, e)| e < end) {
                next = Some((d, end));
            }
        }
        let Some((d, _)) = next else { break };
        seen[d.index()] = true;
        chain.push(d);
        at = d;
    }
    chain.reverse();
    let mut steps = Vec::with_capacity(chain.len());
    for (i, &t) in chain.iter().enumerate() {
        let gap = match i {
            0 => 0,
            _ => model.task(t).start.get().unwrap_or(0) - model.task(chain[i - 1]).end.get().unwrap_or(0),
        };
        steps.push(Step { task: t, gap });
    }
    let first = model.task(chain[0]).start.get().unwrap_or(0);
    let total = model.task(chain[chain.len() - 1]).end.get().unwrap_or(0) - first;
    (Path { tasks: chain, total }, steps)
}

/// Where the two paths part: at `task`, ya's path takes `ya` (the larger
/// duration sum) while the blocking chain takes `blocking` (the later end).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The task both paths pass through.
    pub task: TaskId,
    /// The dependency on ya's path, if it has one there.
    pub ya: Option<TaskId>,
    /// The dependency on the blocking chain, if it has one there.
    pub blocking: Option<TaskId>,
}

/// Every task on both paths where they take different dependencies.
pub fn divergences(ya: &Path, blocking: &Path) -> Vec<Divergence> {
    let before = |path: &Path, t: TaskId| {
        let i = path.tasks.iter().position(|&x| x == t)?;
        i.checked_sub(1).map(|j| path.tasks[j])
    };
    blocking
        .tasks
        .iter()
        .filter(|t| ya.tasks.contains(t))
        .filter_map(|&t| {
            let (y, b) = (before(ya, t), before(blocking, t));
            (y != b).then_some(Divergence { task: t, ya: y, blocking: b })
        })
        .collect()
}
