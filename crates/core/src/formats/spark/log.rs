//! What is kept of a Spark event log ([`SparkLog`]): the application, its
//! executors, jobs, stage attempts, task attempts with their metrics, and
//! SQL executions, each with the line it was read at.

use crate::diagnostics::Position;
use serde::{Deserialize, Serialize};

/// A time as Spark writes it: milliseconds since the epoch.
pub type EpochMs = i64;

/// The metrics of a task attempt that the straggler's cause is read from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metrics {
    /// `Executor Run Time`, ms.
    pub run_ms: i64,
    /// `JVM GC Time`, ms.
    pub gc_ms: i64,
    /// `Shuffle Read Metrics.Fetch Wait Time`, ms.
    pub fetch_wait_ms: i64,
    /// `Memory Bytes Spilled`.
    pub memory_spilled: i64,
    /// `Disk Bytes Spilled`.
    pub disk_spilled: i64,
    /// `Input Metrics.Bytes Read`.
    pub input_bytes: i64,
    /// `Output Metrics.Bytes Written`.
    pub output_bytes: i64,
    /// `Shuffle Read Metrics`: remote and local bytes read.
    pub shuffle_read_bytes: i64,
    /// `Shuffle Read Metrics.Total Records Read`, else `Input Metrics.Records Read`.
    pub records_read: i64,
    /// `Shuffle Write Metrics.Shuffle Bytes Written`.
    pub shuffle_write_bytes: i64,
}

/// One task attempt, as its `SparkListenerTaskEnd` (or, unfinished, its
/// `SparkListenerTaskStart`) gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskAttempt {
    /// `Task ID`.
    pub task_id: i64,
    /// `Stage ID`.
    pub stage_id: i64,
    /// `Stage Attempt ID`.
    pub stage_attempt: i64,
    /// `Index`: the partition's place in the stage.
    pub index: i64,
    /// `Attempt`.
    pub attempt: i64,
    /// `Executor ID`.
    pub executor: String,
    /// `Launch Time`.
    pub launch: EpochMs,
    /// `Finish Time`; `None` while it ran (no end event).
    pub finish: Option<EpochMs>,
    /// `Task End Reason.Reason` (`Success`, `ExceptionFailure`, `TaskKilled`).
    pub reason: String,
    /// `Speculative`.
    pub speculative: bool,
    /// Its metrics.
    pub metrics: Metrics,
    /// Where it was read.
    pub position: Position,
}

impl TaskAttempt {
    /// It ended with `Success`.
    pub fn succeeded(&self) -> bool {
        self.reason == "Success"
    }
}

/// One RDD of a stage (`RDD Info`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RddInfo {
    /// `RDD ID`.
    pub id: i64,
    /// `Name`.
    pub name: String,
}

/// One attempt of a stage, as its job's start, its submission and its
/// completion told it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageAttempt {
    /// `Stage ID`.
    pub stage_id: i64,
    /// `Stage Attempt ID`.
    pub attempt: i64,
    /// `Stage Name` (`count at NativeMethodAccessorImpl.java:0`).
    pub name: String,
    /// `Number of Tasks`.
    pub tasks: i64,
    /// `Parent IDs`.
    pub parents: Vec<i64>,
    /// `RDD Info`.
    pub rdds: Vec<RddInfo>,
    /// `Submission Time`; `None` for a stage never submitted (skipped).
    pub submitted: Option<EpochMs>,
    /// `Completion Time`.
    pub completed: Option<EpochMs>,
    /// `Failure Reason`.
    pub failure: Option<String>,
    /// The job that listed it first.
    pub job: Option<i64>,
    /// Where it was read last.
    pub position: Position,
}

impl StageAttempt {
    /// The stage's own RDD: the one with the largest id (its RDDs are it
    /// and the narrow ancestors within the stage, made before it).
    pub fn output_rdd(&self) -> Option<i64> {
        self.rdds.iter().map(|r| r.id).max()
    }
}

/// One job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// `Job ID`.
    pub id: i64,
    /// `Submission Time`.
    pub submitted: Option<EpochMs>,
    /// `Completion Time`.
    pub completed: Option<EpochMs>,
    /// `Stage IDs`.
    pub stages: Vec<i64>,
    /// `Job Result.Result` (`JobSucceeded`, `JobFailed`).
    pub result: Option<String>,
    /// `Properties.spark.job.description`.
    pub description: Option<String>,
    /// `Properties.spark.sql.execution.id`.
    pub sql_execution: Option<i64>,
    /// Where its start was read.
    pub position: Position,
}

/// One SQL execution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SqlExecution {
    /// `executionId`.
    pub id: i64,
    /// `description`.
    pub description: String,
    /// `time` of its start.
    pub start: Option<EpochMs>,
    /// `time` of its end.
    pub end: Option<EpochMs>,
}

/// One executor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Executor {
    /// `Executor ID`.
    pub id: String,
    /// `Executor Info.Host`.
    pub host: String,
    /// `Executor Info.Total Cores`.
    pub cores: Option<i64>,
    /// `Timestamp` of its addition.
    pub added: Option<EpochMs>,
    /// `Timestamp` of its removal.
    pub removed: Option<EpochMs>,
}

/// A Spark application's event log as read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SparkLog {
    /// `SparkListenerLogStart`'s `Spark Version`.
    pub spark_version: Option<String>,
    /// `App Name`.
    pub app_name: Option<String>,
    /// `App ID`.
    pub app_id: Option<String>,
    /// `App Attempt ID`.
    pub app_attempt: Option<String>,
    /// `SparkListenerApplicationStart`'s `Timestamp`.
    pub app_start: Option<EpochMs>,
    /// `SparkListenerApplicationEnd`'s `Timestamp`.
    pub app_end: Option<EpochMs>,
    /// `spark.master`, from the environment.
    pub master: Option<String>,
    /// Executors, in the order added.
    pub executors: Vec<Executor>,
    /// Jobs, in the order started.
    pub jobs: Vec<Job>,
    /// Stage attempts, in the order first listed.
    pub stages: Vec<StageAttempt>,
    /// Task attempts, in the order started.
    pub tasks: Vec<TaskAttempt>,
    /// SQL executions, in the order started.
    pub sql: Vec<SqlExecution>,
    /// The latest time of any event, for a log without its application's end.
    pub last_time: Option<EpochMs>,
    /// Events read.
    pub events: u64,
}
