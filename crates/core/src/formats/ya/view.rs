//! What the app shows of a ya build: the paths' view with ya's `--stat`
//! around it (the biggest copies, the wall time by stage, the cache line
//! and the totals), its headline and its tables.

use super::report::YaReport;
use crate::layout::timeline::TimelineIndex;
use crate::model::{FormatId, Model};
use crate::numbers::group;
use crate::view::headline::{both_paths, Fact};
use crate::view::table::{span, text, Row, Table};
use crate::view::tables::{by_type_table, longest_table, origin, path_tables, task_rows};
use crate::view::{task_row, RunView};

impl RunView {
    /// The view of a ya build (distbuild or evlog), laid out on `index`.
    pub fn of_ya(model: &Model, format: FormatId, index: &TimelineIndex) -> RunView {
        let r = YaReport::new(model);
        let s = &r.stat.stages;
        RunView {
            biggest_copies: r.stat.biggest_copies.iter().map(|&t| task_row(model, index, t, 0)).collect(),
            stages: vec![
                ("tests only".to_owned(), s.tests_only),
                ("tests with other".to_owned(), s.tests_with_other),
                ("build only".to_owned(), s.build_only),
                ("build with other".to_owned(), s.build_with_other),
                ("download only".to_owned(), s.download_only),
                ("download with other".to_owned(), s.download_with_other),
                ("service only".to_owned(), s.service_only),
            ],
            cache_line: r.cache_line(),
            totals: (r.stat.totals.failed, r.stat.totals.tests, r.stat.totals.run),
            ..RunView::of_paths_with(model, format, index, &r.paths, &r.stat.longest, &r.stat.by_type)
        }
    }
}

/// A ya build's headline: both paths, the hosts and the tasks by kind.
pub fn ya_headline(v: &RunView) -> Vec<Fact> {
    let mut facts = both_paths(v, "ya");
    facts.push(Fact::plain(format!(
        " · {} hosts · {} run, {} copy, {} prepare tasks",
        group(v.lanes.len() as u64),
        group(v.counts.run),
        group(v.counts.copy),
        group(v.counts.prepare)
    )));
    facts
}

/// A ya build's tables: both paths, the longest tasks, the biggest copies,
/// the time by type and the wall time by stage.
pub fn ya_tables(v: &RunView) -> Vec<Table> {
    let task_headers = ["duration", "type", "uid", "name", "host", "started", "finished"];
    let copy_headers = ["duration", "type", "uid", "name", "to host", "from host", "bytes", "started", "finished"];
    let mut list = Vec::from(path_tables(v, "Critical path (ya)", &task_headers));
    list.extend([
        longest_table(v, "Longest tasks", &task_headers),
        Table::new("biggest-copies", "Biggest copies", &copy_headers, task_rows(&v.biggest_copies, origin(v), true)),
        by_type_table(v, "Time by type", "type"),
        Table::new(
            "stages",
            "Wall time by stage",
            &["stage", "time"],
            v.stages
                .iter()
                .map(|(s, t)| Row { cells: vec![text(s), span(*t)], task: None, haystack: s.clone() })
                .collect(),
        ),
    ]);
    list
}
