//! The report of a GHC program's run: its events, collections, heap and threads.

use crate::formats::ghc_eventlog::allocation::allocation;
use crate::formats::ghc_eventlog::analysis::gc_summary;
use crate::formats::ghc_eventlog::{GhcRun, HeapFigure};
use crate::numbers::duration_label;
use crate::numbers::group;
use crate::numbers::Ms;
use crate::run::{Dataset, RunReport};
use serde_json::{json, Value};
use std::fmt::Write;

/// Threads listed in the text report.
const TEXT_THREADS: usize = 10;

fn run_of(d: &Dataset) -> Option<&GhcRun> {
    d.detail::<GhcRun>()
}

fn heap_max(run: &GhcRun, figure: HeapFigure) -> Option<u64> {
    run.heap.iter().filter(|h| h.figure == figure).map(|h| h.bytes).max()
}

/// The report as JSON: `{"ghc": {...}}`. Times are milliseconds;
/// `events_by_type` counts every event of the data section, block markers
/// included; `allocated_bytes` is the program's total (what `+RTS -s`
/// prints as "bytes allocated in the heap"), the sum of
/// `allocated_bytes_per_capability`.
pub fn ghc_json(d: &Dataset) -> RunReport {
    let Some(run) = run_of(d) else { return RunReport::of(json!({})) };
    let by_type: serde_json::Map<String, Value> =
        run.events_by_type.iter().map(|(ty, n)| (ty.to_string(), json!(n))).collect();
    let gc: Vec<Value> = gc_summary(run)
        .iter()
        .map(|r| {
            json!({"generation": r.generation, "count": r.count, "total_ms": Ms(r.total).json(),
                   "max_ms": Ms(r.max).json(), "copied_bytes": r.copied})
        })
        .collect();
    let alloc = allocation(run);
    RunReport::of(json!({
        "ghc": {
            "events": run.events,
            "events_by_type": by_type,
            "capabilities": run.capabilities,
            "threads": run.threads.len(),
            "gc": gc,
            "heap_max_bytes": {
                "size": heap_max(run, HeapFigure::Size),
                "live": heap_max(run, HeapFigure::Live),
            },
            "allocated_bytes": alloc.as_ref().map(|a| a.total),
            "allocated_bytes_per_capability": alloc.as_ref().map(|a| {
                a.per_capability.iter().map(|c| json!({"capability": c.cap, "bytes": c.bytes})).collect::<Vec<_>>()
            }),
            "marks": run.marks.len(),
        },
    }))
}

/// The report as text: events, collections per generation, busiest threads.
pub fn ghc_text(d: &Dataset) -> String {
    let Some(run) = run_of(d) else { return String::new() };
    let mut out = String::new();
    let wall = d.model.wall().map_or("unknown".to_owned(), duration_label);
    let _ = writeln!(
        out,
        "GHC eventlog: {} events of {} types, {} threads, wall {wall}",
        group(run.events),
        run.events_by_type.len(),
        group(run.threads.len() as u64)
    );
    let gc = gc_summary(run);
    if !gc.is_empty() {
        let _ = writeln!(
            out,
            "\nGarbage collections:\n  {:<10} {:>8} {:>12} {:>12} {:>16}",
            "generation", "count", "total", "max", "copied"
        );
        for r in &gc {
            let copied = r.copied.map_or("-".to_owned(), |b| format!("{} B", group(b)));
            let _ = writeln!(
                out,
                "  {:<10} {:>8} {:>12} {:>12} {:>16}",
                r.generation,
                group(r.count),
                duration_label(r.total),
                duration_label(r.max),
                copied
            );
        }
    }
    for (figure, name) in [(HeapFigure::Size, "heap size"), (HeapFigure::Live, "live data")] {
        if let Some(max) = heap_max(run, figure) {
            let _ = writeln!(out, "Largest {name}: {} B", group(max));
        }
    }
    if let Some(a) = allocation(run) {
        let shares = a.shares(|b| format!("{} B", group(b)));
        let _ = writeln!(out, "Allocated: {} B in all (per capability: {shares})", group(a.total));
    }
    let mut threads: Vec<_> = run.threads.iter().collect();
    threads.sort_by_key(|t| (std::cmp::Reverse(t.run_time), t.id));
    if !threads.is_empty() {
        let _ = writeln!(
            out,
            "\nBusiest threads:\n  {:>8} {:>8} {:>12} {:>12}  label",
            "thread", "runs", "run time", "longest"
        );
        for t in threads.iter().take(TEXT_THREADS) {
            let line = format!(
                "  {:>8} {:>8} {:>12} {:>12}  {}",
                t.id,
                group(t.runs),
                duration_label(t.run_time),
                duration_label(t.longest_run),
                t.label.as_deref().unwrap_or("")
            );
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
    out
}
