//! A Chrome trace's [`RunView`]: the generic view laid out on its
//! model, with its headline, its tables (`tables.rs`) and its own part
//! ([`ChromeView`], `view.rs`), which the tables read.

use super::tables::tables;
use super::view::ChromeView;
use crate::formats::chrome_trace::reconcile::ChromeRun;
use crate::layout::timeline::TimelineIndex;
use crate::model::Model;
use crate::numbers::duration_label;
use crate::view::headline::{plural, Fact};
use crate::view::{task_row, RunView};

/// The headline of a trace: threads, slices, flows, and its paths.
fn headline(v: &RunView, c: &ChromeView) -> Vec<Fact> {
    let mut facts = vec![Fact::plain(format!(
        " · {} · {} · {}",
        plural(v.lanes.len() as u64, "thread", "threads"),
        plural(v.counts.run, "slice", "slices"),
        plural(c.flows, "flow", "flows")
    ))];
    if c.flows > 0 {
        facts.extend([Fact::plain(" · critical path "), Fact::strong(duration_label(v.critical_path.total))]);
    }
    if !c.bazel_critical_path.is_empty() {
        facts.extend([
            Fact::plain(" · Bazel's critical path "),
            Fact::strong(duration_label(v.critical_path.total)).hook("bazel-critical-path"),
            Fact::plain(format!(" in {} steps", c.bazel_critical_path.len())),
        ]);
    }
    facts
}

impl RunView {
    /// The view of a Chrome trace: the paths over its flow dependencies (as
    /// for a build) and its [`ChromeView`].
    pub fn of_chrome(model: &Model, run: &ChromeRun, index: &TimelineIndex) -> RunView {
        let chrome = ChromeView {
            bazel_critical_path: run.bazel_critical_path.iter().map(|&t| task_row(model, index, t, 0)).collect(),
            by_phase: run.by_phase.iter().map(|(p, n)| (p.clone(), *n)).collect(),
            counters: run.counters.iter().map(|c| (c.name.clone(), c.process.clone(), c.points.len() as u64)).collect(),
            flows: run.flows,
            bazel: run.bazel.as_deref().map(|b| super::bazel::view::BazelView::of(model, b)),
        };
        let mut view = RunView::of_paths(model, crate::formats::chrome_trace::ID, index);
        if let Some(bazel) = run.bazel.as_deref() {
            view.with_bazel_path(model, bazel, index);
        }
        view.headline = headline(&view, &chrome);
        view.tables = tables(&view, &chrome);
        view.search_hint = "Search slices, threads  (/)".into();
        view.with_part(&chrome).with_flame(run.flame.clone())
    }
}
