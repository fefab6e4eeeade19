//! A GHC program's [`RunView`]: the generic view laid out on its
//! model, with its headline, its tables (`tables.rs`) and its own part
//! ([`GhcView`], `view.rs`), which the tables read.

use super::tables::tables;
use super::view::GhcView;
use crate::formats::ghc_eventlog::GhcRun;
use crate::layout::timeline::TimelineIndex;
use crate::model::Model;
use crate::numbers::{duration_label, group};
use crate::view::headline::{plural, Fact};
use crate::view::RunView;

/// The headline of a GHC program: capabilities, threads, pauses, events.
fn headline(g: &GhcView) -> Vec<Fact> {
    let mut facts = vec![Fact::plain(format!(
        " · {} · {} · ",
        plural(u64::from(g.capabilities), "capability", "capabilities"),
        plural(g.threads.len() as u64, "thread", "threads")
    ))];
    match g.gc.iter().find(|r| r.generation == "all") {
        Some(p) => facts.extend([
            Fact::plain("GC "),
            Fact::strong(duration_label(p.total)),
            Fact::plain(format!(" in {} pauses (longest {})", group(p.count), duration_label(p.max))),
        ]),
        None => facts.push(Fact::plain("no GC")),
    }
    facts.push(Fact::plain(format!(" · {} events", group(g.events))));
    facts
}

impl RunView {
    /// The view of a GHC program's run, laid out on `index`: the
    /// capabilities' timeline with its longest spans, time per kind, and the
    /// [`GhcView`]. There is no dependency between tasks, so no paths.
    pub fn of_ghc(model: &Model, run: &GhcRun, index: &TimelineIndex) -> RunView {
        let ghc = GhcView::of(run);
        let view = RunView::of_program(model, crate::formats::ghc_eventlog::ID, index);
        let tables = tables(&view, &ghc);
        let all = ghc.gc.iter().find(|r| r.generation == "all");
        let counts_by_hook = vec![
            ("ghc-events".to_owned(), ghc.events),
            ("ghc-threads".to_owned(), ghc.threads.len() as u64),
            ("ghc-gc-count".to_owned(), all.map_or(0, |r| r.count)),
        ];
        RunView {
            counts_by_hook,
            headline: headline(&ghc),
            tables,
            search_hint: "Search threads, labels, marks, types  (/)".into(),
            ..view
        }
        .with_part(&ghc)
    }
}
