//! The events of a Spark event log as Spark's `JsonProtocol` writes them,
//! with only the fields longpole reads: serde passes over the rest (plans,
//! accumulables, block updates) without keeping it.

use serde::Deserialize;
use std::collections::HashMap;

/// `SparkListenerLogStart`.
#[derive(Deserialize)]
pub struct LogStart {
    #[serde(rename = "Spark Version")]
    pub version: Option<String>,
}

/// `SparkListenerApplicationStart`.
#[derive(Deserialize)]
pub struct AppStart {
    #[serde(rename = "App Name")]
    pub name: Option<String>,
    #[serde(rename = "App ID")]
    pub id: Option<String>,
    #[serde(rename = "App Attempt ID")]
    pub attempt: Option<String>,
    #[serde(rename = "Timestamp")]
    pub time: Option<i64>,
}

/// An event with only a `Timestamp` read (`SparkListenerApplicationEnd`).
#[derive(Deserialize)]
pub struct Timed {
    #[serde(rename = "Timestamp")]
    pub time: Option<i64>,
}

/// `SparkListenerEnvironmentUpdate`.
#[derive(Deserialize)]
pub struct Environment {
    #[serde(rename = "Spark Properties", default)]
    pub spark: Properties,
}

/// A map of properties: an object, or (older logs) a list of pairs.
#[derive(Deserialize, Default)]
#[serde(untagged)]
pub enum Properties {
    /// `{"spark.master": "local[4]"}`.
    Map(HashMap<String, serde_json::Value>),
    /// `[["spark.master", "local[4]"]]`.
    Pairs(Vec<(String, serde_json::Value)>),
    /// Nothing readable.
    #[default]
    None,
}

impl Properties {
    /// The property `key` as text.
    pub fn get(&self, key: &str) -> Option<String> {
        let v = match self {
            Properties::Map(m) => m.get(key),
            Properties::Pairs(p) => p.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            Properties::None => None,
        }?;
        match v {
            serde_json::Value::String(s) => Some(s.clone()),
            serde_json::Value::Null => None,
            other => Some(other.to_string()),
        }
    }
}

/// `Executor Info`.
#[derive(Deserialize)]
pub struct ExecutorInfo {
    #[serde(rename = "Host")]
    pub host: Option<String>,
    #[serde(rename = "Total Cores")]
    pub cores: Option<i64>,
}

/// `SparkListenerExecutorAdded` and `SparkListenerExecutorRemoved`.
#[derive(Deserialize)]
pub struct ExecutorEvent {
    #[serde(rename = "Timestamp")]
    pub time: Option<i64>,
    #[serde(rename = "Executor ID")]
    pub id: Option<String>,
    #[serde(rename = "Executor Info")]
    pub info: Option<ExecutorInfo>,
}

/// One `RDD Info`.
#[derive(Deserialize)]
pub struct Rdd {
    #[serde(rename = "RDD ID")]
    pub id: i64,
    #[serde(rename = "Name", default)]
    pub name: String,
}

/// `Stage Info`.
#[derive(Deserialize)]
pub struct StageInfo {
    #[serde(rename = "Stage ID")]
    pub id: i64,
    #[serde(rename = "Stage Attempt ID", default)]
    pub attempt: i64,
    #[serde(rename = "Stage Name", default)]
    pub name: String,
    #[serde(rename = "Number of Tasks", default)]
    pub tasks: i64,
    #[serde(rename = "RDD Info", default)]
    pub rdds: Vec<Rdd>,
    #[serde(rename = "Parent IDs", default)]
    pub parents: Vec<i64>,
    #[serde(rename = "Submission Time")]
    pub submitted: Option<i64>,
    #[serde(rename = "Completion Time")]
    pub completed: Option<i64>,
    #[serde(rename = "Failure Reason")]
    pub failure: Option<String>,
}

/// `SparkListenerJobStart`.
#[derive(Deserialize)]
pub struct JobStart {
    #[serde(rename = "Job ID")]
    pub id: i64,
    #[serde(rename = "Submission Time")]
    pub time: Option<i64>,
    #[serde(rename = "Stage Infos", default)]
    pub stages: Vec<StageInfo>,
    #[serde(rename = "Stage IDs", default)]
    pub stage_ids: Vec<i64>,
    #[serde(rename = "Properties", default)]
    pub properties: Properties,
}

/// `Job Result`.
#[derive(Deserialize)]
pub struct JobResult {
    #[serde(rename = "Result")]
    pub result: Option<String>,
}

/// `SparkListenerJobEnd`.
#[derive(Deserialize)]
pub struct JobEnd {
    #[serde(rename = "Job ID")]
    pub id: i64,
    #[serde(rename = "Completion Time")]
    pub time: Option<i64>,
    #[serde(rename = "Job Result")]
    pub result: Option<JobResult>,
}

/// `SparkListenerStageSubmitted` and `SparkListenerStageCompleted`.
#[derive(Deserialize)]
pub struct StageEvent {
    #[serde(rename = "Stage Info")]
    pub info: StageInfo,
}

/// `Task Info`.
#[derive(Deserialize)]
pub struct TaskInfo {
    #[serde(rename = "Task ID")]
    pub id: i64,
    #[serde(rename = "Index", default)]
    pub index: i64,
    #[serde(rename = "Attempt", default)]
    pub attempt: i64,
    #[serde(rename = "Launch Time")]
    pub launch: Option<i64>,
    #[serde(rename = "Executor ID", default)]
    pub executor: String,
    #[serde(rename = "Speculative", default)]
    pub speculative: bool,
    #[serde(rename = "Finish Time", default)]
    pub finish: i64,
}

/// `Task End Reason`.
#[derive(Deserialize)]
pub struct EndReason {
    #[serde(rename = "Reason", default)]
    pub reason: String,
}

/// `Shuffle Read Metrics`.
#[derive(Deserialize, Default)]
pub struct ShuffleRead {
    #[serde(rename = "Fetch Wait Time", default)]
    pub fetch_wait: i64,
    #[serde(rename = "Remote Bytes Read", default)]
    pub remote_bytes: i64,
    #[serde(rename = "Local Bytes Read", default)]
    pub local_bytes: i64,
    #[serde(rename = "Total Records Read", default)]
    pub records: i64,
}

/// `Shuffle Write Metrics`.
#[derive(Deserialize, Default)]
pub struct ShuffleWrite {
    #[serde(rename = "Shuffle Bytes Written", default)]
    pub bytes: i64,
}

/// `Input Metrics` and `Output Metrics`.
#[derive(Deserialize, Default)]
pub struct Io {
    #[serde(rename = "Bytes Read", alias = "Bytes Written", default)]
    pub bytes: i64,
    #[serde(rename = "Records Read", alias = "Records Written", default)]
    pub records: i64,
}

/// `Task Metrics`.
#[derive(Deserialize, Default)]
pub struct TaskMetrics {
    #[serde(rename = "Executor Run Time", default)]
    pub run: i64,
    #[serde(rename = "JVM GC Time", default)]
    pub gc: i64,
    #[serde(rename = "Memory Bytes Spilled", default)]
    pub memory_spilled: i64,
    #[serde(rename = "Disk Bytes Spilled", default)]
    pub disk_spilled: i64,
    #[serde(rename = "Shuffle Read Metrics", default)]
    pub shuffle_read: ShuffleRead,
    #[serde(rename = "Shuffle Write Metrics", default)]
    pub shuffle_write: ShuffleWrite,
    #[serde(rename = "Input Metrics", default)]
    pub input: Io,
    #[serde(rename = "Output Metrics", default)]
    pub output: Io,
}

/// `SparkListenerTaskStart` and `SparkListenerTaskEnd`.
#[derive(Deserialize)]
pub struct TaskEvent {
    #[serde(rename = "Stage ID")]
    pub stage: i64,
    #[serde(rename = "Stage Attempt ID", default)]
    pub stage_attempt: i64,
    #[serde(rename = "Task End Reason")]
    pub reason: Option<EndReason>,
    #[serde(rename = "Task Info")]
    pub info: TaskInfo,
    #[serde(rename = "Task Metrics")]
    pub metrics: Option<TaskMetrics>,
}

/// `SparkListenerSQLExecutionStart` and `…End`.
#[derive(Deserialize)]
pub struct SqlEvent {
    #[serde(rename = "executionId")]
    pub id: i64,
    #[serde(default)]
    pub description: String,
    pub time: Option<i64>,
}

/// The event's name: the first member, as Spark writes it
/// (`{"Event":"SparkListenerTaskEnd",…`), else looked up in the object.
pub fn name(line: &[u8]) -> Option<std::borrow::Cow<'_, str>> {
    const START: &[u8] = b"{\"Event\":\"";
    if let Some(rest) = line.strip_prefix(START) {
        let end = memchr::memchr(b'"', rest)?;
        return std::str::from_utf8(rest.get(..end)?).ok().map(std::borrow::Cow::Borrowed);
    }
    #[derive(Deserialize)]
    struct Named {
        #[serde(rename = "Event")]
        event: String,
    }
    serde_json::from_slice::<Named>(line).ok().map(|n| std::borrow::Cow::Owned(n.event))
}
