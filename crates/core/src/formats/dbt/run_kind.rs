//! A dbt run as a [`RunKind`]: its report and view; alone, a
//! `run_results.json` claims no path (the dependencies are in the
//! manifest). Compare keys are the nodes' `unique_id`s.

use super::artifacts::RunResults;
use super::run::DbtRun;
use crate::diagnostics::Diagnostics;
use crate::formats::RunInput;
use crate::join::Join;
use crate::layout::timeline::TimelineIndex;
use crate::model::{Model, TaskId};
use crate::run::{Analysis, Dataset, RunKind, RunReport};
use crate::view::RunView;

impl RunKind for DbtRun {
    fn report_json(&self, d: &Dataset, _join: Join<'_>) -> RunReport {
        super::report::dbt_json(d, self)
    }

    fn report_text(&self, d: &Dataset, _join: Join<'_>) -> String {
        super::report::dbt_text(d, self)
    }

    fn view(&self, d: &Dataset, _analysis: &Analysis, index: &TimelineIndex) -> RunView {
        super::view::view(&d.model, self, d.format, index)
    }

    fn no_path_reason(&self, _model: &Model) -> Option<&'static str> {
        (!self.with_manifest).then_some(
            "run_results.json records when each node ran, not what it depended on (that is in manifest.json): open both together for the path.",
        )
    }

    /// A node's `unique_id` (both its steps).
    fn compare_keys(&self, model: &Model) -> Vec<String> {
        (0..model.tasks().len() as u32).map(|i| model.uid(TaskId(i)).to_owned()).collect()
    }
}

impl RunInput for RunResults {
    fn reconcile(self: Box<Self>, diags: &mut Diagnostics, _join: Join<'_>) -> (Model, Box<dyn RunKind>) {
        let (model, run) = super::reconcile::reconcile(&self, None, diags);
        (model, Box::new(run))
    }
}
