//! The chain of tasks one run waited for, as a comparison splits its wall
//! time: from the task that ended last, back through the dependency that
//! became available last, to a task that waited for nothing.
//!
//! Unlike the blocking chain of a single run's report (which steps to the
//! dependency that *ended* last), a step here goes to the dependency that
//! would have ended last had it started as soon as what *it* waited for
//! had ended: its end less its own idle time before it started. A
//! distbuild node's copies all start when the node is placed, after its
//! last input is built; the copy that ends last is then the biggest, not
//! the one of the input that came last, and following it would take the
//! chain to an input that was ready long before.

use crate::hash::FastSet;
use crate::model::{Model, Nanos, TaskId};

/// The chain through the tasks `member` accepts, first task first (empty
/// without members).
pub fn chain(model: &Model, member: &dyn Fn(TaskId) -> bool) -> Vec<TaskId> {
    let end = |id: TaskId| model.task(id).end.get().unwrap_or(Nanos::MIN);
    let members = (0..model.tasks().len() as u32).map(TaskId).filter(|&id| member(id));
    let Some(last) = members.max_by_key(|&id| (end(id), std::cmp::Reverse(id))) else {
        return Vec::new();
    };
    // When a task could have started: when the last of its dependencies ended.
    let ready = |id: TaskId| model.deps(id).iter().filter(|&&d| member(d)).map(|&d| end(d)).max();
    let available = |id: TaskId| {
        let t = model.task(id);
        let idle = match (ready(id), t.start.get()) {
            (Some(r), Some(s)) => (s - r).max(0),
            _ => 0,
        };
        end(id) - idle
    };
    let mut seen: FastSet<TaskId> = FastSet::default();
    seen.insert(last);
    let mut out = vec![last];
    let mut at = last;
    loop {
        let mut next: Option<(TaskId, (Nanos, Nanos))> = None;
        for &d in model.deps(at) {
            if !member(d) || seen.contains(&d) {
                continue;
            }
            let rank = (available(d), end(d));
            if next.is_none_or(|(_, r)| r < rank) {
                next = Some((d, rank));
            }
        }
        let Some((d, _)) = next else { break };
        seen.insert(d);
        out.push(d);
        at = d;
    }
    out.reverse();
    out
}
