//! A StarRocks query profile as one [`Model`] and a [`StarRocksRun`].
//!
//! - **Structure**: the Execution node's `Fragment N` children, their
//!   `Pipeline (id=N)` children and these pipelines' operator nodes
//!   (`NAME (plan_node_id=N)`), with the driver and operator counters the
//!   analyses need (each also as maxOf: `__MAX_OF_X` when present, else X),
//!   every operator's `UniqueMetrics` and every `__MIN_OF_` / `__MAX_OF_`
//!   pair ([`Skew`]); the query-wide figures ([`super::query`]).
//! - **Plan nodes** ([`super::plan`]): the operators grouped by
//!   `plan_node_id` as `ANALYZE PROFILE` groups them, each with its time
//!   (CPUTime, plus a scan's ScanTime or an exchange's NetworkTime).
//! - **Tasks**: each plan node is a task (the model's task *i* is
//!   `run.nodes[i]`) on the lane of the fragment it is shown in
//!   (`Fragment 2`), of the plan's kind for it (`OLAP_SCAN`), lasting its
//!   node time: a scan's bar holds its IO time.
//! - **Data flow**: a node waits for its children in the plan (the
//!   Topology), the final sink for the plan's root. Without a Topology, the
//!   operators' flow is carried over to their nodes: a pipeline lists its
//!   sink first and its source last, and each operator waits for the one
//!   listed after it; a pipeline's source waits for the sink of another
//!   pipeline of its fragment with the same plan node (same operator stem
//!   first: `LOCAL_EXCHANGE_SINK` → `LOCAL_EXCHANGE_SOURCE`, then any left:
//!   `LOCAL_SORT_SINK` → `LOCAL_PARALLEL_MERGE_SOURCE`); a source still unfed
//!   waits for the `EXCHANGE_SINK` of another fragment with its plan node id.
//! - **Times**: a profile has no timestamps, so each node is placed as
//!   early as its inputs allow (start = the latest end of what it waits
//!   for): the critical path is then the heaviest path by node time.

use super::analysis::checks;
use super::plan::{node_edges, plan_nodes};
use super::query::query_counters;
use super::run::{
    Bound, DriverTimes, Fragment, Metric, Operator, OperatorTimes, Pipeline, Skew, StarRocksRun, Topology,
};
use super::{Counter, Node, Profile, Value};
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::model::{Model, ModelBuilder, Nanos, Role, Task, TaskId, When};

/// `NAME (plan_node_id=N)…` → (NAME, N).
fn operator_name(node: &str) -> Option<(&str, i64)> {
    let (name, rest) = node.split_once(" (plan_node_id=")?;
    let id = &rest[..rest.find(')')?];
    Some((name, id.parse().ok()?))
}

fn time_of(node: &Node, name: &str) -> Option<Nanos> {
    node.time(name)
}

fn count_of(node: &Node, name: &str) -> Option<i64> {
    match node.counter(name)?.value {
        Value::Count(n) => Some(n),
        _ => None,
    }
}

/// maxOf(`name`): the counter's `__MAX_OF_` child when printed, else the counter.
fn max_of(node: &Node, name: &str) -> Option<Value> {
    let c = node.counter(name)?;
    let max = format!("__MAX_OF_{name}");
    Some(c.children.iter().find(|k| k.name == max).map_or(c.value, |k| k.value))
}

fn max_time_of(node: &Node, name: &str) -> Option<Nanos> {
    max_of(node, name)?.time()
}

fn driver_times(p: &Node, time_of: fn(&Node, &str) -> Option<Nanos>) -> DriverTimes {
    DriverTimes {
        total: time_of(p, "DriverTotalTime"),
        active: time_of(p, "ActiveTime"),

        pending: time_of(p, "PendingTime"),
        input_empty: time_of(p, "InputEmptyTime"),
        first_input_empty: time_of(p, "FirstInputEmptyTime"),
        followup_input_empty: time_of(p, "FollowupInputEmptyTime"),
        output_full: time_of(p, "OutputFullTime"),
        precondition_block: time_of(p, "PreconditionBlockTime"),
        pending_finish: time_of(p, "PendingFinishTime"),
        schedule: time_of(p, "ScheduleTime"),
        overhead: time_of(p, "OverheadTime"),
    }
}

/// An operator's `UniqueMetrics` counters, flattened (min and max beside
/// their counter).
fn unique_metrics(group: &Node) -> Vec<Metric> {
    fn add(c: &Counter, parent: Option<usize>, out: &mut Vec<Metric>) {
        let bound = |prefix: &str| {
            let name = format!("{prefix}{}", c.name);
            c.children
                .iter()
                .find(|k| k.name == name)
                .map(|k| Bound { value: k.value, text: k.text.clone().unwrap_or_default() })
        };
        let at = out.len();
        out.push(Metric {
            name: c.name.clone(),
            parent,
            value: c.value,
            text: c.text.clone(),
            min: bound("__MIN_OF_"),
            max: bound("__MAX_OF_"),
            line: c.line,
        });
        for k in c.children.iter().filter(|k| !k.name.starts_with("__MIN_OF_") && !k.name.starts_with("__MAX_OF_")) {
            add(k, Some(at), out);
        }
    }
    let mut out = Vec::new();
    for c in group.counters() {
        add(c, None, &mut out);
    }
    out
}

fn bytes_of(node: &Node, name: &str, of: fn(&Node, &str) -> Option<Value>) -> Option<f64> {
    match of(node, name)? {
        Value::Bytes(b) => Some(b),
        Value::Count(n) => Some(n as f64),
        _ => None,
    }
}

fn value_of(node: &Node, name: &str) -> Option<Value> {
    node.counter(name).map(|c| c.value)
}

/// One operator's node: its counters and metrics.
fn operator(o: &Node, name: &str, plan_node_id: i64) -> Operator {
    let common = o.child("CommonMetrics");
    let unique = o.child("UniqueMetrics");
    let c = common.unwrap_or(o);
    let unique_max = |name: &str| unique.and_then(|u| max_time_of(u, name));
    Operator {
        name: name.to_owned(),
        plan_node_id,
        label: o.name.clone(),
        line: o.line,
        task: TaskId(0),
        times: OperatorTimes {
            total: time_of(c, "OperatorTotalTime"),
            pull: time_of(c, "PullTotalTime"),
            push: time_of(c, "PushTotalTime"),
            set_finishing: time_of(c, "SetFinishingTime"),
            set_finished: time_of(c, "SetFinishedTime"),
            close: time_of(c, "CloseTime"),
        },
        pull_rows: count_of(c, "PullRowNum"),
        push_rows: count_of(c, "PushRowNum"),
        subordinate: c.counter("IsSubordinate").is_some(),
        final_sink: c.counter("IsFinalSink").is_some(),
        metric_groups: common.is_some() && unique.is_some(),
        max_total: max_time_of(c, "OperatorTotalTime"),
        scan_time: unique_max("ScanTime"),
        network_time: unique_max("NetworkTime"),
        peak_memory: bytes_of(c, "OperatorPeakMemoryUsage", max_of),
        allocated_memory: bytes_of(c, "OperatorAllocatedMemoryUsage", value_of),
        unique: unique.map(unique_metrics).unwrap_or_default(),
    }
}

/// Collects the `__MIN_OF_X` / `__MAX_OF_X` pairs under `node`'s counters
/// (and its metric groups').
fn skews(node: &Node, at: &str, out: &mut Vec<Skew>) {
    let mut visit = |c: &Counter| {
        let child = |prefix: &str| {
            let name = format!("{prefix}{}", c.name);
            c.children.iter().find(|k| k.name == name).and_then(|k| k.value.number())
        };
        if let (Some(value), Some(min), Some(max)) = (c.value.number(), child("__MIN_OF_"), child("__MAX_OF_")) {
            out.push(Skew {
                at: at.to_owned(),
                counter: c.name.clone(),
                line: c.line,
                value,
                min,
                max,
                time: matches!(c.value, Value::Time(_)),
            });
        }
    };
    for c in node.counters() {
        c.walk(&mut visit);
    }
    for group in node.children().filter(|n| n.name.ends_with("Metrics")) {
        for c in group.counters() {
            c.walk(&mut visit);
        }
    }
}

/// Reports time counters whose value is no time (`starrocks.bad-value`).
fn check_values(node: &Node, diags: &mut Diagnostics) {
    let mut visit = |c: &Counter| {
        if c.name.ends_with("Time") && matches!(c.value, Value::Text) {
            diags.report(
                Severity::Warning,
                "starrocks.bad-value",
                Position::Line(c.line),
                format!("`{}` should be a time, but reads {:?}", c.name, c.text.as_deref().unwrap_or("")),
            );
        }
    };
    for c in node.counters() {
        c.walk(&mut visit);
    }
    for child in node.children() {
        check_values(child, diags);
    }
}

/// The profile's model and run.
pub fn reconcile(profile: &Profile, diags: &mut Diagnostics) -> (Model, StarRocksRun) {
    let mut run = StarRocksRun { json: profile.json.is_some(), ..StarRocksRun::default() };
    if let Some(s) = profile.summary() {
        run.query_id = s.text("Query ID").map(str::to_owned);
        run.state = s.text("Query State").map(str::to_owned);
        run.total = s.time("Total");
        run.version = s.text("StarRocks Version").map(str::to_owned);
        run.sql = s.text("Sql Statement").map(|t| t.trim().to_owned());
        if let Some(state) = &run.state {
            if state != "Finished" {
                let line = s.counter("Query State").map_or(0, |c| c.line);
                diags.report(
                    Severity::Info,
                    "starrocks.unfinished",
                    if line > 0 { Position::Line(line) } else { Position::Whole },
                    format!("the query was {state} when the profile was taken: its counters are incomplete"),
                );
            }
        }
    }
    let mut b = ModelBuilder::new();
    let Some(exec) = profile.execution() else {
        if profile.root.is_some() {
            diags.report(
                Severity::Warning,
                "starrocks.no-execution",
                Position::Whole,
                "the profile has no Execution node",
            );
        }
        return (b.build(), run);
    };
    check_values(exec, diags);
    for f in exec.children().filter(|n| n.name.starts_with("Fragment ")) {
        let fid = f.name["Fragment ".len()..].to_owned();
        let mut fragment = Fragment {
            id: fid.clone(),
            line: f.line,
            backends: count_of(f, "BackendNum"),
            instances: count_of(f, "InstanceNum"),
            peak_memory: f.text("InstancePeakMemoryUsage").map(str::to_owned),
            allocated_memory: f.text("InstanceAllocatedMemoryUsage").map(str::to_owned),
            prepare_time: f.text("FragmentInstancePrepareTime").map(str::to_owned),
            pipelines: Vec::new(),
        };
        skews(f, &f.name, &mut run.skew);
        for p in f.children().filter(|n| n.name.starts_with("Pipeline")) {
            let pid = p.name.trim_start_matches("Pipeline (id=").trim_end_matches(')').to_owned();
            let lane_name = format!("Fragment {fid} · Pipeline {pid}");
            skews(p, &lane_name, &mut run.skew);
            let mut pipeline = Pipeline {
                id: pid,
                line: p.line,
                lane: lane_name.clone(),
                dop: count_of(p, "DegreeOfParallelism"),
                times: driver_times(p, time_of),
                max: driver_times(p, max_time_of),
                operators: Vec::new(),
            };
            for o in p.children() {
                let Some((name, plan_node_id)) = operator_name(&o.name) else { continue };
                skews(o, &format!("{lane_name} · {}", o.name), &mut run.skew);
                pipeline.operators.push(operator(o, name, plan_node_id));
            }
            fragment.pipelines.push(pipeline);
        }
        run.fragments.push(fragment);
    }
    run.query =
        query_counters(profile.summary(), profile.root.as_ref().and_then(|r| r.child("Planner")), exec, &run.fragments);
    let topology = topology(exec, diags);
    run.topology = topology.is_some();
    run.nodes = plan_nodes(&run.fragments, topology.as_ref());
    for (i, node) in run.nodes.iter().enumerate() {
        for at in node.all_operators() {
            let f = &mut run.fragments[at.fragment as usize];
            f.pipelines[at.pipeline as usize].operators[at.operator as usize].task = TaskId(i as u32);
        }
    }
    let edges = node_edges(&run.nodes, topology.as_ref(), &data_flow(&run));
    let last = node_tasks(&mut b, &run, &edges);
    // The window is the nodes' own time, laid end to end along the plan
    // (a profile has no timestamps); the query's `Total` is in the run.
    b.window(0, last.max(1));
    run.checks = checks(&run);
    for c in run.checks.iter().filter(|c| !c.ok) {
        diags.report(
            Severity::Warning,
            "starrocks.mismatch",
            Position::Line(c.line),
            format!(
                "{}: {} does not add up: {} vs {} (tolerance {})",
                c.at,
                c.rule,
                crate::numbers::duration_label(c.left),
                crate::numbers::duration_label(c.right),
                crate::numbers::duration_label(c.tolerance)
            ),
        );
    }
    (b.build(), run)
}

/// The operators' data flow as the module header says, as pairs of plan
/// node ids (the waiting operator's, the one it waits for's).
fn data_flow(run: &StarRocksRun) -> Vec<(i64, i64)> {
    let mut edges = Vec::new();
    // Per fragment: (pipeline index, operator) of sinks and sources.
    let mut unfed: Vec<(usize, &Operator)> = Vec::new();
    let mut exchange_sinks: Vec<(usize, &Operator)> = Vec::new();
    for (fi, f) in run.fragments.iter().enumerate() {
        let mut sinks: Vec<(usize, &Operator, bool)> = Vec::new();
        let mut sources: Vec<(usize, &Operator)> = Vec::new();
        for (pi, p) in f.pipelines.iter().enumerate() {
            for w in p.operators.windows(2) {
                edges.push((w[0].plan_node_id, w[1].plan_node_id));
            }
            if let Some(first) = p.operators.first().filter(|o| o.name.ends_with("_SINK")) {
                if first.name == "EXCHANGE_SINK" {
                    exchange_sinks.push((fi, first));
                } else {
                    sinks.push((pi, first, false));
                }
            }
            if let Some(last) = p.operators.last().filter(|o| o.name.ends_with("_SOURCE")) {
                sources.push((pi, last));
            }
        }
        let stem = |name: &str, suffix: &str| name.strip_suffix(suffix).unwrap_or(name).to_owned();
        let mut fed = vec![false; sources.len()];
        for same_stem in [true, false] {
            for (si, (pi, source)) in sources.iter().enumerate() {
                if fed[si] || source.name == "EXCHANGE_SOURCE" {
                    continue;
                }
                let found = sinks.iter_mut().find(|(spi, sink, used)| {
                    !*used
                        && spi != pi
                        && sink.plan_node_id == source.plan_node_id
                        && (!same_stem || stem(&sink.name, "_SINK") == stem(&source.name, "_SOURCE"))
                });
                if let Some((_, sink, used)) = found {
                    *used = true;
                    fed[si] = true;
                    edges.push((source.plan_node_id, sink.plan_node_id));
                }
            }
        }
        unfed.extend(sources.iter().zip(&fed).filter(|(_, f)| !**f).map(|((_, s), _)| (fi, *s)));
    }
    for (fi, source) in unfed {
        for (sfi, sink) in &exchange_sinks {
            if *sfi != fi && sink.plan_node_id == source.plan_node_id {
                edges.push((source.plan_node_id, sink.plan_node_id));
            }
        }
    }
    edges
}

/// The topology of the Execution node, if it prints one that reads
/// (`starrocks.topology` when it does not).
fn topology(exec: &Node, diags: &mut Diagnostics) -> Option<Topology> {
    let c = exec.counter("Topology")?;
    match Topology::parse(c.text.as_deref().unwrap_or("")) {
        Ok(t) => Some(t),
        Err(e) => {
            diags.report(
                Severity::Warning,
                "starrocks.topology",
                if c.line > 0 { Position::Line(c.line) } else { Position::Whole },
                format!("the Topology is no plan this reads ({e}): plan nodes are told by their operators' names"),
            );
            None
        }
    }
}

/// Adds a task per plan node (on its fragment's lane, of the plan's kind,
/// lasting its node time), its edges, and places each as early as its
/// inputs allow; returns the last end.
fn node_tasks(b: &mut ModelBuilder, run: &StarRocksRun, edges: &[(usize, usize)]) -> Nanos {
    for node in &run.nodes {
        let lane = match node.fragment {
            Some(f) => b.lane(&format!("Fragment {}", run.fragments[f as usize].id)),
            None => b.lane("Not reported"),
        };
        let kind = b.kind(node.plan_name.as_deref().unwrap_or(&node.name), None);
        let title = node.title();
        let uid = b.sym(&title);
        b.named_task(Task::new(uid, kind, Role::Work, lane, None, Some(node.times.total.max(0))), Some(uid));
    }
    for &(task, dep) in edges {
        b.depends(TaskId(task as u32), TaskId(dep as u32));
    }
    schedule(b, edges)
}

/// Places each task as early as its inputs allow; returns the last end.
fn schedule(b: &mut ModelBuilder, edges: &[(usize, usize)]) -> Nanos {
    let n = b.len();
    let mut waits: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut feeds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(t, d) in edges {
        waits[t].push(d);
        feeds[d].push(t);
    }
    let mut missing: Vec<usize> = waits.iter().map(Vec::len).collect();
    let mut ready: Vec<usize> = (0..n).filter(|&i| missing[i] == 0).collect();
    let mut start = vec![0 as Nanos; n];
    let mut placed = vec![false; n];
    let mut last = 0;
    // Tasks on a cycle (a damaged profile) are placed at 0 after the rest.
    let mut next_unplaced = 0;
    while let Some(i) = ready.pop().or_else(|| {
        while next_unplaced < n && placed[next_unplaced] {
            next_unplaced += 1;
        }
        (next_unplaced < n).then_some(next_unplaced)
    }) {
        if placed[i] {
            continue;
        }
        placed[i] = true;
        let task = b.get_mut(TaskId(i as u32));
        let duration = task.end.get().unwrap_or(0);
        let end = start[i].saturating_add(duration);
        task.start = When::at(start[i]);
        task.end = When::at(end);
        last = last.max(end);
        for &f in &feeds[i] {
            start[f] = start[f].max(end);
            missing[f] = missing[f].saturating_sub(1);
            if missing[f] == 0 {
                ready.push(f);
            }
        }
    }
    last
}
