//! What a StarRocks profile says beyond its model, as data: the fragments,
//! pipelines and operators with their counters, the plan nodes and the
//! plan's tree, the query-wide figures, the skew and the identities checked
//! ([`StarRocksRun`]). Made by [`super::reconcile`] (with [`super::plan`]
//! and [`super::query`]) and read by the analyses, the report and the view.

use super::Value;
use crate::model::{Nanos, TaskId};
use serde::{Deserialize, Serialize};

/// A pipeline driver's time counters, ns (averages over its drivers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DriverTimes {
    /// `DriverTotalTime`: prepare to finalize.
    pub total: Option<Nanos>,
    /// `ActiveTime`: running operators (and the driver's own overhead).
    pub active: Option<Nanos>,

    /// `PendingTime`: blocked, in the poller.
    pub pending: Option<Nanos>,
    /// `InputEmptyTime`: waiting for input (upstream slow).
    pub input_empty: Option<Nanos>,
    /// `FirstInputEmptyTime`: waiting for the first input.
    pub first_input_empty: Option<Nanos>,
    /// `FollowupInputEmptyTime`: waiting for input after the first.
    pub followup_input_empty: Option<Nanos>,
    /// `OutputFullTime`: the sink could take no more (downstream slow).
    pub output_full: Option<Nanos>,
    /// `PreconditionBlockTime`: waiting for hash tables and runtime filters.
    pub precondition_block: Option<Nanos>,
    /// `PendingFinishTime`: the sink is done, the source waits for IO tasks.
    pub pending_finish: Option<Nanos>,
    /// `ScheduleTime`: ready, waiting for a thread (total − active − pending).
    pub schedule: Option<Nanos>,
    /// `OverheadTime`, when the profile gives it (older BEs).
    pub overhead: Option<Nanos>,
}

/// An operator's time counters, ns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct OperatorTimes {
    /// `OperatorTotalTime`.
    pub total: Option<Nanos>,
    /// `PullTotalTime`.
    pub pull: Option<Nanos>,
    /// `PushTotalTime`.
    pub push: Option<Nanos>,
    /// `SetFinishingTime`.
    pub set_finishing: Option<Nanos>,
    /// `SetFinishedTime`.
    pub set_finished: Option<Nanos>,
    /// `CloseTime`.
    pub close: Option<Nanos>,
}

/// A `__MIN_OF_` / `__MAX_OF_` value of a metric, as printed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bound {
    /// Its value.
    pub value: Value,
    /// Its text.
    pub text: String,
}

/// One counter of an operator's `UniqueMetrics`, its min and max beside it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Metric {
    /// Its name (`IOTaskExecTime`).
    pub name: String,
    /// The metric it is printed under (an index into the same list).
    pub parent: Option<usize>,
    /// Its value.
    pub value: Value,
    /// Its text, as printed (`None` for a flag).
    pub text: Option<String>,
    /// `__MIN_OF_`.
    pub min: Option<Bound>,
    /// `__MAX_OF_`.
    pub max: Option<Bound>,
    /// Its line.
    pub line: u64,
}

impl Metric {
    /// maxOf: the largest instance's value, else the merged one.
    pub fn max_value(&self) -> Value {
        self.max.as_ref().map_or(self.value, |b| b.value)
    }
}

/// One operator of a pipeline.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Operator {
    /// Its name (`CONNECTOR_SCAN`).
    pub name: String,
    /// Its plan node (-1 for sinks outside the plan).
    pub plan_node_id: i64,
    /// Its node line (`CONNECTOR_SCAN (plan_node_id=0)`).
    pub label: String,
    /// Its line.
    pub line: u64,
    /// Its plan node's task in the model.
    pub task: TaskId,
    /// Its times (averages over instances).
    pub times: OperatorTimes,
    /// `PullRowNum`: rows it gave.
    pub pull_rows: Option<i64>,
    /// `PushRowNum`: rows it took.
    pub push_rows: Option<i64>,
    /// `- IsSubordinate`: a helper of its plan node.
    pub subordinate: bool,
    /// `- IsFinalSink`: the query's result (or table) sink.
    pub final_sink: bool,
    /// It has both `CommonMetrics` and `UniqueMetrics` (the FE counts only
    /// such operators in `QueryCumulativeOperatorTime`).
    pub metric_groups: bool,
    /// maxOf(`OperatorTotalTime`), ns.
    pub max_total: Option<Nanos>,
    /// maxOf(`UniqueMetrics.ScanTime`), ns: its IO tasks' time.
    pub scan_time: Option<Nanos>,
    /// maxOf(`UniqueMetrics.NetworkTime`), ns.
    pub network_time: Option<Nanos>,
    /// maxOf(`OperatorPeakMemoryUsage`), bytes.
    pub peak_memory: Option<f64>,
    /// `OperatorAllocatedMemoryUsage`, bytes.
    pub allocated_memory: Option<f64>,
    /// Its `UniqueMetrics`, in print order, parents before children.
    pub unique: Vec<Metric>,
}

impl Operator {
    /// The first unique metric named `name`.
    pub fn metric(&self, name: &str) -> Option<&Metric> {
        self.unique.iter().find(|m| m.name == name)
    }
}

/// One pipeline of a fragment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pipeline {
    /// Its id (`1` of `Pipeline (id=1)`).
    pub id: String,
    /// Its line.
    pub line: u64,
    /// Its lane's name in the model.
    pub lane: String,
    /// `DegreeOfParallelism`.
    pub dop: Option<i64>,
    /// Driver times (averages over its drivers).
    pub times: DriverTimes,
    /// Driver times, maxOf (the slowest driver's, where printed).
    pub max: DriverTimes,
    /// Its operators, sink first, source last.
    pub operators: Vec<Operator>,
}

/// One fragment of the plan.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fragment {
    /// Its id (`0` of `Fragment 0`).
    pub id: String,
    /// Its line.
    pub line: u64,
    /// `BackendNum`.
    pub backends: Option<i64>,
    /// `InstanceNum`.
    pub instances: Option<i64>,
    /// `InstancePeakMemoryUsage`, as printed.
    pub peak_memory: Option<String>,
    /// `InstanceAllocatedMemoryUsage`, as printed.
    pub allocated_memory: Option<String>,
    /// `FragmentInstancePrepareTime`, as printed.
    pub prepare_time: Option<String>,
    /// Its pipelines, in print order.
    pub pipelines: Vec<Pipeline>,
}

/// A counter that differed across merged instances.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Skew {
    /// Where: `Fragment 1 · Pipeline 0`, with the operator if any.
    pub at: String,
    /// The counter (`OperatorTotalTime`).
    pub counter: String,
    /// Its line.
    pub line: u64,
    /// The merged value, the smallest and the largest instance's, in the
    /// counter's unit (ns for times).
    pub value: f64,
    /// `__MIN_OF_`.
    pub min: f64,
    /// `__MAX_OF_`.
    pub max: f64,
    /// The counter is a time.
    pub time: bool,
}

impl Skew {
    /// max / min, `None` when min is 0.
    pub fn ratio(&self) -> Option<f64> {
        (self.min > 0.0).then(|| self.max / self.min)
    }
}

/// What a profile says beyond its model.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct StarRocksRun {
    /// `Query ID`.
    pub query_id: Option<String>,
    /// `Query State` (`Finished`, `Running`).
    pub state: Option<String>,
    /// `Total`, ns.
    pub total: Option<Nanos>,
    /// `StarRocks Version`.
    pub version: Option<String>,
    /// `Sql Statement`.
    pub sql: Option<String>,
    /// The query-wide figures (Summary, Planner, Execution).
    pub query: QueryCounters,
    /// The fragments, in print order.
    pub fragments: Vec<Fragment>,
    /// The plan nodes; the model's task *i* is node *i*.
    pub nodes: Vec<PlanNode>,
    /// The plan's tree came from the Execution node's `Topology`.
    pub topology: bool,
    /// Counters that differed across instances.
    pub skew: Vec<Skew>,
    /// The derived-metric identities, checked.
    pub checks: Vec<Check>,
    /// Read from the JSON form.
    pub json: bool,
}

impl StarRocksRun {
    /// Every pipeline with its fragment.
    pub fn pipelines(&self) -> impl Iterator<Item = (&Fragment, &Pipeline)> {
        self.fragments.iter().flat_map(|f| f.pipelines.iter().map(move |p| (f, p)))
    }

    /// Operator sections.
    pub fn operator_count(&self) -> usize {
        self.pipelines().map(|(_, p)| p.operators.len()).sum()
    }

    /// The plan node with this id.
    pub fn node(&self, id: i64) -> Option<&PlanNode> {
        self.nodes.iter().find(|n| n.id == id)
    }

    /// The fragments and pipelines' operators by [`OpRef`](super::run::OpRef).
    pub fn operator(&self, at: super::run::OpRef) -> &Operator {
        at.get(&self.fragments)
    }
}

/// What a plan node does, as far as its time is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    /// A scan: adds its IO tasks' `ScanTime`.
    Scan,
    /// An exchange between fragments: adds its `NetworkTime`.
    Exchange,
    /// A join (its children are the probe and the build side).
    Join,
    /// The query's final sink (`plan_node_id=-1`).
    FinalSink,
    /// Anything else.
    Other,
}

/// Where an operator is: indexes into the run's fragments, their pipelines
/// and these pipelines' operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct OpRef {
    /// The fragment.
    pub fragment: u32,
    /// The pipeline within it.
    pub pipeline: u32,
    /// The operator within that.
    pub operator: u32,
}

impl OpRef {
    /// The operator it names.
    pub fn get(self, fragments: &[Fragment]) -> &Operator {
        &fragments[self.fragment as usize].pipelines[self.pipeline as usize].operators[self.operator as usize]
    }
}

/// A plan node's time, ns, as ExplainAnalyzer computes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct NodeTimes {
    /// Σ maxOf(`OperatorTotalTime`) over its operators and subordinates;
    /// `None` when none prints one.
    pub cpu: Option<Nanos>,
    /// A scan's maxOf(`ScanTime`).
    pub scan: Option<Nanos>,
    /// An exchange's maxOf(`NetworkTime`).
    pub network: Option<Nanos>,
    /// CPUTime + ScanTime + NetworkTime.
    pub total: Nanos,
}

/// One node of the query plan.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlanNode {
    /// Its `plan_node_id` (-1 for the final sink).
    pub id: i64,
    /// Its main operator's name (`CONNECTOR_SCAN`): the last of its
    /// operators that is no `_SINK` or `_BUILD` (a pipeline prints its
    /// source last: `LIMIT` before `CONNECTOR_SCAN`), else its first
    /// operator, else its first subordinate, else the plan's name for it.
    pub name: String,
    /// The plan's name for it (`OLAP_SCAN`), from the Topology.
    pub plan_name: Option<String>,
    /// What it does.
    pub kind: NodeKind,
    /// Its operators, in print order.
    pub operators: Vec<OpRef>,
    /// Its subordinate operators, in print order.
    pub subordinates: Vec<OpRef>,
    /// Its children in the plan (the Topology's), in order.
    pub children: Vec<i64>,
    /// The fragment it is shown in: its main operator's (an exchange's
    /// source side, not its `EXCHANGE_SINK`); `None` for a node with no operator.
    pub fragment: Option<u32>,
    /// The plan shows its memory (Topology `displayMem`; without a Topology,
    /// when an operator prints `OperatorPeakMemoryUsage`).
    pub memory_consuming: bool,
    /// Its time.
    pub times: NodeTimes,
    /// Σ maxOf(`OperatorPeakMemoryUsage`) over its operators, bytes.
    pub peak_memory: Option<f64>,
    /// Σ `OperatorAllocatedMemoryUsage` over its operators, bytes.
    pub allocated_memory: Option<f64>,
}

impl PlanNode {
    /// `CONNECTOR_SCAN (plan_node_id=0)`.
    pub fn title(&self) -> String {
        format!("{} (plan_node_id={})", self.name, self.id)
    }

    /// Its operators and then its subordinates.
    pub fn all_operators(&self) -> impl Iterator<Item = OpRef> + '_ {
        self.operators.iter().chain(&self.subordinates).copied()
    }
}

/// The Execution node's `Topology`: the plan's nodes with their names and children.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Topology {
    /// The plan's root.
    #[serde(rename = "rootId")]
    pub root: i64,
    /// Its nodes.
    pub nodes: Vec<TopologyNode>,
}

/// One node of the [`Topology`].
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct TopologyNode {
    /// Its plan node id.
    pub id: i64,
    /// The plan's name for it (`OLAP_SCAN`, `MERGE_EXCHANGE`).
    pub name: String,
    /// `sinkIds` and `displayMem`.
    #[serde(default)]
    pub properties: TopologyProperties,
    /// Its children's ids.
    #[serde(default)]
    pub children: Vec<i64>,
}

/// A [`TopologyNode`]'s properties.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct TopologyProperties {
    /// The plan shows its memory.
    #[serde(rename = "displayMem", default)]
    pub display_mem: Option<bool>,
}

impl Topology {
    /// Reads the JSON text of the `Topology` info string.
    pub fn parse(text: &str) -> Result<Topology, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
}

/// A figure and whether the profile printed it or it was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Figure {
    /// Its value, ns.
    pub ns: Nanos,
    /// Computed from the operators and pipelines (the profile leaves it out).
    pub computed: bool,
}

/// A session variable set to something other than its default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NonDefault {
    /// Its name.
    pub name: String,
    /// Its default, as JSON text.
    pub default: String,
    /// Its value, as JSON text.
    pub actual: String,
}

/// The query-wide figures.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct QueryCounters {
    /// `QueryCumulativeOperatorTime`: the denominator of node shares.
    pub cumulative_operator: Option<Figure>,
    /// `QueryCumulativeScanTime`.
    pub cumulative_scan: Option<Figure>,
    /// `QueryCumulativeNetworkTime`.
    pub cumulative_network: Option<Figure>,
    /// `QueryExecutionWallTime`, else the longest pipeline driver.
    pub execution: Option<Figure>,
    /// `ResultDeliverTime`: the final sink waiting for the client.
    pub result_deliver: Option<Figure>,
    /// `QueryPeakScheduleTime`.
    pub peak_schedule: Option<Figure>,
    /// `QueryCumulativeCpuTime`.
    pub cpu: Option<Nanos>,
    /// Peak memory, bytes, with the counter that gave it.
    pub peak_memory: Option<(f64, String)>,
    /// `QueryAllocatedMemoryUsage`, bytes.
    pub allocated_memory: Option<f64>,
    /// The planner's `Total`, ns.
    pub planner: Option<Nanos>,
    /// `Collect Profile Time`, ns.
    pub collect_profile: Option<Nanos>,
    /// `NonDefaultSessionVariables`, by name.
    pub non_default: Vec<NonDefault>,
}

/// One identity checked on one pipeline or operator.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Check {
    /// Where (`Fragment 0 · Pipeline 1`, with the operator).
    pub at: String,
    /// Its line.
    pub line: u64,
    /// The identity (`PendingTime = InputEmptyTime + …`).
    pub rule: String,
    /// The left side, ns.
    pub left: Nanos,
    /// The right side, ns.
    pub right: Nanos,
    /// How far they may differ, ns.
    pub tolerance: Nanos,
    /// They agree (for an inequality: it holds).
    pub ok: bool,
}
