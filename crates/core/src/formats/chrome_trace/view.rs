//! What the page shows of a Chrome trace beyond the timeline and the paths
//! over its flows: the flame graph of its stacks, Bazel's own critical
//! path, events by phase and the counter series available.

use crate::formats::chrome_trace::reconcile::ChromeRun;
use crate::formats::FormatId;
use crate::layout::timeline::TimelineIndex;
use crate::model::Model;
use crate::view::{task_row, RunView, TaskRow};
use serde::{Deserialize, Serialize};

/// A Chrome trace's own view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChromeView {
    /// Bazel's own critical path, in Bazel's order: each component's
    /// action, or the component where none was found.
    pub bazel_critical_path: Vec<TaskRow>,
    /// Events per phase as written.
    pub by_phase: Vec<(String, u64)>,
    /// Counter series: (name, process, points).
    pub counters: Vec<(String, String, u64)>,
    /// Dependencies made from flows.
    pub flows: u64,
    /// A Bazel profile's summary and suggestions.
    pub bazel: Option<super::bazel::view::BazelView>,
}

impl RunView {
    /// The view of a Chrome trace: the paths over its flow dependencies (as
    /// for a build) and its [`ChromeView`].
    pub fn of_chrome(model: &Model, run: &ChromeRun, index: &TimelineIndex) -> RunView {
        let chrome = ChromeView {
            bazel_critical_path: run.bazel_critical_path.iter().map(|&t| task_row(model, index, t, 0)).collect(),
            by_phase: run.by_phase.iter().map(|(p, n)| (p.clone(), *n)).collect(),
            counters: run.counters.iter().map(|c| (c.name.clone(), c.process.clone(), c.points.len() as u64)).collect(),
            flows: run.flows,
            bazel: run.bazel.as_deref().map(|b| super::bazel::view::BazelView::of(model, b)),
        };
        let mut view =
            RunView::of_ya(model, FormatId::ChromeTrace, index).with_part(&chrome).with_flame(run.flame.clone());
        if let Some(bazel) = run.bazel.as_deref() {
            view.with_bazel_path(model, bazel, index);
        }
        view
    }
}
