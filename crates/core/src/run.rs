//! One run reconciled from the inputs ([`Dataset`]), everything the user
//! gave ([`Analysis`]), and what a format says of its runs ([`RunKind`]):
//! its report, its view and whether it records dependencies.
//!
//! Each format implements [`RunKind`] in its own folder; the shared code
//! (the CLI's report, the app's view, the no-path rule) calls the trait and
//! never matches on the format. A format's own code gets its run back with
//! [`Dataset::detail`].

use crate::analysis::critical_path::Path;
use crate::analysis::no_path::{no_path, NoPath};
use crate::join::{in_turn, Join};
use crate::layout::timeline::TimelineIndex;
use crate::model::{FormatId, InputInfo, Model, TaskId};
use crate::view::{PathView, RunView};
use serde_json::{Map, Value};
use std::any::Any;
use std::fmt::Debug;

/// What a format reports of a run as JSON, before the members every format
/// shares (`format`, `wall_ms`, `critical_path`) are added around it.
#[derive(Debug)]
pub struct RunReport {
    /// The format's own members (a JSON object).
    pub own: Value,
    /// The critical path the format names, if it names one.
    pub critical_path: Option<ReportPath>,
}

/// A critical path as a format names it: its tasks and total (as the
/// producing tool counts it), with what the format says of each task.
#[derive(Debug)]
pub struct ReportPath {
    /// The path.
    pub path: Path,
    /// Each task's own fields, in the path's order (JSON objects).
    pub tasks: Vec<Value>,
    /// The path's own members beside `total_ms` and `tasks`.
    pub own: Map<String, Value>,
}

impl RunReport {
    /// A report of the format's own members `own` (a JSON object) and no
    /// critical path.
    pub fn of(own: Value) -> Self {
        RunReport { own, critical_path: None }
    }
}

/// What a format says of one of its runs, beyond the common model.
pub trait RunKind: Any + Debug + Send + Sync {
    /// The run's report for `longpole analyze --format json`: the format's
    /// own members and the critical path it names; `join` runs its
    /// independent analyses. The report's dispatch adds what every format
    /// shares (`crate::report::analysis_json`).
    fn report_json(&self, d: &Dataset, join: Join<'_>) -> RunReport;

    /// The run's report as text, as `longpole analyze` prints it.
    fn report_text(&self, d: &Dataset, join: Join<'_>) -> String;

    /// What the app shows of the run `d` of `analysis`, laid out on
    /// `index` (paths are cleared afterwards for a run without
    /// dependencies). A format that sums up several runs (evobench) reads
    /// the others from `analysis`.
    fn view(&self, d: &Dataset, analysis: &Analysis, index: &TimelineIndex) -> RunView;

    /// Why the run records no dependencies, in one sentence; `None` when it
    /// records them (a path can be claimed).
    fn no_path_reason(&self, model: &Model) -> Option<&'static str>;

    /// Every task's stable key for comparing runs, by [`TaskId`]: what
    /// names the same work in another run of it (a ninja edge's output, a
    /// MAL instruction's function, pc and statement), never an id that
    /// changes from run to run. The comparison normalises it further
    /// ([`crate::compare::normalise`]).
    fn compare_keys(&self, model: &Model) -> Vec<String>;

    /// The calls each task stands for, by [`TaskId`], when the format
    /// records samples (an evobench span recorded every n calls). Default:
    /// `None`, one each.
    fn compare_weights(&self, _model: &Model) -> Option<Vec<u32>> {
        None
    }

    /// How each task ran beyond cached and failed, by [`TaskId`], where the
    /// format records it (a Bazel action executed remotely or locally, or
    /// taken from the remote cache; a distbuild node started twice).
    /// Default: `None`, nothing recorded.
    fn compare_executions(&self, _model: &Model) -> Option<Vec<crate::compare::execution::Execution>> {
        None
    }

    /// The runs this dataset holds, for a comparison: a name for each (empty
    /// when there is one) and its tasks. A ninja log's builds and a MAL
    /// trace's executions are runs of their own. Default: one run, every task.
    fn compare_runs(&self, model: &Model) -> Vec<(String, Vec<TaskId>)> {
        vec![(String::new(), (0..model.tasks().len() as u32).map(TaskId).collect())]
    }

    /// What the format says of all its runs in `analysis` together, after
    /// every run's report (evobench's statistics over several runs); asked
    /// of the first run of each format. Default: `None`, nothing.
    fn runs_summary(&self, _analysis: &Analysis) -> Option<RunsSummary> {
        None
    }
}

/// A format's summary of all its runs in an analysis ([`RunKind::runs_summary`]).
#[derive(Debug)]
pub struct RunsSummary {
    /// Its member in `longpole analyze --format json`.
    pub key: &'static str,
    /// Its JSON.
    pub json: Value,
    /// Its text, printed after the runs' reports.
    pub text: String,
}

/// One run, reconciled into a model.
#[derive(Debug)]
pub struct Dataset {
    /// The format of its primary input.
    pub format: FormatId,
    /// Indices of the inputs it was built from.
    pub inputs: Vec<usize>,
    /// The reconciled model.
    pub model: Model,
    /// What its format says beyond the model.
    pub kind: Box<dyn RunKind>,
}

impl Dataset {
    /// The format's own run, when it is a `T` (a GHC program's `GhcRun`).
    pub fn detail<T: RunKind>(&self) -> Option<&T> {
        (self.kind.as_ref() as &dyn Any).downcast_ref::<T>()
    }

    /// The run's report as text: ya's `--stat` for a build, the GHC report
    /// for an eventlog; a run without dependencies says so first.
    pub fn text(&self) -> String {
        self.text_with(&in_turn)
    }

    /// [`Dataset::text`], with the report's independent analyses run by `join`.
    pub fn text_with(&self, join: Join<'_>) -> String {
        let head = self.no_path().map(|n| format!("No critical path: {}\n\n", n.headline())).unwrap_or_default();
        head + &self.kind.report_text(self, join)
    }

    /// Why the run has no path and what stands in for one, or `None` when
    /// its format says it records dependencies ([`RunKind::no_path_reason`]).
    pub fn no_path(&self) -> Option<NoPath> {
        no_path(&self.model, self.kind.no_path_reason(&self.model))
    }
}

/// Everything the user gave, read and reconciled.
#[derive(Debug)]
pub struct Analysis {
    /// The inputs, in the order given.
    pub inputs: Vec<InputInfo>,
    /// The runs they describe.
    pub datasets: Vec<Dataset>,
}

impl Analysis {
    /// What the app shows of its run `d`, laid out on `index`: the format's
    /// view, without paths when it records no dependencies (the longest
    /// spans and the busiest lane stand in).
    pub fn view(&self, d: &Dataset, index: &TimelineIndex) -> RunView {
        let view = d.kind.view(d, self, index);
        match d.no_path() {
            Some(no_path) => RunView {
                critical_path: PathView::default(),
                blocking_chain: PathView::default(),
                differences: Vec::new(),
                no_path: Some(no_path),
                ..view
            },
            None => view,
        }
    }
}
