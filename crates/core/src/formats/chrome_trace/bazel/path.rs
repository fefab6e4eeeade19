//! Bazel's own critical path, put on the actions it names.
//!
//! Bazel writes its critical path, after the build, as one `critical path
//! component` slice per action on the `Critical Path` thread, in the
//! path's order, each named `action '<description>'` and lasting the
//! action's elapsed time as Bazel's critical path computer measured it
//! (`BuildSummaryStatsModule`, `CriticalPathComponent.prettyPrintAction`).
//! The path's total is the sum of those durations (as EngFlow's
//! `CriticalPathDurationDataProvider` sums them).
//!
//! Each component is matched to the action it names: an `action
//! processing` (or `complete action execution`) slice whose name is the
//! description, that meets the component's time span widened by 1 ms
//! (the two clocks are read a few microseconds apart; EngFlow allows 1 ms
//! too). Among several, one on a `skyframe-evaluator` thread wins, then
//! the one whose start and end are nearest the component's, then the
//! earlier, then the first in the file. An action serves one component
//! only. A component without an action stays on the path as its own
//! slice, on the `Critical Path` lane, with a diagnostic.

use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::formats::chrome_trace::ChromeTrace;
use crate::hash::{FastMap, FastSet};
use crate::model::{ModelBuilder, Nanos, TaskId};

/// The category of Bazel's critical path slices.
pub const CRITICAL_PATH_COMPONENT: &str = "critical path component";
/// The category of an action's slice on its evaluator thread.
pub const ACTION_PROCESSING: &str = "action processing";
/// The category of an action's completion on its evaluator thread.
pub const COMPLETE_ACTION: &str = "complete action execution";
/// How far apart a component and its action may lie, ns.
const TOLERANCE: Nanos = 1_000_000;

/// One component of Bazel's critical path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathStep {
    /// The action's description, as Bazel prints it (without `action '…'`).
    pub description: String,
    /// The component's own slice (on the `Critical Path` lane).
    pub component: TaskId,
    /// The action's slice it names, when one was found.
    pub action: Option<TaskId>,
    /// The component's duration, ns (Bazel's time for the step).
    pub duration: Nanos,
}

impl PathStep {
    /// The task that stands for the step: its action, else the component.
    pub fn task(&self) -> TaskId {
        self.action.unwrap_or(self.component)
    }
}

/// `action 'X'` → `X`; any other name is its own description.
pub fn description(name: &str) -> &str {
    name.strip_prefix("action '").and_then(|r| r.strip_suffix('\'')).unwrap_or(name)
}

/// A thread is one of Skyframe's evaluators (`skyframe-evaluator 3`,
/// `skyframe-evaluator-cpu-heavy-1`, …).
pub fn is_evaluator(name: &str) -> bool {
    name.contains("skyframe-evaluator")
}

/// Bazel's path in its order, each component on its action, and the
/// dependencies that chain the steps (each waits for the one before it).
pub fn bazel_path(
    trace: &ChromeTrace,
    slice_task: &[Option<TaskId>],
    b: &mut ModelBuilder,
    edges: &mut FastSet<(TaskId, TaskId)>,
    diags: &mut Diagnostics,
) -> Vec<PathStep> {
    let Some(component_cat) = trace.strings.get(CRITICAL_PATH_COMPONENT) else { return Vec::new() };
    let action_cats: Vec<u32> =
        [ACTION_PROCESSING, COMPLETE_ACTION].iter().filter_map(|c| trace.strings.get(c)).collect();
    // Action slices by name.
    let mut by_name: FastMap<u32, Vec<usize>> = FastMap::default();
    for (i, s) in trace.slices.iter().enumerate() {
        if let (Some(name), Some(cat), Some(_)) = (s.name, s.cat, slice_task[i]) {
            if action_cats.contains(&cat) {
                by_name.entry(name).or_default().push(i);
            }
        }
    }
    let evaluator = |i: usize| {
        let t = &trace.threads[trace.slices[i].thread as usize];
        t.name.is_some_and(|n| is_evaluator(trace.str(n)))
    };
    let mut used: FastSet<TaskId> = FastSet::default();
    let mut steps = Vec::new();
    let mut unmatched = 0u64;
    let mut first_unmatched = None;
    for (i, s) in trace.slices.iter().enumerate() {
        let Some(component) = slice_task[i].filter(|_| s.cat == Some(component_cat)) else { continue };
        let name = s.name.map_or("", |n| trace.str(n));
        let desc = description(name);
        let (cs, ce) = {
            let t = b.get(component);
            (t.start.get().unwrap_or(0), t.end.get().unwrap_or(0))
        };
        let candidates = trace.strings.get(desc).and_then(|n| by_name.get(&n)).map_or(&[][..], |v| v.as_slice());
        let best = candidates
            .iter()
            .filter_map(|&j| {
                let task = slice_task[j]?;
                let t = b.get(task);
                let (s, e) = (t.start.get()?, t.end.get()?);
                let meets = s <= ce.saturating_add(TOLERANCE) && e >= cs.saturating_sub(TOLERANCE);
                (meets && !used.contains(&task))
                    .then(|| ((!evaluator(j), s.abs_diff(cs).saturating_add(e.abs_diff(ce)), s, j), task))
            })
            .min_by_key(|&(key, _)| key)
            .map(|(_, task)| task);
        if let Some(a) = best {
            used.insert(a);
        } else {
            unmatched += 1;
            first_unmatched.get_or_insert((s.line, desc.to_owned()));
        }
        steps.push(PathStep { description: desc.to_owned(), component, action: best, duration: ce.saturating_sub(cs) });
    }
    for w in steps.windows(2) {
        let (before, after) = (w[0].task(), w[1].task());
        if before != after && edges.insert((after, before)) {
            b.depends(after, before);
        }
    }
    if let Some((line, desc)) = first_unmatched {
        diags.report(
            Severity::Warning,
            "bazel.path-unmatched",
            Position::Line(line),
            format!(
                "{unmatched} of Bazel's {} critical path components name no `{ACTION_PROCESSING}` slice at their time (the first: \"{desc}\"); they stay on the path on the Critical Path lane",
                steps.len()
            ),
        );
    }
    steps
}
