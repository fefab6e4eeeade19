//! Readable text dumps of a model, one task per line: what snapshot tests
//! compare and what `longpole dump` prints.

use crate::model::{Model, Nanos, TaskId};
use crate::numbers::ms;
use std::fmt::Write;

fn opt_ms(t: Option<Nanos>) -> String {
    t.map_or_else(|| "?".to_owned(), ms)
}

/// One line per task: role, uid, lane, start, end, duration (ms; `?` when
/// unknown), kind, flags and dependencies; then the window.
pub fn tasks(model: &Model) -> String {
    let mut out = String::new();
    for (i, t) in model.tasks().iter().enumerate() {
        let deps: Vec<String> = model
            .deps(TaskId(i as u32))
            .iter()
            .map(|&d| format!("{}@{}", model.uid(d), model.task(d).role.name()))
            .collect();
        let _ = write!(
            out,
            "{} {} lane={} {}..{} dur={} kind={}",
            t.role.name(),
            model.uid(TaskId(i as u32)),
            model.lanes()[t.lane.index()].name,
            opt_ms(t.start.get()),
            opt_ms(t.end.get()),
            opt_ms(t.duration()),
            model.kinds()[t.kind.index()].name,
        );
        if let Some(b) = model.bytes(TaskId(i as u32)) {
            let _ = write!(out, " bytes={b}");
        }
        if let Some(o) = model.origin(TaskId(i as u32)) {
            let _ = write!(out, " from={}", model.lanes()[o.index()].name);
        }
        if t.cached {
            out.push_str(" cached");
        }
        if t.failed {
            out.push_str(" failed");
        }
        let _ = writeln!(out, " deps=[{}]", deps.join(", "));
    }
    match model.window() {
        Some((a, b)) => {
            let _ = writeln!(out, "window {}..{} wall={}", ms(a), ms(b), ms(b - a));
        }
        None => out.push_str("window none\n"),
    }
    out
}
