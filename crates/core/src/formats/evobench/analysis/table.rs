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

/// Every node's values of one kind, weights at least 1, each node's sorted.
struct NodeValues {
    values: Vec<Weighted>,
    /// Where each node's values start in `values`, and their end.
    starts: Vec<usize>,
}

impl NodeValues {
    fn of(log: &Log, kind: TimingKind) -> NodeValues {
        let mut values = Vec::with_capacity(log.nodes.iter().map(|n| n.samples.len()).sum());
        let mut starts = Vec::with_capacity(log.nodes.len() + 1);
        for n in &log.nodes {
            let start = values.len();
            starts.push(start);
            values.extend(
                n.samples.iter().filter_map(|s| s.value(kind).map(|value| Weighted { value, weight: s.weight.max(1) })),
            );
            values[start..].sort_unstable();
        }
        starts.push(values.len());
        NodeValues { values, starts }
    }

    /// The values of `node`.
    fn node(&self, node: u32) -> &[Weighted] {
        let n = node as usize;
        &self.values[self.starts[n]..self.starts[n + 1]]
    }
}

/// The statistics per kind of each distinct set of nodes that rows are
/// made of (`A:` and `AR:` rows share a set, and so do `N:` and `NR:`; in
/// a one-thread run, `A:` and `N:` too). Each node's values are gathered
/// and sorted once per kind; a set of one node uses them as they are, a
/// larger set merges its nodes' sorted runs.
fn stats_of_sets(log: &Log, sets: &[&[u32]]) -> Vec<[Option<Stats>; 4]> {
    let mut stats: Vec<[Option<Stats>; 4]> = vec![Default::default(); sets.len()];
    let mut merged: Vec<Weighted> = Vec::new();
    for kind in TimingKind::ALL {
        let by_node = NodeValues::of(log, kind);
        for (set, out) in sets.iter().zip(&mut stats) {
            out[kind.index()] = match set {
                [node] => Stats::of_sorted(by_node.node(*node)),
                _ => {
                    merged.clear();
                    for &n in set.iter() {
                        merged.extend_from_slice(by_node.node(n));
                    }
                    merged.sort_unstable();
                    Stats::of_sorted(&merged)
                }
            };
        }
    }
    stats
}

/// A row before its statistics: how its key was made, the key, its nodes.
type Group = (PathMode, String, Vec<u32>);

/// The rows' groups in row order: probe names (sorted), then paths (sorted).
fn groups(log: &Log) -> Vec<Group> {
    let mut by_name: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
    for (i, n) in log.nodes.iter().enumerate() {
        if let Some(pn) = log.probe_name(i as u32).filter(|_| !n.samples.is_empty()) {
            by_name.entry(pn).or_default().push(i as u32);
        }
    }
    let mut by_path: BTreeMap<String, (PathMode, Vec<u32>)> = BTreeMap::new();
    for mode in PathMode::PATHS {
        for node in 0..log.nodes.len() as u32 {
            by_path.entry(path_key(log, node, mode)).or_insert_with(|| (mode, Vec::new())).1.push(node);
        }
    }
    by_name
        .into_iter()
        .map(|(pn, nodes)| (PathMode::Probe, pn.to_owned(), nodes))
        .chain(by_path.into_iter().map(|(path, (mode, nodes))| (mode, path, nodes)))
        .collect()
}

/// The distinct sets of nodes of `groups`: the sets, each group's set,
/// and how many groups use each set.
fn distinct_sets(groups: &[Group]) -> (Vec<&[u32]>, Vec<usize>, Vec<usize>) {
    let mut ids: FastMap<&[u32], usize> = FastMap::default();
    let mut sets: Vec<&[u32]> = Vec::new();
    let mut uses: Vec<usize> = Vec::new();
    let of_group = groups
        .iter()
        .map(|(_, _, nodes)| {
            let id = *ids.entry(nodes).or_insert_with(|| {
                sets.push(nodes);
                uses.push(0);
                sets.len() - 1
            });
            uses[id] += 1;
            id
        })
        .collect();
    (sets, of_group, uses)
}

impl Table {
    /// The table of one run.
    pub fn of(log: &Log) -> Table {
        let groups = groups(log);
        let (sets, of_group, mut uses) = distinct_sets(&groups);
        let mut stats = stats_of_sets(log, &sets);
        let rows = groups
            .into_iter()
            .zip(of_group)
            .map(|((mode, path, nodes), set)| {
                let node = |n: &u32| &log.nodes[*n as usize];
                let spans = match mode {
                    PathMode::Probe => nodes.iter().map(|n| node(n).samples.len() as u64).sum(),
                    _ => nodes.iter().map(|n| node(n).opened).sum(),
                };
                let key_value =
                    mode != PathMode::Probe && nodes.iter().all(|n| matches!(node(n).label, Label::KeyValue(..)));
                // The last row of a set takes its statistics, the others copy them.
                uses[set] -= 1;
                let stats = if uses[set] == 0 { std::mem::take(&mut stats[set]) } else { stats[set].clone() };
                Row { mode, path, spans, key_value, stats }
            })
            .collect();
        Table { rows }
    }

    /// The row keyed `path`.
    pub fn row(&self, path: &str) -> Option<&Row> {
        self.rows.iter().find(|r| r.path == path)
    }
}
