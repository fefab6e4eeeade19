//! A ninja log's builds as a [`RunKind`]: their report and view; alone, no
//! path (a `.ninja_log` does not record what an edge waited for), with its
//! build graph, the path of each build.

use super::graph_report::{ran_line, top_weighted};
use super::reconcile::NinjaRun;
use super::report::{ninja_json, ninja_text};
use crate::diagnostics::Diagnostics;
use crate::diagnostics::{Position, Severity};
use crate::formats::RunInput;
use crate::join::Join;
use crate::layout::timeline::TimelineIndex;
use crate::model::{Model, TaskId};
use crate::run::{Analysis, Dataset, RunKind, RunReport};
use crate::view::headline::{plural, Fact};
use crate::view::{task_row, RunView};

impl RunKind for NinjaRun {
    fn report_json(&self, d: &Dataset, _join: Join<'_>) -> RunReport {
        ninja_json(d)
    }

    fn report_text(&self, d: &Dataset, _join: Join<'_>) -> String {
        ninja_text(d)
    }

    fn view(&self, d: &Dataset, _analysis: &Analysis, index: &TimelineIndex) -> RunView {
        if let Some(g) = &self.graph {
            let mut view = RunView::of_paths(&d.model, d.format, index);
            let weighted: Vec<_> =
                top_weighted(&g.weighted).into_iter().map(|t| task_row(&d.model, index, t, 0)).collect();
            view.tables = super::tables::graph_tables(&view, self, g, &weighted);
            view.headline = vec![Fact::plain(format!(" · {}", ran_line(self, g)))];
            view.search_hint = "Search outputs  (/)".into();
            return view.with_part(self);
        }
        let view = RunView::of_program(&d.model, d.format, index);
        let tables = super::tables::tables(&view, self);
        let headline = vec![Fact::plain(format!(
            " · {} · {} on {} slots{}",
            plural(self.builds.len() as u64, "build", "builds"),
            plural(self.builds.iter().map(|b| b.edges).sum(), "edge", "edges"),
            self.builds.iter().map(|b| b.slots).max().unwrap_or(0),
            if self.recompacted { " · recompacted log" } else { "" }
        ))];
        RunView { headline, tables, search_hint: "Search outputs  (/)".into(), ..view }.with_part(self)
    }

    fn no_path_reason(&self, _model: &Model) -> Option<&'static str> {
        if let Some(g) = &self.graph {
            let outputs = self.builds.first().map_or(0, |b| b.outputs);
            if g.unmatched >= outputs {
                return Some("No output of this build is made by an edge of the build.ninja given with it (see the diagnostics): its edges' dependencies are unknown, so there is no critical path.");
            }
            return None;
        }
        Some("A .ninja_log records when each edge ran, not what it waited for (that is in build.ninja): there are no dependencies, so there is no critical path.")
    }

    /// An edge's first output path.
    fn compare_keys(&self, model: &Model) -> Vec<String> {
        (0..model.tasks().len() as u32).map(|i| model.uid(TaskId(i)).to_owned()).collect()
    }

    /// Each build is a run (`#1`, `#2`, … in file order): its edges follow
    /// the builds before it in the model.
    fn compare_runs(&self, _model: &Model) -> Vec<(String, Vec<TaskId>)> {
        let mut next = 0u32;
        self.builds
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let tasks = (next..next + b.edges as u32).map(TaskId).collect();
                next += b.edges as u32;
                (format!("#{}", i + 1), tasks)
            })
            .collect()
    }
}

impl RunInput for super::NinjaLog {
    fn reconcile(self: Box<Self>, diags: &mut Diagnostics, _join: Join<'_>) -> (Model, Box<dyn RunKind>) {
        let (model, run) = super::reconcile::reconcile(&self);
        if run.recompacted {
            diags.report(
                Severity::Info,
                "ninja.recompacted",
                Position::Whole,
                "the log was recompacted (its lines are not in time order), so its builds cannot be told apart: all entries are shown as one build",
            );
        }
        (model, Box::new(run))
    }

    fn write_back(&self) -> Option<Vec<u8>> {
        Some(self.raw.clone())
    }
}
