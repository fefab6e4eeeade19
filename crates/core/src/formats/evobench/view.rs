//! What the page shows of evobench runs beyond the timeline: the first
//! run's flame graph and statistics, every run, and (with several runs) the
//! summary across them. Two groups of runs are compared as any runs are.

use crate::formats::evobench::analysis::{summary, Field, FlameGraph, Stats};
use crate::formats::evobench::report::runs;
use crate::formats::evobench::TimingKind;
use crate::numbers::group;
use crate::run::Analysis;
use crate::view::headline::{plural, Fact};
use serde::{Deserialize, Serialize};

/// The statistics of one row for one kind, as the tables show them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatCells {
    /// Σ weights.
    pub count: u64,
    /// Σ value × weight.
    pub sum: u64,
    /// Mean.
    pub mean: u64,
    /// Standard deviation.
    pub stdev: u64,
    /// Median.
    pub median: u64,
    /// 90th percentile.
    pub p90: u64,
    /// 99th percentile.
    pub p99: u64,
    /// Least.
    pub min: u64,
    /// Most.
    pub max: u64,
}

impl From<&Stats> for StatCells {
    fn from(s: &Stats) -> StatCells {
        StatCells {
            count: s.count,
            sum: s.sum,
            mean: s.mean,
            stdev: s.stdev,
            median: s.median,
            p90: s.percentile(90),
            p99: s.percentile(99),
            min: s.percentile(0),
            max: s.percentile(100),
        }
    }
}

/// One statistics row: a probe name or a path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatRow {
    /// `probe`, `A`, `AR`, `N` or `NR`.
    pub mode: String,
    /// The evaluator's key.
    pub path: String,
    /// Spans counted (what a count-only row shows).
    pub spans: u64,
    /// A KeyValue row (only counted).
    pub key_value: bool,
    /// Per kind ([`TimingKind::index`]).
    pub kinds: Vec<Option<StatCells>>,
}

/// One run (one log).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunRow {
    /// The input's name.
    pub name: String,
    /// Statistics rows.
    pub rows: u64,
    /// Closed spans.
    pub spans: u64,
    /// Threads.
    pub threads: u64,
    /// The log ends with TEnd.
    pub complete: bool,
    /// The probes library's version.
    pub version: String,
}

/// Everything evobench-specific the page shows.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvobenchView {
    /// The first run's flame graph.
    pub flame: FlameGraph,
    /// The first run's statistics, in the evaluator's order.
    pub rows: Vec<StatRow>,
    /// Every run, in input order.
    pub runs: Vec<RunRow>,
    /// With several runs: per path, the statistics over the runs' means
    /// (other fields: [`summary_rows`]).
    pub summary: Vec<StatRow>,
}

fn stat_row(mode: &str, path: &str, spans: u64, key_value: bool, stats: &[Option<Stats>; 4]) -> StatRow {
    StatRow {
        mode: mode.to_owned(),
        path: path.to_owned(),
        spans,
        key_value,
        kinds: stats.iter().map(|s| s.as_ref().map(StatCells::from)).collect(),
    }
}

impl EvobenchView {
    /// The headline of evobench runs: runs, threads, statistics rows, the
    /// hottest path, and whether the first run was cut off.
    pub fn headline(&self) -> Vec<Fact> {
        let hottest = self.flame.hottest_path(TimingKind::Real.index());
        let names: Vec<&str> = hottest.iter().skip(1).map(|&n| self.flame.nodes[n as usize].name.as_str()).collect();
        let first = self.runs.first();
        let mut facts = vec![Fact::plain(format!(
            " · {} · {} · {} statistics rows",
            plural(self.runs.len() as u64, "run", "runs"),
            plural(first.map_or(0, |r| r.threads), "thread", "threads"),
            group(self.rows.len() as u64)
        ))];
        if let Some(last) = names.last() {
            facts.extend([Fact::plain(" · hottest path "), Fact::strong(*last).title(names.join(" > "))]);
        }
        if first.is_some_and(|r| !r.complete) {
            facts.extend([Fact::plain(" · "), Fact::strong("cut off").warn()]);
        }
        facts
    }

    /// The view of an analysis's evobench runs; `None` when it has none.
    pub fn of(analysis: &Analysis) -> Option<EvobenchView> {
        let runs = runs(analysis);
        let first = runs.first()?;
        let names = analysis
            .datasets
            .iter()
            .filter(|d| d.detail::<crate::formats::evobench::reconcile::EvobenchRun>().is_some());
        Some(EvobenchView {
            flame: first.flame(),
            rows: first
                .table
                .rows
                .iter()
                .map(|r| stat_row(r.mode.name(), &r.path, r.spans, r.key_value, &r.stats))
                .collect(),
            runs: runs
                .iter()
                .zip(names)
                .map(|(r, d)| RunRow {
                    name: analysis.inputs[d.inputs[0]].name.clone(),
                    rows: r.table.rows.len() as u64,
                    spans: r.log.spans.len() as u64,
                    threads: r.log.threads.len() as u64,
                    complete: r.log.ended,
                    version: r.log.start.writer_version.clone(),
                })
                .collect(),
            summary: summary_rows(analysis, Field::Mean),
        })
    }
}

/// With several runs: per path present in all of them, the statistics over
/// the runs' values of `field` (KeyValue rows left out); empty otherwise.
pub fn summary_rows(analysis: &Analysis, field: Field) -> Vec<StatRow> {
    let runs = runs(analysis);
    let tables: Vec<_> = runs.iter().map(|r| &r.table).collect();
    if tables.len() < 2 {
        return Vec::new();
    }
    summary(&tables, field).iter().map(|r| stat_row(r.mode.name(), &r.path, 0, false, &r.stats)).collect()
}
