//! The tables every run's view shares: tasks as rows, the two paths'
//! tables and the time per type; the per-format tables build on them.

use super::data_table::{count, span, text, time, Row, Table};
use longpole_core::view::{RunView, TaskRow};

/// Tasks as rows: duration, type, uid, name, lane, (from, bytes,) start, end.
pub(crate) fn task_rows(rows: &[TaskRow], origin: i64, with_size: bool) -> Vec<Row> {
    rows.iter()
        .map(|r| {
            let d = match (r.start, r.end) {
                (Some(a), Some(b)) => b - a,
                _ => 0,
            };
            let mut cells = vec![span(d), text(&r.task_type), text(&r.uid), text(&r.label), text(&r.lane)];
            if with_size {
                cells.push(text(r.from_lane.as_deref().unwrap_or("")));
                cells.push(r.bytes.map_or_else(|| text(""), count));
            }
            cells.push(time(r.start, origin));
            cells.push(time(r.end, origin));
            Row { cells, task: Some(r.id), haystack: format!("{} {} {}", r.uid, r.label, r.lane).to_lowercase() }
        })
        .collect()
}

/// The critical path's and the blocking chain's tables.
pub(crate) fn path_tables(v: &RunView, path_title: &'static str, headers: &[&'static str]) -> [Table; 2] {
    let origin = v.window.map_or(0, |w| w.0);
    [
        Table {
            id: "critical-path",
            title: path_title,
            headers: headers.to_vec(),
            rows: task_rows(&v.critical_path.steps, origin, false),
        },
        Table {
            id: "blocking-chain",
            title: "Blocking chain",
            headers: headers.to_vec(),
            rows: task_rows(&v.blocking_chain.steps, origin, false),
        },
    ]
}

/// The time per task type (or kind) table: count, total and average.
pub(crate) fn by_type_table(v: &RunView, title: &'static str, column: &'static str) -> Table {
    Table {
        id: "by-type",
        title,
        headers: vec![column, "count", "total", "average"],
        rows: v
            .by_type
            .iter()
            .map(|t| Row {
                cells: vec![text(&t.task_type), count(t.count), span(t.total), span(t.total / t.count.max(1) as i64)],
                task: None,
                haystack: t.task_type.to_lowercase(),
            })
            .collect(),
    }
}
