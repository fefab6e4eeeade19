//! The report of evobench runs: one run's statistics table and the
//! summary over several runs, as JSON and as text. Real time only; the exports have every kind.
//!
//! JSON of one run (beside what every format's has): `{"evobench": {"runs":
//! 1, "paths": [{"mode", "path", "count", "real_ns": {"sum", "mean",
//! "stdev", "median", "p90", "p99"} | null}]}}` (`null` on rows that only
//! count, i.e. KeyValue rows); `path` is the evaluator's key, prefix included.

use crate::formats::evobench::analysis::{summary, Field, PathMode, Row, Stats, SummaryRow};
use crate::formats::evobench::reconcile::EvobenchRun;
use crate::formats::evobench::TimingKind;
use crate::model::Nanos;
use crate::numbers::duration_label;
use crate::run::{Analysis, Dataset, RunReport};
use serde_json::{json, Value};
use std::fmt::Write;

/// The evobench runs of an analysis, in input order.
pub fn runs(analysis: &Analysis) -> Vec<&EvobenchRun> {
    analysis.datasets.iter().filter_map(|d| d.detail::<EvobenchRun>()).collect()
}

fn real_json(s: Option<&Stats>) -> Value {
    s.map_or(Value::Null, |s| {
        json!({"sum": s.sum, "mean": s.mean, "stdev": s.stdev, "median": s.median,
               "p90": s.percentile(90), "p99": s.percentile(99)})
    })
}

fn row_json(r: &Row) -> Value {
    json!({"mode": r.mode.name(), "path": r.path, "count": r.count(TimingKind::Real),
           "real_ns": real_json(r.stats[TimingKind::Real.index()].as_ref())})
}

/// One run's report as JSON.
pub fn evobench_json(d: &Dataset) -> RunReport {
    let Some(run) = d.detail::<EvobenchRun>() else { return RunReport::of(json!({})) };
    RunReport::of(json!({
        "evobench": {"runs": 1, "paths": run.table.rows.iter().map(row_json).collect::<Vec<_>>()},
    }))
}

/// The summary over several runs as JSON: `{"runs", "field", "paths": [{"mode",
/// "path", "count" (runs), "real_ns": statistics over the runs' field}]}`.
pub fn summary_json(runs: usize, field: Field, rows: &[SummaryRow]) -> Value {
    let paths: Vec<Value> = rows
        .iter()
        .map(|r| {
            let real = r.stats[TimingKind::Real.index()].as_ref();
            json!({"mode": r.mode.name(), "path": r.path, "count": real.map_or(0, |s| s.count),
                   "real_ns": real_json(real)})
        })
        .collect();
    json!({"runs": runs, "field": field.to_string(), "paths": paths})
}

fn ns(v: u64) -> String {
    duration_label(Nanos::try_from(v).unwrap_or(Nanos::MAX))
}

fn table_text(out: &mut String, rows: &[(&str, u64, Option<&Stats>)]) {
    let _ = writeln!(
        out,
        "  {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}  path",
        "count", "sum", "mean", "median", "p90", "p99"
    );
    for (path, count, s) in rows {
        let cells = match s {
            Some(s) => [s.sum, s.mean, s.median, s.percentile(90), s.percentile(99)].map(ns),
            None => std::array::from_fn(|_| "-".to_owned()),
        };
        let _ = writeln!(
            out,
            "  {count:>10} {:>10} {:>10} {:>10} {:>10} {:>10}  {path}",
            cells[0], cells[1], cells[2], cells[3], cells[4]
        );
    }
}

/// One run's report as text: real time of each probe, then of each path
/// across threads (`A:`); the `AR:`, `N:` and `NR:` rows are in the JSON
/// and the exports.
pub fn evobench_text(d: &Dataset) -> String {
    let Some(run) = d.detail::<EvobenchRun>() else { return String::new() };
    let mut out = String::new();
    let log = &run.log;
    let wall = d.model.wall().map_or("unknown".to_owned(), duration_label);
    let _ = writeln!(
        out,
        "evobench log (version {}, writer {}{}): {} threads, {} spans, wall {wall}",
        log.start.log_version,
        log.start.writer_version,
        if log.old_dialect { ", old `t` dialect" } else { "" },
        log.threads.len(),
        log.spans.len()
    );
    let _ = writeln!(out, "\nReal time per probe and per path (A: across threads):");
    let rows: Vec<_> = run
        .table
        .rows
        .iter()
        .filter(|r| matches!(r.mode, PathMode::Probe | PathMode::A))
        .map(|r| (r.path.as_str(), r.count(TimingKind::Real), r.stats[0].as_ref()))
        .collect();
    table_text(&mut out, &rows);
    out
}

/// The summary over runs as text.
pub fn summary_text(runs: usize, field: Field, rows: &[SummaryRow]) -> String {
    let mut out = format!("\nSummary of {runs} runs: statistics over the runs' {field} of real time:\n");
    let rows: Vec<_> = rows
        .iter()
        .filter(|r| matches!(r.mode, PathMode::Probe | PathMode::A))
        .map(|r| (r.path.as_str(), r.stats[0].as_ref().map_or(0, |s| s.count), r.stats[0].as_ref()))
        .collect();
    table_text(&mut out, &rows);
    out
}

/// The summary of an analysis's evobench runs on `field`, when there are several.
pub fn analysis_summary(analysis: &Analysis, field: Field) -> Option<(usize, Vec<SummaryRow>)> {
    let runs = runs(analysis);
    let tables: Vec<_> = runs.iter().map(|r| &r.table).collect();
    (tables.len() > 1).then(|| (tables.len(), summary(&tables, field)))
}
