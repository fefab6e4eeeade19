//! What a StarRocks profile's numbers say: the driver-time identities
//! checked, each pipeline's time broken down, and the operator flame graph
//! (plan nodes in [`super::nodes`], hints in [`super::hints`]).
//!
//! **Identities** (the BE's pipeline driver and the StarRocks docs):
//! `ScheduleTime = DriverTotalTime − ActiveTime − PendingTime`;
//! `PendingTime = InputEmptyTime + OutputFullTime + PreconditionBlockTime + PendingFinishTime`;
//! `InputEmptyTime = FirstInputEmptyTime + FollowupInputEmptyTime`;
//! `ActiveTime = Σ OperatorTotalTime + OverheadTime` gives the overhead,
//! which is not checked: `ActiveTime` counts only the driver's `process`
//! calls, while operators are also closed (`CloseTime`) in its `finalize`,
//! so their total may exceed it (seen on the corpus);
//! `OperatorTotalTime = PullTotalTime + PushTotalTime + SetFinishingTime + SetFinishedTime + CloseTime`.
//! A sub-timer the profile leaves out counts as 0, except for an
//! operator: 3.5 prints only Pull and Push, so there the parts must not
//! exceed the total, and must equal it only when all five are printed.
//!
//! **Tolerance.** Each printed time is rounded to its display resolution
//! (`N.NNNus` 1 ns, `N.NNNms` 1 µs, `1s54ms` 1 ms, `9m41s` 1 s, `1h30m` 1 min),
//! and merged profiles hold averages over instances, which need not have run
//! the same operators. Two sides agree when they differ by at most the sum
//! of their terms' resolutions plus [`RELATIVE`] of the larger side.

use super::run::{Check, DriverTimes, OperatorTimes, StarRocksRun};
use crate::model::flame::{FlameGraph, FlameNode, Measure, Unit};
use crate::model::Nanos;
use serde::{Deserialize, Serialize};

/// Share of the larger side two sums may differ by (averaging).
pub const RELATIVE: f64 = 0.05;

/// The display resolution of a printed time, ns.
pub fn resolution(ns: Nanos) -> Nanos {
    match ns.abs() {
        v if v < 1_000_000 => 1,
        v if v < 1_000_000_000 => 1_000,
        v if v < 60_000_000_000 => 1_000_000,
        v if v < 3_600_000_000_000 => 1_000_000_000,
        _ => 60_000_000_000,
    }
}

fn tolerance(terms: &[Nanos], relative: f64, left: Nanos, right: Nanos) -> Nanos {
    let printed: Nanos = terms.iter().map(|&t| resolution(t)).sum();
    printed + (left.abs().max(right.abs()) as f64 * relative) as Nanos
}

/// An equality `left = Σ parts` (parts left out count as 0).
fn equality(at: &str, line: u64, rule: &str, left: Option<Nanos>, parts: &[Option<Nanos>]) -> Option<Check> {
    let left = left?;
    if parts.iter().all(Option::is_none) {
        return None;
    }
    let terms: Vec<Nanos> = std::iter::once(left).chain(parts.iter().flatten().copied()).collect();
    let right: Nanos = parts.iter().flatten().sum();
    let tolerance = tolerance(&terms, RELATIVE, left, right);
    Some(Check {
        at: at.to_owned(),
        line,
        rule: rule.to_owned(),
        left,
        right,
        tolerance,
        ok: (left - right).abs() <= tolerance,
    })
}

fn driver_checks(at: &str, line: u64, t: &DriverTimes, out: &mut Vec<Check>) {
    if let (Some(total), Some(active), Some(pending)) = (t.total, t.active, t.pending) {
        out.extend(equality(
            at,
            line,
            "ScheduleTime = DriverTotalTime − ActiveTime − PendingTime",
            t.schedule,
            &[Some(total), Some(-active), Some(-pending)],
        ));
    }
    out.extend(equality(
        at,
        line,
        "PendingTime = InputEmptyTime + OutputFullTime + PreconditionBlockTime + PendingFinishTime",
        t.pending,
        &[t.input_empty, t.output_full, t.precondition_block, t.pending_finish],
    ));
    out.extend(equality(
        at,
        line,
        "InputEmptyTime = FirstInputEmptyTime + FollowupInputEmptyTime",
        t.input_empty,
        &[t.first_input_empty, t.followup_input_empty],
    ));
}

fn operator_check(at: &str, line: u64, t: &OperatorTimes) -> Option<Check> {
    let parts = [t.pull, t.push, t.set_finishing, t.set_finished, t.close];
    let rule = "OperatorTotalTime = PullTotalTime + PushTotalTime + SetFinishingTime + SetFinishedTime + CloseTime";
    if parts.iter().all(Option::is_some) {
        return equality(at, line, rule, t.total, &parts);
    }
    let total = t.total?;
    let right: Nanos = parts.iter().flatten().sum();
    let terms: Vec<Nanos> = std::iter::once(total).chain(parts.iter().flatten().copied()).collect();
    let tolerance = tolerance(&terms, RELATIVE, total, right);
    Some(Check {
        at: at.to_owned(),
        line,
        rule: "OperatorTotalTime ≥ PullTotalTime + PushTotalTime (the other parts are not printed)".to_owned(),
        left: total,
        right,
        tolerance,
        ok: right - total <= tolerance,
    })
}

/// Every identity of every pipeline and operator.
pub fn checks(run: &StarRocksRun) -> Vec<Check> {
    let mut out = Vec::new();
    for (_, p) in run.pipelines() {
        driver_checks(&p.lane, p.line, &p.times, &mut out);
        for o in &p.operators {
            out.extend(operator_check(&format!("{} · {}", p.lane, o.label), o.line, &o.times));
        }
    }
    out
}

/// Where one pipeline's driver time went, ns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PipelineBreakdown {
    /// `Fragment 0 · Pipeline 1`.
    pub pipeline: String,
    /// Its line.
    pub line: u64,
    /// `DriverTotalTime`.
    pub total: Nanos,
    /// Running operators (`ActiveTime`).
    pub active: Nanos,
    /// Σ `OperatorTotalTime` of its operators.
    pub operators: Nanos,
    /// `ActiveTime − Σ OperatorTotalTime` (can be below 0 on merged profiles).
    pub overhead: Nanos,
    /// Waiting for input.
    pub input_empty: Nanos,
    /// Waiting for downstream.
    pub output_full: Nanos,
    /// Waiting for hash tables and runtime filters.
    pub precondition: Nanos,
    /// Waiting for IO tasks after the sink finished.
    pub pending_finish: Nanos,
    /// Ready but not running: `ScheduleTime`, else total − active − pending.
    pub schedule: Nanos,
}

/// Each pipeline's breakdown, in print order.
pub fn breakdowns(run: &StarRocksRun) -> Vec<PipelineBreakdown> {
    run.pipelines()
        .map(|(_, p)| {
            let t = &p.times;
            let active = t.active.unwrap_or(0);
            let operators: Nanos = p.operators.iter().filter_map(|o| o.times.total).sum();
            let derived = t.total.unwrap_or(0) - active - t.pending.unwrap_or(0);
            PipelineBreakdown {
                pipeline: p.lane.clone(),
                line: p.line,
                total: t.total.unwrap_or(0),
                active,
                operators,
                overhead: active - operators,
                input_empty: t.input_empty.unwrap_or(0),
                output_full: t.output_full.unwrap_or(0),
                precondition: t.precondition_block.unwrap_or(0),
                pending_finish: t.pending_finish.unwrap_or(0),
                schedule: t.schedule.unwrap_or(derived.max(0)),
            }
        })
        .collect()
}

/// The operator flame graph: query → fragment → pipeline → operator, one
/// measure, `operator time` as StarRocks accounts it (maxOf
/// `OperatorTotalTime` + maxOf `ScanTime` + maxOf `NetworkTime`, ns, the
/// terms of `QueryCumulativeOperatorTime`); fragments and pipelines are
/// groupings (their children's sum).
pub fn flame(run: &StarRocksRun) -> FlameGraph {
    let node = |name: String, path: String, parent: Option<u32>, grouping: bool, total: Option<u64>| FlameNode {
        name,
        path,
        parent,
        children: Vec::new(),
        grouping,
        total: [total, None, None, None],
        self_time: [None; 4],
    };
    let root = node(run.query_id.clone().unwrap_or_else(|| "query".to_owned()), String::new(), None, false, None);
    let measures =
        vec![Measure { title: "operator time".to_owned(), name: "operator_ns".to_owned(), unit: Unit::Nanos }];
    let mut g = FlameGraph { nodes: vec![root].into(), warnings: Vec::new(), measures };
    let add = |g: &mut FlameGraph, n: FlameNode| {
        let id = g.nodes.len() as u32;
        if let Some(p) = n.parent {
            g.nodes[p as usize].children.push(id);
        }
        g.nodes.push(n);
        id
    };
    for f in &run.fragments {
        let fname = format!("Fragment {}", f.id);
        let fid = add(&mut g, node(fname.clone(), fname.clone(), Some(0), true, None));
        for p in &f.pipelines {
            let pname = format!("Pipeline {}", p.id);
            let ppath = format!("{fname};{pname}");
            let pid = add(&mut g, node(pname, ppath.clone(), Some(fid), true, None));
            for o in &p.operators {
                let parts = [o.max_total, o.scan_time, o.network_time];
                let total = parts
                    .iter()
                    .any(Option::is_some)
                    .then(|| parts.iter().flatten().fold(0u64, |a, &t| a.saturating_add(t.max(0) as u64)));
                add(&mut g, node(o.label.clone(), format!("{ppath};{}", o.label), Some(pid), false, total));
            }
        }
    }
    g.fill(0);
    g
}
