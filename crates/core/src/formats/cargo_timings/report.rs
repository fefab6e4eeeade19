//! The report of a Cargo build: the summary cargo's page shows (units,
//! fresh and dirty, total time, max concurrency, time by section), the
//! path with how each unit was made ready, and the longest units.

use super::path::Via;
use super::reconcile::CargoRun;
use crate::analysis::critical_path::Path;
use crate::analysis::top::top;
use crate::model::{Model, TaskId};
use crate::numbers::Ms;
use crate::numbers::{duration_label, group};
use crate::run::{Dataset, ReportPath, RunReport};
use serde_json::{json, Map, Value};
use std::cmp::Reverse;
use std::fmt::Write;

/// Units listed as the longest.
const LONGEST: usize = 10;

/// The longest units, longest first.
pub fn longest(m: &Model) -> Vec<TaskId> {
    let all: Vec<TaskId> = (0..m.tasks().len() as u32).map(TaskId).collect();
    top(&all, LONGEST, |t| Reverse(m.task(t).duration().unwrap_or(0)))
}

fn via_word(via: Option<Via>) -> Option<&'static str> {
    via.map(|v| match v {
        Via::End => "end",
        Via::Metadata => "metadata",
    })
}

fn unit_json(d: &Dataset, run: &CargoRun, t: TaskId) -> Value {
    let m = &d.model;
    let task = m.task(t);
    let u = run.units.get(t.index());
    json!({
        "name": m.uid(t), "lane": m.lanes()[task.lane.index()].name,
        "start_ms": task.start.get().map(|s| Ms(s).json()), "end_ms": task.end.get().map(|e| Ms(e).json()),
        "duration_ms": Ms(task.duration().unwrap_or(0)).json(),
        "package": u.map(|u| &u.package), "version": u.map(|u| &u.version), "target": u.map(|u| &u.target),
        "mode": u.map(|u| &u.mode), "unit_index": u.map(|u| u.index), "fresh": u.is_some_and(|u| u.fresh),
    })
}

/// The report as JSON: the summary and longest units as the format's own
/// members, and the path with how each unit was made ready.
pub fn cargo_json(d: &Dataset) -> RunReport {
    let Some(run) = d.detail::<CargoRun>() else { return RunReport::of(json!({})) };
    let m = &d.model;
    let s = &run.summary;
    let path: Vec<Value> = run
        .path
        .iter()
        .map(|step| {
            let mut v = unit_json(d, run, TaskId(step.unit as u32));
            v["made_ready_by"] = json!(via_word(step.via));
            v["ready_ms"] = json!(step.ready.map(|r| Ms(r).json()));
            v["waited_ms"] = Ms(step.waited).json();
            v
        })
        .collect();
    let own = json!({
        "cargo": {
            "dialect": run.dialect, "rmeta_time_field": run.rmeta_time_field,
            "units": m.tasks().len(), "fresh_listed": run.fresh_listed,
            "fresh": s.fresh, "dirty": s.dirty, "total_units": s.total_units,
            "max_concurrency": run.max_concurrency, "cargo_max_concurrency": s.max_concurrency, "jobs": s.jobs,
            "total_time": s.total_time, "profile": s.profile, "rustc": s.rustc, "slots": run.slots,
            "sections": run.sections.iter().map(|x| json!({"name": x.name, "units": x.units, "time_ms": Ms(x.time).json()})).collect::<Vec<_>>(),
        },
        "longest": longest(m).into_iter().map(|t| unit_json(d, run, t)).collect::<Vec<_>>(),
    });
    let tasks = run.path.iter().map(|step| TaskId(step.unit as u32)).collect();
    let path = ReportPath { path: Path { tasks, total: run.path_total }, tasks: path, own: Map::new() };
    RunReport { own, critical_path: Some(path) }
}

/// The report as text.
pub fn cargo_text(d: &Dataset) -> String {
    let Some(run) = d.detail::<CargoRun>() else { return String::new() };
    let m = &d.model;
    let s = &run.summary;
    let opt = |n: Option<u64>| n.map_or("?".to_owned(), group);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Cargo build: {} units ({} fresh, {} dirty by cargo's count), total time {}, max concurrency {} (cargo: {}, jobs={})",
        group(m.tasks().len() as u64),
        opt(s.fresh),
        opt(s.dirty),
        m.wall().map_or("?".into(), duration_label),
        run.max_concurrency,
        opt(s.max_concurrency),
        opt(s.jobs),
    );
    if let Some(r) = &s.rustc {
        let _ = writeln!(out, "{r}, profile {}", s.profile.as_deref().unwrap_or("?"));
    }
    if !run.sections.is_empty() {
        let _ = writeln!(out, "\nTime by section:");
        for x in &run.sections {
            let _ = writeln!(out, "  {:<10} {:>12}  ({} units)", x.name, duration_label(x.time), group(x.units));
        }
    }
    let _ = writeln!(out, "\nCritical path: {} over {} units", duration_label(run.path_total), run.path.len());
    for step in &run.path {
        let t = TaskId(step.unit as u32);
        let how = match step.via {
            Some(Via::Metadata) => format!("after metadata, waited {}", duration_label(step.waited)),
            Some(Via::End) => format!("after end, waited {}", duration_label(step.waited)),
            None => "first".to_owned(),
        };
        let _ = writeln!(out, "  {:>12}  {:<28} {}", duration_label(m.task(t).duration().unwrap_or(0)), how, m.uid(t));
    }
    let _ = writeln!(out, "\nLongest units:");
    for t in longest(m) {
        let _ = writeln!(out, "  {:>12}  {}", duration_label(m.task(t).duration().unwrap_or(0)), m.uid(t));
    }
    out
}
