//! A StarRocks profile's [`RunView`]: the generic view laid out on its
//! model, with its headline, its tables (`tables.rs`) and its own part
//! ([`StarRocksView`], `view.rs`), which the tables read.

use super::tables::tables;
use super::view::StarRocksView;
use crate::formats::starrocks_profile::run::StarRocksRun;
use crate::layout::timeline::TimelineIndex;
use crate::model::Model;
use crate::numbers::duration_label;
use crate::view::headline::{plural, Fact};
use crate::view::RunView;

/// The headline of a StarRocks query: its state, total, long pole, and
/// how much plan it ran.
fn headline(sr: &StarRocksView) -> Vec<Fact> {
    let mut facts = vec![Fact::plain(format!(
        " · {} · total {}",
        sr.state.as_deref().unwrap_or("state unknown"),
        sr.total.map_or("unknown".to_owned(), duration_label)
    ))];
    if let Some(pole) = &sr.long_pole {
        facts.extend([Fact::plain(" · long pole "), Fact::strong(pole.clone()).hook("long-pole")]);
    }
    facts.push(Fact::plain(format!(
        " · {} fragments, {} pipelines, {} operators · {}",
        sr.counts.0,
        sr.counts.1,
        sr.counts.2,
        plural(sr.hints.len() as u64, "hint", "hints")
    )));
    facts
}

impl RunView {
    /// The view of a StarRocks profile: the heaviest plan-node path as the
    /// critical path, the longest nodes, and the [`StarRocksView`].
    pub fn of_starrocks(model: &Model, run: &StarRocksRun, index: &TimelineIndex) -> RunView {
        let mut view = RunView::of_paths(model, crate::formats::starrocks_profile::ID, index);
        let heaviest: Vec<u32> = view.critical_path.steps.iter().map(|s| s.id).collect();
        let starrocks = StarRocksView::of(run, &heaviest);
        let flame = starrocks.flame.clone();
        view.wall_label = "plan nodes' time end to end".into();
        view.headline = headline(&starrocks);
        view.path_note = starrocks.long_pole_io.clone();
        view.tables = tables(&view, &starrocks);
        view.search_hint = "Search operators, pipelines, counters  (/)".into();
        view.with_part(&starrocks).with_flame(std::sync::Arc::new(flame))
    }
}
