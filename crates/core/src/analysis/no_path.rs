//! Runs that record no dependencies, and what is shown instead of a path.
//!
//! A path needs edges: which task waited for which. A GHC eventlog, an
//! evobench log, a `.ninja_log` without its build graph and a Chrome trace
//! without flow events (and without Bazel's own critical path) record when
//! things ran, never what they waited for. longpole claims no critical path
//! or blocking chain for them; it says why, and points to the longest spans
//! and the busiest lane instead.

use crate::model::{LaneId, Model, Nanos};
use crate::reconcile::{Dataset, Detail};
use serde::{Deserialize, Serialize};

/// Why a run has no path, and where its time went instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoPath {
    /// One sentence: what the log does not record, so what is not claimed.
    pub reason: String,
    /// The lane busy the longest, if any task has a time.
    pub busiest_lane: Option<BusyLane>,
}

/// A lane and the time some task of it was running.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BusyLane {
    /// The lane's name.
    pub name: String,
    /// Time covered by its tasks (overlaps, such as nested slices, once).
    pub busy: Nanos,
}

impl NoPath {
    /// The headline's line: the reason, then what is shown instead.
    pub fn headline(&self) -> String {
        match &self.busiest_lane {
            Some(b) => format!(
                "{} Shown instead: the longest spans, and the busiest lane, {} ({} busy).",
                self.reason,
                b.name,
                crate::dump::duration_label(b.busy)
            ),
            None => format!("{} Shown instead: the longest spans.", self.reason),
        }
    }
}

/// Why `d` has no path, or `None` when it records dependencies (distbuild,
/// ya, MAL, StarRocks' plan, Chrome flows, Bazel's critical path).
pub fn no_path(d: &Dataset) -> Option<NoPath> {
    let reason = match &d.detail {
        Detail::Ghc(_) => "A GHC eventlog records when each thread ran, not what it waited for: there are no dependencies, so there is no critical path.",
        Detail::Evobench(_) => "An evobench log records how long each probe took, not what it waited for: there are no dependencies, so there is no critical path.",
        Detail::Ninja(_) => "A .ninja_log records when each edge ran, not what it waited for (that is in build.ninja): there are no dependencies, so there is no critical path.",
        Detail::Chrome(run) if d.model.edge_count() == 0 && run.bazel_critical_path.is_empty() => {
            if run.bazel.is_some() {
                "This Bazel profile has no critical path components and no flow events: it records no dependencies, so there is no critical path."
            } else {
                "This trace has no flow events: it records no dependencies, so there is no critical path."
            }
        }
        Detail::Chrome(_) | Detail::Ya | Detail::Mal(_) | Detail::StarRocks(_) => return None,
    };
    Some(NoPath { reason: reason.to_owned(), busiest_lane: busiest_lane(&d.model) })
}

/// The lane whose tasks cover the most time (ties: the first lane).
pub fn busiest_lane(model: &Model) -> Option<BusyLane> {
    let mut spans: Vec<(LaneId, Nanos, Nanos)> = model
        .tasks()
        .iter()
        .filter_map(|t| match (t.start, t.end) {
            (Some(s), Some(e)) if e > s => Some((t.lane, s, e)),
            _ => None,
        })
        .collect();
    spans.sort_unstable_by_key(|&(lane, s, _)| (lane.0, s));
    let mut busy = vec![0 as Nanos; model.lanes().len()];
    let mut current: Option<(LaneId, Nanos, Nanos)> = None;
    for (lane, s, e) in spans {
        current = match current {
            Some((l, a, b)) if l == lane && s <= b => Some((l, a, b.max(e))),
            Some((l, a, b)) => {
                busy[l.index()] = busy[l.index()].saturating_add(b - a);
                Some((lane, s, e))
            }
            None => Some((lane, s, e)),
        };
    }
    if let Some((l, a, b)) = current {
        busy[l.index()] = busy[l.index()].saturating_add(b - a);
    }
    let (i, &most) = busy.iter().enumerate().rev().max_by_key(|&(_, b)| *b)?;
    (most > 0).then(|| BusyLane { name: model.lanes()[i].name.clone(), busy: most })
}
