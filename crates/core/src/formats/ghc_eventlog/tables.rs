//! A GHC program's numbers as tables: collections per generation, threads,
//! user marks, time per kind, longest spans and event types.

use super::view::GhcView;
use crate::view::table::{bytes, columns, count, span, text, time, Cell, Row, Table};
use crate::view::tables::{by_type_table, task_rows};
use crate::view::RunView;

fn cap(c: Option<u16>) -> Cell {
    match c {
        Some(c) => count(u64::from(c)),
        None => text(""),
    }
}

/// The tables of a GHC run.
pub fn tables(v: &RunView, g: &GhcView) -> Vec<Table> {
    let origin = v.window.map_or(0, |w| w.0);
    vec![
        Table {
            id: "gc".into(),
            title: "Garbage collections per generation".into(),
            headers: columns(&["generation", "collections", "total pause", "longest pause", "mean pause", "copied"]),
            rows: g
                .gc
                .iter()
                .map(|r| Row {
                    cells: vec![
                        text(&r.generation),
                        count(r.count),
                        span(r.total),
                        span(r.max),
                        span(r.total / r.count.max(1) as i64),
                        bytes(r.copied),
                    ],
                    task: None,
                    haystack: format!("generation {}", r.generation),
                })
                .collect(),
            sort: None,
        },
        Table {
            id: "threads".into(),
            title: "Threads".into(),
            headers: columns(&["thread", "label", "runs", "run time", "longest run", "capabilities", "created"]),
            rows: g
                .threads
                .iter()
                .map(|t| Row {
                    cells: vec![
                        count(u64::from(t.id)),
                        text(t.label.as_deref().unwrap_or("")),
                        count(t.runs),
                        span(t.run_time),
                        span(t.longest_run),
                        count(u64::from(t.caps)),
                        time(t.created, origin),
                    ],
                    task: None,
                    haystack: format!("thread {} {}", t.id, t.label.as_deref().unwrap_or("")).to_lowercase(),
                })
                .collect(),
            sort: Some((3, true)),
        },
        Table {
            id: "marks".into(),
            title: "User markers and messages".into(),
            headers: columns(&["time", "capability", "kind", "text"]),
            rows: g
                .marks
                .iter()
                .map(|m| Row {
                    cells: vec![
                        time(Some(m.time), origin),
                        cap(m.cap),
                        text(if m.marker { "marker" } else { "message" }),
                        text(&m.text),
                    ],
                    task: None,
                    haystack: m.text.to_lowercase(),
                })
                .collect(),
            sort: None,
        },
        by_type_table(v, "Time by kind", "kind"),
        Table {
            id: "longest".into(),
            title: "Longest spans".into(),
            headers: columns(&["duration", "kind", "uid", "name", "capability", "started", "finished"]),
            rows: task_rows(&v.longest, origin, false),
            sort: None,
        },
        Table {
            id: "event-types".into(),
            title: "Event types".into(),
            headers: columns(&["id", "description", "events"]),
            rows: g
                .event_types
                .iter()
                .map(|t| Row {
                    cells: vec![count(u64::from(t.id)), text(&t.description), count(t.count)],
                    task: None,
                    haystack: t.description.to_lowercase(),
                })
                .collect(),
            sort: Some((2, true)),
        },
    ]
}
