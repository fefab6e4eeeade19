//! What a Chrome trace written by Bazel (`--generate_json_trace_profile`,
//! `--profile`) says beyond its slices: Bazel's own critical path on its
//! actions ([`path`]), the build phases from the `build phase marker`
//! events, every action with its mnemonic, Bazel's `action count` counter
//! and the `otherData` metadata.
//!
//! A trace is Bazel's when it has a `build phase marker` or a `critical
//! path component` event.

pub mod analysis;
pub mod execution;
pub mod path;
pub(crate) mod report;
pub mod tables;
pub mod view;

use crate::diagnostics::Diagnostics;
use crate::formats::chrome_trace::ChromeTrace;
use crate::hash::FastSet;
use crate::model::{ModelBuilder, Nanos, TaskId};
pub use path::{description, is_evaluator, PathStep, ACTION_PROCESSING, COMPLETE_ACTION, CRITICAL_PATH_COMPONENT};
use serde_json::Value;

/// The category of Bazel's phase markers.
pub const PHASE_MARKER: &str = "build phase marker";
/// Bazel's counter of actions in flight (`action counters` before Bazel 6).
const ACTION_COUNTERS: [&str; 2] = ["action count", "action counters"];

/// Bazel's phases: the marker's name and `bazel analyze-profile`'s short
/// name for it (`ProfilePhase`).
const PHASES: [(&str, &str); 9] = [
    ("Launch Blaze", "launch"),
    ("Initialize command", "init"),
    ("Evaluate target patterns", "target pattern evaluation"),
    ("Load and analyze dependencies", "interleaved loading-and-analysis"),
    ("Load, analyze dependencies and build artifacts", "interleaved loading, analysis and execution"),
    ("Analyze licenses", "license checking"),
    ("Prepare for build", "preparation"),
    ("Build artifacts", "execution"),
    ("Complete build", "finish"),
];

/// One build phase: from its marker to the next one (the last to the end
/// of the last event), as `bazel analyze-profile` measures it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phase {
    /// The marker's name (`Build artifacts`).
    pub name: String,
    /// `bazel analyze-profile`'s name for it (`execution`; `unknown`).
    pub nick: &'static str,
    /// Start, ns.
    pub start: Nanos,
    /// End, ns.
    pub end: Nanos,
}

/// One action (an `action processing` slice).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    /// Its slice.
    pub task: TaskId,
    /// `args.mnemonic` (Bazel 6 and later).
    pub mnemonic: Option<String>,
    /// `args.target` (with `--experimental_profile_include_target_label`).
    pub target: Option<String>,
}

/// A Bazel profile's own facts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BazelRun {
    /// Bazel's critical path, in Bazel's order.
    pub path: Vec<PathStep>,
    /// The phases, in time order.
    pub phases: Vec<Phase>,
    /// Every action, in file order.
    pub actions: Vec<Action>,
    /// Bazel's `action count` counter: (time ns, actions in flight).
    pub action_counts: Vec<(Nanos, f64)>,
    /// `otherData` (`build_id`, `date`, `output_base`, `bazel_version`…).
    pub metadata: Vec<(String, String)>,
}

impl BazelRun {
    /// Bazel's critical path time: the sum of its components' durations.
    pub fn path_total(&self) -> Nanos {
        self.path.iter().fold(0, |t, s| t.saturating_add(s.duration))
    }
}

/// µs to ns.
fn ns(us: f64) -> Nanos {
    (us * 1000.0).round() as Nanos
}

/// The trace is a Bazel profile.
pub fn is_bazel(trace: &ChromeTrace) -> bool {
    [PHASE_MARKER, CRITICAL_PATH_COMPONENT].iter().any(|c| trace.strings.get(c).is_some())
}

/// A Bazel profile's facts, with the dependencies of its critical path
/// added to the model (`None` when the trace is not Bazel's).
pub fn reconcile(
    trace: &ChromeTrace,
    slice_task: &[Option<TaskId>],
    b: &mut ModelBuilder,
    edges: &mut FastSet<(TaskId, TaskId)>,
    diags: &mut Diagnostics,
) -> Option<BazelRun> {
    if !is_bazel(trace) {
        return None;
    }
    let path = path::bazel_path(trace, slice_task, b, edges, diags);
    Some(BazelRun {
        path,
        phases: phases(trace, slice_task, b),
        actions: actions(trace, slice_task),
        action_counts: action_counts(trace),
        metadata: metadata(trace),
    })
}

/// The phases between the markers, the last one to the end of the last event.
fn phases(trace: &ChromeTrace, slice_task: &[Option<TaskId>], b: &ModelBuilder) -> Vec<Phase> {
    let Some(cat) = trace.strings.get(PHASE_MARKER) else { return Vec::new() };
    let mut markers: Vec<(Nanos, &str)> = trace
        .slices
        .iter()
        .zip(slice_task)
        .filter(|(s, t)| s.cat == Some(cat) && t.is_some())
        .map(|(s, _)| (ns(s.ts), s.name.map_or("", |n| trace.str(n))))
        .chain(
            trace
                .instants
                .iter()
                .filter(|i| i.cat == Some(cat))
                .map(|i| (ns(i.ts), i.name.map_or("", |n| trace.str(n)))),
        )
        .collect();
    markers.sort_by_key(|m| m.0);
    let task_ends = (0..b.len() as u32).filter_map(|i| b.get(TaskId(i)).end.get());
    let last = task_ends.chain(trace.counters.iter().map(|c| ns(c.ts))).max().unwrap_or(0);
    markers
        .iter()
        .enumerate()
        .map(|(i, &(start, name))| Phase {
            name: name.to_owned(),
            nick: PHASES.iter().find(|p| p.0 == name).map_or("unknown", |p| p.1),
            start,
            end: markers.get(i + 1).map_or(last, |m| m.0).max(start),
        })
        .collect()
}

/// Every `action processing` slice with its mnemonic and target.
fn actions(trace: &ChromeTrace, slice_task: &[Option<TaskId>]) -> Vec<Action> {
    let Some(cat) = trace.strings.get(ACTION_PROCESSING) else { return Vec::new() };
    trace
        .slices
        .iter()
        .zip(slice_task)
        .filter(|(s, _)| s.cat == Some(cat))
        .filter_map(|(s, t)| {
            let args: Option<Value> = s.args.and_then(|a| serde_json::from_str(trace.str(a)).ok());
            let arg = |k: &str| args.as_ref().and_then(|a| a.get(k)).and_then(Value::as_str).map(str::to_owned);
            Some(Action { task: (*t)?, mnemonic: arg("mnemonic"), target: arg("target") })
        })
        .collect()
}

/// The Skyframe evaluator's number of a thread's lane (EngFlow's
/// `skyframe-evaluator[^\d]*(\d*)` on the thread name; the lane's
/// ` (pid …, tid …)` suffix, added when two threads share a name, aside).
pub fn evaluator_number(lane: &str) -> Option<u32> {
    let name = lane.rfind(" (pid ").map_or(lane, |i| &lane[..i]);
    let rest = &name[name.find("skyframe-evaluator")? + "skyframe-evaluator".len()..];
    let digits = rest.trim_start_matches(|c: char| !c.is_ascii_digit());
    digits.parse().ok()
}

/// Bazel's `action count` counter, each sample's values summed.
fn action_counts(trace: &ChromeTrace) -> Vec<(Nanos, f64)> {
    let names: Vec<u32> = ACTION_COUNTERS.iter().filter_map(|n| trace.strings.get(n)).collect();
    let mut points: Vec<(Nanos, f64)> = trace
        .counters
        .iter()
        .filter(|c| names.contains(&c.name))
        .map(|c| (ns(c.ts), c.values.iter().map(|v| v.1).sum()))
        .collect();
    points.sort_by_key(|p| p.0);
    points
}

/// `otherData`'s members, as text.
fn metadata(trace: &ChromeTrace) -> Vec<(String, String)> {
    let Some((_, text)) = trace.members.iter().find(|(k, _)| k == "otherData") else { return Vec::new() };
    let Ok(Value::Object(o)) = serde_json::from_str::<Value>(text) else { return Vec::new() };
    o.into_iter().map(|(k, v)| (k, v.as_str().map_or_else(|| v.to_string(), str::to_owned))).collect()
}

#[cfg(test)]
mod tests;
