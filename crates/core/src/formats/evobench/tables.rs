//! evobench runs' numbers as tables: the evaluator's statistics for each
//! timing kind, the runs, and with several runs the summary across them
//! (over another per-run statistic when the page asks for one).

use super::view::{EvobenchView, StatCells, StatRow};
use super::TimingKind;
use crate::view::table::{columns, count, span, text, Cell, Row, Table};

/// Each kind's table id and title.
const KIND_TABLES: [(&str, &str); 4] = [
    ("stats-real", "Statistics: real time"),
    ("stats-cpu", "Statistics: cpu time"),
    ("stats-sys", "Statistics: sys time"),
    ("stats-ctx", "Statistics: context switches"),
];

/// A value of `kind` as a cell (times sort and export in ms, like every table).
pub fn value(kind: TimingKind, v: u64) -> Cell {
    let ns = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
    match kind {
        TimingKind::Real => span(ns(v)),
        TimingKind::Cpu | TimingKind::Sys => span(ns(v.saturating_mul(1000))),
        TimingKind::CtxSwitches => count(v),
    }
}

fn stat_rows(rows: &[StatRow], kind: TimingKind) -> Vec<Row> {
    rows.iter()
        .map(|r| {
            let s: Option<&StatCells> = r.kinds.get(kind.index()).and_then(Option::as_ref);
            let mut cells = vec![text(&r.mode), text(&r.path), count(s.map_or(r.spans, |s| s.count))];
            let figures = s.map(|s| [s.sum, s.mean, s.stdev, s.median, s.p90, s.p99, s.min, s.max]);
            for i in 0..8 {
                cells.push(figures.map_or_else(|| text(""), |f| value(kind, f[i])));
            }
            Row { cells, task: None, haystack: r.path.to_lowercase() }
        })
        .collect()
}

const STAT_HEADERS: [&str; 11] =
    ["mode", "path", "count", "sum", "mean", "stdev", "median", "p90", "p99", "min", "max"];

/// The per-run statistics the summary can be over, with their table titles.
pub const SUMMARY_FIELDS: [(&str, &str); 6] = [
    ("mean", "Summary over the runs' means (real time)"),
    ("median", "Summary over the runs' medians (real time)"),
    ("p90", "Summary over the runs' 90th percentiles (real time)"),
    ("p99", "Summary over the runs' 99th percentiles (real time)"),
    ("sum", "Summary over the runs' sums (real time)"),
    ("count", "Summary over the runs' counts (real time)"),
];

/// The tables of evobench runs; `summary` is the summary over another
/// per-run statistic than the mean, when one was asked for.
pub fn tables(e: &EvobenchView, summary: Option<(&str, &[StatRow])>) -> Vec<Table> {
    let mut list = Vec::new();
    if e.runs.len() > 1 {
        list.push(Table {
            id: "runs".into(),
            title: "Runs".into(),
            headers: columns(&["#", "log", "rows", "spans", "threads", "complete", "writer"]),
            rows: e
                .runs
                .iter()
                .enumerate()
                .map(|(i, r)| Row {
                    cells: vec![
                        count(i as u64 + 1),
                        text(&r.name),
                        count(r.rows),
                        count(r.spans),
                        count(r.threads),
                        text(if r.complete { "yes" } else { "cut off" }),
                        text(&r.version),
                    ],
                    task: None,
                    haystack: r.name.to_lowercase(),
                })
                .collect(),
            sort: None,
        });
        let (title, rows) =
            match summary.and_then(|(f, rows)| SUMMARY_FIELDS.iter().find(|(n, _)| *n == f).map(|x| (x.1, rows))) {
                Some((title, rows)) => (title, rows),
                None => (SUMMARY_FIELDS[0].1, &e.summary[..]),
            };
        list.push(Table {
            id: "summary".into(),
            title: title.into(),
            headers: columns(&STAT_HEADERS),
            rows: stat_rows(rows, TimingKind::Real),
            sort: None,
        });
    }
    for (kind, (id, title)) in TimingKind::ALL.into_iter().zip(KIND_TABLES) {
        list.push(Table::new(id, title, &STAT_HEADERS, stat_rows(&e.rows, kind)));
    }
    list
}
