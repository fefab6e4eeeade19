//! A Chrome trace's run as a [`RunKind`]: its report, its view, and a path only where it records flows or Bazel's critical path.

use super::reconcile::ChromeRun;
use super::report::{chrome_json, chrome_text};
use crate::compare::execution::Execution;
use crate::diagnostics::Diagnostics;
use crate::formats::RunInput;
use crate::join::Join;
use crate::layout::timeline::TimelineIndex;
use crate::model::Model;
use crate::run::{Analysis, Dataset, RunKind, RunReport};
use crate::view::RunView;

impl RunKind for ChromeRun {
    fn report_json(&self, d: &Dataset, _join: Join<'_>) -> RunReport {
        chrome_json(d)
    }

    fn report_text(&self, d: &Dataset, _join: Join<'_>) -> String {
        chrome_text(d)
    }

    fn view(&self, d: &Dataset, _analysis: &Analysis, index: &TimelineIndex) -> RunView {
        RunView::of_chrome(&d.model, self, index)
    }

    fn no_path_reason(&self, model: &Model) -> Option<&'static str> {
        if model.edge_count() > 0 || !self.bazel_critical_path.is_empty() {
            None
        } else if self.bazel.is_some() {
            Some("This Bazel profile has no critical path components and no flow events: it records no dependencies, so there is no critical path.")
        } else {
            Some("This trace has no flow events: it records no dependencies, so there is no critical path.")
        }
    }

    /// The thread's name (numbers in it as `#`, so a pool's threads are
    /// one) and the slice's name; a Bazel action's slice is named by its
    /// mnemonic and primary output.
    fn compare_keys(&self, model: &Model) -> Vec<String> {
        let lanes: Vec<String> = model.lanes().iter().map(|l| thread_class(&l.name)).collect();
        model.tasks().iter().map(|t| format!("{} / {}", lanes[t.lane.index()], model.str(t.uid))).collect()
    }

    /// A Bazel action's execution: remote, local, a remote cache hit, retried.
    fn compare_executions(&self, model: &Model) -> Option<Vec<Execution>> {
        super::bazel::execution::executions(model, self.bazel.as_deref()?)
    }
}

impl RunInput for super::ChromeTrace {
    fn reconcile(self: Box<Self>, diags: &mut Diagnostics, join: Join<'_>) -> (Model, Box<dyn RunKind>) {
        let (model, run) = super::reconcile::reconcile(&self, diags, join);
        (model, Box::new(run))
    }
}

/// A thread's name with its numbers as `#` (`skyframe-evaluator-12` → `skyframe-evaluator-#`).
fn thread_class(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii_digit() {
            if !out.ends_with('#') {
                out.push('#');
            }
        } else {
            out.push(c);
        }
    }
    out
}
