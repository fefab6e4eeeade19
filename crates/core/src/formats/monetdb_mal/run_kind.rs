//! MAL traces' run as a [`RunKind`]: its report and view; its dataflow records dependencies, so it has a path.

use super::reconcile::MalRun;
use super::report::{mal_json, mal_text};
use crate::join::Join;
use crate::layout::timeline::TimelineIndex;
use crate::model::{Model, TaskId};
use crate::run::{Analysis, Dataset, RunKind, RunReport};
use crate::view::RunView;

impl RunKind for MalRun {
    fn report_json(&self, d: &Dataset, _join: Join<'_>) -> RunReport {
        mal_json(d)
    }

    fn report_text(&self, d: &Dataset, _join: Join<'_>) -> String {
        mal_text(d)
    }

    fn view(&self, d: &Dataset, _analysis: &Analysis, index: &TimelineIndex) -> RunView {
        RunView::of_mal(&d.model, self, index)
    }

    fn no_path_reason(&self, _model: &Model) -> Option<&'static str> {
        None
    }

    /// The function, the pc and the statement with its variables' numbers
    /// as `#` (`user.s0_1:12 X_#:=algebra.thetaselect(...)`).
    fn compare_keys(&self, model: &Model) -> Vec<String> {
        super::compare::keys(model)
    }

    /// Each MAL execution is a run (`#3 (s0_1)`, by mal_analytics' execution id).
    fn compare_runs(&self, _model: &Model) -> Vec<(String, Vec<TaskId>)> {
        super::compare::runs(self)
    }
}
