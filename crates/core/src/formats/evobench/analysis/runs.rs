//! Several runs of one benchmark: the evaluator's `summary` level (per
//! path, the statistics over the runs of one per-run field) and a
//! comparison of two groups of runs.
//!
//! **Summary.** Rows are inner-joined across runs (a path missing from any
//! run is dropped) and KeyValue rows are dropped, as in the evaluator; a
//! kind that some run has no values of is left out of that row.
//!
//! **Comparison.** Per path, the chosen field's values of group A's runs
//! against group B's: the change (mean of B − mean of A), its 95 %
//! confidence interval and Welch's two-sample t-test (unequal variances,
//! Welch–Satterthwaite degrees of freedom, two-sided). With fewer than two
//! runs in a group there is no test. Rows are sorted by impact: the size of
//! the change times the calls per run (for the per-call fields mean,
//! median, stdev and percentiles), i.e. about how much a run's total moved.

use super::stats::Stats;
use super::student_t::{critical, two_sided_p};
use super::table::{PathMode, Row, Table};
use crate::formats::evobench::TimingKind;
use crate::hash::FastMap;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The per-run statistic that several runs are compared on.
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

    /// A per-call statistic (its change is scaled by the calls per run for impact).
    fn per_call(self) -> bool {
        !matches!(self, Field::Count | Field::Sum)
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

/// A group's values of one row.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GroupStats {
    /// Runs.
    pub runs: usize,
    /// Mean of the runs' values.
    pub mean: f64,
    /// Sample standard deviation (n − 1) of the runs' values (0 for one run).
    pub stdev: f64,
}

impl GroupStats {
    fn of(values: &[u64]) -> GroupStats {
        let n = values.len();
        let mean = values.iter().map(|&v| v as f64).sum::<f64>() / n.max(1) as f64;
        let var =
            if n > 1 { values.iter().map(|&v| (v as f64 - mean).powi(2)).sum::<f64>() / (n - 1) as f64 } else { 0.0 };
        GroupStats { runs: n, mean, stdev: var.sqrt() }
    }
}

/// How one path changed from group A to group B.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// How its key was made.
    pub mode: PathMode,
    /// The key.
    pub path: String,
    /// Group A's runs.
    pub a: GroupStats,
    /// Group B's runs.
    pub b: GroupStats,
    /// B's mean − A's mean, in the kind's unit.
    pub change: f64,
    /// The change relative to A's mean (`None` when A's mean is 0).
    pub relative: Option<f64>,
    /// The 95 % confidence interval of the change (`None` without a test).
    pub ci: Option<(f64, f64)>,
    /// Welch's t statistic.
    pub t: Option<f64>,
    /// Welch–Satterthwaite degrees of freedom.
    pub df: Option<f64>,
    /// Two-sided p-value (`None` with fewer than two runs in a group).
    pub p: Option<f64>,
    /// p < 0.05.
    pub significant: bool,
    /// |change| × calls per run (for per-call fields): the sort key.
    pub impact: f64,
}

/// Welch's test of B against A: (t, df, p, 95 % interval); t and df are
/// `None` when every run of each group gave the same value (the difference
/// is then exact: p is 0, or 1 without a difference).
type Test = (Option<f64>, Option<f64>, f64, (f64, f64));

fn welch(a: &GroupStats, b: &GroupStats, change: f64) -> Option<Test> {
    if a.runs < 2 || b.runs < 2 {
        return None;
    }
    let (va, vb) = (a.stdev.powi(2) / a.runs as f64, b.stdev.powi(2) / b.runs as f64);
    let se = (va + vb).sqrt();
    if se == 0.0 {
        return Some((None, None, if change == 0.0 { 1.0 } else { 0.0 }, (change, change)));
    }
    let t = change / se;
    let df = (va + vb).powi(2) / (va.powi(2) / (a.runs - 1) as f64 + vb.powi(2) / (b.runs - 1) as f64);
    let half = critical(0.05, df) * se;
    Some((Some(t), Some(df), two_sided_p(t, df), (change - half, change + half)))
}

/// Compares the runs `b` (indices into `tables`) with the runs `a`, per
/// path present in all of them, on `field` of `kind`; the biggest impact first.
pub fn compare(tables: &[&Table], a: &[usize], b: &[usize], kind: TimingKind, field: Field) -> Vec<Change> {
    let pick = |ix: &[usize]| ix.iter().filter_map(|&i| tables.get(i).copied()).collect::<Vec<_>>();
    let (ta, tb) = (pick(a), pick(b));
    if ta.is_empty() || tb.is_empty() {
        return Vec::new();
    }
    let all: Vec<&Table> = ta.iter().chain(&tb).copied().collect();
    let mut out: Vec<Change> = joined(&all)
        .into_iter()
        .filter_map(|rows| {
            let v = values(&rows, kind, field)?;
            let (va, vb) = v.split_at(ta.len());
            let (ga, gb) = (GroupStats::of(va), GroupStats::of(vb));
            let change = gb.mean - ga.mean;
            let calls = if field.per_call() {
                rows.iter().map(|r| r.count(kind) as f64).sum::<f64>() / rows.len() as f64
            } else {
                1.0
            };
            let test = welch(&ga, &gb, change);
            Some(Change {
                mode: rows[0].mode,
                path: rows[0].path.clone(),
                a: ga,
                b: gb,
                change,
                relative: (ga.mean != 0.0).then(|| change / ga.mean),
                ci: test.map(|t| t.3),
                t: test.and_then(|t| t.0),
                df: test.and_then(|t| t.1),
                p: test.map(|t| t.2),
                significant: test.is_some_and(|t| t.2 < 0.05),
                impact: change.abs() * calls,
            })
        })
        .collect();
    out.sort_by(|x, y| y.impact.total_cmp(&x.impact).then_with(|| x.path.cmp(&y.path)));
    out
}
