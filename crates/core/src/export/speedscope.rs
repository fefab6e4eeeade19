//! Any run as a speedscope file (its JSON file format, `evented` profiles).
//!
//! One profile per timeline row of each lane (rows never overlap, so every
//! profile's open/close events are balanced and in time order); frames are
//! the tasks' labels, shared across profiles. Times are nanoseconds from the
//! run's start.

use crate::layout::timeline::TimelineIndex;
use crate::model::{Model, TaskId};
use serde_json::{json, Value};
use std::collections::HashMap;

/// The speedscope file of `model`, named `name`.
pub fn speedscope(model: &Model, index: &TimelineIndex, name: &str) -> String {
    let origin = model.window().map_or(0, |w| w.0);
    let end = model.window().map_or(0, |w| w.1 - w.0);
    let rows = index.rows_per_lane();
    let mut by_row: Vec<Vec<Vec<TaskId>>> = rows.iter().map(|&n| vec![Vec::new(); n.max(1) as usize]).collect();
    for (i, task) in model.tasks().iter().enumerate() {
        let t = TaskId(i as u32);
        if !task.start.is_known() || !task.end.is_known() {
            continue;
        }
        let row = index.row(t).unwrap_or(0) as usize;
        if let Some(r) = by_row[task.lane.index()].get_mut(row) {
            r.push(t);
        }
    }
    let mut frames: Vec<Value> = Vec::new();
    let mut frame_of: HashMap<String, usize> = HashMap::new();
    let mut profiles = Vec::new();
    for (lane, lane_rows) in by_row.iter_mut().enumerate() {
        let several = lane_rows.len() > 1;
        for (r, tasks) in lane_rows.iter_mut().enumerate() {
            if tasks.is_empty() {
                continue;
            }
            tasks.sort_by_key(|&t| (model.task(t).start, model.task(t).end, t));
            let mut events = Vec::with_capacity(tasks.len() * 2);
            for &t in tasks.iter() {
                let label = model.label(t).into_owned();
                let next = frames.len();
                let frame = *frame_of.entry(label.clone()).or_insert_with(|| {
                    frames.push(json!({"name": label}));
                    next
                });
                let task = model.task(t);
                let (s, e) = (task.start.get().unwrap_or(origin) - origin, task.end.get().unwrap_or(origin) - origin);
                events.push(json!({"type": "O", "at": s, "frame": frame}));
                events.push(json!({"type": "C", "at": e.max(s), "frame": frame}));
            }
            let lane_name = &model.lanes()[lane].name;
            let title = if several { format!("{lane_name} #{}", r + 1) } else { lane_name.clone() };
            profiles.push(json!({
                "type": "evented", "name": title, "unit": "nanoseconds", "startValue": 0, "endValue": end, "events": events,
            }));
        }
    }
    json!({
        "$schema": "https://www.speedscope.app/file-format-schema.json",
        "shared": {"frames": frames},
        "profiles": profiles,
        "name": name,
        "activeProfileIndex": 0,
        "exporter": format!("longpole {}", env!("CARGO_PKG_VERSION")),
    })
    .to_string()
}
