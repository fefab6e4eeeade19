//! Runs that record no dependencies, and what is shown instead of a path.
//!
//! A path needs edges: which task waited for which. A GHC eventlog, an
//! evobench log, a `.ninja_log` without its build graph and a Chrome trace
//! without flow events (and without Bazel's own critical path) record when
//! things ran, never what they waited for. longpole claims no critical path
//! or blocking chain for them; it says why, and points to the longest spans
//! and the busiest lane instead.

use crate::model::{LaneId, Model, Nanos};
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
                crate::numbers::duration_label(b.busy)
            ),
            None => format!("{} Shown instead: the longest spans.", self.reason),
        }
    }
}

/// Why a run has no path, given its format's reason (`None` when it
/// records dependencies: distbuild, ya, MAL, StarRocks' plan, Chrome flows,
/// Bazel's critical path).
pub fn no_path(model: &Model, reason: Option<&str>) -> Option<NoPath> {
    Some(NoPath { reason: reason?.to_owned(), busiest_lane: busiest_lane(model) })
}

/// The lane whose tasks cover the most time (ties: the first lane).
///
/// Lanes whose tasks come in start order (all of a GHC eventlog's
/// capabilities, most of a trace's) are merged as the tasks go by; lanes
/// whose tasks come in end order (a GHC eventlog's user spans, made as
/// each stops) are merged on a second pass, backwards, latest end first:
/// with time mirrored that is start order, and no list of runs is kept;
/// only the spans of the other lanes are gathered and sorted.
pub fn busiest_lane(model: &Model) -> Option<BusyLane> {
    let spans = || {
        model.tasks().iter().filter_map(|t| match (t.start.get(), t.end.get()) {
            (Some(s), Some(e)) if e > s => Some((t.lane, s, e)),
            _ => None,
        })
    };
    let mut lanes = vec![LaneMerge::default(); model.lanes().len()];
    for (lane, s, e) in spans() {
        lanes[lane.index()].add(s, e);
    }
    if lanes.iter().any(|l| l.unsorted && l.by_end) {
        // Read latest end first, with time mirrored (a span from s to e
        // taken as one from -e to -s), such a lane's spans come in start
        // order: merged as any other lane, covering the same time.
        let by_end: Vec<bool> = lanes.iter().map(|l| l.unsorted && l.by_end).collect();
        for (l, _) in lanes.iter_mut().zip(&by_end).filter(|(_, &b)| b) {
            *l = LaneMerge::default();
        }
        for (lane, s, e) in spans().rev().filter(|(l, ..)| by_end[l.index()]) {
            lanes[lane.index()].add(e.saturating_neg(), s.saturating_neg());
        }
    }
    if lanes.iter().any(|l| l.unsorted) {
        let mut late: Vec<(LaneId, Nanos, Nanos)> = spans().filter(|(l, ..)| lanes[l.index()].unsorted).collect();
        late.sort_unstable_by_key(|&(lane, s, _)| (lane.0, s));
        for l in lanes.iter_mut().filter(|l| l.unsorted) {
            *l = LaneMerge::default();
        }
        for (lane, s, e) in late {
            lanes[lane.index()].add(s, e);
        }
    }
    let busy: Vec<Nanos> = lanes.iter().map(LaneMerge::busy).collect();
    let (i, &most) = busy.iter().enumerate().rev().max_by_key(|&(_, b)| *b)?;
    (most > 0).then(|| BusyLane { name: model.lanes()[i].name.clone(), busy: most })
}

/// One lane's time covered so far, its spans merged in start order.
#[derive(Clone, Copy)]
struct LaneMerge {
    /// Time covered by the runs already closed.
    closed: Nanos,
    /// The run of overlapping spans being merged.
    run: Option<(Nanos, Nanos)>,
    /// A span started before the one before it: merge again, sorted.
    unsorted: bool,
    /// Every span so far ended no earlier than the one before it.
    by_end: bool,
    /// The latest end so far.
    last_end: Nanos,
}

impl Default for LaneMerge {
    fn default() -> Self {
        LaneMerge { closed: 0, run: None, unsorted: false, by_end: true, last_end: Nanos::MIN }
    }
}

impl LaneMerge {
    /// Adds a span (start before end).
    fn add(&mut self, s: Nanos, e: Nanos) {
        self.by_end &= e >= self.last_end;
        self.last_end = self.last_end.max(e);
        self.run = match self.run {
            Some((a, _)) if s < a => {
                self.unsorted = true;
                self.run
            }
            Some((a, b)) if s <= b => Some((a, b.max(e))),
            Some((a, b)) => {
                self.closed = self.closed.saturating_add(b - a);
                Some((s, e))
            }
            None => Some((s, e)),
        };
    }

    /// The time covered.
    fn busy(&self) -> Nanos {
        self.closed.saturating_add(self.run.map_or(0, |(a, b)| b - a))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ModelBuilder, Role, Task};
    use proptest::prelude::*;

    /// Time covered by `spans`, counted unit by unit: the reference.
    fn covered(spans: &[(Nanos, Nanos)]) -> Nanos {
        let end = spans.iter().map(|s| s.1).max().unwrap_or(0);
        (0..end).filter(|&t| spans.iter().any(|&(s, e)| s <= t && t < e)).count() as Nanos
    }

    proptest! {
        #[test]
        fn the_busiest_lane_covers_what_its_spans_cover_in_any_order(
            spans in proptest::collection::vec((0..3usize, 0..60i64, 1..20i64), 0..40)
        ) {
            check_busiest(&spans)?;
        }

        /// Spans that come in end order (nested, overlapping, apart), as a
        /// GHC eventlog's user spans do, take the second pass's merge.
        #[test]
        fn the_busiest_lane_covers_what_its_spans_cover_in_end_order(
            spans in proptest::collection::vec((0..3usize, 0..60i64, 1..20i64), 0..40)
        ) {
            let mut spans = spans;
            spans.sort_by_key(|&(_, s, d)| s + d);
            check_busiest(&spans)?;
        }
    }

    /// `busiest_lane` of tasks `(lane, start, duration)`, in this order, against [`covered`].
    fn check_busiest(spans: &[(usize, Nanos, Nanos)]) -> Result<(), TestCaseError> {
        let mut b = ModelBuilder::new();
        let lanes: Vec<_> = (0..3).map(|i| b.lane(&format!("lane {i}"))).collect();
        let kind = b.kind("work", None);
        let uid = b.sym("t");
        for &(l, s, d) in spans {
            b.task(Task::new(uid, kind, Role::Work, lanes[l], Some(s), Some(s + d)));
        }
        let model = b.build();
        let per_lane: Vec<Nanos> = (0..3)
            .map(|l| covered(&spans.iter().filter(|x| x.0 == l).map(|x| (x.1, x.1 + x.2)).collect::<Vec<_>>()))
            .collect();
        let most = per_lane.iter().copied().max().unwrap_or(0);
        let expected = per_lane.iter().position(|&b| b == most).filter(|_| most > 0);
        let got = busiest_lane(&model);
        prop_assert_eq!(got.as_ref().map(|g| g.busy), expected.map(|_| most));
        prop_assert_eq!(got.map(|g| g.name), expected.map(|l| format!("lane {l}")));
        Ok(())
    }
}
