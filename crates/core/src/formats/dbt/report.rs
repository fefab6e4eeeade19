//! A dbt run's report, as `longpole analyze` prints it: the invocation, the
//! nodes by type, threads used against `--threads`, the wall beside dbt's
//! `elapsed_time`, and the path with each step's time.

use super::run::{idle_threads, path, DbtRun};
use crate::analysis::critical_path::Path;
use crate::model::{Model, TaskId};
use crate::numbers::duration_label;
use crate::numbers::Ms;
use crate::run::{Dataset, ReportPath, RunReport};
use serde_json::{json, Map, Value};
use std::fmt::Write;

/// A path step's node, step name and the node's status.
fn step_of<'a>(run: &'a DbtRun, m: &'a Model, t: TaskId) -> (Option<&'a super::run::NodeInfo>, &'a str) {
    let node = run.nodes.iter().find(|n| (n.tasks.0..n.tasks.1).contains(&t.0));
    let label = m.str(m.name(t).unwrap_or(m.task(t).uid));
    (node, label.rsplit(" · ").next().unwrap_or(""))
}

/// The threads the idle figure counts: `--threads`, else those used.
fn allowed(run: &DbtRun) -> u32 {
    run.threads.unwrap_or(run.threads_used)
}

/// The report as JSON.
pub fn dbt_json(d: &Dataset, run: &DbtRun) -> RunReport {
    let m = &d.model;
    let p = path(m);
    let c = run.counts();
    let tasks: Vec<Value> = p
        .tasks
        .iter()
        .map(|&t| {
            let task = m.task(t);
            let (node, step) = step_of(run, m, t);
            json!({
                "name": m.label(t), "lane": m.lanes()[task.lane.index()].name,
                "start_ms": task.start.get().map(|s| Ms(s).json()), "end_ms": task.end.get().map(|e| Ms(e).json()),
                "duration_ms": Ms(task.duration().unwrap_or(0)).json(),
                "unique_id": m.uid(t), "step": step,
                "resource_type": node.map(|n| n.resource_type.as_str()), "status": node.map(|n| n.status.as_str()),
            })
        })
        .collect();
    let own = json!({
        "dbt": {
            "dbt_version": run.dbt_version, "invocation_id": run.invocation_id, "command": run.command,
            "run_results_version": run.results_version, "manifest_version": run.manifest_version,
            "elapsed_time_ms": run.elapsed.map(|e| Ms(e).json()),
            "threads": run.threads, "threads_used": run.threads_used,
            "idle_threads_on_path": idle_threads(m, &p, allowed(run)),
            "models": c.models, "tests": c.tests, "seeds": c.seeds, "snapshots": c.snapshots, "other_nodes": c.other,
            "dependencies": run.dependencies, "test_edges": run.test_edges,
            "nodes": run.nodes.iter().map(|n| json!({
                "unique_id": n.unique_id, "resource_type": n.resource_type, "status": n.status, "thread": n.thread,
                "execution_time_s": n.execution_time,
                "adapter_response": serde_json::from_str::<Value>(&n.adapter_response).unwrap_or(Value::Null),
                "message": n.message, "failures": n.failures,
            })).collect::<Vec<_>>(),
        },
    });
    RunReport { own, critical_path: Some(ReportPath { path: p, tasks, own: Map::new() }) }
}

/// One line of facts: nodes by type, threads, wall beside `elapsed_time`.
pub fn facts_line(m: &Model, run: &DbtRun) -> String {
    let c = run.counts();
    let mut s = format!(
        "dbt {} {}: {} models, {} tests, {} seeds, {} snapshots",
        run.dbt_version,
        run.command.as_deref().unwrap_or("run"),
        c.models,
        c.tests,
        c.seeds,
        c.snapshots
    );
    if c.other > 0 {
        let _ = write!(s, ", {} other nodes", c.other);
    }
    let _ = write!(s, " on {} of {} threads", run.threads_used, run.threads.map_or("?".to_owned(), |t| t.to_string()));
    let _ = write!(s, "; wall {}", m.wall().map_or("?".to_owned(), duration_label));
    if let Some(e) = run.elapsed {
        let _ = write!(s, " (dbt's elapsed_time {}, start-up included)", duration_label(e));
    }
    s
}

fn path_text(out: &mut String, m: &Model, run: &DbtRun, p: &Path) {
    let _ = writeln!(
        out,
        "\nPath ({}, {} steps; back from the step that finished last through the dependency that finished last; {:.1} of {} threads idle on average meanwhile):",
        duration_label(p.total),
        p.tasks.len(),
        idle_threads(m, p, allowed(run)),
        allowed(run)
    );
    for &t in &p.tasks {
        let task = m.task(t);
        let (node, _) = step_of(run, m, t);
        let _ = writeln!(
            out,
            "  {:>10}  {:<20} {:<8} {}",
            duration_label(task.duration().unwrap_or(0)),
            m.lanes()[task.lane.index()].name,
            node.map_or("", |n| n.status.as_str()),
            m.label(t)
        );
    }
}

/// The report as text.
pub fn dbt_text(d: &Dataset, run: &DbtRun) -> String {
    let m = &d.model;
    let mut out = facts_line(m, run);
    out.push('\n');
    if run.with_manifest {
        let _ = writeln!(
            out,
            "{} dependencies between the nodes that ran{}",
            run.dependencies,
            if run.test_edges > 0 {
                format!(", {} more from tests to the nodes downstream (dbt build)", run.test_edges)
            } else {
                String::new()
            }
        );
    }
    if d.no_path().is_none() {
        path_text(&mut out, m, run, &path(m));
    }
    out
}
