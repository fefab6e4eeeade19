//! Chromium's weighted time (`post_build_ninja_summary.py`): each edge's
//! share of the build's wall time, every stretch of time split evenly
//! between the edges running in it, and the extension it is grouped under.
//!
//! The events (each edge's start and end) are taken in time order, starts
//! before ends at one instant; between two events, the time passed divided
//! by the number of edges running is added to each running edge. The sum
//! over all edges is the build's wall time. Edges are grouped by the
//! script's `GetExtension` of their outputs (without `--step-types`).
//!
//! It needs only the log: a build's edges and their times ([`weigh`]), with
//! or without the build graph.

use crate::formats::ninja_log::Target;
use crate::hash::FastMap;
use crate::model::{Nanos, TaskId, NANOS_PER_MS};

/// Chromium's weighted time of the edges of one extension.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ExtensionRow {
    /// The extension as `post_build_ninja_summary.py` names it.
    pub extension: String,
    /// Its edges.
    pub edges: u64,
    /// Their weighted time, ns.
    pub weighted: Nanos,
    /// Their elapsed time, ns.
    pub elapsed: Nanos,
}

/// One build's weighted time, per edge and per extension.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Weighted {
    /// Each task's weighted time (by task id; 0 for a task of another build), ns.
    pub weighted: Vec<Nanos>,
    /// Weighted time per output extension, the largest first.
    pub by_extension: Vec<ExtensionRow>,
}

/// The weighted time of a build's `edges`, laid out as `tasks` (the
/// edges' task ids, in their order) of a model of `task_count` tasks.
pub fn weigh(edges: &[Target], tasks: &[TaskId], task_count: usize) -> Weighted {
    let ms: Vec<f64> = weighted_ms(edges);
    let ns = |w: f64| (w * NANOS_PER_MS as f64).round() as Nanos;
    let mut by_ext: FastMap<String, ExtensionRow> = FastMap::default();
    for (target, &w) in edges.iter().zip(&ms) {
        let ext = extension(&target.outputs);
        let row = by_ext.entry(ext.clone()).or_insert_with(|| ExtensionRow { extension: ext, ..Default::default() });
        row.edges += 1;
        row.weighted = row.weighted.saturating_add(ns(w));
        row.elapsed = row.elapsed.saturating_add(target.end.saturating_sub(target.start).saturating_mul(NANOS_PER_MS));
    }
    let mut by_extension: Vec<ExtensionRow> = by_ext.into_values().collect();
    by_extension.sort_by(|a, b| b.weighted.cmp(&a.weighted).then_with(|| a.extension.cmp(&b.extension)));
    let mut weighted = vec![0; task_count];
    for (t, &w) in tasks.iter().zip(&ms) {
        if let Some(slot) = weighted.get_mut(t.index()) {
            *slot = ns(w);
        }
    }
    Weighted { weighted, by_extension }
}

/// Each target's weighted time, in ms (the log's unit), in their order.
pub fn weighted_ms(targets: &[Target]) -> Vec<f64> {
    let mut events: Vec<(i64, bool, usize)> = Vec::with_capacity(targets.len() * 2);
    for (i, t) in targets.iter().enumerate() {
        // `false` sorts first: a start before an end at one instant.
        events.push((t.start, false, i));
        events.push((t.end, true, i));
    }
    events.sort_by_key(|&(time, end, _)| (time, end));
    let mut weighted = vec![0.0; targets.len()];
    let mut started_at = vec![0.0; targets.len()];
    let (mut running, mut clock, mut last) = (0usize, 0.0f64, events.first().map_or(0, |e| e.0));
    for (time, end, i) in events {
        if running > 0 {
            clock += (time - last) as f64 / running as f64;
        }
        if end {
            weighted[i] = clock - started_at[i];
            running -= 1;
        } else {
            started_at[i] = clock;
            running += 1;
        }
        last = time;
    }
    weighted
}

/// Python's `os.path.splitext` on a POSIX path: `(root, ext)`; leading
/// dots of the file name do not start an extension.
fn splitext(p: &str) -> (&str, &str) {
    let base_at = p.rfind('/').map_or(0, |i| i + 1);
    let base = &p[base_at..];
    let lead = base.len() - base.trim_start_matches('.').len();
    match base[lead..].rfind('.') {
        Some(dot) => p.split_at(base_at + lead + dot),
        None => (p, ""),
    }
}

/// The extension the script groups an edge under, from its outputs.
pub fn extension(outputs: &[String]) -> String {
    let mut extension = String::new();
    for output in outputs {
        if output.ends_with("type_mappings") {
            return "type_mappings".into();
        }
        let (root, ext1) = splitext(output);
        let (_, ext2) = splitext(root);
        extension = format!("{ext2}{ext1}");
        if extension.is_empty() {
            extension = "(no extension found)".into();
        }
        if matches!(ext1, ".pdb" | ".dll" | ".exe") {
            return "PEFile (linking)".into();
        }
        if matches!(ext1, ".so" | ".TOC") {
            return ".so (linking)".into();
        }
        if matches!(ext1, ".obj" | ".o" | ".jar") {
            break;
        }
        if output.contains(".mojom") {
            return "mojo".into();
        }
    }
    extension
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(start: i64, end: i64) -> Target {
        Target { start, end, outputs: vec!["x.o".into()], hash: String::new() }
    }

    /// Hand-computed: a (0–10) runs alone for 2 ms, with b (2–6) for 4 ms
    /// (2 each), alone again for 4; c (10–12) alone. a: 2+2+4 = 8, b: 2, c: 2.
    #[test]
    fn time_is_shared_between_the_edges_running() {
        let w = weighted_ms(&[target(0, 10), target(2, 6), target(10, 12)]);
        assert_eq!(w, vec![8.0, 2.0, 2.0]);
        assert_eq!(w.iter().sum::<f64>(), 12.0);
    }

    #[test]
    fn extensions_group_as_the_script_groups_them() {
        let one = |s: &str| extension(&[s.to_owned()]);
        assert_eq!(one("obj/base/a.o"), ".o");
        assert_eq!(one("obj/foo.javac.jar"), ".javac.jar");
        assert_eq!(one("lib.unstripped/libc++.so"), ".so (linking)");
        assert_eq!(one("libfoo.so.TOC"), ".so (linking)");
        assert_eq!(one("chrome.exe"), "PEFile (linking)");
        assert_eq!(one("gen/a/b.mojom.h"), "mojo");
        assert_eq!(one("ckati"), "(no extension found)");
        assert_eq!(one("dir.d/.hidden"), "(no extension found)");
        assert_eq!(one("gen/x_type_mappings"), "type_mappings");
        assert_eq!(one("CMakeFiles/app.dir/main.cpp.o"), ".cpp.o");
        // The first output that decides wins; otherwise the last one's.
        assert_eq!(extension(&["a.stamp".into(), "b.o".into()]), ".o");
        assert_eq!(extension(&["a.o".into(), "b.stamp".into()]), ".o");
        assert_eq!(extension(&["a.h".into(), "b.cc".into()]), ".cc");
    }
}
