//! Each task's total slack: how much later it could have ended without the
//! run ending later. Shared by the comparison (a key's least slack) and the
//! fleet tables (every task's).

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
        let latest_start = latest_end[p as usize] - model.task(id).duration().unwrap_or(0);
        for d in model.deps(id).iter().filter_map(|&d| at(d)) {
            let e = &mut latest_end[d as usize];
            *e = (*e).min(latest_start);
        }
    }
    tasks.iter().zip(latest_end).map(|(&id, l)| l - model.task(id).end.get().unwrap_or(end)).collect()
}
