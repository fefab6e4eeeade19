//! The report of a `.ninja_log`: its builds, their wall and busy time and
//! parallelism, the longest edges, and Chromium's weighted time of the last
//! build per extension and per edge (which needs only the log).

use super::graph_report::{by_extension_json, top_weighted, weighted_text};
use crate::analysis::top::top;
use crate::formats::ninja_log::reconcile::NinjaRun;
use crate::model::TaskId;
use crate::numbers::duration_label;
use crate::numbers::group;
use crate::numbers::Ms;
use crate::run::{Dataset, RunReport};
use serde_json::json;
use std::cmp::Reverse;
use std::fmt::Write;

/// Edges listed as the longest.
const LONGEST: usize = 10;

fn run_of(d: &Dataset) -> Option<&NinjaRun> {
    d.detail::<NinjaRun>()
}

fn longest(d: &Dataset) -> Vec<TaskId> {
    let all: Vec<TaskId> = (0..d.model.tasks().len() as u32).map(TaskId).collect();
    top(&all, LONGEST, |t| Reverse(d.model.task(t).duration().unwrap_or(0)))
}

/// The report as JSON: `"ninja": {version, recompacted, builds: [...]}` and
/// the longest edges.
pub fn ninja_json(d: &Dataset) -> RunReport {
    let Some(run) = run_of(d) else { return RunReport::of(json!({})) };
    if let Some(g) = &run.graph {
        return super::graph_report::graph_json(d, run, g);
    }
    let m = &d.model;
    let weighted = run.weighted.clone().unwrap_or_default();
    RunReport::of(json!({
        "ninja": {
            "version": run.version,
            "recompacted": run.recompacted,
            "builds": run.builds.iter().map(|b| json!({
                "outputs": b.outputs, "edges": b.edges, "wall_ms": Ms(b.wall).json(), "busy_ms": Ms(b.busy).json(),
                "slots": b.slots,
            })).collect::<Vec<_>>(),
        },
        "longest": longest(d).iter().map(|&t| json!({
            "output": m.label(t), "lane": m.lanes()[m.task(t).lane.index()].name,
            "start_ms": m.task(t).start.get().map(|s| Ms(s).json()), "end_ms": m.task(t).end.get().map(|e| Ms(e).json()),
        })).collect::<Vec<_>>(),
        "weighted_by_extension": by_extension_json(&weighted.by_extension),
        "weighted_longest": top_weighted(&weighted.weighted).iter().map(|&t| json!({
            "output": m.label(t), "duration_ms": Ms(m.task(t).duration().unwrap_or(0)).json(),
            "weighted_ms": Ms(weighted.weighted[t.index()]).json(),
        })).collect::<Vec<_>>(),
    }))
}

/// The report as text.
pub fn ninja_text(d: &Dataset) -> String {
    let Some(run) = run_of(d) else { return String::new() };
    if let Some(g) = &run.graph {
        return super::graph_report::graph_text(d, run, g);
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "ninja log v{}: {} builds{}",
        run.version,
        run.builds.len(),
        if run.recompacted { " (recompacted: builds cannot be told apart)" } else { "" }
    );
    let _ = writeln!(
        out,
        "\n  {:>5} {:>8} {:>8} {:>12} {:>12} {:>6} {:>12}",
        "build", "outputs", "edges", "wall", "busy", "slots", "parallelism"
    );
    for (i, b) in run.builds.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {:>5} {:>8} {:>8} {:>12} {:>12} {:>6} {:>12.2}",
            i + 1,
            group(b.outputs),
            group(b.edges),
            duration_label(b.wall),
            duration_label(b.busy),
            b.slots,
            b.busy as f64 / b.wall.max(1) as f64
        );
    }
    let _ = writeln!(out, "\nLongest edges:");
    for t in longest(d) {
        let task = d.model.task(t);
        let _ = writeln!(
            out,
            "  {:>12}  {:<20} {}",
            duration_label(task.duration().unwrap_or(0)),
            d.model.lanes()[task.lane.index()].name,
            d.model.label(t)
        );
    }
    if let Some(w) = &run.weighted {
        let _ = writeln!(out, "\nOf the last build:");
        weighted_text(&mut out, &d.model, &w.weighted, &w.by_extension);
    }
    out
}
