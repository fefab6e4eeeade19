//! A StarRocks profile's numbers as tables: the bottleneck hints, the plan
//! nodes as ANALYZE PROFILE ranks them, the critical path over them, each
//! pipeline's time, the operators, the skewed counters and the identity
//! checks.

use super::nodes::Level;
use super::view::{NodeRow, StarRocksView};
use crate::view::table::{columns, count, opt_span, span, text, Cell, Row, Table};
use crate::view::tables::{by_type_table, path_tables};
use crate::view::RunView;

/// A row count that may be missing (negative counts show as 0).
fn rows_cell(n: Option<i64>) -> Cell {
    n.map_or_else(|| text(""), |n| count(n.max(0) as u64))
}

/// The plan nodes, the largest time first.
fn nodes_table(nodes: &[NodeRow]) -> Table {
    Table {
        id: "nodes".into(),
        title: "Plan nodes (ANALYZE PROFILE's time: CPUTime + ScanTime + NetworkTime)".into(),
        headers: columns(&[
            "node",
            "plan",
            "time",
            "share",
            "CPUTime",
            "ScanTime",
            "NetworkTime",
            "level",
            "critical path",
        ]),
        rows: nodes
            .iter()
            .map(|n| Row {
                cells: vec![
                    text(&n.title),
                    text(n.plan_name.as_deref().unwrap_or("")),
                    span(n.total),
                    n.percent_x100.map_or_else(|| text("?"), |p| text(&format!("{:.2}%", p as f64 / 100.0))),
                    opt_span(n.cpu),
                    opt_span(n.scan),
                    opt_span(n.network),
                    text(match n.level {
                        Level::Red => "red (> 30%)",
                        Level::Coral => "coral (> 15%)",
                        Level::Plain => "",
                    }),
                    text(if n.on_path { "yes" } else { "" }),
                ],
                task: Some(n.task),
                haystack: format!("{} {}", n.title, n.plan_name.as_deref().unwrap_or("")).to_lowercase(),
            })
            .collect(),
        sort: None,
    }
}

/// The tables of a StarRocks profile.
pub fn tables(v: &RunView, s: &StarRocksView) -> Vec<Table> {
    let headers = ["duration", "plan", "uid", "name", "fragment", "started", "finished"];
    let mut list = vec![Table {
        id: "hints".into(),
        title: "Bottleneck hints".into(),
        headers: columns(&["kind", "where", "line", "hint"]),
        rows: s
            .hints
            .iter()
            .map(|h| Row {
                cells: vec![text(&h.kind), text(&h.at), count(h.line), text(&h.text)],
                task: None,
                haystack: format!("{} {} {}", h.kind, h.at, h.text).to_lowercase(),
            })
            .collect(),
        sort: None,
    }];
    list.push(nodes_table(&s.nodes));
    list.extend(path_tables(v, "Critical path over plan nodes", &headers));
    list.extend([
        Table {
            id: "pipelines".into(),
            title: "Time by pipeline".into(),
            headers: columns(&[
                "pipeline",
                "driver total",
                "active",
                "operators",
                "overhead",
                "input empty",
                "output full",
                "precondition",
                "pending finish",
                "schedule",
            ]),
            rows: s
                .pipelines
                .iter()
                .map(|p| Row {
                    cells: vec![
                        text(&p.pipeline),
                        span(p.total),
                        span(p.active),
                        span(p.operators),
                        span(p.overhead),
                        span(p.input_empty),
                        span(p.output_full),
                        span(p.precondition),
                        span(p.pending_finish),
                        span(p.schedule),
                    ],
                    task: None,
                    haystack: p.pipeline.to_lowercase(),
                })
                .collect(),
            sort: None,
        },
        Table {
            id: "operators".into(),
            title: "Operators".into(),
            headers: columns(&[
                "operator",
                "plan node",
                "pipeline",
                "total",
                "pull",
                "push",
                "rows out",
                "rows in",
                "node on critical path",
            ]),
            rows: s
                .operators
                .iter()
                .map(|o| Row {
                    cells: vec![
                        text(&o.name),
                        text(&o.plan_node_id.to_string()),
                        text(&o.pipeline),
                        opt_span(o.total),
                        opt_span(o.pull),
                        opt_span(o.push),
                        rows_cell(o.pull_rows),
                        rows_cell(o.push_rows),
                        text(if o.on_heaviest_path { "yes" } else { "" }),
                    ],
                    task: Some(o.task),
                    haystack: format!("{} {}", o.name, o.pipeline).to_lowercase(),
                })
                .collect(),
            sort: Some((3, true)),
        },
        Table {
            id: "skew".into(),
            title: "Skew across instances (max / min)".into(),
            headers: columns(&["where", "counter", "unit", "merged", "min", "max", "max/min"]),
            rows: s
                .skew
                .iter()
                .map(|k| {
                    let value = |n: i64| if k.unit == "time" { span(n) } else { count(n.max(0) as u64) };
                    Row {
                        cells: vec![
                            text(&k.at),
                            text(&k.counter),
                            text(&k.unit),
                            value(k.value),
                            value(k.min),
                            value(k.max),
                            k.ratio_percent.map_or_else(|| text("∞"), |r| text(&format!("{:.1}×", r as f64 / 100.0))),
                        ],
                        task: None,
                        haystack: format!("{} {}", k.at, k.counter).to_lowercase(),
                    }
                })
                .collect(),
            sort: None,
        },
        Table {
            id: "checks".into(),
            title: "Identities checked".into(),
            headers: columns(&["where", "line", "rule", "left", "right", "tolerance", "holds"]),
            rows: s
                .checks
                .iter()
                .map(|c| Row {
                    cells: vec![
                        text(&c.at),
                        count(c.line),
                        text(&c.rule),
                        span(c.left),
                        span(c.right),
                        span(c.tolerance),
                        text(if c.ok { "yes" } else { "NO" }),
                    ],
                    task: None,
                    haystack: format!("{} {}", c.at, c.rule).to_lowercase(),
                })
                .collect(),
            sort: None,
        },
        by_type_table(v, "Time by plan node kind", "kind"),
    ]);
    list
}
