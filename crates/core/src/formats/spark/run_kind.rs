//! A Spark application as a [`RunKind`]: its report and view with its own
//! path over the stages, and its keys for comparing runs: a stage's name
//! with its numbers normalised, with its job's description.

use super::log::SparkLog;
use super::run::SparkRun;
use crate::diagnostics::Diagnostics;
use crate::formats::RunInput;
use crate::join::Join;
use crate::layout::timeline::TimelineIndex;
use crate::model::{Model, TaskId};
use crate::run::{Analysis, Dataset, RunKind, RunReport};
use crate::view::RunView;

/// `text` with each run of digits as `#` (`count at Foo.java:42` → `count at Foo.java:#`).
pub fn digits_normalised(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_digits = false;
    for c in text.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push('#');
            }
            in_digits = true;
        } else {
            out.push(c);
            in_digits = false;
        }
    }
    out
}

impl SparkRun {
    /// A stage's key: its name normalised, with its job's description.
    fn stage_key(&self, id: i64) -> String {
        let Some(s) = self.stages.iter().find(|s| s.id == id) else { return format!("stage {id}") };
        let description = self.jobs.iter().find(|j| Some(j.id) == s.job).and_then(|j| j.description.as_deref());
        match description {
            Some(d) => format!("{} · {d}", digits_normalised(&s.name)),
            None => digits_normalised(&s.name),
        }
    }
}

impl RunKind for SparkRun {
    fn report_json(&self, d: &Dataset, _join: Join<'_>) -> RunReport {
        super::report::spark_json(d, self)
    }

    fn report_text(&self, d: &Dataset, _join: Join<'_>) -> String {
        super::report::spark_text(d, self)
    }

    fn view(&self, d: &Dataset, _analysis: &Analysis, index: &TimelineIndex) -> RunView {
        super::view::view(&d.model, self, d.format, index)
    }

    fn no_path_reason(&self, _model: &Model) -> Option<&'static str> {
        self.path
            .is_empty()
            .then_some("No stage of the application both started and completed: there is no path over its stages.")
    }

    /// A stage's key ([`SparkRun::stage_key`]); a task's is its stage's with ` · task`.
    fn compare_keys(&self, model: &Model) -> Vec<String> {
        let mut keys = vec![String::new(); model.tasks().len()];
        for s in &self.stages {
            if let Some(k) = s.task.and_then(|t| keys.get_mut(t as usize)) {
                *k = self.stage_key(s.id);
            }
        }
        for (i, key) in keys.iter_mut().enumerate().skip(self.first_task as usize) {
            let kind = &model.kinds()[model.task(TaskId(i as u32)).kind.index()].name;
            let id = kind.strip_prefix("stage ").and_then(|n| n.parse().ok()).unwrap_or(-1);
            *key = format!("{} · task", self.stage_key(id));
        }
        keys
    }
}

impl RunInput for SparkLog {
    fn reconcile(self: Box<Self>, diags: &mut Diagnostics, _join: Join<'_>) -> (Model, Box<dyn RunKind>) {
        let (model, run) = super::reconcile::reconcile(&self, diags);
        (model, Box::new(run))
    }
}
