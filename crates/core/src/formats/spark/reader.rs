//! The reader: one event a line, dispatched on its `Event` name and parsed
//! into the few fields kept ([`super::events`]); task, stage and job
//! events update what their ids name. Lines that are not JSON, events
//! missing what they need and repeated ids are reported with their line.

use super::events::{self, name, StageInfo};
use super::log::{Executor, Job, Metrics, RddInfo, SparkLog, SqlExecution, StageAttempt, TaskAttempt};
use super::TITLE;
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::error::FormatError;
use crate::hash::FastMap;
use serde::de::DeserializeOwned;
use serde::de::IgnoredAny;

/// The major versions of Spark whose logs were checked.
const VERSIONS: std::ops::RangeInclusive<u32> = 1..=4;

/// `line` as a `T`.
fn parse<T: DeserializeOwned>(line: &[u8]) -> Result<T, serde_json::Error> {
    serde_json::from_slice(line)
}

/// Reads a log line by line.
#[derive(Default)]
pub struct LogReader {
    log: SparkLog,
    tasks: FastMap<i64, usize>,
    ended: FastMap<i64, ()>,
    stages: FastMap<(i64, i64), usize>,
    /// Stage attempts whose `SparkListenerStageCompleted` was read.
    completions: FastMap<(i64, i64), ()>,
    jobs: FastMap<i64, usize>,
    sql: FastMap<i64, usize>,
    /// A line that did not parse, held while it may be the cut last one.
    bad: Option<(u64, String)>,
}

impl LogReader {
    /// Events read so far.
    pub fn events(&self) -> u64 {
        self.log.events
    }

    /// Reads line `no`.
    pub fn line(&mut self, no: u64, line: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError> {
        let line = line.trim_ascii();
        if line.is_empty() {
            return Ok(());
        }
        self.flush_bad(diags);
        let at = Position::Line(no);
        let Some(event) = name(line) else {
            if no == 1 {
                return Err(FormatError::new(TITLE, at, "the first line is not a Spark listener event", line));
            }
            self.bad = Some((no, "not a JSON object with an `Event`".into()));
            return Ok(());
        };
        let d = &mut *diags;
        let parsed = match event.as_ref() {
            "SparkListenerLogStart" => parse(line).map(|e| self.log_start(e, no, d)),
            "SparkListenerApplicationStart" => parse(line).map(|e| self.app_start(e)),
            "SparkListenerApplicationEnd" => parse(line).map(|e: events::Timed| {
                self.log.app_end = e.time;
                self.saw(e.time);
            }),
            "SparkListenerEnvironmentUpdate" => {
                parse(line).map(|e: events::Environment| self.log.master = e.spark.get("spark.master"))
            }
            "SparkListenerExecutorAdded" => parse(line).map(|e| self.executor(e, true)),
            "SparkListenerExecutorRemoved" => parse(line).map(|e| self.executor(e, false)),
            "SparkListenerJobStart" => parse(line).map(|e| self.job_start(e, no, d)),
            "SparkListenerJobEnd" => parse(line).map(|e| self.job_end(e, no, d)),
            "SparkListenerStageSubmitted" => {
                parse(line).map(|e: events::StageEvent| self.stage(e.info, None, false, no, d))
            }
            "SparkListenerStageCompleted" => {
                parse(line).map(|e: events::StageEvent| self.stage(e.info, None, true, no, d))
            }
            "SparkListenerTaskStart" => parse(line).map(|e| self.task(e, false, no, d)),
            "SparkListenerTaskEnd" => parse(line).map(|e| self.task(e, true, no, d)),
            s if s.ends_with("SparkListenerSQLExecutionStart") => parse(line).map(|e| self.sql(e, true)),
            s if s.ends_with("SparkListenerSQLExecutionEnd") => parse(line).map(|e| self.sql(e, false)),
            _ => parse(line).map(|_: IgnoredAny| {}),
        };
        match parsed {
            Ok(()) => self.log.events += 1,
            Err(e) if e.is_eof() || e.is_syntax() => {
                self.bad = Some((no, format!("`{event}` is not a whole JSON object ({e})")));
            }
            Err(e) => diags.report(
                Severity::Warning,
                "spark.bad-event",
                at,
                format!("`{event}` lacks what longpole reads ({e}); skipped"),
            ),
        }
        Ok(())
    }

    /// Reports a bad line held back: a later line came, so it was not the cut end.
    fn flush_bad(&mut self, diags: &mut Diagnostics) {
        if let Some((no, why)) = self.bad.take() {
            diags.report(Severity::Warning, "spark.bad-line", Position::Line(no), format!("{why}; skipped"));
        }
    }

    fn saw(&mut self, t: Option<i64>) {
        if let Some(t) = t {
            self.log.last_time = Some(self.log.last_time.map_or(t, |l| l.max(t)));
        }
    }

    fn log_start(&mut self, e: events::LogStart, no: u64, diags: &mut Diagnostics) {
        let major = e.version.as_deref().and_then(|v| v.split('.').next()).and_then(|m| m.parse::<u32>().ok());
        if !major.is_some_and(|m| VERSIONS.contains(&m)) {
            diags.report(
                Severity::Warning,
                "spark.version",
                Position::Line(no),
                format!(
                    "Spark version {:?}: logs of Spark {}.x to {}.x are read; this one is read as if it were one of them",
                    e.version.as_deref().unwrap_or(""),
                    VERSIONS.start(),
                    VERSIONS.end()
                ),
            );
        }
        self.log.spark_version = e.version;
    }

    fn app_start(&mut self, e: events::AppStart) {
        self.log.app_name = e.name;
        self.log.app_id = e.id;
        self.log.app_attempt = e.attempt;
        self.log.app_start = e.time;
        self.saw(e.time);
    }

    fn executor(&mut self, e: events::ExecutorEvent, added: bool) {
        self.saw(e.time);
        let Some(id) = e.id else { return };
        let found = self.log.executors.iter().position(|x| x.id == id);
        let i = found.unwrap_or_else(|| {
            self.log.executors.push(Executor { id, host: String::new(), cores: None, added: None, removed: None });
            self.log.executors.len() - 1
        });
        let Some(x) = self.log.executors.get_mut(i) else { return };
        if added {
            x.added = e.time;
            if let Some(info) = e.info {
                x.host = info.host.unwrap_or_default();
                x.cores = info.cores;
            }
        } else {
            x.removed = e.time;
        }
    }

    fn job_start(&mut self, e: events::JobStart, no: u64, diags: &mut Diagnostics) {
        self.saw(e.time);
        if self.jobs.contains_key(&e.id) {
            diags.report(
                Severity::Warning,
                "spark.duplicate-job",
                Position::Line(no),
                format!("job {} starts again; the first start is kept", e.id),
            );
            return;
        }
        self.jobs.insert(e.id, self.log.jobs.len());
        let sql_execution = e.properties.get("spark.sql.execution.id").and_then(|s| s.parse().ok());
        self.log.jobs.push(Job {
            id: e.id,
            submitted: e.time,
            completed: None,
            stages: e.stage_ids,
            result: None,
            description: e.properties.get("spark.job.description"),
            sql_execution,
            position: Position::Line(no),
        });
        for s in e.stages {
            self.stage(s, Some(e.id), false, no, diags);
        }
    }

    fn job_end(&mut self, e: events::JobEnd, no: u64, diags: &mut Diagnostics) {
        self.saw(e.time);
        let Some(job) = self.jobs.get(&e.id).and_then(|&i| self.log.jobs.get_mut(i)) else {
            diags.report(
                Severity::Warning,
                "spark.unknown-job",
                Position::Line(no),
                format!("job {} ends without having started; skipped", e.id),
            );
            return;
        };
        if job.completed.is_some() {
            diags.report(
                Severity::Warning,
                "spark.duplicate-job",
                Position::Line(no),
                format!("job {} ends again; the first end is kept", e.id),
            );
            return;
        }
        job.completed = e.time;
        job.result = e.result.and_then(|r| r.result);
    }

    /// A stage attempt as listed by a job's start (`job`), submitted, or
    /// `completed`.
    fn stage(&mut self, s: StageInfo, job: Option<i64>, completed: bool, no: u64, diags: &mut Diagnostics) {
        self.saw(s.submitted);
        self.saw(s.completed);
        let key = (s.id, s.attempt);
        let i = match self.stages.get(&key) {
            Some(&i) => i,
            None => {
                self.stages.insert(key, self.log.stages.len());
                self.log.stages.push(StageAttempt {
                    stage_id: s.id,
                    attempt: s.attempt,
                    name: String::new(),
                    tasks: 0,
                    parents: Vec::new(),
                    rdds: Vec::new(),
                    submitted: None,
                    completed: None,
                    failure: None,
                    job,
                    position: Position::Line(no),
                });
                self.log.stages.len() - 1
            }
        };
        let Some(st) = self.log.stages.get_mut(i) else { return };
        if completed && self.completions.insert(key, ()).is_some() {
            diags.report(
                Severity::Warning,
                "spark.duplicate-stage",
                Position::Line(no),
                format!("stage {} (attempt {}) completes again; the first completion is kept", s.id, s.attempt),
            );
            return;
        }
        st.name = s.name;
        st.tasks = s.tasks;
        st.parents = s.parents;
        st.rdds = s.rdds.into_iter().map(|r| RddInfo { id: r.id, name: r.name }).collect();
        st.submitted = s.submitted.or(st.submitted);
        st.completed = s.completed.or(st.completed);
        st.failure = s.failure.or(st.failure.take());
        st.job = st.job.or(job);
        if job.is_none() {
            st.position = Position::Line(no);
        }
    }

    fn task(&mut self, e: events::TaskEvent, end: bool, no: u64, diags: &mut Diagnostics) {
        let info = e.info;
        self.saw(info.launch);
        let at = Position::Line(no);
        let Some(launch) = info.launch else {
            diags.report(
                Severity::Warning,
                "spark.bad-event",
                at,
                format!("task {} has no launch time; skipped", info.id),
            );
            return;
        };
        let known = self.tasks.get(&info.id).copied();
        let repeated = if end { self.ended.contains_key(&info.id) } else { known.is_some() };
        if repeated {
            diags.report(
                Severity::Warning,
                "spark.duplicate-task",
                at,
                format!("task {} {} again; the first is kept", info.id, if end { "ends" } else { "starts" }),
            );
            return;
        }
        let i = known.unwrap_or_else(|| {
            self.tasks.insert(info.id, self.log.tasks.len());
            self.log.tasks.push(TaskAttempt {
                task_id: info.id,
                stage_id: e.stage,
                stage_attempt: e.stage_attempt,
                index: info.index,
                attempt: info.attempt,
                executor: info.executor.clone(),
                launch,
                finish: None,
                reason: String::new(),
                speculative: info.speculative,
                metrics: Metrics::default(),
                position: at,
            });
            self.log.tasks.len() - 1
        });
        if !end {
            return;
        }
        self.ended.insert(info.id, ());
        self.saw(Some(info.finish));
        let Some(t) = self.log.tasks.get_mut(i) else { return };
        t.finish = Some(info.finish.max(launch));
        t.reason = e.reason.map(|r| r.reason).unwrap_or_default();
        t.position = at;
        if let Some(m) = e.metrics {
            let r = &m.shuffle_read;
            t.metrics = Metrics {
                run_ms: m.run,
                gc_ms: m.gc,
                fetch_wait_ms: r.fetch_wait,
                memory_spilled: m.memory_spilled,
                disk_spilled: m.disk_spilled,
                input_bytes: m.input.bytes,
                output_bytes: m.output.bytes,
                shuffle_read_bytes: r.remote_bytes.saturating_add(r.local_bytes),
                records_read: if r.records > 0 { r.records } else { m.input.records },
                shuffle_write_bytes: m.shuffle_write.bytes,
            };
        }
    }

    fn sql(&mut self, e: events::SqlEvent, start: bool) {
        self.saw(e.time);
        let i = *self.sql.entry(e.id).or_insert_with(|| {
            self.log.sql.push(SqlExecution { id: e.id, description: String::new(), start: None, end: None });
            self.log.sql.len() - 1
        });
        let Some(x) = self.log.sql.get_mut(i) else { return };
        if start {
            x.description = e.description;
            x.start = e.time;
        } else {
            x.end = e.time;
        }
    }

    /// The end of the input: a bad last line is a cut one.
    pub fn finish(mut self, diags: &mut Diagnostics) -> SparkLog {
        if let Some((no, why)) = self.bad.take() {
            diags.report(
                Severity::Warning,
                "spark.truncated",
                Position::Line(no),
                format!("the log ends inside an event ({why}); the {} events before it were read", self.log.events),
            );
        }
        self.log
    }
}
