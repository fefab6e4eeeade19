//! Any run as a Chrome trace (JSON object form) for Perfetto and
//! chrome://tracing.
//!
//! Processes, in order: **Critical Path** (the run's critical path, one
//! slice per step, as ya's `analyze-make` lays it out), **Failed Nodes**
//! (failed tasks), then the run itself: one thread per timeline row of each
//! lane (rows never overlap, so slices nest properly), named `lane` or
//! `lane #row`. Every task is an `X` slice (µs from the run's start,
//! fractional), zero-length tasks are instants; `args` carry the uid, kind,
//! role and task id. Processes without tasks are left out.

use crate::layout::timeline::TimelineIndex;
use crate::model::{Model, Nanos, Role, TaskId};
use serde_json::{json, Value};

/// µs from `origin`, keeping ns precision.
fn micros(t: Nanos, origin: Nanos) -> f64 {
    (t - origin) as f64 / 1000.0
}

fn slice(model: &Model, t: TaskId, pid: u32, tid: u32, origin: Nanos) -> Option<Value> {
    let task = model.task(t);
    let (start, end) = (task.start.get()?, task.end.get()?);
    let role = match task.role {
        Role::Work => "work",
        Role::Transfer => "transfer",
        Role::Setup => "setup",
        Role::Phase => "phase",
    };
    // The task id keeps two touching slices of one name apart for readers
    // that match ends to begins by name and arguments (speedscope).
    let args = json!({"uid": model.uid(t), "kind": model.kinds()[task.kind.index()].name, "role": role, "task": t.0});
    let name = model.label(t);
    Some(if end > start {
        json!({"name": name, "cat": model.kinds()[task.kind.index()].name, "ph": "X", "ts": micros(start, origin),
               "dur": micros(end, start), "pid": pid, "tid": tid, "args": args})
    } else {
        json!({"name": name, "cat": model.kinds()[task.kind.index()].name, "ph": "i", "s": "t",
               "ts": micros(start, origin), "pid": pid, "tid": tid, "args": args})
    })
}

fn meta(kind: &str, pid: u32, tid: Option<u32>, name: &str, sort: usize) -> [Value; 2] {
    let (name_key, sort_key) = match kind {
        "process" => ("process_name", "process_sort_index"),
        _ => ("thread_name", "thread_sort_index"),
    };
    let mut a = json!({"name": name_key, "ph": "M", "pid": pid, "args": {"name": name}});
    let mut b = json!({"name": sort_key, "ph": "M", "pid": pid, "args": {"sort_index": sort}});
    if let Some(tid) = tid {
        a["tid"] = json!(tid);
        b["tid"] = json!(tid);
    }
    [a, b]
}

/// The trace of `model`: its critical path (`path`, first step first), its
/// failed tasks, then every lane's rows; `title` goes in `otherData`.
pub fn chrome_trace(model: &Model, index: &TimelineIndex, path: &[TaskId], title: &str) -> String {
    let origin = model.window().map_or(0, |w| w.0);
    let mut events: Vec<Value> = Vec::new();
    let mut pid = 0u32;
    let mut process = |events: &mut Vec<Value>, name: &str, tasks: &[TaskId]| {
        if tasks.is_empty() {
            return;
        }
        pid += 1;
        events.extend(meta("process", pid, None, name, pid as usize));
        events.extend(meta("thread", pid, Some(0), name, 0));
        events.extend(tasks.iter().filter_map(|&t| slice(model, t, pid, 0, origin)));
    };
    process(&mut events, "Critical Path", path);
    let failed: Vec<TaskId> = (0..model.tasks().len() as u32).map(TaskId).filter(|&t| model.task(t).failed).collect();
    process(&mut events, "Failed Nodes", &failed);
    pid += 1;
    events.extend(meta("process", pid, None, title, pid as usize));
    let rows = index.rows_per_lane();
    let mut first_tid = Vec::with_capacity(rows.len());
    let mut tid = 0u32;
    for (lane, &n) in rows.iter().enumerate() {
        first_tid.push(tid);
        for r in 0..n.max(1) {
            let name = &model.lanes()[lane].name;
            let shown = if n > 1 { format!("{name} #{}", r + 1) } else { name.clone() };
            events.extend(meta("thread", pid, Some(tid), &shown, tid as usize));
            tid += 1;
        }
    }
    for (i, task) in model.tasks().iter().enumerate() {
        let t = TaskId(i as u32);
        let row = index.row(t).unwrap_or(0);
        events.extend(slice(model, t, pid, first_tid[task.lane.index()] + row, origin));
    }
    let trace =
        json!({"traceEvents": events, "displayTimeUnit": "ms", "otherData": {"producer": "longpole", "title": title}});
    trace.to_string()
}
