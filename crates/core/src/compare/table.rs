//! The matched-task table: each key's time on both sides, its status, its
//! effect on the wall time and, with several runs a side, its test.
//!
//! **One run a side.** No p-values: a change counts only past both the
//! absolute and the relative threshold; below either it is within noise.
//!
//! **Several runs a side.** B's times are first divided by the run-wide
//! speed factor (the median over keys that ran in every run of B's time
//! over A's: one machine simply faster). Then per key: Welch's t-test, or
//! a permutation test when a side has fewer than 5 runs or values tie;
//! Benjamini–Hochberg across keys; a change counts when its q-value is
//! under 0.05 and it is past both thresholds. Within noise, a key is
//! `unchanged` when the minimum detectable effect is within the
//! thresholds, else `cannot-tell`.
//!
//! A key whose tasks ended otherwise (cached, failed, executed, in another
//! mix) is `status-changed`, whatever its times: that is not a slowdown.

use super::digest::{Digest, Outcomes};
use super::result::Tests;
use super::stats::{self, Rng};
use super::Options;
use crate::hash::{hash_bytes, FastMap};
use crate::model::Nanos;
use smallvec::{smallvec, SmallVec};

/// One key across the runs of both sides.
#[derive(Clone, Debug, Default)]
pub struct KeyRuns {
    /// Its total per run, A's runs then B's (`None`: not in that run), ns:
    /// one list, held in place for one run a side (no allocation a key).
    times: SmallVec<[Option<Nanos>; 2]>,
    /// How many of [`KeyRuns::times`] are A's.
    a_runs: u32,
    /// Its id in the representative run of A and of B, if they have it.
    pub rep: [Option<u32>; 2],
    /// Tasks over A's runs.
    pub a_count: u64,
    /// Tasks over B's runs.
    pub b_count: u64,
    /// How A's tasks ended.
    pub a_outcomes: Outcomes,
    /// How B's tasks ended.
    pub b_outcomes: Outcomes,
}

impl KeyRuns {
    /// Its total per run of A (`None`: not in that run), ns.
    pub fn a(&self) -> &[Option<Nanos>] {
        &self.times[..self.a_runs as usize]
    }

    /// Its total per run of B, ns.
    pub fn b(&self) -> &[Option<Nanos>] {
        &self.times[self.a_runs as usize..]
    }
}

/// Every key of either side, across runs, borrowed from the digests (a
/// build has hundreds of thousands of keys: each is looked up once and not
/// copied), with its ids in the representative runs `reps` (A's and B's).
///
/// The first run's keys come first, in its order, so each one's place is
/// its id there: they are not hashed again. A later run's key is looked up
/// in the first run's table, unless `known` gives that run's keys' ids
/// there already (the run's index among A's runs then B's, and its keys'
/// ids by its own); only the keys the first run lacks go into a table of
/// their own.
pub fn key_runs<'d>(
    a: &'d [Digest],
    b: &'d [Digest],
    reps: [usize; 2],
    known: Option<(usize, &[Option<u32>])>,
) -> Vec<(&'d str, KeyRuns)> {
    let sizes = |d: &[Digest]| d.iter().map(|d| d.groups.len()).max().unwrap_or(0);
    let mut out: Vec<(&str, KeyRuns)> = Vec::with_capacity(sizes(a) + sizes(b) / 4);
    let runs = a.len() + b.len();
    let fresh = || KeyRuns { times: smallvec![None; runs], a_runs: a.len() as u32, ..KeyRuns::default() };
    let Some(first) = a.first().or(b.first()) else { return out };
    out.extend(first.keyed_groups().map(|(_, k, _)| (k, fresh())));
    let mut more: FastMap<&str, u32> = FastMap::default();
    for (i, d) in a.iter().chain(b).enumerate() {
        let rep = [i == reps[0], i == a.len() + reps[1]].iter().position(|&r| r);
        for (id, k, g) in d.keyed_groups() {
            let n = if i == 0 {
                id
            } else {
                let in_first = match known {
                    Some((run, ids)) if run == i => ids[id as usize],
                    _ => first.id(k),
                };
                in_first.unwrap_or_else(|| {
                    *more.entry(k).or_insert_with(|| {
                        out.push((k, fresh()));
                        out.len() as u32 - 1
                    })
                })
            };
            let r = &mut out[n as usize].1;
            r.times[i] = Some(g.total);
            if let Some(side) = rep {
                r.rep[side] = Some(id);
            }
            let (count, outcomes) =
                if i < a.len() { (&mut r.a_count, &mut r.a_outcomes) } else { (&mut r.b_count, &mut r.b_outcomes) };
            *count += u64::from(g.count);
            outcomes.add(&g.outcomes);
        }
    }
    out
}

/// The values a side has of a key, ms.
fn values(runs: &[Option<Nanos>]) -> Vec<f64> {
    runs.iter().flatten().map(|&ns| ns as f64 / 1e6).collect()
}

/// The mean of the values a side has of a key, ms (`None` without any).
fn mean_of(runs: &[Option<Nanos>]) -> Option<f64> {
    let (sum, n) = runs.iter().flatten().fold((0.0, 0u32), |(s, n), &ns| (s + ns as f64 / 1e6, n + 1));
    (n > 0).then(|| sum / f64::from(n))
}

/// The run-wide speed factor: the median of B's mean over A's, over keys
/// that ran (and only ran) in every run of both sides, as a geometric median.
pub fn speed_factor(keys: &[(&str, KeyRuns)]) -> f64 {
    let mut logs: Vec<f64> = keys
        .iter()
        .filter(|(_, r)| r.times.iter().all(Option::is_some))
        .filter(|(_, r)| r.a_outcomes.cached + r.a_outcomes.failed + r.b_outcomes.cached + r.b_outcomes.failed == 0)
        .filter_map(|(_, r)| {
            let (a, b) = (mean_of(r.a())?, mean_of(r.b())?);
            (a > 0.0 && b > 0.0).then(|| (b / a).ln())
        })
        .collect();
    if logs.is_empty() {
        return 1.0;
    }
    logs.sort_by(f64::total_cmp);
    let mid = logs.len() / 2;
    let median = if logs.len() % 2 == 1 { logs[mid] } else { (logs[mid - 1] + logs[mid]) / 2.0 };
    median.exp()
}

/// One key's verdict before ranking.
#[derive(Clone, Debug, Default)]
pub struct Verdict {
    /// `changed`, `within-noise`, `only-a`, `only-b` or `status-changed`.
    pub status: &'static str,
    /// A's mean, ms.
    pub a_ms: Option<f64>,
    /// B's mean, ms.
    pub b_ms: Option<f64>,
    /// Its tests, with several runs a side (`None` with one: a build has
    /// hundreds of thousands of keys, and most comparisons are one run
    /// against one).
    tests: Option<Box<Tests>>,
}

impl Verdict {
    /// Its tests (none with one run a side).
    pub fn tests(&self) -> &Tests {
        self.tests.as_deref().unwrap_or(&Tests::NONE)
    }

    /// Its tests, for a row of its own.
    pub fn tests_owned(&self) -> Option<Box<Tests>> {
        self.tests.clone()
    }
}

/// Each key's verdict (in the order of `keys`).
pub fn verdicts(keys: &[(&str, KeyRuns)], opts: &Options, min_delta_ms: f64, factor: f64) -> Vec<Verdict> {
    let several = keys.first().is_some_and(|(_, r)| r.a().len() >= 2 && r.b().len() >= 2);
    let past = |a: f64, delta: f64| delta.abs() >= min_delta_ms && (a <= 0.0 || delta.abs() >= opts.min_relative * a);
    let mut out: Vec<Verdict> = keys
        .iter()
        .map(|(k, r)| {
            let (a_ms, b_ms) = (mean_of(r.a()), mean_of(r.b()));
            let mut v = Verdict { a_ms, b_ms, tests: several.then(Box::default), ..Verdict::default() };
            v.status = match (a_ms, b_ms) {
                (Some(_), None) => "only-a",
                (None, Some(_)) => "only-b",
                _ if !r.a_outcomes.same_mix(&r.b_outcomes) => "status-changed",
                (Some(a), Some(b)) if !several && past(a, b - a) => "changed",
                _ => "within-noise",
            };
            if let Some(t) = v.tests.as_mut().filter(|_| v.status == "within-noise") {
                let va = values(r.a());
                let vb: Vec<f64> = values(r.b()).iter().map(|x| x / factor).collect();
                t.welch_p = stats::welch(&va, &values(r.b())).map(|(p, _)| p);
                let ties = has_ties(&va) || has_ties(&vb);
                let mut rng = Rng::new(hash_bytes(k.as_bytes()));
                let (p, test) = match stats::welch(&va, &vb) {
                    Some((p, _)) if va.len() >= 5 && vb.len() >= 5 && !ties => (Some(p), "welch"),
                    _ => (stats::permutation(&va, &vb, &mut rng), "permutation"),
                };
                t.p = p;
                t.test = p.map(|_| test);
                t.relative_ci = stats::bootstrap_relative(&va, &vb, &mut rng).map(|(lo, hi)| [lo, hi]);
                t.mde_ms = stats::minimum_detectable(&va, &vb);
            }
            v
        })
        .collect();
    if several {
        let q = stats::benjamini_hochberg(&out.iter().map(|v| v.tests().p).collect::<Vec<_>>());
        for (v, q) in out.iter_mut().zip(q) {
            let Some(t) = v.tests.as_mut() else { continue };
            t.q = q;
            let (Some(a), Some(b)) = (v.a_ms, v.b_ms) else { continue };
            if v.status != "within-noise" {
                continue;
            }
            let adjusted = b / factor - a;
            if q.is_some_and(|q| q < stats::ALPHA) && past(a, adjusted) {
                v.status = "changed";
            } else {
                let threshold = min_delta_ms.max(opts.min_relative * a);
                t.verdict = Some(if t.mde_ms.is_some_and(|m| m <= threshold) { "unchanged" } else { "cannot-tell" });
            }
        }
    }
    out
}

/// Two equal values in `x`.
fn has_ties(x: &[f64]) -> bool {
    let mut s = x.to_vec();
    s.sort_by(f64::total_cmp);
    s.windows(2).any(|w| w[0] == w[1])
}
