//! MAL traces' numbers as tables: the plan's critical path and blocking
//! chain, the executions, the most expensive instructions and modules, the
//! threads' use and the idle stretches.

use super::analysis::OpStats;
use super::view::MalView;
use crate::view::table::{columns, count, span, text, time, Row, Table};
use crate::view::tables::{by_type_table, path_tables, task_rows};
use crate::view::RunView;

fn op_rows(ops: &[OpStats]) -> Vec<Row> {
    ops.iter()
        .map(|o| Row {
            cells: vec![
                text(&o.name),
                count(o.count),
                span(o.total),
                span(o.total / o.count.max(1) as i64),
                span(o.p50),
                span(o.p90),
                span(o.p99),
                span(o.max),
            ],
            task: None,
            haystack: o.name.to_lowercase(),
        })
        .collect()
}

/// The tables of MAL traces.
pub fn tables(v: &RunView, m: &MalView) -> Vec<Table> {
    let origin = v.window.map_or(0, |w| w.0);
    let task_headers = ["duration", "module", "uid", "statement", "thread", "started", "finished"];
    let op_headers = columns(&["operation", "count", "total", "mean", "median", "p90", "p99", "max"]);
    let mut list = Vec::from(path_tables(v, "Critical path (dataflow)", &task_headers));
    list.extend([
        Table {
            id: "executions".into(),
            title: "Executions".into(),
            headers: columns(&[
                "id",
                "tag",
                "function",
                "session",
                "instructions",
                "wall",
                "critical path",
                "path length",
                "initiated by",
                "query",
            ]),
            rows: m
                .executions
                .iter()
                .map(|x| Row {
                    cells: vec![
                        count(u64::from(x.id)),
                        text(&x.tag.to_string()),
                        text(&x.function),
                        text(&x.session),
                        count(x.instructions),
                        span(x.wall),
                        span(x.critical),
                        count(u64::from(x.path_length)),
                        text(
                            &x.initiated_by
                                .map_or(String::new(), |p| format!("{p}{}", if x.remote { " (remote)" } else { "" })),
                        ),
                        text(x.query.as_deref().unwrap_or("")),
                    ],
                    task: None,
                    haystack: format!("{} {} {}", x.function, x.session, x.query.as_deref().unwrap_or(""))
                        .to_lowercase(),
                })
                .collect(),
            sort: None,
        },
        Table {
            id: "instructions".into(),
            title: "Most expensive instructions".into(),
            headers: op_headers.clone(),
            rows: op_rows(&m.instructions),
            sort: None,
        },
        Table {
            id: "modules".into(),
            title: "Most expensive modules".into(),
            headers: op_headers,
            rows: op_rows(&m.modules),
            sort: None,
        },
        Table {
            id: "threads".into(),
            title: "Thread use".into(),
            headers: columns(&["thread", "busy", "share of wall"]),
            rows: m
                .core
                .per_thread
                .iter()
                .map(|(lane, busy)| Row {
                    cells: vec![
                        text(lane),
                        span(*busy),
                        text(&format!("{:.1}%", *busy as f64 * 100.0 / m.core.wall.max(1) as f64)),
                    ],
                    task: None,
                    haystack: lane.to_lowercase(),
                })
                .collect(),
            sort: Some((1, true)),
        },
        Table {
            id: "idle".into(),
            title: "Longest stretches with nothing running".into(),
            headers: columns(&["length", "from", "to"]),
            rows: m
                .core
                .idle
                .iter()
                .map(|&(a, b)| Row {
                    cells: vec![span(b - a), time(Some(a), origin), time(Some(b), origin)],
                    task: None,
                    haystack: String::new(),
                })
                .collect(),
            sort: None,
        },
        by_type_table(v, "Time by module", "module"),
        Table {
            id: "longest".into(),
            title: "Longest instructions".into(),
            headers: columns(&task_headers),
            rows: task_rows(&v.longest, origin, false),
            sort: None,
        },
    ]);
    list
}
