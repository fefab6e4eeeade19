//! What the page shows of a StarRocks profile beyond the timeline and the
//! critical path (the heaviest plan-node path, from the model): the query's
//! headline (the long pole: the top plan node and its share), the plan
//! nodes as `ANALYZE PROFILE` ranks them, the Summary's figures, the
//! operator flame graph, each pipeline's time breakdown, the operators,
//! skew, the identity checks and bottleneck hints.

use crate::formats::starrocks_profile::analysis::{breakdowns, flame, PipelineBreakdown};
use crate::formats::starrocks_profile::hints::{hints, Hint};
use crate::formats::starrocks_profile::nodes::{cumulative, shares, Level, NodeShare};
use crate::formats::starrocks_profile::run::Check;
use crate::formats::starrocks_profile::run::StarRocksRun;
use crate::formats::starrocks_profile::value::print_time;
use crate::model::flame::FlameGraph;
use crate::model::Nanos;
use serde::{Deserialize, Serialize};

/// One operator as a table row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OperatorRow {
    /// Its task in the model (for selection and the graph).
    pub task: u32,
    /// `Fragment 0 · Pipeline 1`.
    pub pipeline: String,
    /// `CONNECTOR_SCAN`.
    pub name: String,
    /// Its plan node.
    pub plan_node_id: i64,
    /// `OperatorTotalTime`, ns.
    pub total: Option<Nanos>,
    /// `PullTotalTime`, ns.
    pub pull: Option<Nanos>,
    /// `PushTotalTime`, ns.
    pub push: Option<Nanos>,
    /// Rows it gave.
    pub pull_rows: Option<i64>,
    /// Rows it took.
    pub push_rows: Option<i64>,
    /// Its plan node is on the critical path.
    pub on_heaviest_path: bool,
    /// Its line in the profile.
    pub line: u64,
}

/// A counter that differed across instances.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkewRow {
    /// Where.
    pub at: String,
    /// The counter.
    pub counter: String,
    /// Its line.
    pub line: u64,
    /// `time` (ns), `count` or `bytes`.
    pub unit: String,
    /// The merged value (rounded).
    pub value: i64,
    /// The smallest instance's.
    pub min: i64,
    /// The largest instance's.
    pub max: i64,
    /// max / min × 100, when min > 0.
    pub ratio_percent: Option<u64>,
}

/// One plan node as a table row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeRow {
    /// Its task in the model.
    pub task: u32,
    /// Its `plan_node_id`.
    pub plan_node_id: i64,
    /// `CONNECTOR_SCAN (plan_node_id=0)`.
    pub title: String,
    /// The plan's name for it (`OLAP_SCAN`).
    pub plan_name: Option<String>,
    /// Its time, ns.
    pub total: Nanos,
    /// CPUTime, ns.
    pub cpu: Option<Nanos>,
    /// ScanTime, ns.
    pub scan: Option<Nanos>,
    /// NetworkTime, ns.
    pub network: Option<Nanos>,
    /// Its share of `QueryCumulativeOperatorTime`, in hundredths of a percent.
    pub percent_x100: Option<i64>,
    /// `red`, `coral` or `plain`.
    pub level: Level,
    /// It is on the critical path.
    pub on_path: bool,
    /// Its main operator's line in the profile.
    pub line: u64,
}

impl NodeRow {
    fn of(share: NodeShare, on_path: bool, line: u64) -> NodeRow {
        NodeRow {
            task: share.index as u32,
            plan_node_id: share.plan_node_id,
            title: share.title(),
            plan_name: share.plan_name,
            total: share.total,
            cpu: share.cpu,
            scan: share.scan,
            network: share.network,
            percent_x100: share.percent.map(|p| (p * 100.0).round() as i64),
            level: share.level,
            on_path,
            line,
        }
    }
}

/// A StarRocks profile for the page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StarRocksView {
    /// `Query ID`.
    pub query_id: Option<String>,
    /// `Query State`.
    pub state: Option<String>,
    /// `Total`, ns.
    pub total: Option<Nanos>,
    /// `StarRocks Version`.
    pub version: Option<String>,
    /// The SQL text.
    pub sql: Option<String>,
    /// Fragments, pipelines, operators.
    pub counts: (u32, u32, u32),
    /// `QueryCumulativeOperatorTime` (printed or computed), ns.
    pub cumulative: Option<Nanos>,
    /// The execution time, ns.
    pub execution: Option<Nanos>,
    /// The plan nodes, the largest time first.
    pub nodes: Vec<NodeRow>,
    /// The long pole in one line: the top node, its time and share
    /// (`CONNECTOR_SCAN (plan_node_id=0) 9m41s, 100.00% of QueryCumulativeOperatorTime 9m41s`).
    pub long_pole: Option<String>,
    /// Where the long pole's data came from, when it is a scan that says
    /// (its remote-read hint).
    pub long_pole_io: Option<String>,
    /// The operator flame graph (one measure, `operator time`, ns).
    pub flame: FlameGraph,
    /// The flame graph's hottest path (node ids, the root first).
    pub hottest: Vec<u32>,
    /// Each pipeline's time, in print order.
    pub pipelines: Vec<PipelineBreakdown>,
    /// Every operator, in print order.
    pub operators: Vec<OperatorRow>,
    /// Counters that differed across instances, the largest ratio first.
    pub skew: Vec<SkewRow>,
    /// The identities checked.
    pub checks: Vec<Check>,
    /// Bottleneck hints, most important first.
    pub hints: Vec<Hint>,
}

impl StarRocksView {
    /// The view of a run whose critical path is `heaviest` (task ids, which
    /// are plan node indexes).
    pub fn of(run: &StarRocksRun, heaviest: &[u32]) -> StarRocksView {
        let flame = flame(run);
        let hints = hints(run);
        let top = shares(run).first().filter(|s| s.total > 0).map(NodeShare::title);
        let nodes = shares(run)
            .into_iter()
            .map(|share| {
                let line = run.nodes[share.index].operators.first().map_or(0, |&at| run.operator(at).line);
                let on_path = heaviest.contains(&(share.index as u32));
                NodeRow::of(share, on_path, line)
            })
            .collect();
        let operators = run
            .pipelines()
            .flat_map(|(_, p)| {
                p.operators.iter().map(move |o| OperatorRow {
                    task: o.task.0,
                    pipeline: p.lane.clone(),
                    name: o.name.clone(),
                    plan_node_id: o.plan_node_id,
                    total: o.times.total,
                    pull: o.times.pull,
                    push: o.times.push,
                    pull_rows: o.pull_rows,
                    push_rows: o.push_rows,
                    on_heaviest_path: heaviest.contains(&o.task.0),
                    line: o.line,
                })
            })
            .collect();
        let mut skew: Vec<SkewRow> = run
            .skew
            .iter()
            .map(|s| SkewRow {
                at: s.at.clone(),
                counter: s.counter.clone(),
                line: s.line,
                unit: if s.time { "time" } else { "number" }.to_owned(),
                value: s.value.round() as i64,
                min: s.min.round() as i64,
                max: s.max.round() as i64,
                ratio_percent: s.ratio().map(|r| (r * 100.0).round() as u64),
            })
            .collect();
        skew.sort_by_key(|s| std::cmp::Reverse(s.ratio_percent.unwrap_or(0)));
        StarRocksView {
            query_id: run.query_id.clone(),
            state: run.state.clone(),
            total: run.total,
            version: run.version.clone(),
            sql: run.sql.clone(),
            counts: (run.fragments.len() as u32, run.pipelines().count() as u32, run.operator_count() as u32),
            long_pole: long_pole(run),
            long_pole_io: hints
                .iter()
                .find(|h| h.kind == "remote-io" && Some(&h.at) == top.as_ref())
                .map(|h| h.text.clone()),
            cumulative: cumulative(run),
            execution: run.query.execution.map(|f| f.ns),
            nodes,
            hottest: flame.hottest_path(0),
            flame,
            pipelines: breakdowns(run),
            operators,
            skew,
            checks: run.checks.clone(),
            hints,
        }
    }
}

/// The long pole in one line: the top node, its time and its share.
fn long_pole(run: &StarRocksRun) -> Option<String> {
    let top = shares(run).into_iter().next().filter(|s| s.total > 0)?;
    let share = match (top.percent, cumulative(run)) {
        (Some(p), Some(c)) => format!(", {p:.2}% of QueryCumulativeOperatorTime {}", print_time(c)),
        _ => String::new(),
    };
    Some(format!("{} {}{share}", top.title(), print_time(top.total)))
}
