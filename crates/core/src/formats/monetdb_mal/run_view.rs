//! MAL traces's [`RunView`]: the generic view laid out on its
//! model, with its headline, its tables (`tables.rs`) and its own part
//! ([`MalView`], `view.rs`), which the tables read.

use super::tables::tables;
use super::view::MalView;
use crate::formats::monetdb_mal::reconcile::MalRun;
use crate::layout::timeline::TimelineIndex;
use crate::model::Model;
use crate::numbers::group;
use crate::view::headline::{both_paths, plural, Fact};
use crate::view::RunView;

impl RunView {
    /// The view of MAL traces, laid out on `index`: the plan's critical path
    /// and blocking chain through the dataflow, the longest instructions,
    /// time by module, and the [`MalView`].
    pub fn of_mal(model: &Model, run: &MalRun, index: &TimelineIndex) -> RunView {
        let mut view = RunView::of_paths(model, crate::formats::monetdb_mal::ID, index);
        let mal = MalView::of(model, run);
        let parallelism = mal.core.busy as f64 / mal.core.wall.max(1) as f64;
        view.headline = both_paths(&view, "dataflow");
        view.differences_title = "Where the blocking chain differs from the critical path".into();
        view.headline.push(Fact::plain(format!(
            " · {} · {} · {} instructions on {} · {parallelism:.1} busy on average",
            plural(mal.counts.executions, "execution", "executions"),
            plural(mal.counts.queries, "query", "queries"),
            group(view.counts.run),
            plural(u64::from(mal.core.threads), "thread", "threads")
        )));
        view.counts_by_hook = vec![
            ("mal-executions".to_owned(), mal.counts.executions),
            ("mal-events".to_owned(), mal.counts.events),
            ("mal-queries".to_owned(), mal.counts.queries),
        ];
        view.tables = tables(&view, &mal);
        view.search_hint = "Search statements, operations, threads, queries  (/)".into();
        view.with_part(&mal)
    }
}
