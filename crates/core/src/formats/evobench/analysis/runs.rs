//! Several runs of one benchmark: the evaluator's `summary` level (per
//! path, the statistics over the runs of one per-run field). Two groups of
//! runs are compared as any runs are (`longpole compare`, the compare floor).
//!
//! Rows are inner-joined across runs (a path missing from any
//! run is dropped) and KeyValue rows are dropped, as in the evaluator; a
//! kind that some run has no values of is left out of that row.

use super::stats::Stats;
use super::table::{PathMode, Row, Table};
use crate::formats::evobench::TimingKind;
use crate::hash::FastMap;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The per-run statistic that several runs are summarised on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Field {
    /// The count (Σ weights).
    Count,
    /// The sum.
    Sum,
    /// The mean (the evaluator's default).
    #[default]
    Mean,
    /// The standard deviation.
    Stdev,
    /// The median.
    Median,
    /// A percentile, 0..=100.
    Percentile(u8),
}

impl Field {
    /// This field of `s`.
    pub fn of(self, s: &Stats) -> u64 {
        match self {
            Field::Count => s.count,
            Field::Sum => s.sum,
            Field::Mean => s.mean,
            Field::Stdev => s.stdev,
            Field::Median => s.median,
            Field::Percentile(q) => s.percentile(q),
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Field::Count => f.write_str("count"),
            Field::Sum => f.write_str("sum"),
            Field::Mean => f.write_str("mean"),
            Field::Stdev => f.write_str("stdev"),
            Field::Median => f.write_str("median"),
            Field::Percentile(q) => write!(f, "p{q}"),
        }
    }
}

impl FromStr for Field {
    type Err = String;

    /// `count`, `sum`, `mean` (or `average`), `stdev`, `median`, or a
    /// percentile as `p90` or `90`.
    fn from_str(s: &str) -> Result<Field, String> {
        match s {
            "count" | "n" => Ok(Field::Count),
            "sum" => Ok(Field::Sum),
            "mean" | "average" | "avg" => Ok(Field::Mean),
            "stdev" | "sd" => Ok(Field::Stdev),
            "median" => Ok(Field::Median),
            _ => s
                .strip_prefix('p')
                .unwrap_or(s)
                .parse::<u8>()
                .ok()
                .filter(|&q| q <= 100)
                .map(Field::Percentile)
                .ok_or_else(|| {
                    format!("unknown field {s:?}: count, sum, mean, stdev, median, or a percentile p0..p100")
                }),
        }
    }
}

/// One row of the summary over runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SummaryRow {
    /// How its key was made.
    pub mode: PathMode,
    /// The key.
    pub path: String,
    /// Per kind, the statistics over the runs' values of the field (count = runs).
    pub stats: [Option<Stats>; 4],
}

/// The rows present in every table (KeyValue rows dropped), in the first
/// table's order, each with its row in every table.
fn joined<'t>(tables: &[&'t Table]) -> Vec<Vec<&'t Row>> {
    let Some(first) = tables.first() else { return Vec::new() };
    let indexes: Vec<FastMap<&str, &Row>> =
        tables.iter().map(|t| t.rows.iter().map(|r| (r.path.as_str(), r)).collect()).collect();
    first
        .rows
        .iter()
        .filter(|r| !r.key_value)
        .filter_map(|r| indexes.iter().map(|ix| ix.get(r.path.as_str()).copied()).collect::<Option<Vec<_>>>())
        .collect()
}

/// The field's value of a row in each run, for `kind`; `None` if a run has none.
fn values(rows: &[&Row], kind: TimingKind, field: Field) -> Option<Vec<u64>> {
    rows.iter().map(|r| r.stats[kind.index()].as_ref().map(|s| field.of(s))).collect()
}

/// The summary of several runs' tables on `field`.
pub fn summary(tables: &[&Table], field: Field) -> Vec<SummaryRow> {
    joined(tables)
        .into_iter()
        .filter_map(|rows| {
            let stats = TimingKind::ALL.map(|k| values(&rows, k, field).and_then(Stats::of_values));
            stats.iter().any(Option::is_some).then(|| SummaryRow {
                mode: rows[0].mode,
                path: rows[0].path.clone(),
                stats,
            })
        })
        .collect()
}
