//! A Chrome trace's run as a [`RunKind`]: its report, its view, and a path only where it records flows or Bazel's critical path.

use super::reconcile::ChromeRun;
use super::report::{chrome_json, chrome_text};
use crate::diagnostics::Diagnostics;
use crate::formats::RunInput;
use crate::join::Join;
use crate::layout::timeline::TimelineIndex;
use crate::model::Model;
use crate::run::{Analysis, Dataset, RunKind};
use crate::view::RunView;
use serde_json::Value;

impl RunKind for ChromeRun {
    fn report_json(&self, d: &Dataset, _join: Join<'_>) -> Value {
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
}

impl RunInput for super::ChromeTrace {
    fn reconcile(self: Box<Self>, diags: &mut Diagnostics, join: Join<'_>) -> (Model, Box<dyn RunKind>) {
        let (model, run) = super::reconcile::reconcile(&self, diags, join);
        (model, Box::new(run))
    }
}
