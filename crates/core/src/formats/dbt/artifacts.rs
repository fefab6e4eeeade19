//! What is kept of the two artifacts: a run's results (each node's status,
//! thread, steps and adapter response) and the manifest's nodes (type and
//! dependencies).

use crate::model::Nanos;
use serde_json::Value;

/// `run_results.json`: one dbt invocation's results.
#[derive(Clone, Debug, Default)]
pub struct RunResults {
    /// The run-results schema version (4 to 6).
    pub version: u32,
    /// `metadata.dbt_version`.
    pub dbt_version: String,
    /// `metadata.invocation_id`.
    pub invocation_id: String,
    /// `elapsed_time`, s: dbt's own count, start-up included.
    pub elapsed_time: Option<f64>,
    /// `args.threads`: the threads allowed.
    pub threads: Option<u32>,
    /// `args.which`: the command (`run`, `build`, `test`, `seed`).
    pub command: Option<String>,
    /// The nodes' results, in file order.
    pub results: Vec<NodeResult>,
}

/// One node's result.
#[derive(Clone, Debug)]
pub struct NodeResult {
    /// `unique_id` (`model.shop.orders`).
    pub unique_id: String,
    /// `status` (`success`, `error`, `skipped`, `pass`, `fail`, `warn`).
    pub status: String,
    /// `thread_id` (`Thread-3 (worker)`).
    pub thread_id: String,
    /// `execution_time`, s.
    pub execution_time: Option<f64>,
    /// `timing[]`: each step's name and times (ns since 1970).
    pub steps: Vec<Step>,
    /// `adapter_response`, as the adapter gave it (rows affected, bytes).
    pub adapter_response: Value,
    /// `message`.
    pub message: Option<String>,
    /// `failures` (a test's failing rows).
    pub failures: Option<i64>,
    /// The line the result starts on.
    pub line: u64,
}

/// One entry of a node's `timing[]`.
#[derive(Clone, Debug)]
pub struct Step {
    /// `compile` or `execute`.
    pub name: String,
    /// `started_at`.
    pub start: Nanos,
    /// `completed_at`.
    pub end: Nanos,
}

/// `manifest.json`: the project's nodes and what each depends on.
#[derive(Clone, Debug, Default)]
pub struct Manifest {
    /// The manifest schema version (9 to 12).
    pub version: u32,
    /// `metadata.invocation_id`.
    pub invocation_id: String,
    /// The nodes, in file order.
    pub nodes: Vec<ManifestNode>,
}

/// One node of the manifest.
#[derive(Clone, Debug)]
pub struct ManifestNode {
    /// `unique_id`.
    pub unique_id: String,
    /// `resource_type` (`model`, `test`, `seed`, `snapshot`).
    pub resource_type: String,
    /// `depends_on.nodes`.
    pub depends_on: Vec<String>,
}

/// A node's resource type from its unique id (`model.shop.orders` →
/// `model`), as dbt builds the id.
pub fn resource_type(unique_id: &str) -> &str {
    unique_id.split('.').next().unwrap_or(unique_id)
}
