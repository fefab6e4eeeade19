//! The report of a StarRocks profile: the query as `ANALYZE PROFILE` shows
//! it ([`super::analyze`]), the critical path over its plan nodes, hints,
//! where the pipelines' time went, skew, and the identity checks that failed.

use super::analyze::{analyze_text, nodes_json, summary_json};
use crate::formats::starrocks_profile::analysis::breakdowns;
use crate::formats::starrocks_profile::hints::hints;
use crate::formats::starrocks_profile::run::StarRocksRun;
use crate::numbers::duration_label;
use crate::numbers::Ms;
use crate::report::paths::PathsReport;
use crate::run::{Dataset, RunReport};
use serde_json::json;
use std::fmt::Write;

/// Operators and skewed counters listed.
const TOP: usize = 10;

fn run_of(d: &Dataset) -> Option<&StarRocksRun> {
    d.detail::<StarRocksRun>()
}

/// The report as JSON: the heaviest plan-node path as `critical_path` (as
/// for every format) and `"starrocks"` with the query's figures, its
/// `summary` and its plan `nodes` (largest first), plus
/// `starrocks_pipelines`, `starrocks_skew`, `starrocks_checks` (failed
/// ones) and `starrocks_hints`.
pub fn starrocks_json(d: &Dataset) -> RunReport {
    let mut r = PathsReport::new(&d.model).report();
    let Some(run) = run_of(d) else { return r };
    let v = &mut r.own;
    let failed: Vec<_> = run.checks.iter().filter(|c| !c.ok).collect();
    v["starrocks"] = json!({
        "query_id": run.query_id, "state": run.state, "total_ms": run.total.map(|t| Ms(t).json()),
        "version": run.version, "fragments": run.fragments.len(), "pipelines": run.pipelines().count(),
        "operators": run.operator_count(), "json_form": run.json,
        "cumulative_operator_ms": run.query.cumulative_operator.map(|t| Ms(t.ns).json()),
        "checks": run.checks.len(), "checks_failed": failed.len(), "skewed_counters": run.skew.len(),
        "topology": run.topology, "summary": summary_json(run), "nodes": nodes_json(run),
    });
    v["starrocks_pipelines"] = breakdowns(run)
        .iter()
        .map(|b| {
            json!({"pipeline": b.pipeline, "line": b.line, "total_ms": Ms(b.total).json(),
                   "active_ms": Ms(b.active).json(), "operators_ms": Ms(b.operators).json(),
                   "overhead_ms": Ms(b.overhead).json(), "input_empty_ms": Ms(b.input_empty).json(),
                   "output_full_ms": Ms(b.output_full).json(), "precondition_ms": Ms(b.precondition).json(),
                   "pending_finish_ms": Ms(b.pending_finish).json(), "schedule_ms": Ms(b.schedule).json()})
        })
        .collect();
    let mut skew: Vec<_> = run.skew.iter().filter(|s| s.ratio().is_some()).collect();
    skew.sort_by(|a, b| b.ratio().partial_cmp(&a.ratio()).unwrap_or(std::cmp::Ordering::Equal));
    v["starrocks_skew"] = skew
        .iter()
        .take(TOP)
        .map(|s| {
            json!({"at": s.at, "counter": s.counter, "line": s.line, "min": s.min, "max": s.max,
                   "ratio": s.ratio().map(|r| (r * 100.0).round() / 100.0)})
        })
        .collect();
    v["starrocks_checks"] = json!(failed);
    v["starrocks_hints"] = json!(hints(run));
    r
}

/// The report as text: the ANALYZE PROFILE layout, then longpole's own sections.
pub fn starrocks_text(d: &Dataset) -> String {
    let Some(run) = run_of(d) else { return String::new() };
    let mut out = analyze_text(run);
    let (path, _) = crate::analysis::critical_path::ya_path(&d.model);
    let _ = writeln!(out, "Critical path over the plan nodes ({} of node time):", duration_label(path.total));
    for &t in &path.tasks {
        let task = d.model.task(t);
        let _ = writeln!(out, "  {:>10}  {}", duration_label(task.duration().unwrap_or(0)), d.model.label(t));
    }
    let hints = hints(run);
    if !hints.is_empty() {
        let _ = writeln!(out, "\nHints:");
        for h in hints {
            let _ = writeln!(out, "  {}: {}", h.at, h.text);
        }
    }
    if let Some(sql) = &run.sql {
        let line: String = sql.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(120).collect();
        let _ = writeln!(out, "\nSQL: {line}");
    }
    let _ = writeln!(
        out,
        "\nWhere the pipelines' time went (averages per driver):\n  {:<26} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "pipeline", "total", "active", "overhead", "input", "output", "precond", "finish", "schedule"
    );
    for b in breakdowns(run) {
        let _ = writeln!(
            out,
            "  {:<26} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
            b.pipeline,
            duration_label(b.total),
            duration_label(b.active),
            duration_label(b.overhead),
            duration_label(b.input_empty),
            duration_label(b.output_full),
            duration_label(b.precondition),
            duration_label(b.pending_finish),
            duration_label(b.schedule)
        );
    }
    let mut skew: Vec<_> = run.skew.iter().filter(|s| s.ratio().is_some()).collect();
    skew.sort_by(|a, b| b.ratio().partial_cmp(&a.ratio()).unwrap_or(std::cmp::Ordering::Equal));
    if !skew.is_empty() {
        let _ = writeln!(out, "\nLargest spread across instances (max / min):");
        for s in skew.iter().take(TOP) {
            let show = |v: f64| if s.time { duration_label(v as i64) } else { format!("{v:.0}") };
            let _ = writeln!(
                out,
                "  {:>8.1}×  {} .. {}  {} at {}",
                s.ratio().unwrap_or(0.0),
                show(s.min),
                show(s.max),
                s.counter,
                s.at
            );
        }
    }
    let failed: Vec<_> = run.checks.iter().filter(|c| !c.ok).collect();
    let _ = writeln!(out, "\nChecks: {} of {} identities hold", run.checks.len() - failed.len(), run.checks.len());
    for c in failed {
        let _ = writeln!(
            out,
            "  line {}: {}: {}: {} vs {}",
            c.line,
            c.at,
            c.rule,
            duration_label(c.left),
            duration_label(c.right)
        );
    }
    out
}
