//! One run's statistics table, row for row as the evaluator's `single`
//! sheets: bare probe names first (sorted), then every path sorted
//! bytewise, so the groups come as `A:` < `AR:` < `N:` < `NR:`.
//!
//! A path is the chain of labels from the thread scope (`thread`, or
//! `threadNN` in `N:` paths) or the process scope (`main thread`) down to
//! the span, joined by ` > ` (leaf first, joined by ` < `, when reversed).
//! A path that reaches neither (a scope on a thread with no thread scope
//! open) has no prefix, as in the evaluator. Rows are keyed by that string,
//! so spans whose paths print alike are counted together. A row whose spans
//! have no value of a kind (KeyValue pseudo-scopes; ctx switches on macOS)
//! only counts them.

use super::stats::{Stats, Weighted};
use crate::formats::evobench::{Label, Log, TimingKind};
use crate::hash::FastMap;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How a row's key is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum PathMode {
    /// The probe name alone, wherever it ran.
    Probe,
    /// `A:` the path across threads.
    A,
    /// `AR:` the same, reversed.
    AR,
    /// `N:` the path per thread number.
    N,
    /// `NR:` the same, reversed.
    NR,
}

impl PathMode {
    /// The path modes, in row order.
    pub const PATHS: [PathMode; 4] = [PathMode::A, PathMode::AR, PathMode::N, PathMode::NR];

    /// `probe`, `A`, `AR`, `N` or `NR`.
    pub fn name(self) -> &'static str {
        match self {
            PathMode::Probe => "probe",
            PathMode::A => "A",
            PathMode::AR => "AR",
            PathMode::N => "N",
            PathMode::NR => "NR",
        }
    }

    fn prefix(self) -> &'static str {
        match self {
            PathMode::Probe => "",
            PathMode::A => "A:",
            PathMode::AR => "AR:",
            PathMode::N => "N:",
            PathMode::NR => "NR:",
        }
    }

    fn numbered(self) -> bool {
        matches!(self, PathMode::N | PathMode::NR)
    }

    fn reversed(self) -> bool {
        matches!(self, PathMode::AR | PathMode::NR)
    }
}

/// One row: a probe name or a path, with its statistics per timing kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// How its key was made.
    pub mode: PathMode,
    /// The key as the evaluator prints it (`main|fib`, `A:thread > main|main`).
    pub path: String,
    /// Spans counted (unweighted): what a row without values shows as its count.
    pub spans: u64,
    /// Its spans are KeyValue pseudo-scopes (only counted).
    pub key_value: bool,
    /// Statistics per kind ([`TimingKind::index`]); `None` where no span has a value.
    pub stats: [Option<Stats>; 4],
}

impl Row {
    /// The count shown for `kind`: Σ weights, or the spans when only counted.
    pub fn count(&self, kind: TimingKind) -> u64 {
        self.stats[kind.index()].as_ref().map_or(self.spans, |s| s.count)
    }
}

/// A run's rows, in the evaluator's order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// The rows.
    pub rows: Vec<Row>,
}

/// The key of `node` in `mode`.
pub fn path_key(log: &Log, node: u32, mode: PathMode) -> String {
    let mut labels = Vec::new();
    let mut prefixed = false;
    let mut at = Some(node);
    while let Some(id) = at {
        let n = &log.nodes[id as usize];
        labels.push(log.label_text(id, mode.numbered()));
        if matches!(n.label, Label::Process(_) | Label::Thread(..)) {
            prefixed = true;
            break;
        }
        at = n.parent;
    }
    if !mode.reversed() {
        labels.reverse();
    }
    let joined = labels.join(if mode.reversed() { " < " } else { " > " });
    if prefixed {
        format!("{}{joined}", mode.prefix())
    } else {
        joined
    }
}

/// Statistics per kind of the samples of `nodes` (a node listed twice counts twice).
fn stats_of(log: &Log, nodes: &[u32]) -> [Option<Stats>; 4] {
    let mut values: Vec<Weighted> = Vec::new();
    TimingKind::ALL.map(|kind| {
        values.clear();
        for &n in nodes {
            values.extend(
                log.nodes[n as usize]
                    .samples
                    .iter()
                    .filter_map(|s| s.value(kind).map(|value| Weighted { value, weight: s.weight })),
            );
        }
        Stats::of(&mut values)
    })
}

/// Computes each distinct set of nodes' statistics once (`A:` and `AR:`
/// rows share theirs, and so do `N:` and `NR:`; in a one-thread run, `A:`
/// and `N:` too).
#[derive(Default)]
struct StatsCache {
    done: FastMap<Vec<u32>, [Option<Stats>; 4]>,
}

impl StatsCache {
    fn get(&mut self, log: &Log, nodes: &[u32]) -> [Option<Stats>; 4] {
        if let Some(s) = self.done.get(nodes) {
            return s.clone();
        }
        let s = stats_of(log, nodes);
        self.done.insert(nodes.to_vec(), s.clone());
        s
    }
}

impl Table {
    /// The table of one run.
    pub fn of(log: &Log) -> Table {
        let mut cache = StatsCache::default();
        let mut rows = Vec::new();
        let mut by_name: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
        for (i, n) in log.nodes.iter().enumerate() {
            if let Some(pn) = log.probe_name(i as u32).filter(|_| !n.samples.is_empty()) {
                by_name.entry(pn).or_default().push(i as u32);
            }
        }
        for (pn, nodes) in by_name {
            let spans = nodes.iter().map(|&n| log.nodes[n as usize].samples.len() as u64).sum();
            let stats = cache.get(log, &nodes);
            rows.push(Row { mode: PathMode::Probe, path: pn.to_owned(), spans, key_value: false, stats });
        }
        let mut by_path: BTreeMap<String, (PathMode, Vec<u32>)> = BTreeMap::new();
        for mode in PathMode::PATHS {
            for node in 0..log.nodes.len() as u32 {
                by_path.entry(path_key(log, node, mode)).or_insert_with(|| (mode, Vec::new())).1.push(node);
            }
        }
        for (path, (mode, nodes)) in by_path {
            let spans = nodes.iter().map(|&n| log.nodes[n as usize].opened).sum();
            let key_value = nodes.iter().all(|&n| matches!(log.nodes[n as usize].label, Label::KeyValue(..)));
            let stats = cache.get(log, &nodes);
            rows.push(Row { mode, path, spans, key_value, stats });
        }
        Table { rows }
    }

    /// The row keyed `path`.
    pub fn row(&self, path: &str) -> Option<&Row> {
        self.rows.iter().find(|r| r.path == path)
    }
}
