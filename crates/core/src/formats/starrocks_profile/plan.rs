//! A StarRocks query's plan nodes, grouped from its operators as StarRocks'
//! own `ANALYZE PROFILE` groups them (`ExplainAnalyzer`'s node parser):
//!
//! - every operator of every fragment and pipeline belongs to the plan
//!   node of its `plan_node_id`; those marked `- IsSubordinate`
//!   (`LOCAL_EXCHANGE_*`, `CHUNK_ACCUMULATE`, `COLLECT_STATS_*`, …) are the
//!   node's subordinates, the others its operators;
//! - the final sink (`- IsFinalSink`, `plan_node_id=-1`) is a node of its own;
//! - an exchange holds its `EXCHANGE_SINK`, in the sending fragment, and its
//!   source side, in the receiving one;
//! - kinds and the plan tree come from the Execution node's `Topology` JSON
//!   (`{"rootId":6,"nodes":[{"id":6,"name":"MERGE_EXCHANGE","properties":
//!   {"sinkIds":[],"displayMem":true},"children":[5]},…]}`) where it is
//!   present, else from the operators' names;
//! - a node's time: CPUTime = Σ maxOf(`OperatorTotalTime`) over its operators
//!   and subordinates, where maxOf(X) is `__MAX_OF_X` when present, else X;
//!   a scan adds maxOf(`UniqueMetrics.ScanTime`) of its first operator that
//!   has one (IO tasks run apart from the driver, so `OperatorTotalTime`
//!   leaves them out), an exchange maxOf(`UniqueMetrics.NetworkTime`).

use super::run::{Fragment, NodeKind, NodeTimes, OpRef, Operator, PlanNode, Topology, TopologyNode};
use crate::model::Nanos;

/// The kind a plan's name (`OLAP_SCAN`) or an operator's name tells.
fn kind_of_name(name: &str, plan: bool) -> NodeKind {
    if name.ends_with("_SCAN") || name == "SCAN" {
        NodeKind::Scan
    } else if name.contains("JOIN") {
        NodeKind::Join
    } else if plan && name.contains("EXCHANGE")
        || !plan && (name.starts_with("EXCHANGE_") || name.starts_with("MERGE_EXCHANGE"))
    {
        NodeKind::Exchange
    } else {
        NodeKind::Other
    }
}

/// The first value the operators give, in order.
fn first_of(ops: &[OpRef], fragments: &[Fragment], get: impl Fn(&Operator) -> Option<Nanos>) -> Option<Nanos> {
    ops.iter().find_map(|&o| get(o.get(fragments)))
}

/// A sum over the operators (saturating), `None` when none gives a value.
fn sum_of<T: Copy>(
    ops: impl Iterator<Item = OpRef>,
    fragments: &[Fragment],
    get: impl Fn(&Operator) -> Option<T>,
    add: fn(T, T) -> T,
) -> Option<T> {
    ops.filter_map(|o| get(o.get(fragments))).reduce(add)
}

/// The plan nodes of a profile's operators, in order of first appearance,
/// then the Topology's nodes no operator names (a running query's
/// fragments not yet reported), each with its kind and time.
pub fn plan_nodes(fragments: &[Fragment], topology: Option<&Topology>) -> Vec<PlanNode> {
    let mut nodes: Vec<PlanNode> = Vec::new();
    let mut index: std::collections::BTreeMap<i64, usize> = std::collections::BTreeMap::new();
    let mut node_at = |nodes: &mut Vec<PlanNode>, id: i64| -> usize {
        *index.entry(id).or_insert_with(|| {
            nodes.push(PlanNode {
                id,
                name: String::new(),
                plan_name: None,
                kind: NodeKind::Other,
                operators: Vec::new(),
                subordinates: Vec::new(),
                children: Vec::new(),
                fragment: None,
                memory_consuming: false,
                times: NodeTimes::default(),
                peak_memory: None,
                allocated_memory: None,
            });
            nodes.len() - 1
        })
    };
    for (fi, f) in fragments.iter().enumerate() {
        for (pi, p) in f.pipelines.iter().enumerate() {
            for (oi, o) in p.operators.iter().enumerate() {
                let at = OpRef { fragment: fi as u32, pipeline: pi as u32, operator: oi as u32 };
                let n = node_at(&mut nodes, o.plan_node_id);
                if o.subordinate {
                    nodes[n].subordinates.push(at);
                } else {
                    nodes[n].operators.push(at);
                }
            }
        }
    }
    if let Some(t) = topology {
        for tn in &t.nodes {
            node_at(&mut nodes, tn.id);
        }
    }
    for node in &mut nodes {
        let plan = topology.and_then(|t| t.nodes.iter().find(|n| n.id == node.id));
        describe(node, plan, fragments);
    }
    nodes
}

/// Fills a node's name, kind, fragment, memory and time from its operators
/// and its Topology entry.
fn describe(node: &mut PlanNode, plan: Option<&TopologyNode>, fragments: &[Fragment]) {
    let op = |r: &OpRef| r.get(fragments);
    let main = node
        .operators
        .iter()
        .rev()
        .find(|r| !op(r).name.ends_with("_SINK") && !op(r).name.ends_with("_BUILD"))
        .or(node.operators.first())
        .or(node.subordinates.first());
    node.name = match (main, plan) {
        (Some(r), _) => op(r).name.clone(),
        (None, Some(p)) => p.name.clone(),
        (None, None) => format!("plan node {}", node.id),
    };
    node.fragment = main.map(|r| r.fragment);
    node.plan_name = plan.map(|p| p.name.clone());
    node.children = plan.map(|p| p.children.clone()).unwrap_or_default();
    node.kind = if node.id == -1 || node.operators.iter().any(|r| op(r).final_sink) {
        NodeKind::FinalSink
    } else if let Some(p) = plan {
        kind_of_name(&p.name, true)
    } else {
        let kinds: Vec<NodeKind> = node.operators.iter().map(|r| kind_of_name(&op(r).name, false)).collect();
        [NodeKind::Scan, NodeKind::Exchange, NodeKind::Join]
            .into_iter()
            .find(|k| kinds.contains(k))
            .unwrap_or(NodeKind::Other)
    };
    let cpu = sum_of(node.all_operators(), fragments, |o| o.max_total, Nanos::saturating_add);
    let scan = if node.kind == NodeKind::Scan { first_of(&node.operators, fragments, |o| o.scan_time) } else { None };
    let network =
        if node.kind == NodeKind::Exchange { first_of(&node.operators, fragments, |o| o.network_time) } else { None };
    let total = [cpu, scan, network].iter().flatten().fold(0 as Nanos, |a, &t| a.saturating_add(t));
    node.times = NodeTimes { cpu, scan, network, total };
    node.peak_memory = sum_of(node.operators.iter().copied(), fragments, |o| o.peak_memory, |a, b| a + b);
    node.allocated_memory = sum_of(node.operators.iter().copied(), fragments, |o| o.allocated_memory, |a, b| a + b);
    node.memory_consuming = match plan.and_then(|p| p.properties.display_mem) {
        Some(shown) => shown,
        None => node.peak_memory.is_some(),
    };
}

/// The plan's edges as (node index, index of a node it waits for): a parent
/// waits for its children and the final sink for the plan's root when the
/// Topology gives them, else the operators' data flow carried over to their
/// nodes (`flow`: pairs of plan node ids).
pub fn node_edges(nodes: &[PlanNode], topology: Option<&Topology>, flow: &[(i64, i64)]) -> Vec<(usize, usize)> {
    let at = |id: i64| nodes.iter().position(|n| n.id == id);
    let mut edges: Vec<(usize, usize)> = Vec::new();
    let mut push = |a: Option<usize>, b: Option<usize>| {
        if let (Some(a), Some(b)) = (a, b) {
            if a != b && !edges.contains(&(a, b)) {
                edges.push((a, b));
            }
        }
    };
    match topology {
        Some(t) => {
            for n in &t.nodes {
                for &c in &n.children {
                    push(at(n.id), at(c));
                }
            }
            if t.nodes.iter().all(|n| n.id != -1) {
                push(at(-1), at(t.root));
            }
        }
        None => {
            for &(a, b) in flow {
                push(at(a), at(b));
            }
        }
    }
    edges
}
