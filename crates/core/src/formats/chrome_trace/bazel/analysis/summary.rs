//! A Bazel profile's summary, after `bazel analyze-profile` (phases, the
//! critical path) and EngFlow's bazel_invocation_analyzer (its data
//! providers): actions by mnemonic, where the actions' time went
//! (preparing inputs, waiting for resources, workers, local execution,
//! remote cache and execution, collecting outputs), garbage collection and
//! how much of it fell on the critical path, the actions running over time
//! (a sweep over the action slices, each lasting its own `dur`), the cores
//! and jobs the evaluator threads imply ([`super::cores`]), cache misses
//! ([`super::caching`]) and the stretches where few actions ran.
//!
//! Uploads are classed as EngFlow classes them: of `Remote execution
//! upload time`, only `upload outputs` (and `upload`) is remote cache
//! time; `upload missing inputs` feeds remote execution.

use super::caching::{caching, Caching};
use super::cores::{cores, Cores};
use crate::formats::chrome_trace::bazel::{BazelRun, PathStep};
use crate::hash::FastSet;
use crate::model::{Model, Nanos, TaskId};
use serde::{Deserialize, Serialize};

/// Where an action's time goes: (group, categories, `general information`
/// event names), in the order of an action's life. Categories are Bazel's
/// `ProfilerTask` descriptions; the names are the spans Bazel's spawn
/// runners record (EngFlow counts `subprocess.run` as local execution and
/// `Remote.download` as a cache download).
const ACTIVITIES: [(&str, &[&str], &[&str]); 8] = [
    (
        "preparing inputs",
        &[
            "action dependency checking",
            "discover inputs",
            "Staging per-action file system",
            "include scanner",
            "Local parse to prepare for remote execution",
        ],
        &[
            "action.prepare",
            "AbstractSpawnStrategy.getInputMapping",
            "context.prefetchInputs",
            "sandbox.createFileSystem",
        ],
    ),
    ("waiting for resources", &["action resource lock", "thread wait", "Acquiring dynamic execution output lock"], &[]),
    (
        "workers",
        &[
            "borrowing a worker",
            "setting up inputs for worker",
            "waiting for response from worker",
            "copying outputs from worker",
            "local execution in worker",
        ],
        &[],
    ),
    (
        "local execution",
        &["local action execution", "Local execution process wall time", "local process spawn"],
        &["subprocess.run"],
    ),
    ("remote cache", &["remote action cache check", "remote output download"], &["Remote.download"]),
    (
        "remote execution",
        &[
            "remote action execution",
            "Remote execution process wall time",
            "Remote execution queuing time",
            "Remote execution setup",
            "Remote execution file fetching",
            "remote network",
        ],
        &[],
    ),
    (
        "collecting outputs",
        &["complete action execution"],
        &["sandbox.copyOutputs", "sandbox.verifyPostCondition", "sandbox.delete", "postprocessing.run"],
    ),
    ("garbage collection", &["gc notification"], &[]),
];

/// The category of events named by their name rather than their category.
const GENERAL: &str = "general information";
/// Bazel's upload category, and the names in it that are cache uploads.
const UPLOAD: (&str, [&str; 2]) = ("Remote execution upload time", ["upload outputs", "upload"]);
/// The thread Bazel records garbage collection on.
const GC_THREAD: &str = "Garbage Collector";
/// Bazel's garbage collection category, and its major collections' name.
const GC: (&str, &str) = ("gc notification", "major GC");

/// One phase as `bazel analyze-profile` prints it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PhaseRow {
    /// `analyze-profile`'s short name (`execution`).
    pub nick: String,
    /// The marker's name (`Build artifacts`).
    pub name: String,
    /// Time, ns.
    pub time: Nanos,
    /// Share of the run, %.
    pub percent: f64,
}

/// Actions of one mnemonic.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MnemonicRow {
    /// The mnemonic (`(not recorded)` for profiles before Bazel 6).
    pub mnemonic: String,
    /// Actions.
    pub count: u64,
    /// Their total time, ns.
    pub total: Nanos,
    /// The longest, ns.
    pub longest: Nanos,
    /// How many are on the critical path.
    pub on_path: u64,
}

/// Time of one kind of work within actions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActivityRow {
    /// The group (`preparing inputs`, `workers`, …).
    pub group: String,
    /// The category or event name.
    pub what: String,
    /// Events.
    pub count: u64,
    /// Their total time, ns.
    pub total: Nanos,
    /// Of it, within the critical path's actions, ns.
    pub on_path: Nanos,
}

/// Garbage collection.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GcSummary {
    /// The profile has a `Garbage Collector` thread (without one, no
    /// collection was recorded, which says nothing of how many ran).
    pub recorded: bool,
    /// Collections.
    pub count: u64,
    /// Their total time, ns.
    pub total: Nanos,
    /// Major collections (they stop every thread).
    pub major_count: u64,
    /// Their total time, ns.
    pub major_total: Nanos,
    /// Collection time while a critical path action ran, ns.
    pub on_path: Nanos,
}

/// A stretch where fewer actions ran than the job count (EngFlow's
/// bottleneck: consecutive `action count` samples below it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bottleneck {
    /// Start, ns.
    pub start: Nanos,
    /// End, ns.
    pub end: Nanos,
    /// Actions running on average.
    pub average: f64,
    /// The longest actions running then (task ids), longest first, at most five.
    pub actions: Vec<u32>,
}

/// A Bazel profile's summary.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BazelSummary {
    /// The phases, in time order.
    pub phases: Vec<PhaseRow>,
    /// The run: the phases' total, ns.
    pub total: Nanos,
    /// Bazel's critical path time, ns.
    pub critical_path: Nanos,
    /// The execution phase's time, ns, when the profile has one.
    pub execution: Option<Nanos>,
    /// Actions by mnemonic, the most time first.
    pub mnemonics: Vec<MnemonicRow>,
    /// Where the actions' time went.
    pub activities: Vec<ActivityRow>,
    /// Garbage collection.
    pub gc: GcSummary,
    /// The cores and the `--jobs` bound the evaluator threads imply.
    pub cores: Cores,
    /// Cache misses and actions that skip the cache.
    pub caching: Caching,
    /// Actions running at once, from the `action processing` slices: (time ns, count).
    pub running: Vec<(Nanos, i64)>,
    /// The most actions running at once (the sweep's maximum).
    pub most_running: i64,
    /// Stretches where fewer actions ran than the cores used.
    pub bottlenecks: Vec<Bottleneck>,
    /// Remote execution seen (EngFlow: setup, queuing or `execute remotely` events).
    pub remote_execution: bool,
    /// Remote caching seen (a cache check, or remote execution).
    pub remote_cache: bool,
    /// Events Bazel merged (`merged N events`, slim profiles).
    pub merged_events: u64,
}

/// A sum of times that stops at the largest time rather than overflow
/// (a damaged profile's times can be anything).
pub fn saturating_sum(times: impl Iterator<Item = Nanos>) -> Nanos {
    times.fold(0, Nanos::saturating_add)
}

fn overlap(a: (Nanos, Nanos), b: (Nanos, Nanos)) -> Nanos {
    a.1.min(b.1).saturating_sub(a.0.max(b.0)).max(0)
}

fn span(m: &Model, t: TaskId) -> Option<(Nanos, Nanos)> {
    let task = m.task(t);
    Some((task.start.get()?, task.end.get()?))
}

/// The phases as `analyze-profile` lists them: one row per phase name,
/// its spans summed, in first-seen order.
fn phase_rows(run: &BazelRun) -> (Vec<PhaseRow>, Nanos) {
    let mut rows: Vec<PhaseRow> = Vec::new();
    for p in &run.phases {
        let time = p.end.saturating_sub(p.start);
        match rows.iter_mut().find(|r| r.name == p.name) {
            Some(r) => r.time = r.time.saturating_add(time),
            None => rows.push(PhaseRow { nick: p.nick.to_owned(), name: p.name.clone(), time, percent: 0.0 }),
        }
    }
    let total = saturating_sum(rows.iter().map(|r| r.time));
    for r in &mut rows {
        r.percent = if total > 0 { r.time as f64 * 100.0 / total as f64 } else { 0.0 };
    }
    (rows, total)
}

fn mnemonics(m: &Model, run: &BazelRun, on_path: &FastSet<TaskId>) -> Vec<MnemonicRow> {
    let mut rows: Vec<MnemonicRow> = Vec::new();
    for a in &run.actions {
        let name = a.mnemonic.as_deref().unwrap_or("(not recorded)");
        let d = span(m, a.task).map_or(0, |(s, e)| e.saturating_sub(s));
        let i = match rows.iter().position(|r| r.mnemonic == name) {
            Some(i) => i,
            None => {
                rows.push(MnemonicRow { mnemonic: name.to_owned(), count: 0, total: 0, longest: 0, on_path: 0 });
                rows.len() - 1
            }
        };
        let r = &mut rows[i];
        r.count += 1;
        r.total = r.total.saturating_add(d);
        r.longest = r.longest.max(d);
        r.on_path += u64::from(on_path.contains(&a.task));
    }
    rows.sort_by_key(|r| std::cmp::Reverse(r.total));
    rows
}

/// Each task's activity row, time, and time within the path's actions
/// (same lane, overlapping); garbage collection apart.
fn activities(m: &Model, path: &[(usize, (Nanos, Nanos))]) -> (Vec<ActivityRow>, GcSummary, u64) {
    // Each kind's group, looked up once (kinds are few); `general
    // information` events go by their name.
    let by_kind: Vec<Option<(&'static str, bool)>> = m
        .kinds()
        .iter()
        .map(|k| ACTIVITIES.iter().find(|a| a.1.contains(&k.name.as_str())).map(|a| (a.0, true)))
        .collect();
    let group_of = |kind: usize, uid: &str| -> Option<(&'static str, bool)> {
        if m.kinds()[kind].name == UPLOAD.0 {
            return Some((if UPLOAD.1.contains(&uid) { "remote cache" } else { "remote execution" }, false));
        }
        by_kind[kind].or_else(|| {
            (m.kinds()[kind].name == GENERAL)
                .then(|| ACTIVITIES.iter().find(|a| a.2.contains(&uid)).map(|a| (a.0, false)))?
        })
    };
    let mut rows: Vec<ActivityRow> = Vec::new();
    let mut gc = GcSummary { recorded: m.lanes().iter().any(|l| l.name.contains(GC_THREAD)), ..GcSummary::default() };
    let mut merged = 0;
    for (i, t) in m.tasks().iter().enumerate() {
        let id = TaskId(i as u32);
        let kind = m.kinds()[t.kind.index()].name.as_str();
        let uid = m.uid(id);
        if uid.starts_with("merged ") && uid.ends_with(" events") {
            merged += 1;
        }
        let (Some((group, by_cat)), Some(s)) = (group_of(t.kind.index(), uid), span(m, id)) else { continue };
        let d = s.1.saturating_sub(s.0);
        if kind == GC.0 {
            gc.count += 1;
            gc.total = gc.total.saturating_add(d);
            if uid == GC.1 {
                gc.major_count += 1;
                gc.major_total = gc.major_total.saturating_add(d);
            }
            // A collection pauses the JVM: it counts against every path action it meets.
            gc.on_path = gc.on_path.saturating_add(saturating_sum(path.iter().map(|&(_, p)| overlap(s, p))));
            continue;
        }
        let on = saturating_sum(path.iter().filter(|&&(lane, _)| lane == t.lane.index()).map(|&(_, p)| overlap(s, p)));
        let what = if by_cat { kind } else { uid };
        match rows.iter_mut().find(|r| r.what == what && r.group == group) {
            Some(r) => {
                r.count += 1;
                r.total = r.total.saturating_add(d);
                r.on_path = r.on_path.saturating_add(on);
            }
            None => rows.push(ActivityRow {
                group: group.to_owned(),
                what: what.to_owned(),
                count: 1,
                total: d,
                on_path: on,
            }),
        }
    }
    let order = |g: &str| ACTIVITIES.iter().position(|a| a.0 == g).unwrap_or(usize::MAX);
    rows.sort_by(|a, b| order(&a.group).cmp(&order(&b.group)).then(b.total.cmp(&a.total)));
    (rows, gc, merged)
}

/// Actions running at once: a step series from the action slices.
fn running(m: &Model, run: &BazelRun) -> Vec<(Nanos, i64)> {
    let mut edges: Vec<(Nanos, i64)> =
        run.actions.iter().filter_map(|a| span(m, a.task)).flat_map(|(s, e)| [(s, 1), (e, -1)]).collect();
    edges.sort_unstable();
    let mut out: Vec<(Nanos, i64)> = Vec::with_capacity(edges.len());
    let mut n = 0;
    for (t, d) in edges {
        n += d;
        match out.last_mut() {
            Some(last) if last.0 == t => last.1 = n,
            _ => out.push((t, n)),
        }
    }
    out
}

/// EngFlow's bottlenecks: runs of `action count` samples below the cores used.
fn bottlenecks(m: &Model, run: &BazelRun, jobs: Option<u32>) -> Vec<Bottleneck> {
    let Some(jobs) = jobs else { return Vec::new() };
    let mut out: Vec<Bottleneck> = Vec::new();
    let mut current: Option<(Nanos, Nanos, f64, u32)> = None;
    for &(t, v) in &run.action_counts {
        if v < f64::from(jobs) {
            let c = current.get_or_insert((t, t, 0.0, 0));
            c.1 = t;
            c.2 += v;
            c.3 += 1;
        } else if let Some((s, e, sum, n)) = current.take() {
            out.push(Bottleneck { start: s, end: e, average: sum / f64::from(n), actions: Vec::new() });
        }
    }
    if let Some((s, e, sum, n)) = current {
        out.push(Bottleneck { start: s, end: e, average: sum / f64::from(n), actions: Vec::new() });
    }
    for b in &mut out {
        let mut within: Vec<(Nanos, u32)> = run
            .actions
            .iter()
            .filter_map(|a| Some((overlap(span(m, a.task)?, (b.start, b.end)), a.task.0)))
            .filter(|&(o, _)| o > 0)
            .collect();
        within.sort_by_key(|&(o, t)| (std::cmp::Reverse(o), t));
        b.actions = within.iter().take(5).map(|w| w.1).collect();
    }
    out
}

/// The summary of a Bazel profile.
pub fn summary(m: &Model, run: &BazelRun) -> BazelSummary {
    let (phases, total) = phase_rows(run);
    let on_path: FastSet<TaskId> = run.path.iter().filter_map(|s| s.action).collect();
    let path_spans: Vec<(usize, (Nanos, Nanos))> =
        run.path.iter().map(PathStep::task).filter_map(|t| Some((m.task(t).lane.index(), span(m, t)?))).collect();
    let (activities, gc, merged_events) = activities(m, &path_spans);
    let phase = |names: &[&str]| {
        let spans: Vec<_> = run.phases.iter().filter(|p| names.contains(&p.name.as_str())).collect();
        Some((spans.iter().map(|p| p.start).min()?, spans.iter().map(|p| p.end).max()?))
    };
    let execution_window =
        phase(&["Build artifacts"]).or_else(|| phase(&["Load, analyze dependencies and build artifacts"]));
    let cores = cores(m, run);
    let running = running(m, run);
    let seen = |cats: &[&str]| activities.iter().any(|r| cats.contains(&r.what.as_str()));
    let remote_execution =
        seen(&["Remote execution setup", "Remote execution queuing time", "remote action execution"]);
    BazelSummary {
        phases,
        total,
        critical_path: run.path_total(),
        execution: execution_window.map(|(a, b)| b.saturating_sub(a)),
        mnemonics: mnemonics(m, run, &on_path),
        most_running: running.iter().map(|p| p.1).max().unwrap_or(0),
        running,
        bottlenecks: bottlenecks(m, run, cores.used),
        caching: caching(m, run),
        remote_cache: remote_execution || seen(&["remote action cache check"]),
        remote_execution,
        merged_events,
        activities,
        gc,
        cores,
    }
}
