//! A run's levers as `longpole analyze` prints them: the tasks whose
//! fixing would save the most wall time, with their drag, slack, saving if
//! halved and the next pole ([`crate::analysis::drag`]), and each critical
//! path task's drag. A run without dependencies claims none.

use crate::analysis::critical_path::ya_path;
use crate::analysis::drag::{Drags, Lever};
use crate::analysis::replay::Replay;
use crate::model::Model;
use crate::numbers::duration_label;
use crate::numbers::Ms;
use crate::run::Dataset;
use serde_json::{json, Value};
use std::fmt::Write;

/// How many levers a report lists.
pub const SHOWN: usize = 20;

/// How many of the longest tasks off the path get a drag beside the path's.
pub const OTHERS: usize = 100;

/// The run of `d` that is replayed: its only run, or the last of several
/// (a ninja log's latest build); `None` when it records no dependencies.
pub fn replay_of(d: &Dataset) -> Option<Replay> {
    // The reason alone: the busiest lane, which `no_path` finds too, is not needed here.
    if d.kind.no_path_reason(&d.model).is_some() {
        return None;
    }
    let (_, tasks) = d.kind.compare_runs(&d.model).pop()?;
    Some(Replay::of_run(&d.model, &tasks)).filter(Replay::has_deps)
}

/// Each model task's position in `replay` (`None`: not replayed).
pub fn positions(model: &Model, replay: &Replay) -> Vec<Option<u32>> {
    let mut pos = vec![None; model.tasks().len()];
    (0..replay.len()).for_each(|p| pos[replay.task(p).index()] = Some(p as u32));
    pos
}

/// A lever as JSON: `{name, lane, duration_ms, slack_ms, drag_ms, saved_if_halved_ms, next_pole}`.
fn lever_json(m: &Model, l: &Lever) -> Value {
    json!({
        "name": m.label(l.task), "lane": m.lanes()[m.task(l.task).lane.index()].name,
        "duration_ms": Ms(l.duration).json(), "slack_ms": Ms(l.slack).json(), "drag_ms": Ms(l.drag).json(),
        "saved_if_halved_ms": Ms(l.saved_if_halved).json(), "next_pole": l.next_pole.map(|t| m.label(t)),
    })
}

/// A run's levers as JSON, worked out apart from its report (so that the
/// two can be made at once) and added to it by [`LeversJson::add_to`].
pub struct LeversJson {
    /// The [`SHOWN`] largest drags; null for a run without dependencies.
    levers: Value,
    /// Each step of ya's path, its drag (null: not replayed).
    path_drags: Vec<Value>,
}

/// `d`'s levers as JSON.
pub fn levers_json(d: &Dataset) -> LeversJson {
    let Some(replay) = replay_of(d) else {
        return LeversJson { levers: Value::Null, path_drags: Vec::new() };
    };
    let drags = Drags::new(&replay);
    let m = &d.model;
    let levers = json!(drags.levers(OTHERS).iter().take(SHOWN).map(|l| lever_json(m, l)).collect::<Vec<_>>());
    let pos = positions(m, &replay);
    let at: Vec<Option<usize>> = ya_path(m).0.tasks.iter().map(|t| pos[t.index()].map(|p| p as usize)).collect();
    let mut path_levers = drags.levers_at(at.iter().flatten().copied()).into_iter();
    let path_drags = at.iter().map(|p| json!(p.and_then(|_| path_levers.next()).map(|l| Ms(l.drag).json()))).collect();
    LeversJson { levers, path_drags }
}

impl LeversJson {
    /// Adds `levers` to `report`, the JSON of the run, and `drag_ms` to
    /// each step of its `critical_path` (ya's path, its steps in `tasks` or
    /// `steps`).
    pub fn add_to(self, report: &mut Value) {
        report["levers"] = self.levers;
        for steps in ["tasks", "steps"] {
            if let Some(Value::Array(entries)) = report.get_mut("critical_path").and_then(|c| c.get_mut(steps)) {
                if entries.len() == self.path_drags.len() {
                    entries.iter_mut().zip(&self.path_drags).for_each(|(e, d)| e["drag_ms"] = d.clone());
                }
            }
        }
    }
}

/// The "Levers" section of `d`'s text report (empty for a run without
/// dependencies: its report says why it claims no path).
pub fn levers_text(d: &Dataset) -> String {
    let Some(replay) = replay_of(d) else { return String::new() };
    let drags = Drags::new(&replay);
    let m = &d.model;
    let mut out = String::from(
        "\nLevers: the wall time saved if a task took no time (drag) or half its time, and how much later it could end (slack)\n",
    );
    let _ = writeln!(
        out,
        "  {:>10}  {:>10}  {:>10}  {:>10}  task  (then: next pole)",
        "drag", "if halved", "slack", "duration"
    );
    for l in drags.levers(OTHERS).iter().take(SHOWN) {
        let next = l.next_pole.map(|t| format!("  (then: {})", m.label(t))).unwrap_or_default();
        let _ = writeln!(
            out,
            "  {:>10}  {:>10}  {:>10}  {:>10}  {}{next}",
            duration_label(l.drag),
            duration_label(l.saved_if_halved),
            duration_label(l.slack),
            duration_label(l.duration),
            m.label(l.task)
        );
    }
    out
}
