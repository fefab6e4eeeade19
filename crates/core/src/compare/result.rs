//! What a comparison finds, as `longpole compare --format json` writes it
//! (times in milliseconds; a task's `key` is its normalised stable key).

use serde::Serialize;
use std::borrow::Cow;

/// Everything a comparison of side A (before) with side B (after) finds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// The runs of each side, and which run of each the paths and the
    /// attribution are of.
    pub runs: Runs,
    /// Wall time of the representative runs, and its change.
    pub wall_ms: Wall,
    /// The change in wall time, split so that the parts add up to it.
    pub attribution: Attribution,
    /// Both blocking chains, and the two aligned.
    pub critical_path: CriticalPaths,
    /// Every key, ranked by its effect on the wall time (changes first,
    /// then what is within noise, unranked); only the first rows when
    /// fewer were asked for (`compare::Options::rows`).
    pub tasks: Vec<TaskChange>,
    /// How many keys the table has (rows made or not).
    #[serde(skip)]
    pub keys: usize,
    /// How many of them are ranked: changes, not within noise.
    #[serde(skip)]
    pub ranked: usize,
    /// Keys in both sides.
    pub matched: usize,
    /// Of those, keys matched by their neighbours rather than by name.
    pub matched_by_structure: usize,
    /// Keys only in A.
    pub only_a: usize,
    /// Keys only in B.
    pub only_b: usize,
    /// Total time of the matched keys on each side (not of the added or
    /// removed ones).
    pub matched_totals_ms: Totals,
    /// How changes were told from noise.
    pub noise: Noise,
    /// What the reader should know before trusting the result.
    pub warnings: Vec<String>,
}

/// The runs of each side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Runs {
    /// Side A's runs, by name.
    pub a: Vec<String>,
    /// Side B's runs, by name.
    pub b: Vec<String>,
    /// The run of A whose path and wall time are shown (the median wall time).
    pub representative_a: String,
    /// The run of B whose path and wall time are shown.
    pub representative_b: String,
}

/// Wall time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Wall {
    /// A's representative run, ms.
    pub a: f64,
    /// B's representative run, ms.
    pub b: f64,
    /// `b − a`, ms.
    pub delta: f64,
    /// The mean over A's runs, ms.
    pub a_mean: f64,
    /// The mean over B's runs, ms.
    pub b_mean: f64,
}

/// The change in wall time, in three parts that add up to it exactly.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Attribution {
    /// Longer or shorter tasks on the path both runs share, ms.
    pub shared_path_ms: f64,
    /// Tasks that entered B's path (their time) less tasks that left A's
    /// (theirs), ms.
    pub path_changes_ms: f64,
    /// The change in the path's waiting: before its first task and between
    /// its steps (idle gaps, queueing), ms.
    pub waiting_ms: f64,
    /// B's graph replayed with A's durations: its wall time, ms.
    pub what_if_wall_ms: f64,
    /// How much of the change the durations alone explain: B's wall time
    /// less the replay's, ms.
    pub explained_by_durations_ms: f64,
}

/// Both paths, as keys, and aligned.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CriticalPaths {
    /// A's blocking chain, first step first.
    pub a: Vec<String>,
    /// B's blocking chain.
    pub b: Vec<String>,
    /// The two aligned (longest common subsequence of keys).
    pub aligned: Vec<AlignedStep>,
}

/// One step of the aligned paths.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AlignedStep {
    /// The key.
    pub key: String,
    /// `both`, `a` (only on A's path) or `b`.
    pub on: &'static str,
    /// Its time on A's path, ms.
    pub a_ms: Option<f64>,
    /// Its time on B's path, ms.
    pub b_ms: Option<f64>,
    /// `b − a` (a missing side counting as 0), ms.
    pub delta_ms: f64,
    /// Its slack fell to zero: it had room in A and has none in B.
    pub newly_critical: bool,
}

/// One key's change.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TaskChange {
    /// The normalised stable key.
    pub key: String,
    /// Its total time in A (mean over runs), ms; `None` when only in B.
    pub a_ms: Option<f64>,
    /// Its total time in B, ms; `None` when only in A.
    pub b_ms: Option<f64>,
    /// `b − a` (a missing side counting as 0), ms.
    pub delta_ms: f64,
    /// `delta / a`, when A has time.
    pub relative: Option<f64>,
    /// `changed`, `within-noise`, `only-a`, `only-b` or `status-changed`.
    pub status: &'static str,
    /// Whose path it is on: `a`, `b`, `both` or `none`.
    pub on_path: &'static str,
    /// Its part in the wall time's change (see [`Attribution`]), ms.
    pub wall_effect_ms: f64,
    /// What B's wall time would lose if this key's tasks went back to A's
    /// durations, the rest of B as it ran (the replay), ms; for the first
    /// changes only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub saving_if_back_ms: Option<f64>,
    /// Its place among the changes (from 1); `None` within noise.
    pub rank: Option<u32>,
    /// Tasks under this key in A (a group of repeated or sharded tasks), per run.
    pub a_count: f64,
    /// Tasks under this key in B, per run.
    pub b_count: f64,
    /// How A's tasks ended (`executed`, `cached`, `failed` or a mix).
    pub a_outcome: Option<Cow<'static, str>>,
    /// How B's tasks ended.
    pub b_outcome: Option<Cow<'static, str>>,
    /// Its slack fell to zero: on B's path with none left, with room in A.
    pub newly_critical: bool,
    /// Matched by its neighbours: A knew it by this key, B by another.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b_key: Option<String>,
    /// Several runs a side: its tests (`None` with one run a side, as
    /// most comparisons are: a build has hundreds of thousands of keys).
    /// In JSON their fields are the row's own.
    #[serde(flatten)]
    pub tests: Option<Box<Tests>>,
}

impl TaskChange {
    /// Its tests (all `None` with one run a side).
    pub fn tests(&self) -> &Tests {
        self.tests.as_deref().unwrap_or(&Tests::NONE)
    }
}

/// A key's tests, with several runs a side.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Tests {
    /// Several runs a side: the test's p-value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p: Option<f64>,
    /// Two runs or more a side with some spread: Welch's two-sided t-test
    /// of the per-run times as measured (before the speed factor),
    /// whichever test decided; what evobench's group comparison gave.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub welch_p: Option<f64>,
    /// Several runs a side: the test used (`welch` or `permutation`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test: Option<&'static str>,
    /// Several runs a side: the p-value after Benjamini–Hochberg.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub q: Option<f64>,
    /// Several runs a side: the 95 % bootstrap interval of the relative
    /// change (after the speed factor).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relative_ci: Option<[f64; 2]>,
    /// Several runs a side: the smallest change the test would find
    /// (α 0.05, power 0.8), ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mde_ms: Option<f64>,
    /// Several runs a side, within noise: `unchanged` (a change past the
    /// thresholds would have been found) or `cannot-tell`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<&'static str>,
}

impl Tests {
    /// No tests: one run a side.
    pub const NONE: Tests =
        Tests { p: None, welch_p: None, test: None, q: None, relative_ci: None, mde_ms: None, verdict: None };
}

/// Totals over the matched keys only.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Totals {
    /// A, ms.
    pub a: f64,
    /// B, ms.
    pub b: f64,
    /// `b − a`, ms.
    pub delta: f64,
}

/// How changes were told from noise.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Noise {
    /// `thresholds` (one run on a side) or `tests` (several a side).
    pub mode: &'static str,
    /// The absolute threshold, ms.
    pub min_delta_ms: f64,
    /// The relative threshold (0.05 is 5 %).
    pub min_relative: f64,
    /// The run-wide speed factor: B's time over A's, the median over keys
    /// that ran in every run.
    pub speed_factor: f64,
    /// The factor was divided out of B's times before the tests.
    pub speed_factor_applied: bool,
    /// Significance level of the tests after FDR correction.
    pub alpha: f64,
}
