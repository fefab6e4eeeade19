//! A ninja log's tables: its builds, the longest edges, the time per kind.

use super::reconcile::NinjaRun;
use crate::view::table::{columns, count, span, text, time, Row, Table};
use crate::view::tables::{by_type_table, origin, task_rows};
use crate::view::RunView;

/// A ninja log's tables: its builds, the longest edges, time per kind.
pub fn tables(v: &RunView, n: &NinjaRun) -> Vec<Table> {
    let origin = origin(v);
    let builds = &n.builds;
    vec![
        Table {
            id: "builds".into(),
            title: "Builds".into(),
            headers: columns(&["build", "outputs", "edges", "started", "wall", "busy", "slots", "parallelism"]),
            rows: builds
                .iter()
                .enumerate()
                .map(|(i, b)| Row {
                    cells: vec![
                        count(i as u64 + 1),
                        count(b.outputs),
                        count(b.edges),
                        time(Some(b.start), origin),
                        span(b.wall),
                        span(b.busy),
                        count(u64::from(b.slots)),
                        text(&format!("{:.2}", b.busy as f64 / b.wall.max(1) as f64)),
                    ],
                    task: None,
                    haystack: format!("build {}", i + 1),
                })
                .collect(),
            sort: None,
        },
        Table {
            id: "longest".into(),
            title: "Longest edges".into(),
            headers: columns(&["duration", "kind", "output", "outputs", "slot", "started", "finished"]),
            rows: task_rows(&v.longest, origin, false),
            sort: None,
        },
        by_type_table(v, "Time by kind", "kind"),
    ]
}
