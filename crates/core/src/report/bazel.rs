//! The Bazel part of a Chrome trace's report: Bazel's critical path as
//! the report's `critical_path` and `blocking_chain` (each step's `uid` the
//! action's description as Bazel prints it), and as text in `bazel
//! analyze-profile`'s layout.

use super::Ms;
use crate::analysis::bazel::paths;
use crate::dump::duration_label;
use crate::model::Model;
use crate::reconcile::bazel::{BazelRun, PathStep};
use serde_json::{json, Value};
use std::fmt::Write;

fn step_json(m: &Model, s: &PathStep) -> Value {
    let t = s.task();
    let task = m.task(t);
    json!({
        "uid": s.description, "name": m.label(t), "kind": m.kinds()[task.kind.index()].name,
        "lane": m.lanes()[task.lane.index()].name, "start_ms": task.start.map(|x| Ms(x).json()),
        "end_ms": task.end.map(|x| Ms(x).json()), "bazel_ms": Ms(s.duration).json(), "on_action": s.action.is_some(),
    })
}

/// Puts Bazel's critical path in `v` as `critical_path` and
/// `blocking_chain` (with each step's `gap_ms`); a profile without one
/// keeps what `v` has.
pub fn bazel_path_json(m: &Model, run: &BazelRun, v: &mut Value) {
    let Some(p) = paths(m, run) else { return };
    let steps: Vec<Value> = run.path.iter().map(|s| step_json(m, s)).collect();
    let chain: Vec<Value> = steps
        .iter()
        .zip(&p.gaps)
        .map(|(s, &g)| {
            let mut s = s.clone();
            s["gap_ms"] = Ms(g).json();
            s
        })
        .collect();
    v["critical_path"] = json!({"source": "bazel", "total_ms": Ms(p.critical.total).json(), "tasks": steps});
    v["blocking_chain"] = json!({"source": "bazel", "total_ms": Ms(p.blocking.total).json(), "tasks": chain});
    v["differences"] = json!([]);
}

/// Bazel's critical path as `bazel analyze-profile` prints it, with the
/// slice each component was found on.
pub fn bazel_path_text(out: &mut String, m: &Model, run: &BazelRun) {
    if run.path.is_empty() {
        return;
    }
    let total = run.path_total();
    let _ = writeln!(out, "\nCritical path ({}):", duration_label(total));
    let _ = writeln!(out, "  {:>11} {:>10}   Description", "Time", "Percentage");
    for s in &run.path {
        let share = if total > 0 { s.duration as f64 * 100.0 / total as f64 } else { 0.0 };
        let place = match s.action {
            Some(a) => format!("on {}", m.lanes()[m.task(a).lane.index()].name),
            None => "no action found: shown on the Critical Path lane".to_owned(),
        };
        let _ = writeln!(
            out,
            "  {:>11} {:>9.2}%   action '{}'  ({place})",
            duration_label(s.duration),
            share,
            s.description
        );
    }
}
