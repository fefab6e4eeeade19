//! A ninja log's tables: its builds, the longest edges, the time per kind;
//! with its build graph, both paths and Chromium's weighted times too.

use super::reconcile::{BuildGraph, NinjaRun};
use crate::view::table::{columns, count, span, text, time, Row, Table};
use crate::view::tables::{by_type_table, origin, path_tables, task_rows};
use crate::view::{RunView, TaskRow};

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

/// The tables of a build read with its graph: both paths, the weighted
/// time per extension and per edge, then the builds, longest edges and
/// time per kind.
/// `weighted` are the rows of [`super::graph_report::top_weighted`]'s edges.
pub fn graph_tables(v: &RunView, n: &NinjaRun, g: &BuildGraph, weighted: &[TaskRow]) -> Vec<Table> {
    let origin = origin(v);
    let headers = ["duration", "kind", "output", "outputs", "slot", "started", "finished"];
    let mut list: Vec<Table> = path_tables(v, "Critical path", &headers).into();
    list.push(Table {
        id: "weighted-by-extension".into(),
        title: "Weighted time by extension".into(),
        headers: columns(&["extension", "edges", "weighted", "elapsed"]),
        rows: g
            .by_extension
            .iter()
            .map(|e| {
                Row::new(vec![text(&e.extension), count(e.edges), span(e.weighted), span(e.elapsed)], &e.extension)
            })
            .collect(),
        sort: None,
    });
    let rows = task_rows(weighted, origin, false)
        .into_iter()
        .zip(weighted)
        .map(|(mut row, r)| {
            row.cells.insert(0, span(g.weighted.get(r.id as usize).copied().unwrap_or(0)));
            row
        })
        .collect();
    list.push(Table {
        id: "weighted".into(),
        title: "Longest edges by weighted time".into(),
        headers: columns(&["weighted", "duration", "kind", "output", "outputs", "slot", "started", "finished"]),
        rows,
        sort: None,
    });
    list.extend(tables(v, n));
    list
}
