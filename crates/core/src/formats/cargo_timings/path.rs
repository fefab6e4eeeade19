//! A Cargo build's path: from the unit that finished last, back through
//! the unit that made each one ready, to a unit nothing made ready.
//!
//! Cargo lists each unit in the lists of exactly one other unit: the one
//! whose end (`unblocked_units`) or whose metadata (`unblocked_rmeta_units`,
//! pipelining) was the last thing it waited for. The unit was ready at that
//! end, or at that metadata: the dependency's start plus its `rmeta_time`
//! (until cargo 1.94) or the end of its `frontend` section (from 1.95),
//! else its end, as cargo's own concurrency chart takes it. A walk by end
//! times alone would cross a pipelined dependency at its end, after the
//! dependent had started.

use super::Unit;
use crate::model::Nanos;
use serde::{Deserialize, Serialize};

/// What made a unit ready.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Via {
    /// The unit before it on the path ended.
    End,
    /// The metadata (`.rmeta`) of the unit before it was out.
    Metadata,
}

/// Which unit made each unit ready, by position in `units`: `(unit, via)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unblockers {
    /// For each unit, the unit (position) that made it ready, and how.
    pub by: Vec<Option<(usize, Via)>>,
    /// Indices named in a list that no unit has, with the listing unit.
    pub unknown: Vec<(usize, u64)>,
    /// Units listed by a second unit (the first listing is kept): the unit
    /// and the second lister.
    pub twice: Vec<(usize, usize)>,
}

/// Which unit made each unit ready (`index_of`: position of cargo's index).
pub fn unblockers(units: &[Unit], index_of: &dyn Fn(u64) -> Option<usize>) -> Unblockers {
    let mut out = Unblockers { by: vec![None; units.len()], ..Unblockers::default() };
    for (p, u) in units.iter().enumerate() {
        let lists =
            u.unblocked.iter().map(|&i| (i, Via::End)).chain(u.unblocked_rmeta.iter().map(|&i| (i, Via::Metadata)));
        for (i, via) in lists {
            match index_of(i) {
                None => out.unknown.push((p, i)),
                Some(d) if d == p => out.unknown.push((p, i)),
                Some(d) => match out.by.get_mut(d) {
                    Some(slot) if slot.is_none() => *slot = Some((p, via)),
                    Some(_) => out.twice.push((d, p)),
                    None => {}
                },
            }
        }
    }
    out
}

/// When `dep` made a unit ready, `via` its end or its metadata.
pub fn ready_at(dep: &Unit, via: Via) -> Nanos {
    match (via, dep.rmeta) {
        (Via::Metadata, Some(r)) => dep.start.saturating_add(r).min(dep.end()),
        _ => dep.end(),
    }
}

/// One unit on the path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// The unit's position.
    pub unit: usize,
    /// How the unit before it made it ready (`None` for the first).
    pub via: Option<Via>,
    /// When it was ready, at most its start (`None` for the first).
    pub ready: Option<Nanos>,
    /// Its start minus when it was ready: the time it waited for a job
    /// slot (0 for the first).
    pub waited: Nanos,
}

/// The path, first unit first; empty when there are no units.
pub fn path(units: &[Unit], by: &Unblockers) -> Vec<Step> {
    let last = units.iter().enumerate().fold(None::<(usize, Nanos)>, |acc, (i, u)| match acc {
        Some((_, e)) if e >= u.end() => acc,
        _ => Some((i, u.end())),
    });
    let Some((mut at, _)) = last else { return Vec::new() };
    let mut seen = vec![false; units.len()];
    let mut steps = Vec::new();
    loop {
        if let Some(s) = seen.get_mut(at) {
            *s = true;
        }
        let made = by.by.get(at).copied().flatten().filter(|&(d, _)| !seen.get(d).copied().unwrap_or(true));
        let start = units.get(at).map_or(0, |u| u.start);
        // Cargo rounds starts and durations to centiseconds apart, so a sum
        // can pass the dependent's start: capped there, as cargo's chart does.
        let ready = made.and_then(|(d, via)| Some(ready_at(units.get(d)?, via).min(start)));
        steps.push(Step { unit: at, via: made.map(|m| m.1), ready, waited: ready.map_or(0, |r| start - r) });
        match made {
            Some((d, _)) => at = d,
            None => break,
        }
    }
    steps.reverse();
    steps
}

/// The path's span: its first unit's start to its last unit's end.
pub fn span(units: &[Unit], steps: &[Step]) -> Nanos {
    let first = steps.first().and_then(|s| units.get(s.unit)).map_or(0, |u| u.start);
    let last = steps.last().and_then(|s| units.get(s.unit)).map_or(0, |u| u.end());
    last - first
}
