//! What the app shows of one run, computed once in the worker and sent to
//! the page: the headline numbers, both paths with their steps, the
//! breakdown of the path, and the report's tables. Sized for the UI: rows
//! are the report's (a few dozen), not every task; the timeline's bars come
//! separately, per viewport ([`crate::layout::timeline`]).

use crate::analysis::critical_path::Path;
use crate::analysis::no_path::NoPath;
use crate::analysis::task_totals::{longest_and_by_type, type_name, TypeTotal};
use crate::layout::timeline::TimelineIndex;
use crate::model::flame::FlameGraph;
use crate::model::FormatId;
use crate::model::{Model, Nanos, Role, TaskId};
use crate::report::paths::PathsReport;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::Arc;

pub mod compare;
pub mod compare_flame;
pub mod compare_timelines;
mod flame;
pub mod headline;
mod program;
mod series;
pub mod table;
pub mod table_page;
pub mod tables;
pub mod what_if;

pub use flame::{FlameFrame, FlameLayout, WARNINGS_SHOWN};
pub use program::LONGEST;
pub use series::Series;

/// The most points of a series (a heap, a server's load) sent to the page:
/// more would not show on a chart a few thousand pixels wide.
pub const SERIES_POINTS: usize = 2000;

/// One task as a row of a table or a step of a path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskRow {
    /// Its id in the model (for selection and details).
    pub id: u32,
    /// `run`, `copy`, `prepare` or `stage`.
    pub kind: String,
    /// The uid (for a prepare task: its type; for a copy: the delivered uid).
    pub uid: String,
    /// What to show.
    pub label: String,
    /// ya's type (`CC`, `Copy`, `prepare:resources`, `CC-CACHED`).
    pub task_type: String,
    /// Index of its kind in [`RunView::kinds`].
    pub kind_index: u32,
    /// Its lane's name (host, thread).
    pub lane: String,
    /// Index of its lane in [`RunView::lanes`].
    pub lane_index: u32,
    /// Its row within the lane on the timeline, if it is on it.
    pub row: Option<u32>,
    /// Start, ns.
    pub start: Option<Nanos>,
    /// End, ns.
    pub end: Option<Nanos>,
    /// Bytes, when known.
    pub bytes: Option<u64>,
    /// For a copy: where from.
    pub from_lane: Option<String>,
    /// Idle time before it on a blocking chain (0 elsewhere).
    pub gap: Nanos,
}

/// A kind of task, for colours and the legend.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KindView {
    /// Its name.
    pub name: String,
    /// The producer's colour name, if any.
    pub color: Option<String>,
}

/// Time of a path spent in one kind of task, or waiting.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Share {
    /// `prepare`, `copy`, a run type (`CC`), or `waiting`.
    pub part: String,
    /// Time, ns.
    pub time: Nanos,
}

/// A path (ya's or the blocking chain) for the page.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathView {
    /// ya's path: the sum of durations; blocking chain: first start to last end.
    pub total: Nanos,
    /// The steps, first first.
    pub steps: Vec<TaskRow>,
    /// Where its time went, largest first, waiting last.
    pub breakdown: Vec<Share>,
}

/// One row of "time by type".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypeRow {
    /// The type.
    pub task_type: String,
    /// Tasks.
    pub count: u64,
    /// Total time, ns.
    pub total: Nanos,
}

/// Everything the page shows of a run but the timeline's bars.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunView {
    /// The format.
    pub format: FormatId,
    /// The lanes, in model order.
    pub lanes: Vec<String>,
    /// Timeline rows of each lane.
    pub rows_per_lane: Vec<u32>,
    /// The kinds, in model order.
    pub kinds: Vec<KindView>,
    /// First and last time of the run, ns.
    pub window: Option<(Nanos, Nanos)>,
    /// Run, copy, prepare and stage task counts.
    pub counts: TaskCounts,
    /// ya's critical path.
    pub critical_path: PathView,
    /// The blocking chain.
    pub blocking_chain: PathView,
    /// Where the two differ, in words.
    pub differences: Vec<String>,
    /// What the list of where the paths differ is titled.
    pub differences_title: String,
    /// A note under the path's list (where a StarRocks query's long pole
    /// waited on I/O), if any.
    pub path_note: Option<String>,
    /// The 10 longest tasks.
    pub longest: Vec<TaskRow>,
    /// The 10 biggest copies.
    pub biggest_copies: Vec<TaskRow>,
    /// Time by type.
    pub by_type: Vec<TypeRow>,
    /// Wall time by stage: (stage, ns).
    pub stages: Vec<(String, Nanos)>,
    /// ya's cache line, as ya prints it.
    pub cache_line: String,
    /// Failed, test and run time, ns.
    pub totals: (Nanos, Nanos, Nanos),
    /// The format's own part of the view (a GHC program's collections and
    /// heap, a StarRocks query's operators, a Chrome trace's phases), as
    /// the JSON its own code reads back with [`RunView::part`]; null for a
    /// format without one.
    #[serde(default)]
    pub part: Value,
    /// The run's flame graph, if its format has one. Kept by the worker and
    /// not sent: it can hold hundreds of thousands of nodes, so the page
    /// asks for [`FlameLayout`]s of it and reads [`RunView::has_flame`].
    #[serde(skip)]
    pub flame: Option<Arc<FlameGraph>>,
    /// Whether the run has a flame graph.
    pub has_flame: bool,
    /// What the wall time is of (`wall`; a StarRocks query's plan nodes'
    /// time end to end).
    pub wall_label: String,
    /// The headline's numbers after the wall time.
    pub headline: Vec<headline::Fact>,
    /// The format's key counts for tests and automation, as (hook, value):
    /// the page puts each in a hidden element with that test hook
    /// (`ghc-events`, `mal-queries`).
    pub counts_by_hook: Vec<(String, u64)>,
    /// The run's tables, as the page draws them (see [`table`]).
    pub tables: Vec<table::Table>,
    /// What the tables' search looks in, as its placeholder says.
    pub search_hint: String,
    /// Why the run has no paths (it records no dependencies), and its
    /// busiest lane; `None` when it has paths.
    pub no_path: Option<NoPath>,
}

/// Task counts by role.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskCounts {
    /// Run tasks.
    pub run: u64,
    /// Copies.
    pub copy: u64,
    /// Prepare tasks.
    pub prepare: u64,
    /// Stages.
    pub stage: u64,
}

/// The kind word of a task (`run`, `copy`, `prepare`, `stage`).
pub fn role_word(role: Role) -> &'static str {
    match role {
        Role::Work => "run",
        Role::Transfer => "copy",
        Role::Setup => "prepare",
        Role::Phase => "stage",
    }
}

/// A task as a row.
pub fn task_row(model: &Model, index: &TimelineIndex, id: TaskId, gap: Nanos) -> TaskRow {
    let t = model.task(id);
    TaskRow {
        id: id.0,
        kind: role_word(t.role).to_owned(),
        uid: model.uid(id).to_owned(),
        label: model.label(id).into_owned(),
        task_type: type_name(model, id, true),
        kind_index: t.kind.0,
        lane: model.lanes()[t.lane.index()].name.clone(),
        lane_index: t.lane.0,
        row: index.row(id),
        start: t.start.get(),
        end: t.end.get(),
        bytes: model.bytes(id),
        from_lane: model.origin(id).map(|o| model.lanes()[o.index()].name.clone()),
        gap,
    }
}

/// Where a path's time went: per part (prepare, copy, each run type), and waiting.
fn breakdown(model: &Model, steps: &[TaskRow]) -> Vec<Share> {
    let mut parts: Vec<Share> = Vec::new();
    let mut waiting = 0;
    for (i, s) in steps.iter().enumerate() {
        let t = model.task(TaskId(s.id));
        let part = match t.role {
            Role::Setup => "prepare".to_owned(),
            Role::Transfer => "copy".to_owned(),
            Role::Phase => "stage".to_owned(),
            Role::Work => model.kinds()[t.kind.index()].name.clone(),
        };
        let d = t.duration().unwrap_or(0);
        match parts.iter_mut().find(|p| p.part == part) {
            Some(p) => p.time += d,
            None => parts.push(Share { part, time: d }),
        }
        if i > 0 {
            let prev_end = steps[i - 1].end.unwrap_or(0);
            waiting += (s.start.unwrap_or(0) - prev_end).max(0);
        }
    }
    parts.sort_by_key(|p| std::cmp::Reverse(p.time));
    parts.push(Share { part: "waiting".to_owned(), time: waiting });
    parts
}

pub(crate) fn path_view(model: &Model, index: &TimelineIndex, path: &Path, gaps: Option<&[Nanos]>) -> PathView {
    let steps: Vec<TaskRow> = path
        .tasks
        .iter()
        .enumerate()
        .map(|(i, &t)| task_row(model, index, t, gaps.and_then(|g| g.get(i).copied()).unwrap_or(0)))
        .collect();
    PathView { total: path.total, breakdown: breakdown(model, &steps), steps }
}

impl RunView {
    /// The view of a run with dependencies, laid out on `index`: both
    /// paths and where they part, the longest tasks and the time by type.
    pub fn of_paths(model: &Model, format: FormatId, index: &TimelineIndex) -> RunView {
        let (longest, by_type) = longest_and_by_type(model);
        RunView::of_paths_with(model, format, index, &PathsReport::new(model), &longest, &by_type)
    }

    /// [`RunView::of_paths`] of paths, longest tasks and types computed already.
    pub fn of_paths_with(
        model: &Model,
        format: FormatId,
        index: &TimelineIndex,
        r: &PathsReport<'_>,
        longest: &[TaskId],
        by_type: &[TypeTotal],
    ) -> RunView {
        let count = |role: Role| model.count(role) as u64;
        let gaps: Vec<Nanos> = r.steps.iter().map(|s| s.gap).collect();
        RunView {
            counts: TaskCounts {
                run: count(Role::Work),
                copy: count(Role::Transfer),
                prepare: count(Role::Setup),
                stage: count(Role::Phase),
            },
            critical_path: path_view(model, index, &r.ya, None),
            blocking_chain: path_view(model, index, &r.blocking, Some(&gaps)),
            differences: r.differences(),
            differences_title: "Where the blocking chain differs from ya's path".into(),
            longest: longest.iter().map(|&t| task_row(model, index, t, 0)).collect(),
            by_type: by_type
                .iter()
                .map(|t| TypeRow { task_type: t.kind.clone(), count: t.count, total: t.total })
                .collect(),
            ..RunView::bare(model, format, index)
        }
    }

    /// The run records no dependencies (a GHC program, a benchmark, a ninja
    /// log, a Chrome trace without flows): it has no paths ([`NoPath`]).
    pub fn without_paths(&self) -> bool {
        self.no_path.is_some()
    }

    /// The format's own part, read back as `T` (the type its view wrote);
    /// `Ok(None)` when the run has none.
    pub fn part<T: DeserializeOwned>(&self) -> Result<Option<T>, serde_json::Error> {
        if self.part.is_null() {
            return Ok(None);
        }
        T::deserialize(&self.part).map(Some)
    }

    /// The view with its format's own part `part` ([`RunView::part`]). A
    /// part that cannot be written as JSON (a map with keys that are not
    /// text) is replaced by the error, which reading it back reports.
    pub fn with_part(self, part: &impl Serialize) -> RunView {
        let part = serde_json::to_value(part).unwrap_or_else(|e| json!({ "unencodable_part": e.to_string() }));
        RunView { part, ..self }
    }

    /// The view with the flame graph `flame` (shared with the run that
    /// holds it: a trace's graph can take hundreds of megabytes).
    pub fn with_flame(self, flame: Arc<FlameGraph>) -> RunView {
        RunView { flame: Some(flame), has_flame: true, ..self }
    }

    /// A run's lanes, kinds and window, and nothing else yet: what every
    /// format's view starts from.
    fn bare(model: &Model, format: FormatId, index: &TimelineIndex) -> RunView {
        RunView {
            format,
            lanes: model.lanes().iter().map(|l| l.name.clone()).collect(),
            rows_per_lane: index.rows_per_lane(),
            kinds: model.kinds().iter().map(|k| KindView { name: k.name.clone(), color: k.color.clone() }).collect(),
            window: model.window(),
            counts: TaskCounts::default(),
            critical_path: PathView::default(),
            blocking_chain: PathView::default(),
            differences: Vec::new(),
            differences_title: String::new(),
            path_note: None,
            longest: Vec::new(),
            biggest_copies: Vec::new(),
            by_type: Vec::new(),
            stages: Vec::new(),
            cache_line: String::new(),
            totals: (0, 0, 0),
            part: Value::Null,
            wall_label: "wall".into(),
            headline: Vec::new(),
            counts_by_hook: Vec::new(),
            tables: Vec::new(),
            search_hint: String::new(),
            flame: None,
            has_flame: false,
            no_path: None,
        }
    }
}

/// Everything the details panel shows of one task.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskDetails {
    /// The task.
    pub task: TaskRow,
    /// Its full name (a build node's description).
    pub name: Option<String>,
    /// The tasks it waited for (at most [`TaskDetails::LIST`]).
    pub deps: Vec<TaskRow>,
    /// How many it waited for.
    pub dep_count: usize,
    /// The tasks that waited for it (at most [`TaskDetails::LIST`]).
    pub dependants: Vec<TaskRow>,
    /// How many waited for it.
    pub dependant_count: usize,
    /// Its result came from a cache.
    pub cached: bool,
    /// It failed.
    pub failed: bool,
    /// Its tags.
    pub tags: Vec<String>,
    /// Its platform.
    pub platform: Option<String>,
}

impl TaskDetails {
    /// Longest dependency list sent.
    pub const LIST: usize = 200;

    /// The details of `id`.
    pub fn of(model: &Model, index: &TimelineIndex, id: TaskId) -> TaskDetails {
        let t = model.task(id);
        let deps = model.deps(id);
        let dependants: Vec<TaskId> =
            (0..model.tasks().len() as u32).map(TaskId).filter(|&d| model.deps(d).contains(&id)).collect();
        TaskDetails {
            task: task_row(model, index, id, 0),
            name: model.name(id).map(|n| model.str(n).to_owned()),
            deps: deps.iter().take(Self::LIST).map(|&d| task_row(model, index, d, 0)).collect(),
            dep_count: deps.len(),
            dependants: dependants.iter().take(Self::LIST).map(|&d| task_row(model, index, d, 0)).collect(),
            dependant_count: dependants.len(),
            cached: t.cached,
            failed: t.failed,
            tags: model.meta(id).map(|m| m.tags.clone()).unwrap_or_default(),
            platform: model.meta(id).and_then(|m| m.platform.clone()),
        }
    }
}
