//! A Bazel profile's analyses, on its model and its
//! [`BazelRun`](crate::formats::chrome_trace::bazel::BazelRun): Bazel's critical path as
//! both paths ([`paths`]) and the summary that `bazel analyze-profile` and
//! EngFlow's bazel_invocation_analyzer give.

pub mod caching;
pub mod cores;
pub mod suggest;
pub mod summary;

use crate::analysis::critical_path::Path;
use crate::formats::chrome_trace::bazel::{BazelRun, PathStep};
use crate::model::{Model, Nanos, TaskId};

/// Bazel's critical path as the two paths: the critical path (its steps,
/// Bazel's total) and the blocking chain (the same steps, from the first
/// start to the last end), with the idle time before each step.
pub struct BazelPaths {
    /// The critical path: the steps, and the sum of the components' durations.
    pub critical: Path,
    /// The same steps, totalled from the first start to the last end.
    pub blocking: Path,
    /// The idle time before each step (0 for the first, and where steps overlap).
    pub gaps: Vec<Nanos>,
}

/// Bazel's paths, or `None` when the profile has no critical path.
pub fn paths(model: &Model, run: &BazelRun) -> Option<BazelPaths> {
    let tasks: Vec<TaskId> = run.path.iter().map(PathStep::task).collect();
    let first = model.task(*tasks.first()?).start.get().unwrap_or(0);
    let last = tasks.iter().filter_map(|&t| model.task(t).end.get()).max().unwrap_or(first);
    let end = |t: TaskId| model.task(t).end.get().unwrap_or(0);
    let start = |t: TaskId| model.task(t).start.get().unwrap_or(0);
    let gaps = (0..tasks.len())
        .map(|i| if i == 0 { 0 } else { start(tasks[i]).saturating_sub(end(tasks[i - 1])).max(0) })
        .collect();
    Some(BazelPaths {
        critical: Path { tasks: tasks.clone(), total: run.path_total() },
        blocking: Path { tasks, total: last.saturating_sub(first) },
        gaps,
    })
}

#[cfg(test)]
mod tests;
