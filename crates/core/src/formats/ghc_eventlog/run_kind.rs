//! A GHC program's run as a [`RunKind`]: its report, its view, and no path (an eventlog records when threads ran, not what they waited for).

use super::report::{ghc_json, ghc_text};
use super::GhcRun;
use crate::diagnostics::Diagnostics;
use crate::formats::RunInput;
use crate::join::Join;
use crate::layout::timeline::TimelineIndex;
use crate::model::{Model, TaskId};
use crate::run::{Analysis, Dataset, RunKind, RunReport};
use crate::view::RunView;

impl RunKind for GhcRun {
    fn report_json(&self, d: &Dataset, _join: Join<'_>) -> RunReport {
        ghc_json(d)
    }

    fn report_text(&self, d: &Dataset, _join: Join<'_>) -> String {
        ghc_text(d)
    }

    fn view(&self, d: &Dataset, _analysis: &Analysis, index: &TimelineIndex) -> RunView {
        RunView::of_ghc(&d.model, self, index)
    }

    fn no_path_reason(&self, _model: &Model) -> Option<&'static str> {
        Some("A GHC eventlog records when each thread ran, not what it waited for: there are no dependencies, so there is no critical path.")
    }

    /// A Haskell thread's label (`thread (label)`; an unlabelled thread
    /// by its number), a user span's name, `GC` for collections.
    fn compare_keys(&self, model: &Model) -> Vec<String> {
        model
            .tasks()
            .iter()
            .zip(0..)
            .map(|(t, id)| {
                let uid = model.str(t.uid);
                match model.name(TaskId(id)).map(|n| model.str(n)) {
                    // `thread 12 (worker)`: the label names it across runs, the number does not.
                    Some(name) if uid.starts_with("thread ") => {
                        name.split_once(" (").map_or(name.to_owned(), |(_, label)| format!("thread ({label}"))
                    }
                    _ => uid.to_owned(),
                }
            })
            .collect()
    }
}

/// A read eventlog is already its run: the reader built the model.
impl RunInput for super::ReadEventlog {
    fn reconcile(self: Box<Self>, _diags: &mut Diagnostics, _join: Join<'_>) -> (Model, Box<dyn RunKind>) {
        (self.model, Box::new(self.run))
    }

    fn write_back(&self) -> Option<Vec<u8>> {
        self.source.as_ref().map(super::write)
    }
}
