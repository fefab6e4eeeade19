//! A StarRocks profile laid out as `ANALYZE PROFILE` prints it: the
//! Summary (times with the execution time's split, memory, the most time-
//! and memory-consuming nodes, non-default variables), then each fragment
//! with its sink and its plan nodes as a tree, each node with
//! `TotalTime: … (p%) [CPUTime: …, ScanTime: …]` and, for the red and coral
//! ones, the detail timers. ANSI colours become `[red]` / `[coral]` marks;
//! nodes are named by their main operator and `plan_node_id`, the plan's
//! name in brackets.

use crate::formats::starrocks_profile::nodes::{detail_timers, memory_nodes, share, shares, Level, NodeShare};
use crate::formats::starrocks_profile::run::Figure;
use crate::formats::starrocks_profile::run::StarRocksRun;
use crate::formats::starrocks_profile::run::{NodeKind, PlanNode};
use crate::formats::starrocks_profile::value::{print_bytes, print_millis, print_time};
use serde_json::{json, Value};
use std::fmt::Write;

fn or_unknown(s: &Option<String>) -> &str {
    s.as_deref().unwrap_or("?")
}

fn mark(level: Level) -> &'static str {
    match level {
        Level::Red => " [red]",
        Level::Coral => " [coral]",
        Level::Plain => "",
    }
}

fn pct(s: &NodeShare) -> String {
    s.percent.map_or_else(|| " (?)".to_owned(), |p| format!(" ({p:.2}%)"))
}

fn figure(f: Option<Figure>) -> String {
    match f {
        Some(Figure { ns, computed: false }) => print_time(ns),
        Some(Figure { ns, computed: true }) => format!("{} (computed)", print_time(ns)),
        None => "?".to_owned(),
    }
}

/// `Scan: 9m41s (100.00%)`: a part of the execution time.
fn part(name: &str, f: Option<Figure>, exec: i64) -> String {
    let share = match f {
        Some(f) if exec > 0 => format!(" ({:.2}%)", f.ns as f64 * 100.0 / exec as f64),
        _ => String::new(),
    };
    format!("{name}: {}{share}", figure(f))
}

fn summary(run: &StarRocksRun, out: &mut String) {
    let q = &run.query;
    let _ = writeln!(out, "Summary");
    let _ = writeln!(out, "    QueryId: {}", or_unknown(&run.query_id));
    let _ = writeln!(out, "    Version: {}", or_unknown(&run.version));
    let _ = writeln!(out, "    State: {}", or_unknown(&run.state));
    let _ = writeln!(out, "    TotalTime: {}", run.total.map_or_else(|| "?".to_owned(), print_millis));
    if let Some(exec) = q.execution {
        let parts = [
            part("Scan", q.cumulative_scan, exec.ns),
            part("Network", q.cumulative_network, exec.ns),
            part("ResultDeliverTime", q.result_deliver, exec.ns),
            part("ScheduleTime", q.peak_schedule, exec.ns),
        ];
        let _ = writeln!(out, "        ExecutionTime: {} [{}]", figure(Some(exec)), parts.join(", "));
    }
    if let Some(p) = q.planner {
        let _ = writeln!(out, "        PlannerTime: {}", print_millis(p));
    }
    if let Some(c) = q.collect_profile {
        let _ = writeln!(out, "        CollectProfileTime: {}", print_millis(c));
    }
    let (peak_name, peak) = match &q.peak_memory {
        Some((b, name)) => (name.as_str(), print_bytes(*b)),
        None => ("QueryPeakMemoryUsage", "?".to_owned()),
    };
    let allocated = q.allocated_memory.map_or_else(|| "?".to_owned(), print_bytes);
    let _ = writeln!(out, "    {peak_name}: {peak}, QueryAllocatedMemoryUsage: {allocated}");
    let _ = writeln!(out, "    QueryCumulativeOperatorTime: {}", figure(q.cumulative_operator));
    let _ = writeln!(out, "    Top Most Time-consuming Nodes:");
    for (i, s) in shares(run).iter().take(crate::formats::starrocks_profile::nodes::TOP_NODES).enumerate() {
        let _ = writeln!(out, "        {}. {}: {}{}{}", i + 1, s.title(), print_time(s.total), pct(s), mark(s.level));
    }
    let _ = writeln!(out, "    Top Most Memory-consuming Nodes:");
    for (i, (n, bytes)) in memory_nodes(run).iter().enumerate() {
        let _ = writeln!(out, "        {}. {}: {}", i + 1, run.nodes[*n].title(), print_bytes(*bytes));
    }
    if !q.non_default.is_empty() {
        let _ = writeln!(out, "    NonDefaultVariables:");
        for v in &q.non_default {
            let _ = writeln!(out, "        {}: {} -> {}", v.name, v.default, v.actual);
        }
    }
}

/// The node's title in the tree: `CONNECTOR_SCAN (plan_node_id=0) [OLAP_SCAN]`.
fn tree_title(n: &PlanNode) -> String {
    match &n.plan_name {
        Some(p) if *p != n.name => format!("{} [{p}]", n.title()),
        _ => n.title(),
    }
}

/// Rows the node gave: a final sink's `PushRowNum`, else the `PullRowNum`
/// of its first operator that is no sink or build side (or its last).
fn output_rows(run: &StarRocksRun, n: &PlanNode) -> Option<i64> {
    if n.kind == NodeKind::FinalSink {
        return n.operators.first().and_then(|&at| run.operator(at).push_rows);
    }
    let count = n.operators.len();
    n.operators.iter().enumerate().find_map(|(i, &at)| {
        let o = run.operator(at);
        let skipped = i + 1 < count && (o.name.ends_with("_SINK") || o.name.contains("_BUILD"));
        (!skipped).then_some(o.pull_rows).flatten()
    })
}

/// The metric lines of a node (after its title), each prefixed.
fn node_lines(run: &StarRocksRun, index: usize, prefix: &str, out: &mut String) {
    let n = &run.nodes[index];
    let s = share(run, index);
    let mut time =
        format!("TotalTime: {}{} [CPUTime: {}", print_time(s.total), pct(&s), print_time(s.cpu.unwrap_or(0)));
    if let Some(t) = s.network {
        time.push_str(&format!(", NetworkTime: {}", print_time(t)));
    }
    if let Some(t) = s.scan {
        time.push_str(&format!(", ScanTime: {}", print_time(t)));
    }
    let _ = writeln!(out, "{prefix}{time}]{}", mark(s.level));
    if let Some(rows) = output_rows(run, n) {
        let _ = writeln!(out, "{prefix}OutputRows: {}", crate::numbers::group(rows.max(0) as u64));
    }
    if n.memory_consuming && (n.peak_memory.is_some() || n.allocated_memory.is_some()) {
        let show = |b: Option<f64>| b.map_or_else(|| "?".to_owned(), print_bytes);
        let _ =
            writeln!(out, "{prefix}PeakMemory: {}, AllocatedMemory: {}", show(n.peak_memory), show(n.allocated_memory));
    }
    let timers = detail_timers(run, index);
    if !timers.is_empty() {
        let attrs = if n.kind == NodeKind::Scan { " [ScanTime = IOTaskExecTime + IOTaskWaitTime]" } else { "" };
        let _ = writeln!(out, "{prefix}Detail Timers:{attrs}");
        for t in timers {
            let range = t.range.map_or_else(String::new, |(min, max)| {
                format!(" [min={}, max={}]", min.as_deref().unwrap_or("?"), max.as_deref().unwrap_or("?"))
            });
            let _ = writeln!(out, "{prefix}{}{}: {}{range}", "    ".repeat(t.depth + 1), t.name, t.text);
        }
    }
}

/// A node and, unless it is an exchange, its children in its fragment.
fn subtree(run: &StarRocksRun, index: usize, indent: &str, last: bool, role: Option<&str>, out: &mut String) {
    let n = &run.nodes[index];
    let role = role.map_or_else(String::new, |r| format!("<{r}> "));
    let _ = writeln!(out, "{indent}{}{role}{}", if last { "└──" } else { "├──" }, tree_title(n));
    let child_indent = format!("{indent}{}", if last { "   " } else { "│  " });
    let children: Vec<usize> = if n.kind == NodeKind::Exchange {
        Vec::new()
    } else {
        n.children.iter().filter_map(|&c| run.nodes.iter().position(|k| k.id == c)).collect()
    };
    let metrics = format!("{child_indent}{}", if children.is_empty() { "    " } else { "│   " });
    node_lines(run, index, &metrics, out);
    for (i, &c) in children.iter().enumerate() {
        let role = (n.kind == NodeKind::Join).then_some(if i == 0 { "PROBE" } else { "BUILD" });
        subtree(run, c, &child_indent, i + 1 == children.len(), role, out);
    }
}

fn fragments(run: &StarRocksRun, out: &mut String) {
    for (fi, f) in run.fragments.iter().enumerate() {
        let _ = writeln!(out, "Fragment {}", f.id);
        if let Some(b) = f.backends {
            let _ = writeln!(out, "│   BackendNum: {b}");
        }
        let _ = writeln!(
            out,
            "│   InstancePeakMemoryUsage: {}, InstanceAllocatedMemoryUsage: {}",
            or_unknown(&f.peak_memory),
            or_unknown(&f.allocated_memory)
        );
        if let Some(p) = &f.prepare_time {
            let _ = writeln!(out, "│   PrepareTime: {p}");
        }
        let home = |n: &&PlanNode| n.fragment == Some(fi as u32);
        let members: Vec<usize> = (0..run.nodes.len()).filter(|&i| home(&&run.nodes[i])).collect();
        let sink = members.iter().copied().find(|&i| run.nodes[i].kind == NodeKind::FinalSink);
        let roots: Vec<usize> = members
            .iter()
            .copied()
            .filter(|&i| Some(i) != sink)
            .filter(|&i| {
                let id = run.nodes[i].id;
                !members.iter().any(|&p| run.nodes[p].kind != NodeKind::Exchange && run.nodes[p].children.contains(&id))
            })
            .collect();
        let sends: Vec<String> = run
            .nodes
            .iter()
            .filter(|n| n.kind != NodeKind::FinalSink && !home(n))
            .filter(|n| {
                n.operators.iter().any(|&at| at.fragment == fi as u32 && run.operator(at).name == "EXCHANGE_SINK")
            })
            .map(|n| n.id.to_string())
            .collect();
        let indent = match sink {
            Some(s) => {
                let _ = writeln!(out, "└──{}", run.nodes[s].name);
                node_lines(run, s, "   │   ", out);
                "   "
            }
            None if !sends.is_empty() => {
                let _ = writeln!(out, "└──EXCHANGE_SINK (plan_node_id={})", sends.join(", "));
                "   "
            }
            None => "",
        };
        for (i, &r) in roots.iter().enumerate() {
            subtree(run, r, indent, i + 1 == roots.len(), None, out);
        }
        let _ = writeln!(out);
    }
    let unreported: Vec<&PlanNode> = run.nodes.iter().filter(|n| n.fragment.is_none()).collect();
    if !unreported.is_empty() {
        let names: Vec<String> = unreported.iter().map(|n| tree_title(n)).collect();
        let _ = writeln!(out, "Not reported yet (no operator in the profile): {}\n", names.join(", "));
    }
}

/// The ANALYZE PROFILE layout of a run.
pub fn analyze_text(run: &StarRocksRun) -> String {
    let mut out = String::new();
    summary(run, &mut out);
    let _ = writeln!(out);
    fragments(run, &mut out);
    out
}

/// The plan nodes as JSON, the largest time first: `plan_node_id`, `name`
/// (the main operator), `plan_name`, `kind`, `total_ns`, `cpu_ns`,
/// `scan_ns` / `network_ns` (null when the node has none), `percent` of
/// `QueryCumulativeOperatorTime` (null when that is 0), `level`, and the
/// red and coral nodes' `detail_timers`.
pub fn nodes_json(run: &StarRocksRun) -> Value {
    shares(run)
        .iter()
        .map(|s| {
            let timers: Vec<Value> = detail_timers(run, s.index)
                .iter()
                .map(|t| {
                    json!({"depth": t.depth, "name": t.name, "value": t.text,
                                "min": t.range.as_ref().and_then(|r| r.0.clone()),
                                "max": t.range.as_ref().and_then(|r| r.1.clone()), "consuming": t.consuming})
                })
                .collect();
            json!({"plan_node_id": s.plan_node_id, "name": s.name, "plan_name": s.plan_name, "kind": s.kind,
                   "total_ns": s.total, "cpu_ns": s.cpu, "scan_ns": s.scan, "network_ns": s.network,
                   "percent": s.percent, "level": s.level, "detail_timers": timers})
        })
        .collect()
}

/// The Summary's figures as JSON (ns and bytes; `*_computed` when the
/// profile left a figure out).
pub fn summary_json(run: &StarRocksRun) -> Value {
    let q = &run.query;
    let ns = |f: Option<Figure>| f.map(|f| f.ns);
    let computed = |f: Option<Figure>| f.is_some_and(|f| f.computed);
    json!({
        "total_ns": run.total, "execution_ns": ns(q.execution), "execution_computed": computed(q.execution),
        "scan_ns": ns(q.cumulative_scan), "network_ns": ns(q.cumulative_network),
        "result_deliver_ns": ns(q.result_deliver), "schedule_ns": ns(q.peak_schedule),
        "planner_ns": q.planner, "collect_profile_ns": q.collect_profile, "cpu_ns": q.cpu,
        "cumulative_operator_ns": ns(q.cumulative_operator),
        "cumulative_operator_computed": computed(q.cumulative_operator),
        "peak_memory_bytes": q.peak_memory.as_ref().map(|p| p.0),
        "peak_memory_counter": q.peak_memory.as_ref().map(|p| p.1.clone()),
        "allocated_memory_bytes": q.allocated_memory,
        "memory_nodes": memory_nodes(run).iter().map(|(n, b)| json!({"plan_node_id": run.nodes[*n].id,
            "name": run.nodes[*n].name, "peak_memory_bytes": b})).collect::<Vec<_>>(),
    })
}
