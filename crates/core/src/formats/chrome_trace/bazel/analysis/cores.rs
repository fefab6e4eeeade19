//! The cores and jobs a Bazel profile implies, inferred as EngFlow's
//! bazel_invocation_analyzer infers them (`EstimatedCoresDataProvider`,
//! `SkymeldUsedDataProvider`) from the Skyframe evaluator threads that ran
//! something in a phase:
//!
//! - cores used: the distinct evaluators busy in the execution phase;
//! - `--jobs` at least: the highest of those evaluators' numbers + 1 (the
//!   evaluators are numbered from 0 and idle ones may be missing, so this
//!   is a lower bound);
//! - cores available: the highest number + 1 among the evaluators busy in
//!   target pattern evaluation and analysis, which use every core whatever
//!   `--jobs` says;
//! - `--jobs` looks set when the two highest numbers differ.
//!
//! With Skymeld (a `Load, analyze dependencies and build artifacts`
//! phase) the execution phase runs from the first `action processing`
//! slice to the end of that phase, and analysis from the target pattern
//! evaluation (else that phase's start) to the execution's start.

use crate::formats::chrome_trace::bazel::{evaluator_number, BazelRun};
use crate::model::{Model, Nanos};
use serde::{Deserialize, Serialize};

/// Bazel's phase names that bound the windows.
const TARGET_PATTERNS: &str = "Evaluate target patterns";
const ANALYZE: &str = "Load and analyze dependencies";
const EXECUTE: &str = "Build artifacts";
/// The interleaved phase that Skymeld writes.
pub const SKYMELD: &str = "Load, analyze dependencies and build artifacts";

/// What the evaluator threads say of cores and `--jobs`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cores {
    /// Distinct evaluators that ran something in the execution phase.
    pub used: Option<u32>,
    /// The lower bound on `--jobs`: the highest evaluator number busy in
    /// the execution phase + 1.
    pub jobs_at_least: Option<u32>,
    /// The highest evaluator number busy in target pattern evaluation and
    /// analysis + 1.
    pub available: Option<u32>,
    /// The two highest numbers differ: `--jobs` was likely set.
    pub jobs_likely_set: bool,
    /// Skymeld interleaved analysis and execution.
    pub skymeld: bool,
}

/// The earliest start and latest end of the phases named `name`.
fn phase(run: &BazelRun, name: &str) -> Option<(Nanos, Nanos)> {
    let spans = run.phases.iter().filter(|p| p.name == name);
    spans.fold(None, |w, p| Some(w.map_or((p.start, p.end), |(a, b): (Nanos, Nanos)| (a.min(p.start), b.max(p.end)))))
}

/// The evaluator numbers of the lanes with a slice inside `window`, sorted, once each.
fn evaluators(m: &Model, window: Option<(Nanos, Nanos)>) -> Vec<u32> {
    let Some((a, b)) = window else { return Vec::new() };
    let mut busy = vec![false; m.lanes().len()];
    for t in m.tasks().iter() {
        if let (Some(s), Some(e)) = (t.start.get(), t.end.get()) {
            if s >= a && e <= b {
                busy[t.lane.index()] = true;
            }
        }
    }
    let mut numbers: Vec<u32> =
        m.lanes().iter().zip(&busy).filter(|(_, &b)| b).filter_map(|(l, _)| evaluator_number(&l.name)).collect();
    numbers.sort_unstable();
    numbers.dedup();
    numbers
}

/// The execution phase's window: Skymeld's from the first action, else `Build artifacts`.
pub fn execution_window(m: &Model, run: &BazelRun) -> Option<(Nanos, Nanos)> {
    match phase(run, SKYMELD) {
        Some((_, end)) => {
            let first = run.actions.iter().filter_map(|a| m.task(a.task).start.get()).min()?;
            Some((first, end))
        }
        None => phase(run, EXECUTE),
    }
}

/// Target pattern evaluation and analysis, before execution.
fn analysis_window(run: &BazelRun, execution: Option<(Nanos, Nanos)>) -> Option<(Nanos, Nanos)> {
    let patterns = phase(run, TARGET_PATTERNS);
    match phase(run, SKYMELD) {
        Some(interleaved) => Some((patterns.unwrap_or(interleaved).0, execution?.0)),
        None => {
            let analyze = phase(run, ANALYZE);
            Some((patterns.or(analyze)?.0, analyze.or(patterns)?.1))
        }
    }
}

/// The cores and jobs of a Bazel profile.
pub fn cores(m: &Model, run: &BazelRun) -> Cores {
    let execution = execution_window(m, run);
    let exec = evaluators(m, execution);
    let analysis = evaluators(m, analysis_window(run, execution));
    let (exec_max, analysis_max) = (exec.last().copied(), analysis.last().copied());
    Cores {
        used: (!exec.is_empty()).then_some(exec.len() as u32),
        jobs_at_least: exec_max.map(|n| n.saturating_add(1)),
        available: analysis_max.map(|n| n.saturating_add(1)),
        jobs_likely_set: exec_max.is_some() && analysis_max.is_some() && exec_max != analysis_max,
        skymeld: phase(run, SKYMELD).is_some(),
    }
}
