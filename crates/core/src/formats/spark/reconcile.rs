//! A Spark application as a [`Model`] and a [`SparkRun`]: each stage
//! attempt that ran a task on a stage slot, after the stages it waited for
//! (its parents, a skipped one resolved to the stage that computed its
//! shuffle); each task attempt on a core slot of its executor; the wall the
//! History Server shows, application start to end.

use super::log::{SparkLog, TaskAttempt};
use super::path::StageGraph;
use super::run::{JobInfo, SparkRun, SqlInfo, StageInfo, TaskCounts};
use super::skew::skew;
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::hash::FastMap;
use crate::layout::slots::allocate;
use crate::model::{KindId, LaneId, Model, ModelBuilder, Nanos, Role, Task, TaskId, NANOS_PER_MS};
use std::fmt::Write as _;

/// Spark's milliseconds as the model's nanoseconds.
fn ns(ms: i64) -> Nanos {
    ms.saturating_mul(NANOS_PER_MS)
}

/// A stage's label: `Stage 3 (attempt 1): count at …`.
pub fn stage_label(id: i64, attempt: i64, name: &str) -> String {
    match attempt {
        0 => format!("Stage {id}: {name}"),
        a => format!("Stage {id} (attempt {a}): {name}"),
    }
}

/// The model and run of `log`.
pub fn reconcile(log: &SparkLog, diags: &mut Diagnostics) -> (Model, SparkRun) {
    let mut b = ModelBuilder::new();
    let graph = StageGraph::new(&log.stages);
    for id in &graph.unresolved {
        diags.report(
            Severity::Info,
            "spark.unresolved-skipped-stage",
            Position::Whole,
            format!("stage {id} was skipped, and no stage that ran computed its RDD: the path cannot pass through it"),
        );
    }
    let ran = graph.ran();
    // Stage attempts that ran, on slots.
    let spans: Vec<(i64, i64)> = ran
        .iter()
        .filter_map(|&i| log.stages.get(i))
        .map(|s| (ns(s.submitted.unwrap_or(0)), ns(s.completed.unwrap_or(0))))
        .collect();
    let slots = allocate(&spans);
    let slot_count = slots.iter().max().map_or(0, |m| m + 1);
    for k in 0..slot_count {
        b.lane(&format!("stages {}", k + 1));
    }
    let stage_kind = b.kind("stage", None);
    let mut model_of: FastMap<usize, TaskId> = FastMap::default();
    for ((&i, &(start, end)), slot) in ran.iter().zip(&spans).zip(&slots) {
        let Some(s) = log.stages.get(i) else { continue };
        let lane = b.lane(&format!("stages {}", slot + 1));
        let uid = b.sym(&format!("stage {}.{}", s.stage_id, s.attempt));
        let mut task = Task::new(uid, stage_kind, Role::Work, lane, Some(start), Some(end.max(start)));
        let name = b.sym(&stage_label(s.stage_id, s.attempt, &s.name));
        task.failed = s.failure.is_some();
        model_of.insert(i, b.named_task(task, Some(name)));
    }
    for &i in &ran {
        let Some(&t) = model_of.get(&i) else { continue };
        for (p, _) in graph.parents(i) {
            if let Some(&d) = model_of.get(&p) {
                b.depends(t, d);
            }
        }
    }
    let first_task = b.len() as u32;
    let executors = add_tasks(&mut b, log);
    // The wall: application start to end, as the History Server gives it.
    let first = log.app_start.or_else(|| log.tasks.iter().map(|t| t.launch).min());
    let last = log.app_end.or(log.last_time);
    if log.app_end.is_none() && !log.tasks.is_empty() {
        diags.report(
            Severity::Warning,
            "spark.no-application-end",
            Position::Whole,
            "the log has no SparkListenerApplicationEnd (still running, or cut): the wall ends at its last event",
        );
    }
    if let (Some(a), Some(z)) = (first, last) {
        b.window(ns(a), ns(z.max(a)));
    }
    let path = graph.path();
    let path_total =
        match (path.first().and_then(|s| log.stages.get(s.stage)), path.last().and_then(|s| log.stages.get(s.stage))) {
            (Some(a), Some(z)) => ns(z.completed.unwrap_or(0) - a.submitted.unwrap_or(0)).max(0),
            _ => 0,
        };
    let run = SparkRun {
        spark_version: log.spark_version.clone(),
        app_name: log.app_name.clone(),
        app_id: log.app_id.clone(),
        master: log.master.clone(),
        ended: log.app_end.is_some(),
        executors,
        jobs: jobs(log),
        stages: stages(log, &model_of),
        sql: sql(log),
        task_attempts: log.tasks.len() as u64,
        failed_tasks: log.tasks.iter().filter(|t| t.finish.is_some() && !t.succeeded()).count() as u64,
        first_task,
        path,
        path_total,
        unresolved_skipped: graph.unresolved.clone(),
    };
    (b.build(), run)
}

/// Each task attempt on a core slot of its executor (`executor 1 · 2`);
/// the executors, in the order they were added or first ran a task.
fn add_tasks(b: &mut ModelBuilder, log: &SparkLog) -> Vec<String> {
    let mut executors: Vec<String> = log.executors.iter().map(|e| e.id.clone()).collect();
    let mut index_of: FastMap<&str, usize> =
        log.executors.iter().enumerate().map(|(i, e)| (e.id.as_str(), i)).collect();
    let mut by_executor: Vec<Vec<usize>> = vec![Vec::new(); executors.len()];
    for (i, t) in log.tasks.iter().enumerate() {
        let e = *index_of.entry(t.executor.as_str()).or_insert_with(|| {
            executors.push(t.executor.clone());
            by_executor.push(Vec::new());
            executors.len() - 1
        });
        if let Some(ids) = by_executor.get_mut(e) {
            ids.push(i);
        }
    }
    // Each task's lane, found once per executor slot.
    let mut lane_of = vec![None; log.tasks.len()];
    for (e, ids) in executors.iter().zip(&by_executor) {
        let spans: Vec<(i64, i64)> = ids
            .iter()
            .filter_map(|&i| log.tasks.get(i))
            .map(|t| (t.launch, t.finish.unwrap_or(t.launch).max(t.launch)))
            .collect();
        let slots = allocate(&spans);
        let lanes: Vec<LaneId> =
            (0..slots.iter().max().map_or(0, |m| m + 1)).map(|k| b.lane(&lane_name(e, k))).collect();
        for (&i, s) in ids.iter().zip(slots) {
            if let Some(x) = lane_of.get_mut(i) {
                *x = lanes.get(s as usize).copied();
            }
        }
    }
    let mut kinds: FastMap<i64, KindId> = FastMap::default();
    let mut text = String::new();
    for (t, lane) in log.tasks.iter().zip(lane_of) {
        let kind = *kinds.entry(t.stage_id).or_insert_with(|| b.kind(&format!("stage {}", t.stage_id), None));
        let lane = lane.unwrap_or_else(|| b.lane(&lane_name(&t.executor, 0)));
        add_task(b, t, lane, kind, &mut text);
    }
    executors
}

fn lane_name(executor: &str, slot: u32) -> String {
    let who = if executor == "driver" { "driver".to_owned() } else { format!("executor {executor}") };
    format!("{who} · {}", slot + 1)
}

/// Adds task attempt `t` on `lane`, of `kind`; `text` is room for its names.
fn add_task(b: &mut ModelBuilder, t: &TaskAttempt, lane: LaneId, kind: KindId, text: &mut String) {
    text.clear();
    let _ = write!(text, "task {}", t.task_id);
    let uid = b.sym(text);
    let start = ns(t.launch);
    let mut task = Task::new(uid, kind, Role::Work, lane, Some(start), t.finish.map(|f| ns(f).max(start)));
    text.clear();
    let _ = write!(text, "stage {}", t.stage_id);
    if t.stage_attempt > 0 {
        let _ = write!(text, ".{}", t.stage_attempt);
    }
    let _ = write!(text, " · task {}", t.index);
    if t.attempt > 0 {
        let _ = write!(text, " (attempt {})", t.attempt);
    }
    let name = b.sym(text);
    task.failed = t.finish.is_some() && !t.succeeded();
    let written = t.metrics.shuffle_write_bytes.saturating_add(t.metrics.output_bytes);
    let id = b.named_task(task, Some(name));
    if let Some(bytes) = u64::try_from(written).ok().filter(|&w| w > 0) {
        b.payload_mut(id).bytes = Some(bytes);
    }
}

fn jobs(log: &SparkLog) -> Vec<JobInfo> {
    log.jobs
        .iter()
        .map(|j| JobInfo {
            id: j.id,
            description: j.description.clone(),
            result: j.result.clone(),
            stages: j.stages.clone(),
            sql_execution: j.sql_execution,
            duration: match (j.submitted, j.completed) {
                (Some(a), Some(z)) => Some(ns(z - a)),
                _ => None,
            },
        })
        .collect()
}

fn stages(log: &SparkLog, model_of: &FastMap<usize, TaskId>) -> Vec<StageInfo> {
    let mut tasks_of: FastMap<(i64, i64), Vec<&TaskAttempt>> = FastMap::default();
    for t in &log.tasks {
        tasks_of.entry((t.stage_id, t.stage_attempt)).or_default().push(t);
    }
    log.stages
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let tasks = tasks_of.get(&(s.stage_id, s.attempt)).map_or(&[][..], Vec::as_slice);
            let ended = || tasks.iter().filter(|t| t.finish.is_some());
            StageInfo {
                id: s.stage_id,
                attempt: s.attempt,
                name: s.name.clone(),
                job: s.job,
                tasks: s.tasks,
                ran: s.submitted.is_some() && s.completed.is_some(),
                duration: match (s.submitted, s.completed) {
                    (Some(a), Some(z)) => Some(ns(z - a)),
                    _ => None,
                },
                ended: counts(ended().copied()),
                executor_run_ms: ended().map(|t| t.metrics.run_ms).fold(0, i64::saturating_add),
                failure: s.failure.clone(),
                task: model_of.get(&i).map(|t| t.0),
                skew: skew(tasks),
            }
        })
        .collect()
}

/// Ended task attempts by how they ended, as the History Server counts
/// them (`AppStatusListener`: killed is `TaskKilled` or `TaskCommitDenied`).
fn counts<'a>(ended: impl Iterator<Item = &'a TaskAttempt>) -> TaskCounts {
    let mut c = TaskCounts::default();
    for t in ended {
        match t.reason.as_str() {
            "Success" => c.complete += 1,
            "TaskKilled" | "TaskCommitDenied" => c.killed += 1,
            _ => c.failed += 1,
        }
    }
    c
}

fn sql(log: &SparkLog) -> Vec<SqlInfo> {
    log.sql
        .iter()
        .map(|x| SqlInfo {
            id: x.id,
            description: x.description.clone(),
            duration: match (x.start, x.end) {
                (Some(a), Some(z)) => Some(ns(z - a)),
                _ => None,
            },
            jobs: log.jobs.iter().filter(|j| j.sql_execution == Some(x.id)).map(|j| j.id).collect(),
        })
        .collect()
}
