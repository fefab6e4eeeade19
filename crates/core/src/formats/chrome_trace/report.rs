//! The report of a Chrome trace: events by phase, processes, threads,
//! flows and counters; the critical path and blocking chain over the flow
//! dependencies; Bazel's own critical path; the longest slices and the
//! flame graph's hottest path.

use crate::analysis::top::top;
use crate::formats::chrome_trace::reconcile::ChromeRun;
use crate::model::{Model, TaskId};
use crate::numbers::duration_label;
use crate::numbers::group;
use crate::numbers::Ms;
use crate::report::paths::PathsReport;
use crate::run::{Dataset, RunReport};
use serde_json::{json, Value};
use std::cmp::Reverse;
use std::fmt::Write;

/// Slices listed as the longest, steps of a path listed in the text.
const TOP: usize = 10;

fn run_of(d: &Dataset) -> Option<&ChromeRun> {
    d.detail::<ChromeRun>()
}

fn longest(m: &Model) -> Vec<TaskId> {
    let all: Vec<TaskId> = (0..m.tasks().len() as u32).map(TaskId).collect();
    top(&all, TOP, |t| Reverse(m.task(t).duration().unwrap_or(0)))
}

fn task_json(m: &Model, t: TaskId) -> Value {
    let task = m.task(t);
    json!({
        "name": m.label(t), "kind": m.kinds()[task.kind.index()].name, "lane": m.lanes()[task.lane.index()].name,
        "start_ms": task.start.get().map(|s| Ms(s).json()), "end_ms": task.end.get().map(|e| Ms(e).json()),
    })
}

/// The report as JSON: the critical path and blocking chain (as for every
/// format; for a Bazel profile, Bazel's own critical path), `"chrome"`
/// with the counts, `longest` and `hottest_path`.
pub fn chrome_json(d: &Dataset) -> RunReport {
    let mut r = PathsReport::new(&d.model).report();
    let Some(run) = run_of(d) else { return r };
    let m = &d.model;
    let v = &mut r.own;
    v["chrome"] = json!({
        "events": run.events, "by_phase": run.by_phase, "processes": run.processes, "threads": run.threads,
        "flows": run.flows, "counters": run.counters.len(), "display_time_unit": run.display_time_unit,
        "unterminated": run.unterminated,
    });
    if let Some(bazel) = run.bazel.as_deref() {
        super::bazel::report::bazel_path_json(m, bazel, &mut r);
        r.own["bazel"] = super::bazel::report::bazel_json(m, bazel);
    }
    let v = &mut r.own;
    v["longest"] = longest(m).iter().map(|&t| task_json(m, t)).collect();
    let f = &run.flame;
    v["hottest_path"] = f
        .hottest_path(0)
        .iter()
        .skip(1)
        .map(|&n| json!({"frame": f.nodes[n as usize].name, "total_ms": f.nodes[n as usize].total[0].map(|t| Ms(t as i64).json())}))
        .collect();
    r
}

/// One slice as a line: duration, lane, name.
fn slice_line(out: &mut String, m: &Model, t: TaskId) {
    let task = m.task(t);
    let label: String = m.label(t).chars().take(80).collect();
    let _ = writeln!(
        out,
        "  {:>12}  {:<28} {}",
        duration_label(task.duration().unwrap_or(0)),
        m.lanes()[task.lane.index()].name,
        label
    );
}

fn path_text(out: &mut String, m: &Model, title: &str, total: i64, tasks: &[TaskId]) {
    let _ = writeln!(out, "\n{title} ({}, {} slices):", duration_label(total), tasks.len());
    for &t in tasks.iter().take(TOP) {
        slice_line(out, m, t);
    }
    if tasks.len() > TOP {
        let _ = writeln!(out, "  … and {} more", tasks.len() - TOP);
    }
}

/// The report as text.
pub fn chrome_text(d: &Dataset) -> String {
    let Some(run) = run_of(d) else { return String::new() };
    let m = &d.model;
    let mut out = String::new();
    let phases: Vec<String> = run.by_phase.iter().map(|(p, n)| format!("{p} {}", group(*n))).collect();
    let _ = writeln!(
        out,
        "Chrome trace: {} events ({}), {} processes, {} threads, {} flow dependencies, {} counter series{}",
        group(run.events),
        phases.join(", "),
        run.processes,
        run.threads,
        group(run.flows),
        run.counters.len(),
        if run.unterminated { "; the event array is unterminated" } else { "" }
    );
    let r = PathsReport::new(m);
    if run.flows > 0 {
        path_text(&mut out, m, "Critical path", r.ya.total, &r.ya.tasks);
        path_text(&mut out, m, "Blocking chain", r.blocking.total, &r.blocking.tasks);
    }
    if let Some(bazel) = run.bazel.as_deref() {
        super::bazel::report::bazel_summary_text(&mut out, m, bazel);
    }
    let _ = writeln!(out, "\nLongest slices:");
    for t in longest(m) {
        slice_line(&mut out, m, t);
    }
    let f = &run.flame;
    let hot = f.hottest_path(0);
    if hot.len() > 1 {
        let frames: Vec<&str> = hot.iter().skip(1).map(|&n| f.nodes[n as usize].name.as_str()).collect();
        let total = f.nodes[hot[1] as usize].total[0].unwrap_or(0);
        let _ = writeln!(out, "\nHottest stack ({}): {}", duration_label(total as i64), frames.join(" > "));
    }
    out
}
