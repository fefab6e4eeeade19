//! One run's rows of the three fleet tables, as Arrow record batches
//! (which the Parquet files and the page's SQL tables are written from),
//! from what the analysis
//! already gives: the model's tasks, the view's critical path (the one the
//! app draws and `longpole analyze` prints), the format's stable task keys
//! and each task's slack ([`crate::analysis::slack`], as the comparison
//! computes it).

use super::schema;
#[cfg(feature = "export")]
use super::write::parquet_file;
use super::SCHEMA_VERSION;
use crate::analysis::slack::slack;
use crate::layout::timeline::TimelineIndex;
use crate::model::{Model, Nanos, Role, TaskId};
use crate::run::{Analysis, Dataset};
use crate::view::RunView;
use arrow_array::{
    ArrayRef, BooleanArray, Int32Array, Int64Array, RecordBatch, StringArray, TimestampMicrosecondArray,
};
use arrow_schema::ArrowError;
#[cfg(feature = "export")]
use parquet::errors::ParquetError;
use std::sync::Arc;

/// 2000-01-01T00:00:00Z in ns. A run whose first time is later counts
/// times from 1970 (a distbuild log, a MAL trace); one that starts before
/// counts from its own start (a ninja log, most Chrome traces), and has
/// no date: no format's relative clock starts 30 years in.
const DATES_FROM: Nanos = 946_684_800_000_000_000;

/// A run's three tables as Parquet files.
#[derive(Clone, Debug)]
pub struct Files {
    /// The run's id.
    pub run_id: String,
    /// When it started, µs since 1970 (UTC), if its times are dates.
    pub started_at: Option<i64>,
    /// `runs`: its one row.
    pub runs: Vec<u8>,
    /// `tasks`: a row per task.
    pub tasks: Vec<u8>,
    /// `critical_path`: a row per step.
    pub critical_path: Vec<u8>,
}

/// ns to µs, rounding down.
fn us(ns: Nanos) -> i64 {
    ns.div_euclid(1000)
}

fn strings<'a>(it: impl Iterator<Item = &'a str>) -> ArrayRef {
    Arc::new(StringArray::from_iter_values(it))
}

fn repeat(s: &str, n: usize) -> ArrayRef {
    strings(std::iter::repeat_n(s, n))
}

fn timestamps(it: impl Iterator<Item = Option<i64>>) -> ArrayRef {
    Arc::new(TimestampMicrosecondArray::from_iter(it).with_timezone("UTC"))
}

fn int64s(it: impl Iterator<Item = Option<i64>>) -> ArrayRef {
    Arc::new(Int64Array::from_iter(it))
}

/// What a task did, as the model records it.
fn status(model: &Model, id: TaskId) -> &'static str {
    let t = model.task(id);
    match (t.failed, t.cached) {
        (true, _) => "failed",
        (false, true) => "cached",
        (false, false) => "executed",
    }
}

/// Each task's slack (ns) by id, for a run that records dependencies:
/// over the tasks with a duration that are not phases, as the comparison
/// takes them; `None` for the others.
fn slacks(model: &Model) -> Vec<Option<Nanos>> {
    let mut pos = vec![None; model.tasks().len()];
    let tasks: Vec<TaskId> = (0..model.tasks().len() as u32)
        .map(TaskId)
        .filter(|&id| model.task(id).role != Role::Phase && model.task(id).duration().is_some())
        .collect();
    for (p, &id) in tasks.iter().enumerate() {
        pos[id.index()] = Some(p as u32);
    }
    let end = tasks.iter().filter_map(|&id| model.task(id).end.get()).max().unwrap_or(0);
    let s = slack(model, &tasks, &|id| pos[id.index()], end);
    pos.iter().map(|p| p.map(|p| s[p as usize])).collect()
}

/// A run's rows of the three tables.
#[derive(Clone, Debug)]
pub struct Batches {
    /// The run's id.
    pub run_id: String,
    /// When it started, µs since 1970 (UTC), if its times are dates.
    pub started_at: Option<i64>,
    /// `runs`: its one row.
    pub runs: RecordBatch,
    /// `tasks`: a row per task.
    pub tasks: RecordBatch,
    /// `critical_path`: a row per step.
    pub critical_path: RecordBatch,
}

/// The tables of run `d` of `analysis`, with id `run_id`, read from
/// `source`, as Parquet files.
#[cfg(feature = "export")]
pub fn run_files(analysis: &Analysis, d: &Dataset, run_id: &str, source: &str) -> Result<Files, ParquetError> {
    let b = run_batches(analysis, d, run_id, source)?;
    Ok(Files {
        runs: parquet_file(&b.runs)?,
        tasks: parquet_file(&b.tasks)?,
        critical_path: parquet_file(&b.critical_path)?,
        run_id: b.run_id,
        started_at: b.started_at,
    })
}

/// The rows of run `d` of `analysis`, with id `run_id`, read from `source`.
pub fn run_batches(analysis: &Analysis, d: &Dataset, run_id: &str, source: &str) -> Result<Batches, ArrowError> {
    run_batches_of(d, &analysis.view(d, &TimelineIndex::new(&d.model)), run_id, source)
}

/// [`run_batches`] of run `d` whose view is `view` (for a caller that
/// needs the view too: it is made once).
pub fn run_batches_of(d: &Dataset, view: &RunView, run_id: &str, source: &str) -> Result<Batches, ArrowError> {
    let model = &d.model;
    let n = model.tasks().len();
    let format = d.format.name();
    let keys = d.kind.compare_keys(model);
    let key = |id: u32| keys.get(id as usize).map_or("", String::as_str);
    let origin = model.window().map_or(0, |(start, _)| start);
    let dated = model.window().is_some_and(|(start, _)| start >= DATES_FROM);
    let started_at = dated.then(|| us(origin));
    let has_path = d.no_path().is_none();
    let mut on_path = vec![false; n];
    for s in &view.critical_path.steps {
        if let Some(p) = on_path.get_mut(s.id as usize) {
            *p = true;
        }
    }
    let slack = if has_path { slacks(model) } else { vec![None; n] };

    let runs = RecordBatch::try_new(
        schema::runs(),
        vec![
            repeat(run_id, 1),
            repeat(format, 1),
            repeat(source, 1),
            timestamps(std::iter::once(started_at)),
            int64s(std::iter::once(model.wall().map(us))),
            int64s(std::iter::once(has_path.then(|| us(view.critical_path.total)))),
            int64s(std::iter::once(Some(n as i64))),
            int64s(std::iter::once(Some(model.lanes().len() as i64))),
            repeat(env!("CARGO_PKG_VERSION"), 1),
            Arc::new(Int32Array::from(vec![SCHEMA_VERSION])),
        ],
    )?;

    let tasks = model.tasks();
    let tasks = RecordBatch::try_new(
        schema::tasks(),
        vec![
            repeat(run_id, n),
            repeat(format, n),
            int64s((0..n as i64).map(Some)),
            strings((0..n as u32).map(key)),
            strings((0..n as u32).map(|i| model.uid(TaskId(i)))),
            strings(tasks.iter().map(|t| t.role.name())),
            strings(tasks.iter().map(|t| model.kinds()[t.kind.index()].name.as_str())),
            strings(tasks.iter().map(|t| model.lanes()[t.lane.index()].name.as_str())),
            int64s(tasks.iter().map(|t| t.start.get().map(|s| us(s - origin)))),
            timestamps(tasks.iter().map(|t| t.start.get().filter(|_| dated).map(us))),
            int64s(tasks.iter().map(|t| t.duration().map(us))),
            strings((0..n as u32).map(|i| status(model, TaskId(i)))),
            int64s(model.payloads().column(n).map(|p| p.and_then(|p| p.bytes).map(|b| b as i64))),
            Arc::new(BooleanArray::from(on_path)),
            int64s(slack.iter().map(|s| s.map(us))),
        ],
    )?;

    let steps = &view.critical_path.steps;
    let gap = |i: usize| {
        let prev_end = if i == 0 { Some(origin) } else { steps[i - 1].end };
        match (prev_end, steps[i].start) {
            (Some(e), Some(s)) => us(s - e).max(0),
            _ => 0,
        }
    };
    let critical_path = RecordBatch::try_new(
        schema::critical_path(),
        vec![
            repeat(run_id, steps.len()),
            Arc::new(Int32Array::from_iter_values(1..=steps.len() as i32)),
            int64s(steps.iter().map(|s| Some(i64::from(s.id)))),
            strings(steps.iter().map(|s| key(s.id))),
            strings(steps.iter().map(|s| s.lane.as_str())),
            int64s(steps.iter().map(|s| s.start.map(|t| us(t - origin)))),
            int64s(steps.iter().map(|s| s.start.zip(s.end).map(|(a, b)| us(b - a)))),
            int64s((0..steps.len()).map(|i| Some(gap(i)))),
        ],
    )?;
    Ok(Batches { run_id: run_id.to_owned(), started_at, runs, tasks, critical_path })
}
