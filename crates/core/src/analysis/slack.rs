//! Each task's total slack: how much later it could have ended without the
//! run ending later. Shared by the comparison (a key's least slack) and the
//! fleet tables (every task's): [`slack`], where a task may use the idle
//! time before its dependants' starts. Under the replay, where that idle
//! time is kept ([`crate::analysis::replay`]): [`replay_slack`], which the
//! drag (`analysis/drag.rs`) reads.

use super::replay::Replay;
use crate::model::{Model, Nanos, TaskId};

/// Each task's total slack, by position in `tasks`: the latest it could
/// have ended without the run ending later (the least of its dependants'
/// latest starts, or the run's end), less when it ended. Done from the last
/// end back: a dependant ends after what it waited for, so its latest end
/// is known when it passes it on.
pub fn slack(model: &Model, tasks: &[TaskId], at: &dyn Fn(TaskId) -> Option<u32>, end: Nanos) -> Vec<Nanos> {
    let mut latest_end = vec![end; tasks.len()];
    // Sorted as (end, position) pairs, not by looking each task up.
    let mut by_end: Vec<(Option<Nanos>, u32)> =
        tasks.iter().enumerate().map(|(p, &id)| (model.task(id).end.get(), p as u32)).collect();
    by_end.sort_unstable_by(|x, y| y.cmp(x));
    for &(_, p) in &by_end {
        let id = tasks[p as usize];
        let latest_start = latest_end[p as usize].saturating_sub(model.task(id).duration().unwrap_or(0));
        for d in model.deps(id).iter().filter_map(|&d| at(d)) {
            let e = &mut latest_end[d as usize];
            *e = (*e).min(latest_start);
        }
    }
    tasks.iter().zip(latest_end).map(|(&id, l)| l.saturating_sub(model.task(id).end.get().unwrap_or(end))).collect()
}

/// Each replayed position's slack under the replay of `replay` with
/// `durations` (ends `ends`): how much later it could end without the last
/// end moving, its dependants' gaps kept. 0 on the replay's path. Done from
/// the last position back: a dependant's latest end is known before it
/// passes it on.
pub fn replay_slack(replay: &Replay, durations: &[Nanos], ends: &[Nanos]) -> Vec<Nanos> {
    let last = ends.iter().copied().max().unwrap_or(0);
    let mut latest = vec![last; ends.len()];
    for p in (0..ends.len()).rev() {
        // Saturating: a log's times may span more than i64 holds.
        let ready_by = latest[p].saturating_sub(durations[p]).saturating_sub(replay.gap(p));
        for d in replay.waits_for(p) {
            let l = &mut latest[d as usize];
            *l = (*l).min(ready_by);
        }
    }
    latest.iter().zip(ends).map(|(l, e)| l.saturating_sub(*e)).collect()
}
