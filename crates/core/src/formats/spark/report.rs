//! A Spark application's report, as `longpole analyze` prints it: the
//! application's counts, the wall, the path over the stages with each
//! stage's slowest task against the median and its cause, and the SQL
//! executions with their jobs.

use super::run::{SparkRun, StageInfo};
use super::skew::Skew;
use crate::analysis::critical_path::Path;
use crate::model::{Model, TaskId, NANOS_PER_MS};
use crate::numbers::duration_label;
use crate::numbers::Ms;
use crate::run::{Dataset, ReportPath, RunReport};
use crate::view::headline::plural;
use serde_json::{json, Map, Value};
use std::fmt::Write;

/// The path as the model's tasks, with its span.
pub fn model_path(run: &SparkRun) -> Path {
    let tasks = run.path.iter().filter_map(|s| run.stages.get(s.stage)?.task.map(TaskId)).collect();
    Path { tasks, total: run.path_total }
}

fn skew_json(s: &Skew) -> Value {
    json!({
        "tasks": s.tasks, "median_ms": s.median_ms, "max_ms": s.max_ms,
        "ratio": if s.ratio.is_finite() { json!(s.ratio) } else { Value::Null },
        "straggler": s.straggler(), "slowest_task": s.slowest_task, "executor": s.executor,
        "read_bytes": s.read_bytes.0, "median_read_bytes": s.read_bytes.1, "cause": s.cause,
        "slowest_metrics": s.metrics,
    })
}

/// A job's description, by id.
fn description(run: &SparkRun, job: Option<i64>) -> Option<&str> {
    run.jobs.iter().find(|j| Some(j.id) == job)?.description.as_deref()
}

fn stage_json(run: &SparkRun, s: &StageInfo) -> Value {
    json!({
        "stage_id": s.id, "attempt": s.attempt, "stage_name": s.name, "job": s.job,
        "job_description": description(run, s.job), "num_tasks": s.tasks, "ran": s.ran,
        "duration_ms": s.duration.map(|x| Ms(x).json()), "complete_tasks": s.ended.complete,
        "failed_tasks": s.ended.failed, "killed_tasks": s.ended.killed, "executor_run_ms": s.executor_run_ms,
        "failure": s.failure, "skew": s.skew.as_ref().map(skew_json),
    })
}

/// The report as JSON.
pub fn spark_json(d: &Dataset, run: &SparkRun) -> RunReport {
    let (ran, skipped, failed) = run.stage_counts();
    let tasks: Vec<Value> = run
        .path
        .iter()
        .filter_map(|step| {
            let s = run.stages.get(step.stage)?;
            s.task?;
            let mut v = stage_json(run, s);
            if let Value::Object(o) = &mut v {
                // The shared `duration_ms` is the stage's task's.
                o.remove("duration_ms");
                o.insert("for_skipped_stage".into(), json!(step.for_skipped));
            }
            Some(v)
        })
        .collect();
    let own = json!({
        "spark": {
            "spark_version": run.spark_version, "app_name": run.app_name, "app_id": run.app_id,
            "master": run.master, "application_ended": run.ended,
            "jobs": run.jobs.len(), "stages_ran": ran, "stages_skipped": skipped, "stage_attempts_failed": failed,
            "task_attempts": run.task_attempts, "failed_task_attempts": run.failed_tasks,
            "executors": run.executors,
            "unresolved_skipped_stages": run.unresolved_skipped,
            "job_list": run.jobs.iter().map(|j| json!({
                "job_id": j.id, "description": j.description, "result": j.result, "stages": j.stages,
                "sql_execution": j.sql_execution, "duration_ms": j.duration.map(|x| Ms(x).json()),
            })).collect::<Vec<_>>(),
            "sql_executions": run.sql.iter().map(|x| json!({
                "execution_id": x.id, "description": x.description,
                "duration_ms": x.duration.map(|x| Ms(x).json()), "jobs": x.jobs,
            })).collect::<Vec<_>>(),
            "stage_list": run.stages.iter().map(|s| stage_json(run, s)).collect::<Vec<_>>(),
        },
    });
    let _ = d;
    RunReport { own, critical_path: Some(ReportPath { path: model_path(run), tasks, own: Map::new() }) }
}

/// One line of facts: the application and its counts.
pub fn facts_line(m: &Model, run: &SparkRun) -> String {
    let (ran, skipped, _) = run.stage_counts();
    format!(
        "Spark {} application {}{}: {}, {} ran ({skipped} skipped), {} on {}; wall {}{}",
        run.spark_version.as_deref().unwrap_or("?"),
        run.app_name.as_deref().unwrap_or("?"),
        run.app_id.as_deref().map(|a| format!(" ({a})")).unwrap_or_default(),
        plural(run.jobs.len() as u64, "job", "jobs"),
        plural(ran, "stage", "stages"),
        plural(run.task_attempts, "task", "tasks"),
        plural(run.executors.len() as u64, "executor", "executors"),
        m.wall().map_or("?".to_owned(), duration_label),
        if run.ended { "" } else { " (to the last event: the application's end is not in the log)" }
    )
}

/// A stage's slowest task in words.
pub fn skew_words(s: &Skew) -> String {
    let ms = |x: i64| duration_label(x.saturating_mul(NANOS_PER_MS));
    let ratio = if s.ratio.is_finite() { format!("{:.1}×", s.ratio) } else { "∞×".to_owned() };
    let what = if s.straggler() { format!("straggler, {}", s.cause.label()) } else { "no straggler".to_owned() };
    format!("slowest task {} {} vs median {} ({ratio}; {what})", s.slowest_task, ms(s.max_ms), ms(s.median_ms))
}

/// The report as text.
pub fn spark_text(d: &Dataset, run: &SparkRun) -> String {
    let m = &d.model;
    let mut out = facts_line(m, run);
    out.push('\n');
    let p = model_path(run);
    let _ = writeln!(
        out,
        "\nPath over the stages ({}, {} stages; back from the stage that completed last through the parent that completed last, a skipped parent standing for the stage that computed its shuffle):",
        duration_label(p.total),
        p.tasks.len()
    );
    for step in &run.path {
        let Some(s) = run.stages.get(step.stage) else { continue };
        let Some(t) = s.task else { continue };
        let dur = m.task(TaskId(t)).duration().unwrap_or(0);
        let via = step.for_skipped.map(|k| format!(" (for skipped stage {k})")).unwrap_or_default();
        let job = s.job.map(|j| format!("job {j}")).unwrap_or_default();
        let _ = writeln!(out, "  {:>10}  {:<7} {}{via}", duration_label(dur), job, m.label(TaskId(t)));
        if let Some(k) = &s.skew {
            let _ = writeln!(out, "  {:>10}  {:<7}   {}", "", "", skew_words(k));
        }
    }
    if !run.sql.is_empty() {
        let _ = writeln!(out, "\nSQL executions:");
        for x in &run.sql {
            let jobs: Vec<String> = x.jobs.iter().map(i64::to_string).collect();
            let _ = writeln!(
                out,
                "  {:>10}  {} (jobs {})",
                x.duration.map_or("?".to_owned(), duration_label),
                x.description,
                if jobs.is_empty() { "none".to_owned() } else { jobs.join(", ") }
            );
        }
    }
    out
}
