//! An evobench run as a [`RunKind`]: its report, its view (with every evobench run of the analysis summed up), and no path.

use super::analysis::Field;
use super::reconcile::EvobenchRun;
use super::report::{analysis_summary, evobench_json, evobench_text, summary_json, summary_text};
use super::view::EvobenchView;
use crate::diagnostics::Diagnostics;
use crate::formats::RunInput;
use crate::join::Join;
use crate::layout::timeline::TimelineIndex;
use crate::model::{Model, TaskId};
use crate::run::{Analysis, Dataset, RunKind, RunReport, RunsSummary};
use crate::view::RunView;

impl RunKind for EvobenchRun {
    fn report_json(&self, d: &Dataset, _join: Join<'_>) -> RunReport {
        evobench_json(d)
    }

    fn report_text(&self, d: &Dataset, _join: Join<'_>) -> String {
        evobench_text(d)
    }

    /// Several runs: statistics over the runs, on the default field.
    fn runs_summary(&self, analysis: &Analysis) -> Option<RunsSummary> {
        let (runs, rows) = analysis_summary(analysis, Field::default())?;
        Some(RunsSummary {
            key: "evobench_summary",
            json: summary_json(runs, Field::default(), &rows),
            text: summary_text(runs, Field::default(), &rows),
        })
    }

    fn view(&self, d: &Dataset, analysis: &Analysis, index: &TimelineIndex) -> RunView {
        let view = RunView::of_program(&d.model, d.format, index);
        match EvobenchView::of(analysis) {
            Some(evobench) => {
                let flame = evobench.flame.clone();
                let tables = super::tables::tables(&evobench, None);
                let headline = evobench.headline();
                let counts_by_hook = vec![
                    ("evobench-runs".to_owned(), evobench.runs.len() as u64),
                    ("evobench-rows".to_owned(), evobench.rows.len() as u64),
                    ("evobench-flame-nodes".to_owned(), evobench.flame.nodes.len() as u64),
                ];
                RunView { headline, counts_by_hook, tables, search_hint: "Search paths  (/)".into(), ..view }
                    .with_part(&evobench)
                    .with_flame(std::sync::Arc::new(flame))
            }
            None => view,
        }
    }

    fn no_path_reason(&self, _model: &Model) -> Option<&'static str> {
        Some("An evobench log records how long each probe took, not what it waited for: there are no dependencies, so there is no critical path.")
    }

    /// A span's probe path (its scopes from the root, as the evaluator names rows).
    fn compare_keys(&self, model: &Model) -> Vec<String> {
        model
            .tasks()
            .iter()
            .zip(0..)
            .map(|(t, id)| model.str(model.name(TaskId(id)).unwrap_or(t.uid)).to_owned())
            .collect()
    }

    /// A span's weight: it stands for n calls when recorded every n, as the
    /// evaluator counts it. Spans are the model's tasks, in order (those of
    /// no known thread left out).
    fn compare_weights(&self, _model: &Model) -> Option<Vec<u32>> {
        let threads = self.log.threads.len();
        Some(self.log.spans.iter().filter(|s| (s.thread as usize) < threads).map(|s| s.weight).collect())
    }
}

impl RunInput for super::Log {
    fn reconcile(self: Box<Self>, _diags: &mut Diagnostics, _join: Join<'_>) -> (Model, Box<dyn RunKind>) {
        let (model, run) = super::reconcile::reconcile(*self);
        (model, Box::new(run))
    }
}
