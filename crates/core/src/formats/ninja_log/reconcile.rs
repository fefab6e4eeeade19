//! A `.ninja_log` as a [`Model`] and a [`NinjaRun`].
//!
//! Each build (see [`crate::formats::ninja_log`]) is laid on the slots
//! ninjatracing allocates (lanes `slot N`), each edge (the outputs of one
//! command) a task from its start to its end, of a kind named by its first
//! output's extension (`compile` for `.o`/`.obj`, `link` for an
//! executable, `archive` for `.a`/`.lib`, `shared library`, else the
//! extension). Builds restart at 0, so each build is shifted to start where
//! the previous one ended, as `ninjatracing -a` does. ninja's log has no
//! dependencies: there is no critical path.

use super::weighted::{weigh, ExtensionRow, Weighted};
use crate::formats::ninja_log::{builds, slots, targets, NinjaLog, Target};
use crate::model::{Model, ModelBuilder, Nanos, Role, Task, TaskId, NANOS_PER_MS};

/// One build of a log.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BuildInfo {
    /// Records (outputs).
    pub outputs: u64,
    /// Edges (commands).
    pub edges: u64,
    /// Its first start on the model's time axis (after the builds before it), ns.
    pub start: Nanos,
    /// First start to last end, ns.
    pub wall: Nanos,
    /// Sum of the edges' durations, ns.
    pub busy: Nanos,
    /// Slots used at once, at most.
    pub slots: u32,
}

/// What a `.ninja_log` says beyond its model.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NinjaRun {
    /// The header's version.
    pub version: u32,
    /// The log was recompacted: its builds could not be told apart.
    pub recompacted: bool,
    /// Each build, in file order (one, when read with its build graph).
    pub builds: Vec<BuildInfo>,
    /// With its build graph: what the graph says of this build.
    pub graph: Option<BuildGraph>,
    /// Without it: Chromium's weighted time of the log's last build (as
    /// `post_build_ninja_summary.py` reads the log alone).
    pub weighted: Option<Weighted>,
}

/// One build read with its build graph ([`crate::formats::ninja_log::graph_build`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BuildGraph {
    /// Which build of the log this is (from 1).
    pub build: u64,
    /// Builds in the log.
    pub builds: u64,
    /// Edges of the manifest that run a command (phony aside).
    pub manifest_edges: u64,
    /// Of them, those a plain `ninja` runs from nothing (what the
    /// `default` targets need, else what every root needs).
    pub default_edges: u64,
    /// Records whose output no manifest edge builds.
    pub unmatched: u64,
    /// Dependencies between edges that ran.
    pub dependencies: u64,
    /// Of them, found only through the deps log.
    pub from_deps_log: u64,
    /// It ran under half of `default_edges`: a rebuild, whose path covers
    /// only what ran.
    pub rebuild: bool,
    /// Chromium's weighted time of each task (by task id), ns.
    pub weighted: Vec<Nanos>,
    /// Weighted time per output extension, the largest first.
    pub by_extension: Vec<ExtensionRow>,
}

/// The kind of an edge, by its output's extension.
pub fn kind_of(output: &str) -> &str {
    let file = output.rsplit(['/', '\\']).next().unwrap_or(output);
    match file.rsplit_once('.').map(|(_, e)| e) {
        Some("o" | "obj") => "compile",
        Some("a" | "lib") => "archive",
        Some("so" | "dll" | "dylib") => "shared library",
        Some("exe") | None => "link",
        Some(ext) => ext,
    }
}

/// Lays one build's `edges` (of `outputs` records) on their slots in `b`,
/// shifted by `offset` ms: its summary and each edge's task.
pub fn lay_build(b: &mut ModelBuilder, edges: &[Target], outputs: usize, offset: i64) -> (BuildInfo, Vec<TaskId>) {
    let slot = slots(edges);
    let lanes: Vec<_> =
        (0..slot.iter().copied().max().map_or(0, |m| m + 1)).map(|s| b.lane(&format!("slot {s}"))).collect();
    let ms = |t: i64| t.saturating_add(offset).saturating_mul(NANOS_PER_MS);
    let mut tasks = Vec::with_capacity(edges.len());
    for (t, s) in edges.iter().zip(&slot) {
        let kind = b.kind(kind_of(&t.outputs[0]), None);
        let uid = b.sym(&t.outputs[0]);
        let name = (t.outputs.len() > 1).then(|| b.sym(&t.outputs.join(", ")));
        tasks.push(b.named_task(
            Task::new(uid, kind, Role::Work, lanes[*s as usize], Some(ms(t.start)), Some(ms(t.end))),
            name,
        ));
    }
    let first = edges.iter().map(|t| t.start).min().unwrap_or(0);
    let last = edges.iter().map(|t| t.end).max().unwrap_or(0);
    let span = |t: i64| t.saturating_mul(NANOS_PER_MS);
    let info = BuildInfo {
        outputs: outputs as u64,
        edges: edges.len() as u64,
        start: ms(first),
        wall: span(last.saturating_sub(first)),
        // Saturating: a log's times may add up past what i64 holds.
        busy: edges.iter().fold(0i64, |sum, t| sum.saturating_add(span(t.end.saturating_sub(t.start)))),
        slots: lanes.len() as u32,
    };
    (info, tasks)
}

/// The model and run of a log, without its build graph: its builds one
/// after another.
pub fn reconcile(log: &NinjaLog) -> (Model, NinjaRun) {
    let split = builds(log);
    let mut b = ModelBuilder::new();
    let mut run = NinjaRun {
        version: log.version,
        recompacted: split.recompacted,
        builds: Vec::new(),
        graph: None,
        weighted: None,
    };
    let mut window: Option<(Nanos, Nanos)> = None;
    let mut offset = 0i64;
    let mut last = None;
    for records in &split.builds {
        let edges = targets(log, records);
        let (info, tasks) = lay_build(&mut b, &edges, records.len(), offset);
        last = Some((edges, tasks));
        if info.edges > 0 {
            let end = info.start.saturating_add(info.wall);
            window = Some(window.map_or((info.start, end), |(a, z)| (a.min(info.start), z.max(end))));
        }
        run.builds.push(info);
        offset = offset.saturating_add(records.last().map_or(0, |&i| log.records[i].end));
    }
    if let Some((a, z)) = window {
        b.window(a, z);
    }
    let model = b.build();
    run.weighted = last.map(|(edges, tasks)| weigh(&edges, &tasks, model.tasks().len()));
    (model, run)
}

#[cfg(test)]
mod tests {
    #[test]
    fn kinds_come_from_the_output_s_extension() {
        for (output, kind) in [
            ("obj/src/a.o", "compile"),
            ("CMakeFiles\\x.dir\\main.cpp.obj", "compile"),
            ("lib/libz.a", "archive"),
            ("libfoo.so", "shared library"),
            ("ckati", "link"),
            ("TinyRasterizer.exe", "link"),
            ("gen/version.h", "h"),
        ] {
            assert_eq!(super::kind_of(output), kind, "{output}");
        }
    }
}
