//! The Bazel part of a Chrome trace's report: Bazel's critical path as
//! the report's `critical_path` and `blocking_chain` (each step's `uid` the
//! action's description as Bazel prints it), the phases and the critical
//! path as text in `bazel analyze-profile`'s layout, then the summary
//! (actions by mnemonic, where their time went, garbage collection, jobs)
//! and the suggestions.

use crate::formats::chrome_trace::bazel::analysis::paths;
use crate::formats::chrome_trace::bazel::analysis::suggest::suggestions;
use crate::formats::chrome_trace::bazel::analysis::summary::{summary, BazelSummary};
use crate::formats::chrome_trace::bazel::{BazelRun, PathStep};
use crate::model::{Model, Nanos};
use crate::numbers::duration_label;
use crate::numbers::Ms;
use crate::run::{ReportPath, RunReport};
use serde_json::{json, Map, Value};
use std::fmt::Write;

fn step_json(m: &Model, s: &PathStep) -> Value {
    let t = s.task();
    let task = m.task(t);
    json!({
        "uid": s.description, "name": m.label(t), "kind": m.kinds()[task.kind.index()].name,
        "lane": m.lanes()[task.lane.index()].name, "start_ms": task.start.get().map(|x| Ms(x).json()),
        "end_ms": task.end.get().map(|x| Ms(x).json()), "bazel_ms": Ms(s.duration).json(), "on_action": s.action.is_some(),
    })
}

/// Puts Bazel's critical path in `r` as its critical path (its `source`
/// `bazel`) and `blocking_chain` (with each step's `gap_ms`); a profile
/// without one keeps what `r` has.
pub fn bazel_path_json(m: &Model, run: &BazelRun, r: &mut RunReport) {
    let Some(p) = paths(m, run) else { return };
    let steps: Vec<Value> = run.path.iter().map(|s| step_json(m, s)).collect();
    let chain: Vec<Value> = steps
        .iter()
        .zip(&p.gaps)
        .map(|(s, &g)| {
            let mut s = s.clone();
            s["gap_ms"] = Ms(g).json();
            s
        })
        .collect();
    r.own["blocking_chain"] = json!({"source": "bazel", "total_ms": Ms(p.blocking.total).json(), "tasks": chain});
    r.own["differences"] = json!([]);
    let own = Map::from_iter([("source".to_owned(), json!("bazel"))]);
    r.critical_path = Some(ReportPath { path: p.critical, tasks: steps, own });
}

/// Bazel's critical path as `bazel analyze-profile` prints it (each
/// component as Bazel names it), with the slice each was found on.
fn bazel_path_text(out: &mut String, m: &Model, run: &BazelRun) {
    if run.path.is_empty() {
        return;
    }
    let total = run.path_total();
    let _ = writeln!(out, "\nCritical path ({}):", duration_label(total));
    let _ = writeln!(out, "  {:>11} {:>10}   Description", "Time", "Percentage");
    for s in &run.path {
        let share = if total > 0 { s.duration as f64 * 100.0 / total as f64 } else { 0.0 };
        let place = match s.action {
            Some(a) => format!("on {}", m.lanes()[m.task(a).lane.index()].name),
            None => "no action found: shown on the Critical Path lane".to_owned(),
        };
        let _ =
            writeln!(out, "  {:>11} {:>9.2}%   {}  ({place})", duration_label(s.duration), share, m.uid(s.component));
    }
}

/// The summary and suggestions as the report's `bazel` member.
pub fn bazel_json(m: &Model, run: &BazelRun) -> Value {
    let s = summary(m, run);
    let mut v = serde_json::to_value(&s).unwrap_or(Value::Null);
    if let Some(o) = v.as_object_mut() {
        // Long series stay out of the report; the page draws them.
        o.remove("running");
        o.insert("suggestions".into(), json!(suggestions(m, &s)));
        o.insert(
            "metadata".into(),
            json!(run.metadata.iter().map(|(k, v)| (k.clone(), json!(v))).collect::<serde_json::Map<_, _>>()),
        );
        o.insert("unmatched_components".into(), json!(run.path.iter().filter(|p| p.action.is_none()).count()));
    }
    v
}

/// `bazel analyze-profile`'s phase table.
fn phases_text(out: &mut String, s: &BazelSummary) {
    let _ = writeln!(out, "\n=== PHASE SUMMARY INFORMATION ===\n");
    let secs = |ns: Nanos| format!("{:.3} s", (ns / 1_000_000) as f64 / 1000.0);
    for p in &s.phases {
        let _ =
            writeln!(out, "{:<28} {:>10} {:>7.2}%", format!("Total {} phase time", p.nick), secs(p.time), p.percent);
    }
    let _ = writeln!(out, "---------------------------------------------------------------------");
    let _ = writeln!(out, "{:<28} {:>10} {:>8}", "Total run time", secs(s.total), "100.00%");
}

/// A titled table (nothing without rows): columns as (header, width),
/// a negative width aligned left.
fn table(out: &mut String, title: &str, columns: &[(&str, i32)], rows: impl Iterator<Item = Vec<String>>) {
    let line = |out: &mut String, cells: &[&str]| {
        let mut l = String::from(" ");
        for (c, &(_, w)) in cells.iter().zip(columns) {
            let width = w.unsigned_abs() as usize;
            let _ = if w < 0 { write!(l, " {c:<width$}") } else { write!(l, " {c:>width$}") };
        }
        let _ = writeln!(out, "{}", l.trim_end());
    };
    let mut rows = rows.peekable();
    if rows.peek().is_none() {
        return;
    }
    let _ = writeln!(out, "\n{title}:");
    line(out, &columns.iter().map(|c| c.0).collect::<Vec<_>>());
    for r in rows {
        line(out, &r.iter().map(String::as_str).collect::<Vec<_>>());
    }
}

/// The jobs and cores the evaluator threads imply, and the actions that
/// ran at once, in words.
fn jobs_line(s: &BazelSummary) -> String {
    let c = &s.cores;
    let mut parts = Vec::new();
    if let (Some(used), Some(bound)) = (c.used, c.jobs_at_least) {
        parts.push(format!(
            "{used} Skyframe evaluator threads ran something in the execution phase, so --jobs was at least {bound}"
        ));
    }
    if let Some(n) = c.available {
        parts.push(format!("about {n} cores available (the evaluator threads busy in analysis)"));
    }
    if s.running.is_empty() {
        parts.push("no action slices".to_owned());
    } else {
        parts.push(format!("at most {} actions ran at once", s.most_running));
    }
    if c.used.is_some() {
        parts.push(format!("stretches with fewer actions than threads: {}", s.bottlenecks.len()));
    }
    format!("Jobs: {}", parts.join("; "))
}

/// The summary and the suggestions as text.
pub fn bazel_summary_text(out: &mut String, m: &Model, run: &BazelRun) {
    let s = summary(m, run);
    if !s.phases.is_empty() {
        phases_text(out, &s);
    }
    bazel_path_text(out, m, run);
    let d = duration_label;
    let mnemonics = s
        .mnemonics
        .iter()
        .map(|r| vec![r.mnemonic.clone(), r.count.to_string(), d(r.total), d(r.longest), r.on_path.to_string()]);
    let columns = [("mnemonic", -24), ("actions", 7), ("time", 12), ("longest", 12), ("on path", 9)];
    table(out, "Actions by mnemonic", &columns, mnemonics);
    let activities = s
        .activities
        .iter()
        .map(|r| vec![r.group.clone(), r.what.clone(), r.count.to_string(), d(r.total), d(r.on_path)]);
    let columns = [("", -22), ("", -40), ("events", 7), ("time", 12), ("on crit. path", 14)];
    table(out, "Where the actions' time went", &columns, activities);
    let g = &s.gc;
    if g.recorded {
        let _ = writeln!(
            out,
            "\nGarbage collection: {} collections, {} ({} major, {}); {} of it while a critical path action ran",
            g.count,
            duration_label(g.total),
            g.major_count,
            duration_label(g.major_total),
            duration_label(g.on_path)
        );
    } else {
        let _ = writeln!(out, "\nGarbage collection: not recorded (the profile has no Garbage Collector thread)");
    }
    let _ = writeln!(out, "{}", jobs_line(&s));
    let list = suggestions(m, &s);
    if !list.is_empty() {
        let _ = writeln!(out, "\nSuggestions:");
        for x in list {
            let _ = writeln!(out, "  - {}: {}", x.title, x.text);
        }
    }
}
