//! A StarRocks query's plan nodes by time, as `ANALYZE PROFILE` ranks and
//! colours them (`ExplainAnalyzer`): each node's share of
//! `QueryCumulativeOperatorTime`, red above 30%, coral above 15%; the ten
//! most time-consuming nodes; the ten with the largest peak memory; and for
//! the red and coral nodes the detail timers it prints.
//!
//! **Detail timers.** From the `UniqueMetrics` of the node's operators (not
//! its subordinates; a later operator's metric of the same name replaces an
//! earlier one's): every time metric named `IOTaskWaitTime` or
//! `IOTaskExecTime`, or taking more than 30% of the node's time (its
//! `__MAX_OF_` where printed, else its value), with every metric it is
//! printed under; `ScanTime`, `NetworkTime` and `TotalTime` are not shown
//! (the node's line holds them). Children are listed by name.

use super::run::{Metric, StarRocksRun};
use super::run::{NodeKind, PlanNode};
use super::Value;
use crate::model::Nanos;
use serde::{Deserialize, Serialize};

/// A node is red above this share of the query's operator time, in percent …
pub const RED_PERCENT: f64 = 30.0;
/// … and coral above this one.
pub const CORAL_PERCENT: f64 = 15.0;
/// Nodes listed as the most time- and memory-consuming.
pub const TOP_NODES: usize = 10;
/// A metric is time-consuming above this share of its node's time.
pub const DETAIL_SHARE: f64 = 0.3;
/// Time metrics always shown for a red or coral node.
const ALWAYS: [&str; 2] = ["IOTaskWaitTime", "IOTaskExecTime"];
/// Metrics never shown as detail timers.
const NEVER: [&str; 3] = ["TotalTime", "NetworkTime", "ScanTime"];

/// How much of the query's time a node takes, as ANALYZE PROFILE colours it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Above 30%.
    Red,
    /// Above 15%.
    Coral,
    /// The rest.
    Plain,
}

impl Level {
    /// The level of a share in percent.
    pub fn of(percent: Option<f64>) -> Level {
        match percent {
            Some(p) if p > RED_PERCENT => Level::Red,
            Some(p) if p > CORAL_PERCENT => Level::Coral,
            _ => Level::Plain,
        }
    }
}

/// One plan node's time and share.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeShare {
    /// Its index in the run's nodes (and its task in the model).
    pub index: usize,
    /// Its `plan_node_id`.
    pub plan_node_id: i64,
    /// Its main operator (`CONNECTOR_SCAN`).
    pub name: String,
    /// The plan's name for it (`OLAP_SCAN`).
    pub plan_name: Option<String>,
    /// What it does.
    pub kind: NodeKind,
    /// Its time, ns.
    pub total: Nanos,
    /// CPUTime, ns.
    pub cpu: Option<Nanos>,
    /// A scan's ScanTime, ns.
    pub scan: Option<Nanos>,
    /// An exchange's NetworkTime, ns.
    pub network: Option<Nanos>,
    /// Its share of `QueryCumulativeOperatorTime`, percent (`None` when that is 0).
    pub percent: Option<f64>,
    /// Red, coral or plain.
    pub level: Level,
}

impl NodeShare {
    /// `CONNECTOR_SCAN (plan_node_id=0)`.
    pub fn title(&self) -> String {
        format!("{} (plan_node_id={})", self.name, self.plan_node_id)
    }
}

/// The denominator of shares: `QueryCumulativeOperatorTime` (printed or
/// computed), `None` when it is 0.
pub fn cumulative(run: &StarRocksRun) -> Option<Nanos> {
    run.query.cumulative_operator.map(|f| f.ns).filter(|&t| t > 0)
}

/// One node's share.
pub fn share(run: &StarRocksRun, index: usize) -> NodeShare {
    let n: &PlanNode = &run.nodes[index];
    let percent = cumulative(run).map(|c| n.times.total as f64 * 100.0 / c as f64);
    NodeShare {
        index,
        plan_node_id: n.id,
        name: n.name.clone(),
        plan_name: n.plan_name.clone(),
        kind: n.kind,
        total: n.times.total,
        cpu: n.times.cpu,
        scan: n.times.scan,
        network: n.times.network,
        percent,
        level: Level::of(percent),
    }
}

/// Every node's share, the largest time first (ties in plan order).
pub fn shares(run: &StarRocksRun) -> Vec<NodeShare> {
    let mut out: Vec<NodeShare> = (0..run.nodes.len()).map(|i| share(run, i)).collect();
    out.sort_by_key(|s| std::cmp::Reverse(s.total));
    out
}

/// The nodes whose memory the plan shows, by peak memory, largest first:
/// (node index, peak bytes), at most [`TOP_NODES`].
pub fn memory_nodes(run: &StarRocksRun) -> Vec<(usize, f64)> {
    let mut out: Vec<(usize, f64)> = run
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.memory_consuming)
        .filter_map(|(i, n)| Some((i, n.peak_memory?)))
        .collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1));
    out.truncate(TOP_NODES);
    out
}

/// One detail timer, ready to print.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DetailTimer {
    /// How deep it is printed (0 for a top-level metric).
    pub depth: usize,
    /// Its name.
    pub name: String,
    /// Its value as printed.
    pub text: String,
    /// `__MIN_OF_` and `__MAX_OF_` as printed, when either is.
    pub range: Option<(Option<String>, Option<String>)>,
    /// It takes more than 30% of its node's time.
    pub consuming: bool,
}

/// The node's operators' unique metrics merged by name: the last
/// operator's metric wins; each metric's parent as a name.
pub fn merged(run: &StarRocksRun, node: &PlanNode) -> Vec<(Metric, Option<String>)> {
    let mut out: Vec<(Metric, Option<String>)> = Vec::new();
    for &at in &node.operators {
        let op = run.operator(at);
        for m in &op.unique {
            let parent = m.parent.map(|p| op.unique[p].name.clone());
            match out.iter_mut().find(|(k, _)| k.name == m.name) {
                Some(slot) => *slot = (m.clone(), parent),
                None => out.push((m.clone(), parent)),
            }
        }
    }
    out
}

/// The node's metric named `name` (as [`merged`] merges them).
pub fn node_metric(run: &StarRocksRun, node: &PlanNode, name: &str) -> Option<Metric> {
    node.operators.iter().rev().find_map(|&at| run.operator(at).metric(name)).cloned()
}

/// The metric takes more than [`DETAIL_SHARE`] of `total` (its max when printed).
fn consuming(m: &Metric, total: Nanos) -> bool {
    total > 0 && m.max_value().time().is_some_and(|t| t as f64 / total as f64 > DETAIL_SHARE)
}

/// The detail timers of a node, in print order; empty for a plain node.
pub fn detail_timers(run: &StarRocksRun, index: usize) -> Vec<DetailTimer> {
    let share = share(run, index);
    if share.level == Level::Plain {
        return Vec::new();
    }
    let metrics = merged(run, &run.nodes[index]);
    let mut selected: Vec<&str> = Vec::new();
    for (m, _) in &metrics {
        if matches!(m.value, Value::Time(_)) && (ALWAYS.contains(&&*m.name) || consuming(m, share.total)) {
            let mut name = Some(m.name.as_str());
            while let Some(n) = name {
                if !selected.contains(&n) {
                    selected.push(n);
                }
                name = metrics.iter().find(|(k, _)| k.name == n).and_then(|(_, p)| p.as_deref());
            }
        }
    }
    let mut out = Vec::new();
    let children = |parent: Option<&str>| {
        let mut names: Vec<&(Metric, Option<String>)> =
            metrics.iter().filter(|(m, p)| p.as_deref() == parent && selected.contains(&&*m.name)).collect();
        names.sort_by(|a, b| a.0.name.cmp(&b.0.name));
        names
    };
    let mut stack: Vec<(&(Metric, Option<String>), usize)> = children(None).into_iter().rev().map(|m| (m, 0)).collect();
    while let Some(((m, _), depth)) = stack.pop() {
        let shown = !NEVER.contains(&&*m.name);
        if shown {
            let range = (m.min.is_some() || m.max.is_some())
                .then(|| (m.min.as_ref().map(|b| b.text.clone()), m.max.as_ref().map(|b| b.text.clone())));
            out.push(DetailTimer {
                depth,
                name: m.name.clone(),
                text: m.text.clone().unwrap_or_default(),
                range,
                consuming: consuming(m, share.total),
            });
        }
        stack.extend(children(Some(&m.name)).into_iter().rev().map(|k| (k, depth + 1)));
    }
    out
}
