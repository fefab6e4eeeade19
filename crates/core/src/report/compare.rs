//! A comparison of two sides' runs as `longpole compare` prints it: the
//! runs of an analysis as the comparison takes them (a ninja log's builds
//! and a MAL trace's executions are runs of their own), the text report
//! and the JSON.

use crate::compare::result::Comparison;
use crate::compare::{Run, TaskKeys};
use crate::numbers::duration_label;
use crate::run::Analysis;
use serde_json::Value;
use std::fmt::Write;

/// Every dataset's keys and weights ([`crate::run::RunKind::compare_keys`]), by dataset.
pub fn keys_of(analysis: &Analysis) -> Vec<TaskKeys> {
    analysis
        .datasets
        .iter()
        .map(|d| TaskKeys {
            keys: d.kind.compare_keys(&d.model),
            weights: d.kind.compare_weights(&d.model),
            executions: d.kind.compare_executions(&d.model),
        })
        .collect()
}

/// The runs of `analysis` (with its datasets' `keys`): of each dataset,
/// the run numbered `pick(input)` (from 1) when one of its inputs has a
/// pick, else all of them; each named after its first input, with the
/// run's own name (`kati.ninja_log#2`). An error names a pick past the
/// runs a dataset has.
pub fn runs_of<'a>(
    analysis: &'a Analysis,
    keys: &'a [TaskKeys],
    pick: &dyn Fn(usize) -> Option<usize>,
) -> Result<Vec<Run<'a>>, String> {
    let mut out = Vec::new();
    for (d, keys) in analysis.datasets.iter().zip(keys) {
        let file = d.inputs.first().map_or("", |&i| analysis.inputs[i].name.as_str());
        let runs = d.kind.compare_runs(&d.model);
        let named = |name: String| if name.is_empty() { file.to_owned() } else { format!("{file}{name}") };
        let named = |(name, tasks): (String, Vec<_>)| Run { name: named(name), model: &d.model, tasks, keys };
        match d.inputs.iter().find_map(|&i| pick(i)) {
            Some(n) => {
                let count = runs.len();
                let run = runs.into_iter().nth(n.wrapping_sub(1)).ok_or_else(|| {
                    format!("{file} holds {count} run{}: there is no run {n}", if count == 1 { "" } else { "s" })
                })?;
                out.push(named(run));
            }
            None => out.extend(runs.into_iter().map(named)),
        }
    }
    Ok(out)
}

/// The comparison as JSON.
pub fn compare_json(c: &Comparison) -> Result<Value, serde_json::Error> {
    serde_json::to_value(c)
}

/// [`compare_json`] as pretty text, written straight from the comparison:
/// a build's table of keys as a tree of values first would take several
/// times its size.
pub fn compare_json_text(c: &Comparison) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(c)
}

/// Milliseconds as a signed duration: `+1.2 s`, `-850 µs`.
pub fn signed(ms: f64) -> String {
    let ns = (ms * 1e6).round() as i64;
    if ns == 0 {
        "0".to_owned()
    } else if ns > 0 {
        format!("+{}", duration_label(ns))
    } else {
        duration_label(ns)
    }
}

/// Milliseconds as a duration (`0` for none).
pub fn dur(ms: f64) -> String {
    match (ms * 1e6).round() as i64 {
        0 => "0".to_owned(),
        ns => duration_label(ns),
    }
}

/// A share as a signed percentage (empty for none).
pub fn percent(share: Option<f64>) -> String {
    share.map_or("".to_owned(), |s| format!("{:+.1}%", s * 100.0))
}

/// How many rows of each list the text shows: the comparison behind it
/// needs no more rows of its table (`compare::Options::rows`).
pub const SHOWN: usize = 25;

/// The comparison as text.
pub fn compare_text(c: &Comparison) -> String {
    let mut o = String::new();
    let w = &c.wall_ms;
    let runs = |r: &[String]| match r {
        [one] => one.clone(),
        _ => format!("{} runs ({})", r.len(), r.join(", ")),
    };
    let _ = writeln!(o, "A (before): {}", runs(&c.runs.a));
    let _ = writeln!(o, "B (after):  {}", runs(&c.runs.b));
    if c.runs.a.len() > 1 || c.runs.b.len() > 1 {
        let _ = writeln!(
            o,
            "Paths and wall time of the median runs: {} and {} (means {} and {})",
            c.runs.representative_a,
            c.runs.representative_b,
            dur(w.a_mean),
            dur(w.b_mean)
        );
    }
    for warning in &c.warnings {
        let _ = writeln!(o, "Note: {warning}.");
    }
    let _ = writeln!(
        o,
        "\nWall time: {} -> {} ({}, {})",
        dur(w.a),
        dur(w.b),
        signed(w.delta),
        percent((w.a > 0.0).then(|| w.delta / w.a))
    );
    let at = &c.attribution;
    let _ = writeln!(o, "  {:>10}  longer or shorter tasks on the path both share", signed(at.shared_path_ms));
    let _ = writeln!(o, "  {:>10}  tasks that entered or left the path", signed(at.path_changes_ms));
    let _ = writeln!(o, "  {:>10}  waiting (idle gaps, queueing) on the path", signed(at.waiting_ms));
    let _ = writeln!(
        o,
        "What-if: B's graph with A's durations takes {}, so the durations explain {} of the change.",
        dur(at.what_if_wall_ms),
        signed(at.explained_by_durations_ms)
    );
    let n = &c.noise;
    let _ = writeln!(
        o,
        "\nNoise: a change counts past {} and {:.0}%{}; speed factor B/A {:.3}{}.",
        dur(n.min_delta_ms),
        n.min_relative * 100.0,
        if n.mode == "tests" { ", and with q < 0.05 (Welch or permutation test, Benjamini–Hochberg)" } else { "" },
        n.speed_factor,
        if n.speed_factor_applied { " (divided out before the tests)" } else { " (not divided out: one run a side)" }
    );
    let t = &c.matched_totals_ms;
    let _ = writeln!(
        o,
        "Matched {} keys ({} by structure); {} only in A, {} only in B. Over matched keys only: {} -> {} ({}).",
        c.matched,
        c.matched_by_structure,
        c.only_a,
        c.only_b,
        dur(t.a),
        dur(t.b),
        signed(t.delta)
    );

    let _ = writeln!(o, "\nCritical paths ({} steps in A, {} in B):", c.critical_path.a.len(), c.critical_path.b.len());
    if c.critical_path.aligned.is_empty() {
        let _ = writeln!(o, "  (none: the runs record no dependencies)");
    }
    for s in c.critical_path.aligned.iter().take(2 * SHOWN) {
        let side = match s.on {
            "both" => "both  ",
            "a" => "A only",
            _ => "B only",
        };
        let mark = if s.newly_critical { "  [newly critical]" } else { "" };
        let _ = writeln!(o, "  {side} {:>10}  {}{mark}", signed(s.delta_ms), s.key);
    }
    if c.critical_path.aligned.len() > 2 * SHOWN {
        let _ = writeln!(o, "  … {} more steps", c.critical_path.aligned.len() - 2 * SHOWN);
    }

    let ranked = c.tasks.iter().filter(|t| t.rank.is_some());
    let _ = writeln!(
        o,
        "\nChanges by effect on the wall time ({} ranked; {} within noise, not ranked):",
        c.ranked,
        c.keys - c.ranked
    );
    if c.ranked > 0 {
        let _ = writeln!(
            o,
            "  {:>4} {:>10} {:>8} {:>10} {:>10} {:>10} {:<15} {:<5} key",
            "#", "Δ", "Δ%", "on wall", "if back", "B", "status", "path"
        );
    }
    for t in ranked.take(SHOWN) {
        let status = match (t.status, &t.a_outcome, &t.b_outcome) {
            ("status-changed", Some(a), Some(b)) => format!("{a}->{b}"),
            (s, ..) => s.to_owned(),
        };
        let _ = writeln!(
            o,
            "  {:>4} {:>10} {:>8} {:>10} {:>10} {:>10} {:<15} {:<5} {}{}",
            t.rank.unwrap_or(0),
            signed(t.delta_ms),
            percent(t.relative),
            signed(t.wall_effect_ms),
            t.saving_if_back_ms.map_or("-".to_owned(), signed),
            t.b_ms.map_or("-".to_owned(), dur),
            status,
            t.on_path,
            t.key,
            if t.newly_critical { "  [newly critical]" } else { "" }
        );
    }
    if c.ranked > SHOWN {
        let _ = writeln!(o, "  … {} more (--format json lists them all)", c.ranked - SHOWN);
    }
    o
}
