//! The report of MAL traces: mal_analytics' counts, the executions with
//! their critical paths, the most expensive operations and thread use.

use crate::formats::monetdb_mal::analysis::{by_instruction, by_module, core_use, execution_paths, OpStats};
use crate::formats::monetdb_mal::reconcile::MalRun;
use crate::numbers::duration_label;
use crate::numbers::group;
use crate::numbers::Ms;
use crate::report::paths::PathsReport;
use crate::run::{Dataset, RunReport};
use serde_json::{json, Value};
use std::fmt::Write;

/// Operations listed in the text report and the JSON.
const TOP: usize = 10;

fn run_of(d: &Dataset) -> Option<&MalRun> {
    d.detail::<MalRun>()
}

fn op_json(o: &OpStats) -> Value {
    json!({"name": o.name, "count": o.count, "total_ms": Ms(o.total).json(), "p50_ms": Ms(o.p50).json(),
           "p90_ms": Ms(o.p90).json(), "p99_ms": Ms(o.p99).json(), "max_ms": Ms(o.max).json()})
}

/// The report as JSON: the plan's critical path and blocking chain (as for
/// every format), and `"mal"` with mal_analytics' row counts, plus
/// `mal_executions`, `top_instructions`, `top_modules` and `threads`.
pub fn mal_json(d: &Dataset) -> RunReport {
    let mut r = PathsReport::new(&d.model).report();
    let Some(run) = run_of(d) else { return r };
    let v = &mut r.own;
    let c = &run.counts;
    v["mal"] = json!({
        "executions": c.executions, "events": c.events, "prerequisites": c.prerequisites,
        "variables": c.variables, "event_variables": c.event_variables, "queries": c.queries,
        "initiations": c.initiations,
        "generations": run.generations.iter().map(|g| g.name()).collect::<Vec<_>>(),
        "rejected_objects": run.rejected,
    });
    let paths = execution_paths(&d.model, run);
    v["mal_executions"] = run
        .executions
        .iter()
        .zip(&paths)
        .map(|(x, p)| {
            json!({"id": x.id, "session": x.session, "tag": x.tag, "function": x.function, "query": x.query,
                   "instructions": x.tasks.len(), "wall_ms": Ms(p.wall).json(),
                   "critical_path_ms": Ms(p.total).json(), "critical_path_length": p.tasks.len()})
        })
        .collect();
    v["mal_initiations"] = json!(run.initiations);
    v["top_instructions"] = by_instruction(&d.model, run).iter().take(TOP).map(op_json).collect();
    v["top_modules"] = by_module(&d.model).iter().take(TOP).map(op_json).collect();
    let core = core_use(&d.model);
    v["threads"] = json!({
        "count": core.threads, "busy_ms": Ms(core.busy).json(), "wall_ms": Ms(core.wall).json(),
        "parallelism": (core.parallelism() * 100.0).round() / 100.0, "peak": core.peak,
        "idle_ms": Ms(core.idle.iter().map(|(a, b)| b - a).sum()).json(),
    });
    r
}

/// The report as text.
pub fn mal_text(d: &Dataset) -> String {
    let Some(run) = run_of(d) else { return String::new() };
    let c = &run.counts;
    let mut out = String::new();
    let gens: Vec<&str> = run.generations.iter().map(|g| g.name()).collect();
    let _ = writeln!(
        out,
        "MonetDB MAL trace ({}): {} events, {} executions, {} queries, {} variables",
        gens.join(", "),
        group(c.events),
        group(c.executions),
        group(c.queries),
        group(c.variables)
    );
    let _ = writeln!(
        out,
        "mal_analytics rows: executions {}, events {}, prerequisites {}, variables {}, event variables {}, queries {}, initiations {}",
        c.executions, c.events, c.prerequisites, c.variables, c.event_variables, c.queries, c.initiations
    );
    let paths = execution_paths(&d.model, run);
    let _ = writeln!(
        out,
        "\nExecutions:\n  {:>4} {:>6} {:<16} {:>8} {:>12} {:>14}  query",
        "id", "tag", "function", "instrs", "wall", "critical path"
    );
    for (x, p) in run.executions.iter().zip(&paths) {
        let query: String = x.query.as_deref().unwrap_or("").chars().take(60).collect();
        let line = format!(
            "  {:>4} {:>6} {:<16} {:>8} {:>12} {:>14}  {}",
            x.id,
            x.tag,
            x.function,
            group(x.tasks.len() as u64),
            duration_label(p.wall),
            duration_label(p.total),
            query.replace('\n', " ")
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    if let Some(p) = paths.iter().max_by_key(|p| (p.total, std::cmp::Reverse(p.execution))) {
        let _ = writeln!(out, "\nCritical path of execution {} ({}):", p.execution, duration_label(p.total));
        for &t in &p.tasks {
            let task = d.model.task(t);
            let label: String = d.model.label(t).chars().take(100).collect();
            let _ = writeln!(
                out,
                "  {:>12}  {:<10} {}",
                duration_label(task.duration().unwrap_or(0)),
                d.model.lanes()[task.lane.index()].name,
                label
            );
        }
    }
    for (title, rows) in [("instructions", by_instruction(&d.model, run)), ("modules", by_module(&d.model))] {
        let _ = writeln!(
            out,
            "\nMost expensive {title}:\n  {:<32} {:>8} {:>12} {:>10} {:>10} {:>10} {:>10}",
            "name", "count", "total", "p50", "p90", "p99", "max"
        );
        for o in rows.iter().take(TOP) {
            let _ = writeln!(
                out,
                "  {:<32} {:>8} {:>12} {:>10} {:>10} {:>10} {:>10}",
                o.name,
                group(o.count),
                duration_label(o.total),
                duration_label(o.p50),
                duration_label(o.p90),
                duration_label(o.p99),
                duration_label(o.max)
            );
        }
    }
    let core = core_use(&d.model);
    let idle: i64 = core.idle.iter().map(|(a, b)| b - a).sum();
    let _ = writeln!(
        out,
        "\nThreads: {} used, {:.2} busy on average (peak {}), nothing running for {} of {}",
        core.threads,
        core.parallelism(),
        core.peak,
        duration_label(idle),
        duration_label(core.wall)
    );
    out
}
