//! A StarRocks query's run as a [`RunKind`]: its report and view; the plan's tree gives its dependencies.

use super::report::{starrocks_json, starrocks_text};
use super::run::StarRocksRun;
use crate::diagnostics::Diagnostics;
use crate::formats::RunInput;
use crate::join::Join;
use crate::layout::timeline::TimelineIndex;
use crate::model::Model;
use crate::run::{Analysis, Dataset, RunKind, RunReport};
use crate::view::RunView;

impl RunKind for StarRocksRun {
    fn report_json(&self, d: &Dataset, _join: Join<'_>) -> RunReport {
        starrocks_json(d)
    }

    fn report_text(&self, d: &Dataset, _join: Join<'_>) -> String {
        starrocks_text(d)
    }

    fn view(&self, d: &Dataset, _analysis: &Analysis, index: &TimelineIndex) -> RunView {
        RunView::of_starrocks(&d.model, self, index)
    }

    fn no_path_reason(&self, _model: &Model) -> Option<&'static str> {
        None
    }

    /// The operator's name and plan node id (`HASH_JOIN (plan_node_id=3)`).
    fn compare_keys(&self, model: &Model) -> Vec<String> {
        model.tasks().iter().map(|t| model.str(t.uid).to_owned()).collect()
    }
}

impl RunInput for super::Profile {
    fn reconcile(self: Box<Self>, diags: &mut Diagnostics, _join: Join<'_>) -> (Model, Box<dyn RunKind>) {
        let (model, run) = super::reconcile::reconcile(&self, diags);
        (model, Box::new(run))
    }

    fn write_back(&self) -> Option<Vec<u8>> {
        Some(self.write())
    }
}
