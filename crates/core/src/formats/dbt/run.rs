//! What a dbt run says beyond its model ([`DbtRun`]): the invocation, each
//! node's status and adapter response, the counts by resource type, and
//! the figures of its path (threads idle while it ran).

use super::artifacts::RunResults;
use crate::analysis::critical_path::{blocking_chain, Path};
use crate::model::{Model, Nanos, TaskId};
use serde::{Deserialize, Serialize};

/// One node that ran.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NodeInfo {
    /// `unique_id`.
    pub unique_id: String,
    /// `model`, `test`, `seed`, `snapshot`.
    pub resource_type: String,
    /// `status`.
    pub status: String,
    /// `thread_id`.
    pub thread: String,
    /// `execution_time`, s.
    pub execution_time: Option<f64>,
    /// `adapter_response` as JSON text (rows affected, bytes).
    pub adapter_response: String,
    /// `message`.
    pub message: Option<String>,
    /// `failures`.
    pub failures: Option<i64>,
    /// Its tasks, `[first, end)` in the model (none when it has no timing).
    pub tasks: (u32, u32),
}

impl NodeInfo {
    /// Its first step's task.
    pub fn first_task(&self) -> Option<TaskId> {
        (self.tasks.0 < self.tasks.1).then_some(TaskId(self.tasks.0))
    }

    /// Its last step's task.
    pub fn last_task(&self) -> Option<TaskId> {
        (self.tasks.0 < self.tasks.1).then(|| TaskId(self.tasks.1 - 1))
    }
}

/// A dbt invocation's run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DbtRun {
    /// `dbt_version`.
    pub dbt_version: String,
    /// `invocation_id`.
    pub invocation_id: String,
    /// `args.which`.
    pub command: Option<String>,
    /// `args.threads`.
    pub threads: Option<u32>,
    /// Threads that ran a node.
    pub threads_used: u32,
    /// dbt's `elapsed_time`, ns.
    pub elapsed: Option<Nanos>,
    /// The run-results schema version.
    pub results_version: u32,
    /// The manifest's schema version, when one was given.
    pub manifest_version: Option<u32>,
    /// The nodes, in the results' order.
    pub nodes: Vec<NodeInfo>,
    /// The dependencies between nodes that ran (from `depends_on.nodes`).
    pub dependencies: u64,
    /// The edges `dbt build` adds from tests to the nodes downstream.
    pub test_edges: u64,
    /// Nodes that ran but are not in the manifest.
    pub not_in_manifest: u64,
    /// The run was joined with its manifest.
    pub with_manifest: bool,
}

/// Nodes by resource type.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Counts {
    /// Models.
    pub models: u64,
    /// Tests.
    pub tests: u64,
    /// Seeds.
    pub seeds: u64,
    /// Snapshots.
    pub snapshots: u64,
    /// Anything else (operations, functions).
    pub other: u64,
}

impl DbtRun {
    /// The run of `results`, with its `nodes` on `threads_used` threads and
    /// no manifest yet.
    pub fn new(results: &RunResults, nodes: Vec<NodeInfo>, threads_used: u32) -> DbtRun {
        DbtRun {
            dbt_version: results.dbt_version.clone(),
            invocation_id: results.invocation_id.clone(),
            command: results.command.clone(),
            threads: results.threads,
            threads_used,
            elapsed: results.elapsed_time.filter(|e| e.is_finite() && *e >= 0.0).map(|e| (e * 1e9).round() as Nanos),
            results_version: results.version,
            manifest_version: None,
            nodes,
            dependencies: 0,
            test_edges: 0,
            not_in_manifest: 0,
            with_manifest: false,
        }
    }

    /// The nodes by resource type.
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for n in &self.nodes {
            match n.resource_type.as_str() {
                "model" => c.models += 1,
                "test" => c.tests += 1,
                "seed" => c.seeds += 1,
                "snapshot" => c.snapshots += 1,
                _ => c.other += 1,
            }
        }
        c
    }
}

/// The path: back from the step that finished last through the dependency
/// that finished last; its total is the span from its first start to its
/// last end.
pub fn path(model: &Model) -> Path {
    blocking_chain(model).0
}

/// The average number of the run's threads (`allowed`) that ran nothing
/// while the path ran: the threads' idle time within the path's span,
/// over the span.
pub fn idle_threads(model: &Model, path: &Path, allowed: u32) -> f64 {
    let (Some(&first), Some(&last)) = (path.tasks.first(), path.tasks.last()) else { return 0.0 };
    let (Some(from), Some(to)) = (model.task(first).start.get(), model.task(last).end.get()) else { return 0.0 };
    if to <= from {
        return 0.0;
    }
    let mut busy_per_lane = vec![Vec::new(); model.lanes().len()];
    for t in model.tasks() {
        if let (Some(s), Some(e)) = (t.start.get(), t.end.get()) {
            let (s, e) = (s.max(from), e.min(to));
            if e > s {
                busy_per_lane[t.lane.index()].push((s, e));
            }
        }
    }
    let mut busy: Nanos = 0;
    for spans in &mut busy_per_lane {
        spans.sort_unstable();
        let mut run: Option<(Nanos, Nanos)> = None;
        for &(s, e) in spans.iter() {
            run = match run {
                Some((a, z)) if s <= z => Some((a, z.max(e))),
                Some((a, z)) => {
                    busy += z - a;
                    Some((s, e))
                }
                None => Some((s, e)),
            };
        }
        busy += run.map_or(0, |(a, z)| z - a);
    }
    let span = (to - from) as f64;
    (f64::from(allowed) * span - busy as f64).max(0.0) / span
}
