//! A GHC program's garbage collections, summarised per generation.

use crate::formats::ghc_eventlog::GhcRun;
use crate::model::Nanos;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Pauses of one generation, or of all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GcRow {
    /// The generation (`0`, `1`...), `unknown` for collections the log
    /// gives no statistics for, `all` for the total row.
    pub generation: String,
    /// Collections.
    pub count: u64,
    /// Total pause, ns.
    pub total: Nanos,
    /// Longest pause, ns.
    pub max: Nanos,
    /// Bytes copied, when the log has GC statistics.
    pub copied: Option<u64>,
}

/// Pauses per generation: known generations in order, then collections
/// the log gives no statistics for (`unknown`), then the total (`all`).
pub fn gc_summary(run: &GhcRun) -> Vec<GcRow> {
    let mut by_gen: BTreeMap<Option<u16>, GcRow> = BTreeMap::new();
    let mut all = GcRow { generation: "all".into(), count: 0, total: 0, max: 0, copied: None };
    for c in &run.collections {
        let name = c.generation.map_or_else(|| "unknown".to_owned(), |g| g.to_string());
        let row = by_gen.entry(c.generation).or_insert_with(|| GcRow {
            generation: name,
            count: 0,
            total: 0,
            max: 0,
            copied: None,
        });
        for row in [row, &mut all] {
            row.count += 1;
            row.total = row.total.saturating_add(c.end - c.start);
            row.max = row.max.max(c.end - c.start);
            if let Some(b) = c.copied {
                row.copied = Some(row.copied.unwrap_or(0).saturating_add(b));
            }
        }
    }
    // Known generations first, in order; collections without statistics after.
    let mut rows: Vec<GcRow> = by_gen.into_values().collect();
    rows.rotate_left(usize::from(run.collections.iter().any(|c| c.generation.is_none())));
    if all.count > 0 {
        rows.push(all);
    }
    rows
}
