//! A GHC program's numbers as tables: collections per generation, threads,
//! user marks, time per kind, longest spans and event types.

use super::data_table::{count, span, text, time, Cell, Key, Row, Table};
use super::run_tables::{by_type_table, task_rows};
use longpole_core::formats::ghc_eventlog::view::GhcView;
use longpole_core::view::RunView;

fn bytes(b: Option<u64>) -> Cell {
    match b {
        Some(b) => Cell { show: crate::format::bytes(b), raw: b.to_string(), key: Key::Num(b as f64) },
        None => text(""),
    }
}

fn cap(c: Option<u16>) -> Cell {
    match c {
        Some(c) => count(u64::from(c)),
        None => text(""),
    }
}

/// The tables of a GHC run.
pub fn ghc_tables(v: &RunView, g: &GhcView) -> Vec<Table> {
    let origin = v.window.map_or(0, |w| w.0);
    vec![
        Table {
            id: "gc",
            title: "Garbage collections per generation",
            headers: vec!["generation", "collections", "total pause", "longest pause", "mean pause", "copied"],
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
        },
        Table {
            id: "threads",
            title: "Threads",
            headers: vec!["thread", "label", "runs", "run time", "longest run", "capabilities", "created"],
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
        },
        Table {
            id: "marks",
            title: "User markers and messages",
            headers: vec!["time", "capability", "kind", "text"],
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
        },
        by_type_table(v, "Time by kind", "kind"),
        Table {
            id: "longest",
            title: "Longest spans",
            headers: vec!["duration", "kind", "uid", "name", "capability", "started", "finished"],
            rows: task_rows(&v.longest, origin, false),
        },
        Table {
            id: "event-types",
            title: "Event types",
            headers: vec!["id", "description", "events"],
            rows: g
                .event_types
                .iter()
                .map(|t| Row {
                    cells: vec![count(u64::from(t.id)), text(&t.description), count(t.count)],
                    task: None,
                    haystack: t.description.to_lowercase(),
                })
                .collect(),
        },
    ]
}
