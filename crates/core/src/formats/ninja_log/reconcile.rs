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

use crate::formats::ninja_log::{builds, slots, targets, NinjaLog};
use crate::model::{Model, ModelBuilder, Nanos, Role, Task, NANOS_PER_MS};

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
    /// Each build, in file order.
    pub builds: Vec<BuildInfo>,
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

/// The model and run of a log.
pub fn reconcile(log: &NinjaLog) -> (Model, NinjaRun) {
    let split = builds(log);
    let mut b = ModelBuilder::new();
    let mut run = NinjaRun { version: log.version, recompacted: split.recompacted, builds: Vec::new() };
    let mut window: Option<(Nanos, Nanos)> = None;
    let mut offset = 0i64;
    for records in &split.builds {
        let edges = targets(log, records);
        let slot = slots(&edges);
        let lanes: Vec<_> =
            (0..slot.iter().copied().max().map_or(0, |m| m + 1)).map(|s| b.lane(&format!("slot {s}"))).collect();
        let ms = |t: i64| t.saturating_add(offset).saturating_mul(NANOS_PER_MS);
        for (t, s) in edges.iter().zip(&slot) {
            let kind = b.kind(kind_of(&t.outputs[0]), None);
            let uid = b.sym(&t.outputs[0]);
            let mut task = Task::new(uid, kind, Role::Work, lanes[*s as usize], Some(ms(t.start)), Some(ms(t.end)));
            if t.outputs.len() > 1 {
                task.name = Some(b.sym(&t.outputs.join(", ")));
            }
            b.task(task);
        }
        let first = edges.iter().map(|t| t.start).min().unwrap_or(0);
        let last = edges.iter().map(|t| t.end).max().unwrap_or(0);
        if !edges.is_empty() {
            window = Some(window.map_or((ms(first), ms(last)), |(a, z)| (a.min(ms(first)), z.max(ms(last)))));
        }
        let span = |t: i64| t.saturating_mul(NANOS_PER_MS);
        run.builds.push(BuildInfo {
            outputs: records.len() as u64,
            edges: edges.len() as u64,
            start: ms(first),
            wall: span(last - first),
            busy: edges.iter().map(|t| span(t.end - t.start)).sum(),
            slots: lanes.len() as u32,
        });
        offset = offset.saturating_add(records.last().map_or(0, |&i| log.records[i].end));
    }
    if let Some((a, z)) = window {
        b.window(a, z);
    }
    (b.build(), run)
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
