//! `longpole whatif`: a run replayed ([`crate::analysis::replay`]) with
//! chosen tasks faster, and what it would have taken: the wall time before
//! and after, the tasks changed and the new critical path.
//!
//! A task is chosen by a key: its name (or uid), else its compare key
//! (`RunKind::compare_keys`, as given or normalised), else a substring of
//! one name. A substring that more than one name holds is an error that
//! lists them.

use crate::analysis::replay::Replay;
use crate::compare::normalise::normalise;
use crate::model::{Model, Nanos};
use crate::numbers::duration_label;
use crate::numbers::Ms;
use crate::report::levers::replay_of;
use crate::run::Analysis;
use serde_json::{json, Value};
use std::fmt::Write;

/// Tasks to make faster: those `key` names, their durations times `factor`
/// (0.5: twice as fast; 0: no time).
#[derive(Clone, Debug, PartialEq)]
pub struct Faster {
    /// A task's name, a compare key, or a substring of one name.
    pub key: String,
    /// What their durations are multiplied by, 0 to 1.
    pub factor: f64,
}

impl std::str::FromStr for Faster {
    type Err = String;

    /// `KEY=FACTOR`, split at the last `=`.
    fn from_str(s: &str) -> Result<Faster, String> {
        let (key, factor) = s.rsplit_once('=').ok_or_else(|| format!("{s:?} is not KEY=FACTOR"))?;
        let factor: f64 = factor.trim().parse().map_err(|_| format!("{factor:?} is not a number (in {s:?})"))?;
        if !(0.0..=1.0).contains(&factor) {
            return Err(format!("a factor is from 0 (no time) to 1 (as it was), not {factor}"));
        }
        Ok(Faster { key: key.to_owned(), factor })
    }
}

/// A duration `duration` made faster by `factor` (0.5: twice as fast; 0:
/// no time), to the nearest nanosecond: the CLI's and the page's what-if
/// both change a task this way.
pub fn faster_by(duration: Nanos, factor: f64) -> Nanos {
    (duration as f64 * factor).round() as Nanos
}

/// How many candidates an ambiguous key's error lists.
const LISTED: usize = 20;

/// The replay's positions `key` chooses, among `names` and `keys` by
/// position; an error says why none or which of several names.
fn chosen(key: &str, names: &[(String, &str)], keys: &[&str]) -> Result<Vec<usize>, String> {
    let by = |hit: &dyn Fn(usize) -> bool| (0..names.len()).filter(|&p| hit(p)).collect::<Vec<_>>();
    let exact = by(&|p| names[p].0 == key || names[p].1 == key);
    if !exact.is_empty() {
        return Ok(exact);
    }
    let normalised = normalise(key);
    let keyed = by(&|p| keys[p] == key || normalise(keys[p]) == normalised);
    if !keyed.is_empty() {
        return Ok(keyed);
    }
    let within = by(&|p| names[p].0.contains(key));
    let mut distinct: Vec<&str> = within.iter().map(|&p| names[p].0.as_str()).collect();
    distinct.sort_unstable();
    distinct.dedup();
    match distinct.len() {
        0 => Err(format!("no task is named {key:?}, has it as its key, or holds it in its name")),
        1 => Ok(within),
        n => Err(format!(
            "{key:?} is in {n} tasks' names; give one of them{}:\n  {}",
            if n > LISTED { format!(" (the first {LISTED} shown)") } else { String::new() },
            distinct.iter().take(LISTED).copied().collect::<Vec<_>>().join("\n  ")
        )),
    }
}

/// A path in the common shape: `{total_ms, tasks: [{name, lane, start_ms,
/// end_ms, duration_ms}]}`, on the log's own clock, as `analyze` gives it.
pub fn path_json(m: &Model, replay: &Replay, path: &[usize], ends: &[Nanos], durations: &[Nanos]) -> Value {
    let start = |p: usize| ends[p] - durations[p];
    let total = match (path.first(), path.last()) {
        (Some(&a), Some(&b)) => ends[b] - start(a),
        _ => 0,
    };
    let tasks: Vec<Value> = path
        .iter()
        .map(|&p| {
            let t = replay.task(p);
            json!({
                "name": m.label(t), "lane": m.lanes()[m.task(t).lane.index()].name,
                "start_ms": Ms(start(p)).json(), "end_ms": Ms(ends[p]).json(), "duration_ms": Ms(durations[p]).json(),
            })
        })
        .collect();
    json!({"total_ms": Ms(total).json(), "tasks": tasks})
}

/// The first run of `analysis` with dependencies replayed with `faster`:
/// `{wall_ms, what_if_wall_ms, saved_ms, changed: [{name, before_ms,
/// after_ms}], critical_path}`. An error says why a key chose no task, or
/// which of several, or that no run records dependencies.
pub fn what_if(analysis: &Analysis, faster: &[Faster]) -> Result<Value, String> {
    let found = analysis.datasets.iter().find_map(|d| replay_of(d).map(|r| (d, r)));
    let Some((d, replay)) = found else {
        let why = analysis.datasets.iter().find_map(|d| d.no_path()).map(|n| n.reason);
        return Err(format!(
            "no run here records dependencies, so nothing can be replayed{}",
            why.map(|w| format!(": {w}")).unwrap_or_default()
        ));
    };
    let m = &d.model;
    let all_keys = d.kind.compare_keys(m);
    let names: Vec<(String, &str)> =
        (0..replay.len()).map(|p| (m.label(replay.task(p)).into_owned(), m.uid(replay.task(p)))).collect();
    let keys: Vec<&str> =
        (0..replay.len()).map(|p| all_keys.get(replay.task(p).index()).map_or("", String::as_str)).collect();
    let mut durations = replay.durations().to_vec();
    let mut changed = vec![false; replay.len()];
    for f in faster {
        for p in chosen(&f.key, &names, &keys)? {
            durations[p] = faster_by(durations[p], f.factor);
            changed[p] = true;
        }
    }
    let wall = replay.wall(&replay.ends(replay.durations()));
    let ends = replay.ends(&durations);
    let after = replay.wall(&ends);
    let changed: Vec<Value> = (0..replay.len())
        .filter(|&p| changed[p])
        .map(|p| {
            json!({"name": names[p].0, "before_ms": Ms(replay.duration(p)).json(), "after_ms": Ms(durations[p]).json()})
        })
        .collect();
    Ok(json!({
        "wall_ms": Ms(wall).json(), "what_if_wall_ms": Ms(after).json(), "saved_ms": Ms(wall - after).json(),
        "changed": changed, "critical_path": path_json(m, &replay, &replay.path(&ends), &ends, &durations),
    }))
}

/// [`what_if`]'s answer as text.
pub fn what_if_text(v: &Value) -> String {
    let ms = |v: &Value| duration_label((v.as_f64().unwrap_or(0.0) * 1e6).round() as Nanos);
    let mut out = format!(
        "Wall time {} -> {} (saved {})\n\nChanged:\n",
        ms(&v["wall_ms"]),
        ms(&v["what_if_wall_ms"]),
        ms(&v["saved_ms"])
    );
    for c in v["changed"].as_array().into_iter().flatten() {
        let _ = writeln!(
            out,
            "  {:>10} -> {:>10}  {}",
            ms(&c["before_ms"]),
            ms(&c["after_ms"]),
            c["name"].as_str().unwrap_or("")
        );
    }
    let path = &v["critical_path"];
    let _ = writeln!(out, "\nCritical path after ({}):", ms(&path["total_ms"]));
    for t in path["tasks"].as_array().into_iter().flatten() {
        let _ = writeln!(
            out,
            "  {:>10} at {:>10}  {}  [{}]",
            ms(&t["duration_ms"]),
            ms(&t["start_ms"]),
            t["name"].as_str().unwrap_or(""),
            t["lane"].as_str().unwrap_or("")
        );
    }
    out
}
