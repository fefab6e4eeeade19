//! What every run's report shares in `longpole analyze --format json`
//! (docs/json.md; the schema is docs/schema/analysis-v1.json): `format`,
//! `wall_ms` and `critical_path`, whose tasks each have `name`, `lane`,
//! `start_ms`, `end_ms` and `duration_ms` before the format's own fields;
//! or, for a run without dependencies, a null `critical_path` and
//! `no_path_reason`. The format's own members follow.

use crate::analysis::no_path::NoPath;
use crate::model::{Model, TaskId};
use crate::numbers::Ms;
use crate::run::{Dataset, ReportPath, RunReport};
use serde_json::{json, Map, Value};

/// The version of the shape, `schema_version` at the top of the report.
pub const SCHEMA_VERSION: u32 = 1;

/// Adds the members of `own` (a JSON object) to `out`, where `out` has no
/// member of that name yet: what every format shares wins.
fn add_own(out: &mut Map<String, Value>, own: Value) {
    if let Value::Object(own) = own {
        for (k, v) in own {
            out.entry(k).or_insert(v);
        }
    }
}

/// One task of a critical path: the shared fields, then the format's `own`
/// (which may name the task better: ninja's `name` is the first output).
fn task_json(m: &Model, t: TaskId, own: Value) -> Value {
    let task = m.task(t);
    let mut out = Map::new();
    out.insert("name".into(), json!(m.label(t)));
    out.insert("lane".into(), json!(m.lanes()[task.lane.index()].name));
    out.insert("start_ms".into(), json!(task.start.get().map(|x| Ms(x).json())));
    out.insert("end_ms".into(), json!(task.end.get().map(|x| Ms(x).json())));
    out.insert("duration_ms".into(), json!(task.duration().map(|x| Ms(x).json())));
    if let Value::Object(own) = own {
        out.extend(own);
    }
    Value::Object(out)
}

/// The critical path a format names (none: an empty path).
fn path_json(m: &Model, path: Option<ReportPath>) -> Value {
    let Some(p) = path else { return json!({"total_ms": 0, "tasks": []}) };
    let tasks: Vec<Value> = p.path.tasks.iter().zip(p.tasks).map(|(&t, own)| task_json(m, t, own)).collect();
    let mut out = Map::new();
    out.insert("total_ms".into(), Ms(p.path.total).json());
    out.insert("tasks".into(), Value::Array(tasks));
    add_own(&mut out, Value::Object(p.own));
    Value::Object(out)
}

/// A run without dependencies claims no path: `critical_path` and
/// `blocking_chain` are null, `no_path_reason` says why, and
/// `busiest_lane` is what stands in beside the longest spans.
fn without_paths(out: &mut Map<String, Value>, no_path: &NoPath) {
    out.insert("critical_path".into(), Value::Null);
    out.insert("no_path_reason".into(), json!(no_path.reason));
    out.insert("blocking_chain".into(), Value::Null);
    out.insert(
        "busiest_lane".into(),
        json!(no_path.busiest_lane.as_ref().map(|b| json!({"name": b.name, "busy_ms": Ms(b.busy).json()}))),
    );
}

/// The run `d`'s report: the shared members, then its format's `report`.
pub fn run_json(d: &Dataset, report: RunReport) -> Value {
    let mut out = Map::new();
    out.insert("format".into(), json!(d.format));
    out.insert("wall_ms".into(), json!(d.model.wall().map(|w| Ms(w).json())));
    match d.no_path() {
        Some(no_path) => without_paths(&mut out, &no_path),
        None => {
            out.insert("critical_path".into(), path_json(&d.model, report.critical_path));
        }
    }
    add_own(&mut out, report.own);
    Value::Object(out)
}

/// The report of inputs from which no run was read: their `format`, and
/// neither wall time nor path.
pub fn no_run_json(format: Option<&str>) -> Value {
    json!({
        "format": format, "wall_ms": null, "critical_path": null,
        "no_path_reason": "No run was read from the inputs, so there is no critical path.",
    })
}

/// The whole analysis's report: `schema_version`, then the first run's
/// report `first`.
pub fn top_json(first: Value) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("schema_version".into(), json!(SCHEMA_VERSION));
    add_own(&mut out, first);
    out
}
