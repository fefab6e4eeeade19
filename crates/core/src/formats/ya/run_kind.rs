//! A ya build (a distbuild log or an evlog, with its graph) as a
//! [`RunKind`]: all of it is in the model, so it is reported and viewed as
//! ya's `--stat` and `graph.py` do, and its dependencies give its paths.

use super::report::YaReport;
use super::view::{ya_headline, ya_tables};
use crate::compare::execution::Execution;
use crate::join::Join;
use crate::layout::timeline::TimelineIndex;
use crate::model::{Model, TaskId};
use crate::run::{Analysis, Dataset, RunKind, RunReport};
use crate::view::RunView;

/// A ya build's run: its model, and the run tasks started more than once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct YaBuild {
    /// Run tasks started more than once (a distbuild node retried).
    pub retried: Vec<TaskId>,
}

impl RunKind for YaBuild {
    fn report_json(&self, d: &Dataset, join: Join<'_>) -> RunReport {
        YaReport::new_with(&d.model, join).report()
    }

    fn report_text(&self, d: &Dataset, join: Join<'_>) -> String {
        YaReport::new_with(&d.model, join).text()
    }

    fn view(&self, d: &Dataset, _analysis: &Analysis, index: &TimelineIndex) -> RunView {
        let view = RunView::of_ya(&d.model, d.format, index);
        RunView {
            headline: ya_headline(&view),
            tables: ya_tables(&view),
            search_hint: "Search uid, name or host  (/)".into(),
            ..view
        }
    }

    fn no_path_reason(&self, _model: &Model) -> Option<&'static str> {
        None
    }

    fn compare_keys(&self, model: &Model) -> Vec<String> {
        super::keys::keys(model)
    }

    /// The run tasks started more than once are retried.
    fn compare_executions(&self, model: &Model) -> Option<Vec<Execution>> {
        if self.retried.is_empty() {
            return None;
        }
        let mut out = vec![Execution::default(); model.tasks().len()];
        for t in &self.retried {
            out[t.index()].retried = true;
        }
        Some(out)
    }
}
