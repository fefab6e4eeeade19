//! A StarRocks query's query-wide figures, as the FE's profile merge
//! (`QueryRuntimeProfile.buildQueryProfile`) writes them under Execution and
//! `ANALYZE PROFILE` prints them in its Summary; computed the FE's way from
//! the operators and pipelines when the profile leaves one out:
//!
//! - `QueryCumulativeOperatorTime` = Σ over operators with both metric groups
//!   of maxOf(`OperatorTotalTime`) + maxOf(`ScanTime`) + maxOf(`NetworkTime`);
//!   `QueryCumulativeScanTime` and `QueryCumulativeNetworkTime` the sums of
//!   the last two;
//! - `QueryPeakScheduleTime` = the largest maxOf(`ScheduleTime`) of a pipeline;
//! - `ResultDeliverTime` = maxOf(`OutputFullTime`) + maxOf(`PendingFinishTime`)
//!   of the final sink's pipeline;
//! - the execution time is `QueryExecutionWallTime`, else (as ANALYZE
//!   PROFILE does) the largest maxOf(`DriverTotalTime`) of a pipeline.
//!
//! The peak memory is `QueryPeakMemoryUsage` (older FEs) or
//! `QueryPeakMemoryUsagePerNode` (3.x); the planner's time is the Planner's
//! `-- Total[1] 4ms` line, the profile's collection the Summary's
//! `Collect Profile Time`.

use super::run::{Figure, Fragment, NonDefault, Operator, Pipeline, QueryCounters};
use super::{Node, Value};
use crate::model::Nanos;

fn printed(ns: Option<Nanos>) -> Option<Figure> {
    ns.map(|ns| Figure { ns, computed: false })
}

fn computed(ns: Option<Nanos>) -> Option<Figure> {
    ns.map(|ns| Figure { ns, computed: true })
}

fn bytes(exec: &Node, name: &str) -> Option<f64> {
    match exec.counter(name)?.value {
        Value::Bytes(b) => Some(b),
        Value::Count(n) => Some(n as f64),
        _ => None,
    }
}

/// The planner's total: the line `- -- Total[1] 4ms` (a flag in the text
/// form) or a counter `-- Total[1]` valued `4ms`.
fn planner_total(planner: &Node) -> Option<Nanos> {
    planner.counters().find_map(|c| {
        let name = c.name.trim();
        let rest = name.strip_prefix("-- Total[")?;
        let (_, after) = rest.split_once(']')?;
        let text = after.trim();
        let text = if text.is_empty() { c.text.as_deref()? } else { text };
        crate::formats::starrocks_profile::value::parse_time(text.trim())
    })
}

/// The session variables' JSON: `{"name":{"defaultValue":…,"actualValue":…},…}`.
fn non_default(text: &str) -> Vec<NonDefault> {
    let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(text) else {
        return Vec::new();
    };
    let mut out: Vec<NonDefault> = map
        .into_iter()
        .map(|(name, v)| NonDefault {
            name,
            default: v.get("defaultValue").map_or_else(|| "?".to_owned(), |d| d.to_string()),
            actual: v.get("actualValue").map_or_else(|| "?".to_owned(), |d| d.to_string()),
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// Sums `get` over every operator that has both metric groups.
fn operator_sum(fragments: &[Fragment], get: impl Fn(&Operator) -> Nanos) -> Nanos {
    fragments
        .iter()
        .flat_map(|f| &f.pipelines)
        .flat_map(|p| &p.operators)
        .filter(|o| o.metric_groups)
        .fold(0, |a, o| a.saturating_add(get(o)))
}

/// The query-wide figures of a profile's Summary, Planner and Execution
/// nodes, computed from `fragments` where left out.
pub fn query_counters(
    summary: Option<&Node>,
    planner: Option<&Node>,
    exec: &Node,
    fragments: &[Fragment],
) -> QueryCounters {
    let pipelines = || fragments.iter().flat_map(|f| &f.pipelines);
    let largest = |get: &dyn Fn(&Pipeline) -> Option<Nanos>| pipelines().filter_map(get).max();
    let scan = || operator_sum(fragments, |o| o.scan_time.unwrap_or(0));
    let network = || operator_sum(fragments, |o| o.network_time.unwrap_or(0));
    let deliver = pipelines()
        .filter(|p| p.operators.iter().any(|o| o.final_sink))
        .map(|p| p.max.output_full.unwrap_or(0).saturating_add(p.max.pending_finish.unwrap_or(0)))
        .max();
    let peak_memory = ["QueryPeakMemoryUsage", "QueryPeakMemoryUsagePerNode"]
        .into_iter()
        .find_map(|name| Some((bytes(exec, name)?, name.to_owned())));
    QueryCounters {
        cumulative_operator: printed(exec.time("QueryCumulativeOperatorTime")).or_else(|| {
            computed(Some(operator_sum(fragments, |o| {
                o.max_total
                    .unwrap_or(0)
                    .saturating_add(o.scan_time.unwrap_or(0))
                    .saturating_add(o.network_time.unwrap_or(0))
            })))
        }),
        cumulative_scan: printed(exec.time("QueryCumulativeScanTime")).or_else(|| computed(Some(scan()))),
        cumulative_network: printed(exec.time("QueryCumulativeNetworkTime")).or_else(|| computed(Some(network()))),
        execution: printed(exec.time("QueryExecutionWallTime")).or_else(|| computed(largest(&|p| p.max.total))),
        result_deliver: printed(exec.time("ResultDeliverTime")).or_else(|| computed(deliver)),
        peak_schedule: printed(exec.time("QueryPeakScheduleTime")).or_else(|| computed(largest(&|p| p.max.schedule))),
        cpu: exec.time("QueryCumulativeCpuTime"),
        peak_memory,
        allocated_memory: bytes(exec, "QueryAllocatedMemoryUsage"),
        planner: planner.and_then(planner_total),
        collect_profile: summary.and_then(|s| s.time("Collect Profile Time")),
        non_default: summary.and_then(|s| s.text("NonDefaultSessionVariables")).map(non_default).unwrap_or_default(),
    }
}
