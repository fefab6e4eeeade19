//! A Bazel profile's tables: its phases as `bazel analyze-profile` lists
//! them, actions by mnemonic, where the actions' time went, and the
//! stretches where fewer actions ran than jobs.

use super::view::BazelView;
use crate::view::table::{columns, count, span, text, time, Cell, Row, Table};

fn row(cells: Vec<Cell>, what: &str) -> Row {
    Row { cells, task: None, haystack: what.to_lowercase() }
}

/// The tables of a Bazel profile (`origin`: the run's first time).
pub fn tables(b: &BazelView, origin: i64) -> Vec<Table> {
    let s = &b.summary;
    vec![
        Table {
            id: "bazel-phases".into(),
            title: "Bazel phases".into(),
            headers: columns(&["phase", "marker", "time", "share"]),
            rows: s
                .phases
                .iter()
                .map(|p| {
                    row(vec![text(&p.nick), text(&p.name), span(p.time), text(&format!("{:.2}%", p.percent))], &p.name)
                })
                .collect(),
            sort: None,
        },
        Table {
            id: "bazel-mnemonics".into(),
            title: "Actions by mnemonic".into(),
            headers: columns(&["mnemonic", "actions", "time", "longest", "on critical path"]),
            rows: s
                .mnemonics
                .iter()
                .map(|m| {
                    row(
                        vec![text(&m.mnemonic), count(m.count), span(m.total), span(m.longest), count(m.on_path)],
                        &m.mnemonic,
                    )
                })
                .collect(),
            sort: None,
        },
        Table {
            id: "bazel-activities".into(),
            title: "Where the actions' time went".into(),
            headers: columns(&["group", "category or event", "events", "time", "on critical path"]),
            rows: s
                .activities
                .iter()
                .map(|a| {
                    row(vec![text(&a.group), text(&a.what), count(a.count), span(a.total), span(a.on_path)], &a.what)
                })
                .collect(),
            sort: None,
        },
        Table {
            id: "bazel-bottlenecks".into(),
            title: "Fewer actions than evaluator threads".into(),
            headers: columns(&["from", "to", "lasting", "actions on average"]),
            rows: s
                .bottlenecks
                .iter()
                .map(|x| {
                    let cells = vec![
                        time(Some(x.start), origin),
                        time(Some(x.end), origin),
                        span(x.end - x.start),
                        text(&format!("{:.2}", x.average)),
                    ];
                    row(cells, "")
                })
                .collect(),
            sort: None,
        },
    ]
}
