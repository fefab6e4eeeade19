//! The tables every run's view can share: tasks as rows (the paths, the
//! longest tasks) and the time per type. The formats' own tables build on
//! these.

use super::table::{count, span, text, time, Row, Table};
use super::{RunView, TaskRow};

/// Tasks as rows: duration, type, uid, name, lane, (from, bytes,) start, end.
pub fn task_rows(rows: &[TaskRow], origin: i64, with_size: bool) -> Vec<Row> {
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

/// The run's first time: where the tables' times count from.
pub fn origin(v: &RunView) -> i64 {
    v.window.map_or(0, |w| w.0)
}

/// The critical path's and the blocking chain's tables.
pub fn path_tables(v: &RunView, path_title: &str, headers: &[&str]) -> [Table; 2] {
    let origin = origin(v);
    [
        Table::new("critical-path", path_title, headers, task_rows(&v.critical_path.steps, origin, false)),
        Table::new("blocking-chain", "Blocking chain", headers, task_rows(&v.blocking_chain.steps, origin, false)),
    ]
}

/// The longest tasks' table.
pub fn longest_table(v: &RunView, title: &str, headers: &[&str]) -> Table {
    Table::new("longest", title, headers, task_rows(&v.longest, origin(v), false))
}

/// The time per task type (or kind) table: count, total and average.
pub fn by_type_table(v: &RunView, title: &str, column: &str) -> Table {
    let rows = v
        .by_type
        .iter()
        .map(|t| {
            Row::new(
                vec![text(&t.task_type), count(t.count), span(t.total), span(t.total / t.count.max(1) as i64)],
                &t.task_type,
            )
        })
        .collect();
    Table::new("by-type", title, &[column, "count", "total", "average"], rows)
}
