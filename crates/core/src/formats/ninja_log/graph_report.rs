//! The report of one build read with its build graph: what ran of the
//! manifest, the critical path (the largest sum of durations through the
//! edges it waited for), the blocking chain with its idle gaps, and
//! Chromium's weighted time per extension and per edge.

use super::reconcile::{BuildGraph, NinjaRun};
use super::weighted::ExtensionRow;
use crate::analysis::top::top;
use crate::model::{Model, Nanos, TaskId};
use crate::numbers::Ms;
use crate::numbers::{duration_label, group};
use crate::report::paths::PathsReport;
use crate::run::{Dataset, ReportPath, RunReport};
use serde_json::{json, Map, Value};
use std::cmp::Reverse;
use std::fmt::Write;

/// Edges listed by weighted time.
const TOP: usize = 10;

/// The edges with the largest weighted time (by task id), largest first.
pub fn top_weighted(weighted: &[Nanos]) -> Vec<TaskId> {
    let all: Vec<TaskId> = (0..weighted.len() as u32).map(TaskId).collect();
    top(&all, TOP, |t| Reverse(weighted[t.index()]))
}

/// The weighted time per extension as JSON.
pub fn by_extension_json(rows: &[ExtensionRow]) -> Value {
    json!(rows.iter().map(|e| json!({
        "extension": e.extension, "edges": e.edges, "weighted_ms": Ms(e.weighted).json(), "elapsed_ms": Ms(e.elapsed).json(),
    })).collect::<Vec<_>>())
}

/// One sentence: which build, how much of the manifest ran.
pub fn ran_line(run: &NinjaRun, g: &BuildGraph) -> String {
    let edges = run.builds.first().map_or(0, |b| b.edges);
    let mut s = format!(
        "build {} of {} in the log: {} edges ran (a build from nothing runs {} of the manifest's {}), {} dependencies between them ({} from the deps log)",
        g.build,
        g.builds,
        group(edges),
        group(g.default_edges),
        group(g.manifest_edges),
        group(g.dependencies),
        group(g.from_deps_log)
    );
    if g.rebuild {
        s.push_str("; a rebuild: its path covers only the edges that ran");
    }
    if g.unmatched > 0 {
        let _ = write!(s, "; {} outputs matched no edge of the manifest", group(g.unmatched));
    }
    s
}

fn step_json(m: &Model, t: TaskId, gap: Option<Nanos>, g: &BuildGraph) -> Value {
    let task = m.task(t);
    json!({
        "name": m.uid(t), "output": m.label(t), "slot": m.lanes()[task.lane.index()].name,
        "start_ms": task.start.get().map(|s| Ms(s).json()), "end_ms": task.end.get().map(|e| Ms(e).json()),
        "duration_ms": Ms(task.duration().unwrap_or(0)).json(),
        "weighted_ms": Ms(g.weighted.get(t.index()).copied().unwrap_or(0)).json(),
        "idle_before_ms": gap.map(|g| Ms(g).json()),
    })
}

/// The report as JSON.
pub fn graph_json(d: &Dataset, run: &NinjaRun, g: &BuildGraph) -> RunReport {
    let m = &d.model;
    let r = PathsReport::new(m);
    let own = json!({
        "ninja": {
            "version": run.version,
            "build": g.build, "builds": g.builds, "edges_ran": run.builds.first().map_or(0, |b| b.edges),
            "manifest_edges": g.manifest_edges, "default_edges": g.default_edges, "dependencies": g.dependencies, "from_deps_log": g.from_deps_log,
            "unmatched_outputs": g.unmatched, "rebuild": g.rebuild,
        },
        "blocking_chain": {
            "total_ms": Ms(r.blocking.total).json(),
            "steps": r.steps.iter().map(|s| step_json(m, s.task, Some(s.gap), g)).collect::<Vec<_>>(),
        },
        "weighted_by_extension": by_extension_json(&g.by_extension),
        "weighted_longest": top_weighted(&g.weighted).iter().map(|&t| step_json(m, t, None, g)).collect::<Vec<_>>(),
    });
    // The path's steps are its tasks; `steps` keeps the name it had before.
    let tasks: Vec<Value> = r.ya.tasks.iter().map(|&t| step_json(m, t, None, g)).collect();
    let steps = Map::from_iter([("steps".to_owned(), json!(tasks))]);
    RunReport { critical_path: Some(ReportPath { path: r.ya, tasks, own: steps }), ..RunReport::of(own) }
}

fn line(out: &mut String, m: &Model, t: TaskId, extra: &str) {
    let task = m.task(t);
    let _ = writeln!(out, "  {:>10}{extra}  {}", duration_label(task.duration().unwrap_or(0)), m.label(t));
}

/// The report as text.
pub fn graph_text(d: &Dataset, run: &NinjaRun, g: &BuildGraph) -> String {
    let m = &d.model;
    let r = PathsReport::new(m);
    let mut out = String::new();
    let _ = writeln!(out, "ninja log v{} with its build graph: {}.", run.version, ran_line(run, g));
    let wall = run.builds.first().map_or(0, |b| b.wall);
    if d.no_path().is_none() {
        paths_text(&mut out, m, &r, wall);
    }
    weighted_text(&mut out, m, &g.weighted, &g.by_extension);
    out
}

/// Both paths, the blocking chain with its idle gaps.
fn paths_text(out: &mut String, m: &Model, r: &PathsReport<'_>, wall: Nanos) {
    let _ = writeln!(
        out,
        "\nCritical path ({} of the build's {}, {} edges; the largest sum of durations through what each edge waited for):",
        duration_label(r.ya.total),
        duration_label(wall),
        r.ya.tasks.len()
    );
    for &t in &r.ya.tasks {
        line(out, m, t, "");
    }
    let _ = writeln!(
        out,
        "\nBlocking chain ({} edges, from the last to finish back through the input that finished last; idle gaps before each):",
        r.steps.len()
    );
    for s in &r.steps {
        line(out, m, s.task, &format!("  idle {:>10}", duration_label(s.gap)));
    }
}

/// Weighted time by extension, then the edges with the most.
pub fn weighted_text(out: &mut String, m: &Model, weighted: &[Nanos], by_extension: &[ExtensionRow]) {
    let _ = writeln!(out, "\nWeighted time by extension (Chromium's post_build_ninja_summary.py):");
    for e in by_extension {
        let _ = writeln!(
            out,
            "  {:>10} weighted  {:>10} elapsed  {:>6} edges  {}",
            duration_label(e.weighted),
            duration_label(e.elapsed),
            group(e.edges),
            e.extension
        );
    }
    let _ = writeln!(out, "\nLongest edges by weighted time:");
    for t in top_weighted(weighted) {
        let _ = writeln!(
            out,
            "  {:>10} weighted  {:>10} elapsed  {}",
            duration_label(weighted[t.index()]),
            duration_label(m.task(t).duration().unwrap_or(0)),
            m.label(t)
        );
    }
}
