//! Comparing runs: side A (before) against side B (after), each one run or
//! several, of any format: what got slower, how the critical path moved,
//! and whether it is noise.
//!
//! 1. **Keys.** Each task comes with its format's stable key
//!    (`RunKind::compare_keys`), normalised ([`normalise`]: hashes,
//!    addresses, temporary directories, build roots). Tasks of one key in
//!    a run are one group with a count (shards, repeats), their times
//!    summed ([`digest`]).
//! 2. **Matching.** Keys match by name; a key left over on both sides
//!    matches by its neighbours ([`matching`]).
//! 3. **Attribution.** Between the representative runs (each side's
//!    median wall time), the wall time's change is split into the shared
//!    path's change, path changes and waiting, which add up to it; B's
//!    graph is replayed with A's durations ([`attribution`]).
//! 4. **Noise.** Thresholds with one run a side, tests with several
//!    ([`table`], [`stats`]).
//!
//! This floor reads models and the analyses below it; it knows no format.
//! The path of a run is its chain ([`chain`]), which ends at its last end.

pub mod attribution;
pub mod chain;
pub mod digest;
pub mod execution;
pub mod matching;
pub mod normalise;
pub mod result;
pub mod stats;
pub mod table;

pub use digest::{Run, TaskKeys};
pub use result::Comparison;

use crate::hash::FastMap;
use crate::join::{in_turn, Join};
use crate::model::Nanos;
use digest::Digest;
use result::{AlignedStep, Attribution, CriticalPaths, Noise, Runs, TaskChange, Totals, Wall};

/// How many of the first changes get their saving if B went back to A's
/// time (each played again where it moves the run, [`attribution::savings_if_back`]).
const SAVINGS_IF_BACK: usize = 100;

/// How changes are told from noise.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Options {
    /// The absolute threshold, ns. Default `None`: 0.1 % of A's wall time,
    /// at least 1 µs.
    pub min_delta: Option<Nanos>,
    /// The relative threshold. Default 0.05 (5 %).
    pub min_relative: f64,
    /// How many of the table's rows to make, from the first (`None`, the
    /// default: every key's). A report that shows only the first changes
    /// needs no row for each of a build's hundreds of thousands of keys;
    /// the counts and totals are of every key all the same.
    pub rows: Option<usize>,
}

impl Default for Options {
    fn default() -> Self {
        Options { min_delta: None, min_relative: 0.05, rows: None }
    }
}

impl Options {
    /// These options with an absolute threshold of `ns` (`None`: the default).
    pub fn with_min_delta(self, ns: Option<Nanos>) -> Options {
        Options { min_delta: ns, ..self }
    }

    /// These options with a relative threshold of `share` (0.05 is 5 %).
    pub fn with_min_relative(self, share: f64) -> Options {
        Options { min_relative: share, ..self }
    }

    /// These options with only the first `n` rows of the table made (`None`: all).
    pub fn with_rows(self, n: Option<usize>) -> Options {
        Options { rows: n, ..self }
    }
}

/// Nanoseconds as milliseconds.
fn ms(ns: Nanos) -> f64 {
    ns as f64 / 1e6
}

/// The index of the run with the median wall time (the lower of two).
fn median_run(d: &[Digest]) -> usize {
    let mut order: Vec<usize> = (0..d.len()).collect();
    order.sort_by_key(|&i| (d[i].wall, i));
    order[(order.len().max(1) - 1) / 2]
}

/// Compares the runs `a` (before) with the runs `b` (after); `None` when
/// a side has no run.
pub fn compare(a: &[Run<'_>], b: &[Run<'_>], opts: &Options) -> Option<Comparison> {
    compare_with(a, b, opts, &in_turn)
}

/// [`compare`], with the two sides' digests made by `join` (possibly at once).
pub fn compare_with(a: &[Run<'_>], b: &[Run<'_>], opts: &Options, join: Join<'_>) -> Option<Comparison> {
    if a.is_empty() || b.is_empty() {
        return None;
    }
    let (mut da, mut db): (Vec<Digest>, Vec<Digest>) = (Vec::new(), Vec::new());
    join(&mut || da = a.iter().map(Digest::of).collect(), &mut || db = b.iter().map(Digest::of).collect());
    let (ra, rb) = (median_run(&da), median_run(&db));
    let (renamed, b_in_a) = matching::by_structure(&da[ra], &db[rb], join);
    for d in &mut db {
        d.rename(&renamed);
    }
    let (rep_a, rep_b) = (&da[ra], &db[rb]);

    let min_delta = opts.min_delta.unwrap_or((rep_a.wall / 1000).max(1_000));
    let min_delta_ms = ms(min_delta);
    let several = da.len() >= 2 && db.len() >= 2;
    // The table of keys and their verdicts beside the wall time's split and
    // the what-if: neither reads the other.
    let (mut keys, mut factor, mut verdicts) = (Vec::new(), 1.0, Vec::new());
    let (mut split, mut matched_durations, mut what_if) = (attribution::Split::default(), Vec::new(), 0);
    join(
        &mut || {
            // The ids of B's representative run's keys in A's representative
            // run are known: they serve the table when that run is A's first.
            let known = (ra == 0).then(|| (da.len() + rb, &b_in_a[..]));
            keys = table::key_runs(&da, &db, [ra, rb], known);
            factor = table::speed_factor(&keys);
            verdicts = table::verdicts(&keys, opts, min_delta_ms, if several { factor } else { 1.0 });
        },
        &mut || {
            split = attribution::split(rep_a, rep_b);
            matched_durations = attribution::a_durations(rep_b, rep_a, &b_in_a, join);
            what_if = attribution::what_if(rep_b, &matched_durations);
        },
    );
    let (pa, pb) = (rep_a.path_time(), rep_b.path_time());
    // Critical in B and not in A: neither on A's path nor without slack there.
    let newly_critical = |k: &str| {
        pb.contains_key(k)
            && !pa.contains_key(k)
            && rep_a.group(k).is_some_and(|g| g.slack > min_delta)
            && rep_b.group(k).is_some_and(|g| g.slack <= min_delta)
    };
    let original: FastMap<&str, &str> = renamed.iter().map(|(b, a)| (a.as_str(), b.as_str())).collect();

    // Whether each key is on A's path and on B's, by its ids: most keys are
    // on neither, and are not looked up by name.
    let on_path_of = |d: &Digest| {
        let mut on = vec![false; d.groups.len()];
        d.path.iter().for_each(|s| on[s.key as usize] = true);
        on
    };
    let (on_a, on_b) = (on_path_of(rep_a), on_path_of(rep_b));
    let on =
        |r: &table::KeyRuns| (r.rep[0].is_some_and(|i| on_a[i as usize]), r.rep[1].is_some_and(|i| on_b[i as usize]));
    let effect = |n: usize| {
        let (k, r) = &keys[n];
        match on(r) {
            (false, false) => 0.0,
            _ => ms(split.effects.get(*k).copied().unwrap_or(0)),
        }
    };
    let order = rank(&keys, &verdicts, &effect, join);
    // What B would save if each of the first changes went back to A's time.
    let back: Vec<(usize, u32)> = order
        .iter()
        .map(|&n| n as usize)
        .filter(|&n| verdicts[n].status != "within-noise" && verdicts[n].a_ms.is_some())
        .filter_map(|n| keys[n].1.rep[1].map(|k| (n, k)))
        .take(SAVINGS_IF_BACK)
        .collect();
    let back_keys: Vec<u32> = back.iter().map(|&(_, k)| k).collect();
    let saving_if_back: FastMap<usize, f64> = back
        .iter()
        .zip(attribution::savings_if_back(rep_b, &matched_durations, &back_keys))
        .map(|(&(n, _), saved)| (n, ms(saved)))
        .collect();
    // The rows, in their order (half of them on each thread).
    let row = |i: usize, n: u32| {
        let ((k, r), v) = (&keys[n as usize], &verdicts[n as usize]);
        let delta = v.b_ms.unwrap_or(0.0) - v.a_ms.unwrap_or(0.0);
        let (in_a, in_b) = on(r);
        let on_path = match (in_a, in_b) {
            (true, true) => "both",
            (true, false) => "a",
            (false, true) => "b",
            (false, false) => "none",
        };
        TaskChange {
            key: (*k).to_owned(),
            a_ms: v.a_ms,
            b_ms: v.b_ms,
            delta_ms: delta,
            relative: v.a_ms.filter(|&a| a > 0.0).map(|a| delta / a),
            status: v.status,
            on_path,
            wall_effect_ms: effect(n as usize),
            saving_if_back_ms: saving_if_back.get(&(n as usize)).copied(),
            rank: (v.status != "within-noise").then_some(i as u32 + 1),
            a_count: r.a_count as f64 / da.len() as f64,
            b_count: r.b_count as f64 / db.len() as f64,
            a_outcome: v.a_ms.map(|_| r.a_outcomes.label()),
            b_outcome: v.b_ms.map(|_| r.b_outcomes.label()),
            newly_critical: in_b && !in_a && newly_critical(k),
            b_key: original.get(k).map(|s| (*s).to_owned()),
            tests: v.tests_owned(),
        }
    };
    let made = opts.rows.map_or(order.len(), |n| n.min(order.len()));
    let half = made / 2;
    // Room for all of them at once: the second half is moved in, not the whole grown.
    let (mut tasks, mut second): (Vec<TaskChange>, Vec<TaskChange>) = (Vec::with_capacity(made), Vec::new());
    join(&mut || tasks.extend(order[..half].iter().enumerate().map(|(i, &n)| row(i, n))), &mut || {
        second = order[half..made].iter().enumerate().map(|(i, &n)| row(half + i, n)).collect()
    });
    tasks.append(&mut second);

    // Counts and totals over every key, made or not, in the rows' order.
    let in_order = || order.iter().map(|&n| &verdicts[n as usize]);
    let matched: Vec<&table::Verdict> = in_order().filter(|v| v.a_ms.is_some() && v.b_ms.is_some()).collect();
    let (ta, tb) = (matched.iter().filter_map(|v| v.a_ms).sum::<f64>(), matched.iter().filter_map(|v| v.b_ms).sum());
    let aligned = attribution::align(rep_a, rep_b)
        .into_iter()
        .map(|(i, j)| {
            let (sa, sb) = (i.map(|i| &rep_a.path[i]), j.map(|j| &rep_b.path[j]));
            let key = match (sa, sb) {
                (Some(s), _) => rep_a.key(s.key).to_owned(),
                (None, Some(s)) => rep_b.key(s.key).to_owned(),
                (None, None) => String::new(),
            };
            let (a_ms, b_ms) = (sa.map(|s| ms(s.duration)), sb.map(|s| ms(s.duration)));
            AlignedStep {
                on: match (sa, sb) {
                    (Some(_), Some(_)) => "both",
                    (Some(_), None) => "a",
                    _ => "b",
                },
                delta_ms: b_ms.unwrap_or(0.0) - a_ms.unwrap_or(0.0),
                newly_critical: sb.is_some() && newly_critical(&key),
                key,
                a_ms,
                b_ms,
            }
        })
        .collect();

    let mut warnings = Vec::new();
    if !several {
        warnings.push(
            "one run on a side: no p-values; a change counts past both thresholds, and noise of the size of a threshold cannot be told from a change".to_owned(),
        );
    }
    if several && (da.len() < 5 || db.len() < 5) {
        warnings.push(format!(
            "fewer than 5 runs a side ({} and {}): the tests are weak, and permutation tests are used",
            da.len(),
            db.len()
        ));
    }
    if !rep_a.has_edges() && !rep_b.has_edges() {
        warnings.push(
            "the runs record no dependencies: each path is only the task that ended last, and the rest of the wall time counts as waiting".to_owned(),
        );
    }
    let mean_wall = |d: &[Digest]| d.iter().map(|d| ms(d.wall)).sum::<f64>() / d.len() as f64;
    let only = |s: &str| verdicts.iter().filter(|v| v.status == s).count();
    Some(Comparison {
        runs: Runs {
            a: da.iter().map(|d| d.name.clone()).collect(),
            b: db.iter().map(|d| d.name.clone()).collect(),
            representative_a: rep_a.name.clone(),
            representative_b: rep_b.name.clone(),
        },
        wall_ms: Wall {
            a: ms(rep_a.wall),
            b: ms(rep_b.wall),
            delta: ms(rep_b.wall - rep_a.wall),
            a_mean: mean_wall(&da),
            b_mean: mean_wall(&db),
        },
        attribution: Attribution {
            shared_path_ms: ms(split.shared_path),
            path_changes_ms: ms(split.path_changes),
            waiting_ms: ms(split.waiting),
            what_if_wall_ms: ms(what_if),
            explained_by_durations_ms: ms(rep_b.wall - what_if),
        },
        critical_path: CriticalPaths {
            a: rep_a.path.iter().map(|s| rep_a.key(s.key).to_owned()).collect(),
            b: rep_b.path.iter().map(|s| rep_b.key(s.key).to_owned()).collect(),
            aligned,
        },
        matched: matched.len(),
        matched_by_structure: renamed.len(),
        only_a: only("only-a"),
        only_b: only("only-b"),
        matched_totals_ms: Totals { a: ta, b: tb, delta: tb - ta },
        noise: Noise {
            mode: if several { "tests" } else { "thresholds" },
            min_delta_ms,
            min_relative: opts.min_relative,
            speed_factor: factor,
            speed_factor_applied: several,
            alpha: stats::ALPHA,
        },
        warnings,
        keys: order.len(),
        ranked: verdicts.iter().filter(|v| v.status != "within-noise").count(),
        tasks,
    })
}

/// The order of the rows of `keys` (with their `verdicts` and effects on
/// the wall time, ms): changes (changed, status changes, added and
/// removed) by their effect on the wall time, then by the size of the
/// change; then what is within noise, by the size of the change; the key
/// last. A row is ranked by its place in this order unless it is within
/// noise.
fn rank(
    keys: &[(&str, table::KeyRuns)],
    verdicts: &[table::Verdict],
    effect: &(dyn Fn(usize) -> f64 + Sync),
    join: Join<'_>,
) -> Vec<u32> {
    // Sorted as small tuples: a row is large, and reaching into rows is
    // most of a sort's time. Each holds its key's text, which a tie reaches
    // without a look at the table of keys first.
    type Ranked<'k> = (bool, f64, f64, &'k str, u32);
    let make = |i: usize| -> Ranked<'_> {
        let v = &verdicts[i];
        let delta = v.b_ms.unwrap_or(0.0) - v.a_ms.unwrap_or(0.0);
        (v.status == "within-noise", effect(i).abs(), delta.abs(), keys[i].0, i as u32)
    };
    let cmp = |x: &Ranked<'_>, y: &Ranked<'_>| {
        x.0.cmp(&y.0).then(y.1.total_cmp(&x.1)).then(y.2.total_cmp(&x.2)).then_with(|| x.3.cmp(y.3))
    };
    // Half sorted on each thread, then merged: times are often equal (a
    // log's are whole milliseconds), so most comparisons reach the keys.
    let half = verdicts.len() / 2;
    let (mut left, mut right) = (Vec::new(), Vec::new());
    join(
        &mut || {
            left = (0..half).map(make).collect();
            left.sort_unstable_by(cmp);
        },
        &mut || {
            right = (half..verdicts.len()).map(make).collect();
            right.sort_unstable_by(cmp);
        },
    );
    // Keys differ, so the order is strict and the merge is the whole sort's.
    let (mut i, mut j, mut order) = (0, 0, Vec::with_capacity(verdicts.len()));
    while i < left.len() && j < right.len() {
        if cmp(&right[j], &left[i]).is_lt() {
            order.push(right[j].4);
            j += 1;
        } else {
            order.push(left[i].4);
            i += 1;
        }
    }
    order.extend(left[i..].iter().chain(&right[j..]).map(|t| t.4));
    order
}

#[cfg(test)]
mod tests;
