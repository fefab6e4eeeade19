//! What a Spark application says beyond its model ([`SparkRun`]): the
//! application, its jobs with their SQL executions, each stage attempt with
//! its skew, the path over the stages, and the counts of its summary.

use super::path::Step;
use super::skew::Skew;
use crate::model::Nanos;
use serde::{Deserialize, Serialize};

/// One stage attempt as the run keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StageInfo {
    /// `Stage ID`.
    pub id: i64,
    /// `Stage Attempt ID`.
    pub attempt: i64,
    /// `Stage Name`.
    pub name: String,
    /// The job that listed it first.
    pub job: Option<i64>,
    /// `Number of Tasks`.
    pub tasks: i64,
    /// Submitted and completed: it ran (else skipped, or still running).
    pub ran: bool,
    /// Submission to completion, ns, when it ran.
    pub duration: Option<Nanos>,
    /// Its task attempts that ended, by how, as the History Server counts
    /// them.
    pub ended: TaskCounts,
    /// `Executor Run Time` of its ended task attempts, summed, ms.
    pub executor_run_ms: i64,
    /// `Failure Reason`, if it failed.
    pub failure: Option<String>,
    /// Its task in the model, when it ran.
    pub task: Option<u32>,
    /// Its task times and slowest task, when any task succeeded.
    pub skew: Option<Skew>,
}

/// A stage attempt's ended task attempts: `Success`; `TaskKilled` or
/// `TaskCommitDenied`; any other reason.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskCounts {
    /// Succeeded.
    pub complete: u64,
    /// Failed.
    pub failed: u64,
    /// Killed (or denied the commit).
    pub killed: u64,
}

/// One job as the run keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobInfo {
    /// `Job ID`.
    pub id: i64,
    /// `spark.job.description`.
    pub description: Option<String>,
    /// `Job Result`.
    pub result: Option<String>,
    /// Its stages (`Stage IDs`).
    pub stages: Vec<i64>,
    /// The SQL execution that ran it.
    pub sql_execution: Option<i64>,
    /// Submission to completion, ns.
    pub duration: Option<Nanos>,
}

/// A SQL execution with the jobs it ran.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SqlInfo {
    /// `executionId`.
    pub id: i64,
    /// `description`.
    pub description: String,
    /// Start to end, ns.
    pub duration: Option<Nanos>,
    /// Its jobs.
    pub jobs: Vec<i64>,
}

/// A Spark application's run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SparkRun {
    /// `Spark Version`.
    pub spark_version: Option<String>,
    /// `App Name`.
    pub app_name: Option<String>,
    /// `App ID`.
    pub app_id: Option<String>,
    /// `spark.master`.
    pub master: Option<String>,
    /// The application's end was logged (else the wall ends at the last event).
    pub ended: bool,
    /// Executors that ran tasks or were added.
    pub executors: Vec<String>,
    /// Jobs, in the order started.
    pub jobs: Vec<JobInfo>,
    /// Stage attempts, in the order first listed.
    pub stages: Vec<StageInfo>,
    /// SQL executions with their jobs.
    pub sql: Vec<SqlInfo>,
    /// Task attempts.
    pub task_attempts: u64,
    /// Task attempts that did not succeed.
    pub failed_tasks: u64,
    /// The model's first Spark task (stages come first).
    pub first_task: u32,
    /// The path over the stages, first stage first.
    pub path: Vec<Step>,
    /// The path's span, its first stage's submission to its last's completion.
    pub path_total: Nanos,
    /// Skipped stages that no stage that ran stands for.
    pub unresolved_skipped: Vec<i64>,
}

impl SparkRun {
    /// Stages that ran, skipped and failed attempts.
    pub fn stage_counts(&self) -> (u64, u64, u64) {
        let ran = self.stages.iter().filter(|s| s.ran).count() as u64;
        let failed = self.stages.iter().filter(|s| s.failure.is_some()).count() as u64;
        let mut ids: Vec<i64> = self.stages.iter().filter(|s| !s.ran).map(|s| s.id).collect();
        ids.sort_unstable();
        ids.dedup();
        ids.retain(|id| !self.stages.iter().any(|s| s.id == *id && s.ran));
        (ran, ids.len() as u64, failed)
    }
}
