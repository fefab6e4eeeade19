//! A Cargo build as a [`Model`] and a [`CargoRun`]: each unit a task on a
//! concurrency slot, its one dependency the unit that made it ready, the
//! path, and the summary cargo's page shows.

use super::path::{path, span, unblockers, Step};
use super::{CargoTimings, Dialect, Summary, Unit};
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::hash::FastMap;
use crate::layout::slots::allocate;
use crate::model::{Model, ModelBuilder, Nanos, Role, Task};

/// One unit as the run keeps it, by task id.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct UnitInfo {
    /// Cargo's index.
    pub index: u64,
    /// The package.
    pub package: String,
    /// Its version.
    pub version: String,
    /// The target as cargo's table shows it (`""` for a library).
    pub target: String,
    /// Cargo's mode.
    pub mode: String,
    /// Listed with start 0 and duration 0: fresh, not rebuilt.
    pub fresh: bool,
}

/// Time spent in one section over all units.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SectionTime {
    /// The section (`frontend`, `codegen`, `link`, `other`).
    pub name: String,
    /// Units that recorded it.
    pub units: u64,
    /// Their time in it.
    pub time: Nanos,
}

/// What a Cargo build says beyond its model.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CargoRun {
    /// Which of cargo's writers made it.
    pub dialect: Dialect,
    /// Its units carry `rmeta_time` (cargo 1.94 and before).
    pub rmeta_time_field: bool,
    /// The summary as cargo wrote it.
    pub summary: Summary,
    /// Each unit, by task id.
    pub units: Vec<UnitInfo>,
    /// Units listed as fresh (start 0, duration 0).
    pub fresh_listed: u64,
    /// The most units running at once, from their times.
    pub max_concurrency: u64,
    /// Slots the units were packed on.
    pub slots: u64,
    /// The path, first unit first (`unit` is the task id).
    pub path: Vec<Step>,
    /// The path's span: first start to last end.
    pub path_total: Nanos,
    /// Time by section, where units recorded sections.
    pub sections: Vec<SectionTime>,
}

/// The target kinds cargo names.
const KINDS: [&str; 5] = ["lib", "bin", "test", "bench", "example"];

/// The kind of a unit, from its mode and target.
pub fn kind_of(mode: &str, target: &str) -> String {
    if mode == "run-custom-build" {
        return "build script (run)".into();
    }
    let t = target.trim();
    let (base, suffix) = match t.rsplit_once(" (") {
        Some((b, s)) if s.ends_with(')') => (b, Some(s.trim_end_matches(')'))),
        _ if t.starts_with('(') => ("", Some(t.trim_matches(['(', ')']))),
        _ => (t, None),
    };
    // ` app "bin"` (cargo 1.93 on), ` bin "app"` (before): the kind is the
    // word cargo knows, first or quoted.
    let first = base.split_whitespace().next().unwrap_or_default();
    let kind = match base {
        "" => "lib",
        _ if first == "build-script" || first == "build" => "build script",
        _ if KINDS.contains(&first) => first,
        _ => base.split('"').nth(1).unwrap_or(base),
    };
    match suffix {
        Some(s) => format!("{kind} ({s})"),
        None => kind.to_owned(),
    }
}

/// The model and run of a build; problems with the unit lists go to `diags`.
pub fn reconcile(t: &CargoTimings, diags: &mut Diagnostics) -> (Model, CargoRun) {
    // Repeated indices: the first unit is kept.
    let mut positions: FastMap<u64, usize> = FastMap::default();
    let mut units: Vec<&Unit> = Vec::with_capacity(t.units.len());
    for u in &t.units {
        if positions.contains_key(&u.index) {
            diags.report(
                Severity::Warning,
                "cargo.duplicate-unit",
                u.position,
                format!("unit index {} is listed again; the first is kept", u.index),
            );
            continue;
        }
        positions.insert(u.index, units.len());
        units.push(u);
    }
    let owned: Vec<Unit> = units.into_iter().cloned().collect();
    let by = unblockers(&owned, &|i| positions.get(&i).copied());
    for &(p, i) in &by.unknown {
        let at = owned.get(p).map_or(Position::Whole, |u| u.position);
        diags.report(
            Severity::Warning,
            "cargo.unknown-unit",
            at,
            format!("lists unit {i}, which the build does not have (or itself); ignored"),
        );
    }
    for &(d, p) in &by.twice {
        let at = owned.get(p).map_or(Position::Whole, |u| u.position);
        let index = owned.get(d).map_or(0, |u| u.index);
        diags.report(
            Severity::Warning,
            "cargo.unblocked-twice",
            at,
            format!("unit {index} is made ready by a second unit; the first listing is kept"),
        );
    }

    let mut b = ModelBuilder::new();
    let spans: Vec<(Nanos, Nanos)> = owned.iter().map(|u| (u.start, u.end())).collect();
    let slot = allocate(&spans);
    let slots = slot.iter().max().map_or(0, |m| m + 1);
    let lanes: Vec<_> = (0..slots).map(|s| b.lane(&format!("slot {s}"))).collect();
    let mut run = CargoRun {
        dialect: t.dialect,
        rmeta_time_field: t.rmeta_time_field,
        summary: t.summary.clone(),
        slots: u64::from(slots),
        ..CargoRun::default()
    };
    let mut ids = Vec::with_capacity(owned.len());
    for (u, s) in owned.iter().zip(&slot) {
        let kind = b.kind(&kind_of(&u.mode, &u.target), None);
        let uid = b.sym(&format!("{} v{}{}", u.name, u.version, u.target));
        let Some(&lane) = lanes.get(*s as usize) else { continue };
        let mut task = Task::new(uid, kind, Role::Work, lane, Some(u.start), Some(u.end()));
        let fresh = u.start == 0 && u.duration == 0;
        task.cached = fresh;
        run.fresh_listed += u64::from(fresh);
        ids.push(b.task(task));
        run.units.push(UnitInfo {
            index: u.index,
            package: u.name.clone(),
            version: u.version.clone(),
            target: u.target.clone(),
            mode: u.mode.clone(),
            fresh,
        });
    }
    for (p, made) in by.by.iter().enumerate() {
        if let (Some(&t), Some(&d)) = (ids.get(p), made.and_then(|(d, _)| ids.get(d))) {
            b.depends(t, d);
        }
    }
    run.path = path(&owned, &by);
    run.path_total = span(&owned, &run.path);
    // Cargo counts its "Max concurrency" from its concurrency records; the
    // units' rounded times can make two that ran together look apart.
    run.max_concurrency = t.summary.most_active.unwrap_or_else(|| max_concurrency(&spans));
    run.sections = section_times(&owned);
    let last = owned.iter().map(Unit::end).max().unwrap_or(0);
    if !owned.is_empty() {
        b.window(0, last.max(t.summary.last_concurrency.unwrap_or(0)));
    }
    (b.build(), run)
}

/// The most spans open at once (an end before a start at the same time).
fn max_concurrency(spans: &[(Nanos, Nanos)]) -> u64 {
    let mut events: Vec<(Nanos, i64)> = spans.iter().flat_map(|&(s, e)| [(s, 1), (e, -1)]).collect();
    events.sort();
    let (mut now, mut most) = (0i64, 0i64);
    for (_, d) in events {
        now += d;
        most = most.max(now);
    }
    most as u64
}

/// Time by section over the units, in order of first appearance.
fn section_times(units: &[Unit]) -> Vec<SectionTime> {
    let mut out: Vec<SectionTime> = Vec::new();
    for s in units.iter().flat_map(|u| &u.sections) {
        let time = (s.end - s.start).max(0);
        match out.iter_mut().find(|o| o.name == s.name) {
            Some(o) => {
                o.units += 1;
                o.time = o.time.saturating_add(time);
            }
            None => out.push(SectionTime { name: s.name.clone(), units: 1, time }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{kind_of, max_concurrency};

    #[test]
    fn kinds_come_from_the_mode_and_target() {
        for (mode, target, kind) in [
            ("todo", "", "lib"),
            ("todo", " build-script", "build script"),
            ("run-custom-build", " build-script (run)", "build script (run)"),
            ("todo", " app \"bin\"", "bin"),
            ("todo", " bin \"app\"", "bin"),
            ("todo", " beta \"lib\" (test)", "lib (test)"),
            ("todo", " (check)", "lib (check)"),
        ] {
            assert_eq!(kind_of(mode, target), kind, "{target}");
        }
    }

    #[test]
    fn concurrency_counts_an_end_before_a_start_at_the_same_time() {
        assert_eq!(max_concurrency(&[(0, 5), (5, 9), (1, 6)]), 2);
        assert_eq!(max_concurrency(&[]), 0);
    }
}
