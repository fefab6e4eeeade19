//! Analyses of MAL executions: each plan's critical path, the most
//! expensive operations, and how the server used its cores.

use crate::formats::monetdb_mal::reconcile::MalRun;
use crate::model::{Model, Nanos, Role, TaskId};
use std::collections::BTreeMap;

/// One execution's critical path through its dataflow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecutionPath {
    /// The execution's id.
    pub execution: u32,
    /// The sum of the path's durations, ns.
    pub total: Nanos,
    /// The path's instructions, first first.
    pub tasks: Vec<TaskId>,
    /// First start to last end of its instructions, ns.
    pub wall: Nanos,
}

/// The critical path of every execution: `crit(t) = dur(t) + max crit(d)`
/// over the instructions `t` waited for, as ya's path is computed (the
/// first maximum wins). A dependency always points to an earlier task
/// (its producer started before the consumer), so one pass in task order
/// computes every execution's path.
pub fn execution_paths(model: &Model, run: &MalRun) -> Vec<ExecutionPath> {
    let n = model.tasks().len();
    let mut crit: Vec<Option<Nanos>> = vec![None; n];
    let mut best: Vec<Option<TaskId>> = vec![None; n];
    for (i, t) in model.tasks().iter().enumerate() {
        let Some(dur) = t.duration().filter(|_| t.role == Role::Work) else { continue };
        let mut chosen: Option<(TaskId, Nanos)> = None;
        for &d in model.deps(TaskId(i as u32)) {
            if d.index() >= i {
                continue;
            }
            if let Some(cd) = crit[d.index()] {
                if chosen.is_none_or(|(_, cb)| cb < cd) {
                    chosen = Some((d, cd));
                }
            }
        }
        crit[i] = Some(dur.saturating_add(chosen.map_or(0, |(_, c)| c)));
        best[i] = chosen.map(|(d, _)| d);
    }
    run.executions
        .iter()
        .map(|x| {
            let end =
                x.tasks.iter().copied().filter(|t| crit[t.index()].is_some()).fold(None::<TaskId>, |e, t| match e {
                    Some(e) if crit[e.index()] >= crit[t.index()] => Some(e),
                    _ => Some(t),
                });
            let mut tasks = Vec::new();
            let mut at = end;
            while let Some(t) = at {
                tasks.push(t);
                at = best[t.index()];
            }
            tasks.reverse();
            let starts = x.tasks.iter().filter_map(|&t| model.task(t).start.get()).min();
            let ends = x.tasks.iter().filter_map(|&t| model.task(t).end.get()).max();
            ExecutionPath {
                execution: x.id,
                total: end.and_then(|e| crit[e.index()]).unwrap_or(0),
                tasks,
                wall: match (starts, ends) {
                    (Some(a), Some(b)) => b.saturating_sub(a),
                    _ => 0,
                },
            }
        })
        .collect()
}

/// Time statistics of one operation (an instruction or a module).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct OpStats {
    /// `module.instruction`, or the module.
    pub name: String,
    /// Times it ran.
    pub count: u64,
    /// Total time, ns.
    pub total: Nanos,
    /// Median, 90th and 99th percentile and maximum, ns (nearest rank).
    pub p50: Nanos,
    /// 90th percentile.
    pub p90: Nanos,
    /// 99th percentile.
    pub p99: Nanos,
    /// Longest.
    pub max: Nanos,
}

/// The element at nearest rank `q` (0..=1) of sorted `v`: index `floor(q·(n−1) + 0.5)`.
pub fn percentile(sorted: &[Nanos], q: f64) -> Nanos {
    if sorted.is_empty() {
        return 0;
    }
    let i = (q * (sorted.len() - 1) as f64 + 0.5).floor() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Work tasks grouped by `key`, most total time first (then by name).
fn grouped(model: &Model, key: impl Fn(TaskId) -> String) -> Vec<OpStats> {
    let mut groups: BTreeMap<String, Vec<Nanos>> = BTreeMap::new();
    for (i, t) in model.tasks().iter().enumerate() {
        if t.role != Role::Work {
            continue;
        }
        if let Some(d) = t.duration() {
            groups.entry(key(TaskId(i as u32))).or_default().push(d);
        }
    }
    let mut rows: Vec<OpStats> = groups
        .into_iter()
        .map(|(name, mut v)| {
            v.sort_unstable();
            OpStats {
                name,
                count: v.len() as u64,
                total: v.iter().fold(0i64, |a, &b| a.saturating_add(b)),
                p50: percentile(&v, 0.5),
                p90: percentile(&v, 0.9),
                p99: percentile(&v, 0.99),
                max: *v.last().unwrap_or(&0),
            }
        })
        .collect();
    rows.sort_by(|a, b| b.total.cmp(&a.total).then_with(|| a.name.cmp(&b.name)));
    rows
}

/// Instructions by module and name (`algebra.join`), most total time first.
pub fn by_instruction(model: &Model, run: &MalRun) -> Vec<OpStats> {
    grouped(model, |t| run.task_ops.get(t.index()).and_then(|&o| run.ops.get(o as usize)).cloned().unwrap_or_default())
}

/// Instructions by module, most total time first.
pub fn by_module(model: &Model) -> Vec<OpStats> {
    grouped(model, |t| model.kinds()[model.task(t).kind.index()].name.clone())
}

/// How busy the threads were.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CoreUse {
    /// Threads that ran instructions.
    pub threads: u32,
    /// Busy thread-time, ns (overlaps on one thread counted once).
    pub busy: Nanos,
    /// First instruction start to last end, ns.
    pub wall: Nanos,
    /// Instructions running at each change: (time, count), in time order.
    pub running: Vec<(Nanos, u32)>,
    /// The most threads busy at once.
    pub peak: u32,
    /// Stretches with no instruction running, longest first: (start, end).
    pub idle: Vec<(Nanos, Nanos)>,
    /// Busy time per thread lane: (lane name, ns), busiest first.
    pub per_thread: Vec<(String, Nanos)>,
}

impl CoreUse {
    /// Average threads busy over the wall time (busy / wall).
    pub fn parallelism(&self) -> f64 {
        if self.wall > 0 {
            self.busy as f64 / self.wall as f64
        } else {
            0.0
        }
    }
}

/// Core use of the work tasks of `model`.
pub fn core_use(model: &Model) -> CoreUse {
    let mut edges: Vec<(Nanos, i32)> = Vec::new();
    let mut per_lane: BTreeMap<u32, Vec<(Nanos, Nanos)>> = BTreeMap::new();
    for t in model.tasks().iter().filter(|t| t.role == Role::Work) {
        if let (Some(s), Some(e)) = (t.start.get(), t.end.get()) {
            edges.push((s, 1));
            edges.push((e, -1));
            per_lane.entry(t.lane.0).or_default().push((s, e));
        }
    }
    if edges.is_empty() {
        return CoreUse::default();
    }
    edges.sort_unstable();
    let mut running = Vec::new();
    let mut idle = Vec::new();
    let mut level: i32 = 0;
    let mut peak = 0;
    let mut idle_from = None;
    for (i, &(t, d)) in edges.iter().enumerate() {
        level += d;
        let last_at_time = edges.get(i + 1).is_none_or(|n| n.0 != t);
        if !last_at_time {
            continue;
        }
        let now = level.max(0) as u32;
        peak = peak.max(now);
        if running.last().is_none_or(|&(_, l)| l != now) {
            running.push((t, now));
        }
        match (now, idle_from) {
            (0, None) => idle_from = Some(t),
            (n, Some(from)) if n > 0 => {
                if t > from {
                    idle.push((from, t));
                }
                idle_from = None;
            }
            _ => {}
        }
    }
    idle.sort_by_key(|&(a, b)| (std::cmp::Reverse(b - a), a));
    let mut busy = 0i64;
    let mut per_thread: Vec<(String, Nanos)> = per_lane
        .into_iter()
        .map(|(lane, mut spans)| {
            spans.sort_unstable();
            let mut total = 0i64;
            let mut cur: Option<(Nanos, Nanos)> = None;
            for (s, e) in spans {
                cur = match cur {
                    Some((cs, ce)) if s <= ce => Some((cs, ce.max(e))),
                    Some((cs, ce)) => {
                        total = total.saturating_add(ce - cs);
                        Some((s, e))
                    }
                    None => Some((s, e)),
                };
            }
            if let Some((cs, ce)) = cur {
                total = total.saturating_add(ce - cs);
            }
            busy = busy.saturating_add(total);
            (model.lanes()[lane as usize].name.clone(), total)
        })
        .collect();
    per_thread.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let first = edges.first().map_or(0, |e| e.0);
    let last = edges.last().map_or(0, |e| e.0);
    CoreUse { threads: per_thread.len() as u32, busy, wall: last - first, running, peak, idle, per_thread }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let v = [1, 2, 3, 4];
        assert_eq!((percentile(&v, 0.0), percentile(&v, 0.5), percentile(&v, 1.0)), (1, 3, 4));
        assert_eq!(percentile(&[], 0.5), 0);
    }
}
