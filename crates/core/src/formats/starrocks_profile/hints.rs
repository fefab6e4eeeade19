//! Where a StarRocks query's time went, in plain words, each hint from the
//! counters that explain it, most important first:
//!
//! - **the long pole**: the plan node taking the most time, its share of
//!   `QueryCumulativeOperatorTime`, and what its time is made of;
//! - **remote reads**, for the red and coral scans (and the top node if it
//!   is a scan): bytes and time read from remote storage against the local
//!   data cache, from a shared-data table's `IOStatistics`
//!   (`CompressedBytesReadRemote` / `LocalDisk`, `IOTimeRemote` /
//!   `LocalDisk`, `IOCountRemote`) or a Hive/Iceberg scan's
//!   `FSIOBytesRead` / `FSIOTime` against `DataCacheReadBytes`;
//! - **IO-task queueing**: `IOTaskWaitTime` against the scan's `ScanTime`;
//! - **skew** of a red or coral node's time between instances
//!   (`__MIN_OF_` / `__MAX_OF_`), and of any operator's work;
//! - **result delivery**: `ResultDeliverTime` against the execution time;
//! - **pipeline waits**: a pipeline blocked most of its driver time. A scan
//!   pipeline's `InputEmptyTime` is the scan waiting for its own IO tasks,
//!   never for an upstream pipeline.

use super::analysis::breakdowns;
use super::nodes::{cumulative, node_metric, shares, Level, NodeShare};
use super::run::NodeKind;
use super::run::{Metric, StarRocksRun};
use super::value::print_time;
use super::Value;
use crate::model::Nanos;
use crate::numbers::duration_label as label;
use serde::{Deserialize, Serialize};

/// A bottleneck hint.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hint {
    /// Where (a plan node, a pipeline, or a pipeline and operator).
    pub at: String,
    /// Its line.
    pub line: u64,
    /// `node`, `remote-io`, `io-queue`, `io`, `result`, `skew`, `upstream`,
    /// `downstream`, `precondition`.
    pub kind: String,
    /// What it means, in plain words.
    pub text: String,
}

/// A wait is worth a hint from this share of the driver's total time.
pub const HINT_SHARE: f64 = 0.5;
/// IO tasks queue worth a hint from this share of the scan's time …
pub const QUEUE_SHARE: f64 = 0.3;
/// … and this long, ns.
pub const QUEUE_MIN_TIME: Nanos = 1_000_000;
/// Result delivery is worth a hint from this share of the execution time.
pub const DELIVER_SHARE: f64 = 0.1;
/// A red or coral node's time is skewed from this max/min ratio …
pub const NODE_SKEW_RATIO: f64 = 1.5;
/// Skew of any operator's work is worth a hint from this max/min ratio …
pub const SKEW_RATIO: f64 = 4.0;
/// … on a time of at least this much, ns …
pub const SKEW_MIN_TIME: Nanos = 1_000_000;
/// … or a row count of at least this many …
pub const SKEW_MIN_ROWS: f64 = 10_000.0;
/// … of these counters: the work each instance did.
pub const SKEW_COUNTERS: [&str; 4] = ["OperatorTotalTime", "ActiveTime", "PullRowNum", "PushRowNum"];

fn percent(part: f64, whole: f64) -> String {
    format!("{:.1}%", part * 100.0 / whole)
}

fn shown(m: &Metric) -> String {
    match m.value {
        Value::Count(n) => crate::numbers::group(n.max(0) as u64),
        _ => m.text.clone().unwrap_or_default(),
    }
}

fn number(m: &Option<Metric>) -> f64 {
    m.as_ref().and_then(|m| m.value.number()).unwrap_or(0.0)
}

/// The line of a node's main operator.
fn line_of(run: &StarRocksRun, s: &NodeShare) -> u64 {
    run.nodes[s.index].operators.first().map_or(0, |&at| run.operator(at).line)
}

/// The long pole: the top node, its share and what its time is made of.
fn long_pole(run: &StarRocksRun, top: &NodeShare) -> Hint {
    let node = &run.nodes[top.index];
    let share = match (top.percent, cumulative(run)) {
        (Some(p), Some(c)) => {
            format!(", {p:.2}% of the query's operator time (QueryCumulativeOperatorTime {})", print_time(c))
        }
        _ => String::new(),
    };
    let mut made_of = format!("CPUTime {}", print_time(top.cpu.unwrap_or(0)));
    if let Some(scan) = top.scan {
        made_of.push_str(&format!(" + ScanTime {} (its IO tasks", print_time(scan)));
        let exec = node_metric(run, node, "IOTaskExecTime");
        let wait = node_metric(run, node, "IOTaskWaitTime");
        if let (Some(e), Some(w)) = (&exec, &wait) {
            made_of.push_str(&format!(": IOTaskExecTime {}, IOTaskWaitTime {}", text_max(e), text_max(w)));
        }
        made_of.push(')');
    }
    if let Some(net) = top.network {
        made_of.push_str(&format!(" + NetworkTime {}", print_time(net)));
    }
    Hint {
        at: top.title(),
        line: line_of(run, top),
        kind: "node".to_owned(),
        text: format!("the long pole: {} takes {}{share}: {made_of}", top.title(), print_time(top.total)),
    }
}

/// `8m13s (max 9m41s)`, or the value alone.
fn text_max(m: &Metric) -> String {
    match &m.max {
        Some(b) => format!("{} (max {})", shown(m), b.text),
        None => shown(m),
    }
}

/// Remote reads against the local data cache, for one scan node.
fn remote_io(run: &StarRocksRun, s: &NodeShare) -> Option<Hint> {
    let node = &run.nodes[s.index];
    let get = |name: &str| node_metric(run, node, name);
    let (remote, local) = (get("CompressedBytesReadRemote"), get("CompressedBytesReadLocalDisk"));
    let (fs, cache) = (get("FSIOBytesRead"), get("DataCacheReadBytes"));
    let text = if remote.is_some() || local.is_some() {
        let (r, l) = (number(&remote), number(&local));
        let mut t = format!("read {} from remote storage", remote.as_ref().map_or_else(|| "0.000 B".to_owned(), shown));
        if let Some(c) = get("IOCountRemote") {
            t.push_str(&format!(" in {} IOs", shown(&c)));
        }
        if let Some(time) = get("IOTimeRemote") {
            t.push_str(&format!(" (IOTimeRemote {})", text_max(&time)));
        }
        t.push_str(&format!(
            ", and {} from the local data cache",
            local.as_ref().map_or_else(|| "0.000 B".to_owned(), shown)
        ));
        if let Some(time) = get("IOTimeLocalDisk") {
            t.push_str(&format!(" (IOTimeLocalDisk {})", shown(&time)));
        }
        t.push_str(&cache_verdict(r, l, "CompressedBytesReadLocalDisk"));
        t
    } else if fs.is_some() || cache.is_some() {
        let (r, l) = (number(&fs), number(&cache));
        let mut t = format!("read {} from remote storage", fs.as_ref().map_or_else(|| "0.000 B".to_owned(), shown));
        if let Some(time) = get("FSIOTime") {
            t.push_str(&format!(" (FSIOTime {})", text_max(&time)));
        }
        t.push_str(&format!(
            ", and {} from the data cache (DataCacheReadBytes)",
            cache.as_ref().map_or_else(|| "0.000 B".to_owned(), shown)
        ));
        t.push_str(&cache_verdict(r, l, "DataCacheReadBytes"));
        t
    } else {
        return None;
    };
    Some(Hint { at: s.title(), line: line_of(run, s), kind: "remote-io".to_owned(), text })
}

/// What the split of bytes between remote storage and the cache says.
fn cache_verdict(remote: f64, local: f64, local_name: &str) -> String {
    if remote > 0.0 && local <= 0.0 {
        format!(
            ": every byte came from remote storage, none from the data cache ({local_name} is 0); \
             the cache is cold or off for this table, so warming it (CACHE SELECT) or enabling it would cut this scan's IO"
        )
    } else if remote + local > 0.0 {
        format!(": {} of the bytes came from remote storage", percent(remote, remote + local))
    } else {
        String::new()
    }
}

/// IO tasks waiting for a scan thread.
fn io_queue(run: &StarRocksRun, s: &NodeShare) -> Option<Hint> {
    let node = &run.nodes[s.index];
    let wait = node_metric(run, node, "IOTaskWaitTime")?;
    let wait_ns = wait.max_value().time()?;
    let scan = s.scan.filter(|&t| t > 0)?;
    if wait_ns < QUEUE_MIN_TIME || (wait_ns as f64) < QUEUE_SHARE * scan as f64 {
        return None;
    }
    Some(Hint {
        at: s.title(),
        line: wait.line,
        kind: "io-queue".to_owned(),
        text: format!(
            "its IO tasks waited {} for a scan thread (IOTaskWaitTime, {} of ScanTime {}): the scan thread pool is saturated",
            text_max(&wait),
            percent(wait_ns as f64, scan as f64),
            print_time(scan)
        ),
    })
}

/// The slowest instance of a red or coral node sets its time.
fn node_skew(run: &StarRocksRun, s: &NodeShare) -> Option<Hint> {
    let node = &run.nodes[s.index];
    let name = match s.kind {
        NodeKind::Scan if s.scan.is_some() => "ScanTime",
        NodeKind::Exchange if s.network.is_some() => "NetworkTime",
        _ => return None,
    };
    let m = node_metric(run, node, name)?;
    let (min, max) = (m.min.as_ref()?, m.max.as_ref()?);
    let (lo, hi) = (min.value.time()?, max.value.time()?);
    if lo <= 0 || (hi as f64) < NODE_SKEW_RATIO * lo as f64 || hi < SKEW_MIN_TIME {
        return None;
    }
    Some(Hint {
        at: s.title(),
        line: m.line,
        kind: "skew".to_owned(),
        text: format!(
            "{name} ranges from {} to {} across instances (average {}, {:.2}×): the slowest instance sets the node's time",
            min.text,
            max.text,
            shown(&m),
            hi as f64 / lo as f64
        ),
    })
}

/// The client fetching results slowly.
fn delivery(run: &StarRocksRun) -> Option<Hint> {
    let deliver = run.query.result_deliver?.ns;
    let exec = run.query.execution?.ns;
    if exec <= 0 || (deliver as f64) < DELIVER_SHARE * exec as f64 {
        return None;
    }
    Some(Hint {
        at: "RESULT_SINK (plan_node_id=-1)".to_owned(),
        line: run.node(-1).and_then(|n| n.operators.first()).map_or(0, |&at| run.operator(at).line),
        kind: "result".to_owned(),
        text: format!(
            "delivering the results took {} (ResultDeliverTime, {} of the execution time {}): the result sink waited for the client to fetch them",
            print_time(deliver),
            percent(deliver as f64, exec as f64),
            print_time(exec)
        ),
    })
}

/// `target` is `from` or below it in the plan.
fn below(run: &StarRocksRun, from: i64, target: i64) -> bool {
    let mut stack = vec![from];
    let mut seen = Vec::new();
    while let Some(id) = stack.pop() {
        if id == target {
            return true;
        }
        if !seen.contains(&id) {
            seen.push(id);
            stack.extend(run.node(id).map_or(&[][..], |n| &n.children[..]));
        }
    }
    false
}

/// Pipelines blocked most of their driver time.
fn pipeline_waits(run: &StarRocksRun, top: Option<&NodeShare>, out: &mut Vec<Hint>) {
    let sources: Vec<(bool, Option<i64>)> = run
        .pipelines()
        .map(|(_, p)| {
            let source = p.operators.last();
            (source.is_some_and(|o| o.scan_time.is_some() || o.name.ends_with("_SCAN")), source.map(|o| o.plan_node_id))
        })
        .collect();
    for (b, (scan, source)) in breakdowns(run).into_iter().zip(sources) {
        if b.total <= 0 {
            continue;
        }
        let share = |v: Nanos| v as f64 / b.total as f64;
        let fed_by_top = top.zip(source).filter(|(t, s)| below(run, *s, t.plan_node_id));
        let input = match (scan, fed_by_top) {
            (true, _) => (
                "io",
                "waits for its own scan's IO tasks most of the time (InputEmptyTime): reading the data is slow, see the scan's IO"
                    .to_owned(),
            ),
            (false, Some((t, _))) => (
                "upstream",
                format!("waits for input most of the time: upstream of it, {} is the long pole", t.title()),
            ),
            (false, None) => {
                ("upstream", "waits for input most of the time: the pipelines or fragments feeding it are slow".to_owned())
            }
        };
        let waits = [
            (b.input_empty, input.0, input.1),
            (
                b.output_full,
                "downstream",
                "cannot hand on its output most of the time: what consumes it is slow".to_owned(),
            ),
            (b.pending_finish, "io", "waits for its IO tasks after finishing: the IO threads are busy".to_owned()),
            (b.precondition, "precondition", "waits for hash tables or runtime filters to be built".to_owned()),
        ];
        for (v, kind, text) in waits {
            if share(v) >= HINT_SHARE {
                out.push(Hint {
                    at: b.pipeline.clone(),
                    line: b.line,
                    kind: kind.to_owned(),
                    text: format!("{text} ({} of {})", label(v), label(b.total)),
                });
            }
        }
    }
}

/// Operators whose work differs a lot between instances.
fn operator_skew(run: &StarRocksRun, out: &mut Vec<Hint>) {
    for s in &run.skew {
        let big = if s.time { s.max >= SKEW_MIN_TIME as f64 } else { s.max >= SKEW_MIN_ROWS };
        if let Some(r) = s.ratio().filter(|&r| r >= SKEW_RATIO && big && SKEW_COUNTERS.contains(&&*s.counter)) {
            let show = |v: f64| if s.time { label(v as Nanos) } else { crate::numbers::group(v.max(0.0) as u64) };
            out.push(Hint {
                at: s.at.clone(),
                line: s.line,
                kind: "skew".to_owned(),
                text: format!(
                    "{} ranges from {} to {} across instances ({r:.1}×): data skew",
                    s.counter,
                    show(s.min),
                    show(s.max)
                ),
            });
        }
    }
}

/// Hints, most important first (see the module header).
pub fn hints(run: &StarRocksRun) -> Vec<Hint> {
    let mut out = Vec::new();
    let ranked = shares(run);
    let top = ranked.first().filter(|t| t.total > 0);
    if let Some(top) = top {
        out.push(long_pole(run, top));
    }
    let heavy: Vec<&NodeShare> = ranked
        .iter()
        .enumerate()
        .filter(|(i, s)| s.total > 0 && (s.level != Level::Plain || *i == 0))
        .map(|(_, s)| s)
        .collect();
    for s in heavy.iter().filter(|s| s.kind == NodeKind::Scan) {
        out.extend(remote_io(run, s));
        out.extend(io_queue(run, s));
    }
    for s in &heavy {
        out.extend(node_skew(run, s));
    }
    out.extend(delivery(run));
    pipeline_waits(run, top, &mut out);
    operator_skew(run, &mut out);
    out
}
