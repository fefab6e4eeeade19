//! A distbuild [`Log`] as a [`Model`]: the build graph names and types the
//! run tasks, and ya's dependency edges are added in ya's order.

use crate::formats::distbuild::Log;
use crate::formats::ya_graph::BuildGraph;
use crate::model::{Model, ModelBuilder, TaskId, NANOS_PER_MS};

/// ya's type of a run task whose build-graph node is unknown.
const UNKNOWN_KIND: &str = "UNKNOWN";

/// Finishes the model: with a build graph, each run task takes its node's
/// type, colour, description and metadata. Edges, only between tasks with
/// durations, per task in ya's order: its copies (as they completed), its
/// build-graph dependencies, the longest prepare task of its host.
pub(super) fn model(log: Log, graph: Option<&BuildGraph>) -> Model {
    let Log { mut builder, runs, copies, longest_prepare, window, .. } = log;
    let mut run_of_uid: Vec<Option<TaskId>> = Vec::new();
    for r in &runs {
        let slot = r.uid.index();
        if slot >= run_of_uid.len() {
            run_of_uid.resize(slot + 1, None);
        }
        run_of_uid[slot] = Some(r.task);
    }
    if let Some(g) = graph {
        for r in &runs {
            let Some(n) = g.node(builder.str(r.uid)) else { continue };
            let kind =
                builder.kind(n.kind.map_or(UNKNOWN_KIND, |k| g.str(k)), Some(n.color.map_or("red", |c| g.str(c))));
            let name = builder.sym(&n.description);
            let t = builder.get_mut(r.task);
            t.kind = kind;
            t.name = Some(name);
            t.meta = Some(g.meta(n).clone());
        }
    }
    let run_of = |uid: crate::model::Sym| run_of_uid.get(uid.index()).copied().flatten();
    let timed: Vec<bool> = (0..builder.len() as u32).map(|i| builder.get(TaskId(i)).duration().is_some()).collect();
    let edge = |b: &mut ModelBuilder, from: Option<TaskId>, to: Option<TaskId>| {
        if let (Some(f), Some(t)) = (from, to) {
            if timed[f.index()] && timed[t.index()] {
                b.depends(f, t);
            }
        }
    };
    let longest = |host: u32| longest_prepare.get(&host).copied().flatten();
    // At most three edges per copy and one per run task, plus the graph's.
    let graph_edges: usize = match graph {
        Some(g) => runs.iter().filter_map(|r| g.node(builder.str(r.uid))).map(|n| n.deps.len()).sum(),
        None => 0,
    };
    builder.reserve_edges(3 * copies.len() + runs.len() + graph_edges);
    for c in &copies {
        edge(&mut builder, Some(c.task), run_of(c.dep_uid));
        edge(&mut builder, run_of(c.uid), Some(c.task));
        edge(&mut builder, Some(c.task), longest(c.dest_host));
    }
    for r in &runs {
        if let Some((g, node)) = graph.and_then(|g| Some((g, g.node(builder.str(r.uid))?))) {
            for &dep in node.deps.iter() {
                let dep_run = builder.find_sym(g.str(dep)).and_then(run_of);
                edge(&mut builder, Some(r.task), dep_run);
            }
        }
        edge(&mut builder, Some(r.task), longest(r.host));
    }
    if let Some((first, last)) = window {
        builder.window(first.saturating_mul(NANOS_PER_MS), last.saturating_mul(NANOS_PER_MS));
    }
    builder.build()
}
