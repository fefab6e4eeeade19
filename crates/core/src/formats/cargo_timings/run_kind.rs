//! A Cargo build as a [`RunKind`]: its report and view, with its own path
//! (each unit after the unit that made it ready), and its units' keys for
//! comparing builds.

use super::reconcile::CargoRun;
use super::report::{cargo_json, cargo_text};
use super::CargoTimings;
use crate::analysis::critical_path::Path;
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::formats::RunInput;
use crate::join::Join;
use crate::layout::timeline::TimelineIndex;
use crate::model::{Model, TaskId};
use crate::run::{Analysis, Dataset, RunKind, RunReport};
use crate::view::headline::{plural, Fact};
use crate::view::{path_view, RunView};

impl RunKind for CargoRun {
    fn report_json(&self, d: &Dataset, _join: Join<'_>) -> RunReport {
        cargo_json(d)
    }

    fn report_text(&self, d: &Dataset, _join: Join<'_>) -> String {
        cargo_text(d)
    }

    fn view(&self, d: &Dataset, _analysis: &Analysis, index: &TimelineIndex) -> RunView {
        let m = &d.model;
        let mut view = RunView::of_program(m, d.format, index);
        let path = Path { tasks: self.path.iter().map(|s| TaskId(s.unit as u32)).collect(), total: self.path_total };
        let gaps: Vec<_> = self.path.iter().map(|s| s.waited).collect();
        view.critical_path = path_view(m, index, &path, Some(&gaps));
        view.blocking_chain = view.critical_path.clone();
        view.tables = super::tables::tables(&view, self);
        let s = &self.summary;
        let counted = match (s.fresh, s.dirty) {
            (Some(f), Some(d)) => format!(" ({f} fresh, {d} dirty)"),
            _ => String::new(),
        };
        view.headline = vec![Fact::plain(format!(
            " · {}{counted} · max concurrency {}{}",
            plural(m.tasks().len() as u64, "unit", "units"),
            self.max_concurrency,
            s.jobs.map(|j| format!(" of {j} jobs")).unwrap_or_default(),
        ))];
        view.search_hint = "Search units  (/)".into();
        view.with_part(self)
    }

    fn no_path_reason(&self, model: &Model) -> Option<&'static str> {
        (model.tasks().is_empty()).then_some("The build has no units that ran: there is no critical path.")
    }

    /// The crate with its target and mode (`beta build-script (run)`); with
    /// the version too where two versions of a crate built the same target.
    fn compare_keys(&self, _model: &Model) -> Vec<String> {
        let plain = |u: &super::reconcile::UnitInfo| format!("{}{}", u.package, u.target);
        let mut seen: crate::hash::FastMap<String, u32> = Default::default();
        for u in &self.units {
            *seen.entry(plain(u)).or_default() += 1;
        }
        self.units
            .iter()
            .map(|u| match seen.get(&plain(u)) {
                Some(&n) if n > 1 => format!("{} v{}{}", u.package, u.version, u.target),
                _ => plain(u),
            })
            .collect()
    }
}

impl RunInput for CargoTimings {
    fn reconcile(self: Box<Self>, diags: &mut Diagnostics, _join: Join<'_>) -> (Model, Box<dyn RunKind>) {
        let (model, run) = super::reconcile::reconcile(&self, diags);
        if let (Some(total), n) = (self.summary.total_units, model.tasks().len() as u64) {
            if n + run.summary.fresh.unwrap_or(0) < total {
                diags.report(
                    Severity::Warning,
                    "cargo.units-missing",
                    Position::Whole,
                    format!("cargo counted {total} units; {n} were read (is the page cut short?)"),
                );
            }
        }
        (model, Box::new(run))
    }

    fn write_back(&self) -> Option<Vec<u8>> {
        Some(self.raw.clone())
    }
}
