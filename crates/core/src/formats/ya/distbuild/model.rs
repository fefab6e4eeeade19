//! A distbuild [`Log`] as a [`Model`]: the build graph names and types the
//! run tasks, and ya's dependency edges are added in ya's order.

use super::{Log, RunRef};
use crate::formats::ya::graph::{BuildGraph, GraphNode};
use crate::hash::FastMap;
use crate::model::{KindId, Model, ModelBuilder, TaskId, NANOS_PER_MS};
use std::borrow::Cow;

/// Not a string of the graph (in `join_graph`'s table).
const NOT_IN_GRAPH: u32 = u32::MAX;

/// ya's type of a run task whose build-graph node is unknown.
const UNKNOWN_KIND: &str = "UNKNOWN";

/// Finishes the model: with a build graph, each run task takes its node's
/// type, colour, description and metadata. Edges, only between tasks with
/// durations, per task in ya's order: its copies (as they completed), its
/// build-graph dependencies, the longest prepare task of its host. A graph
/// given owned is freed once its edges are recorded, before the model's
/// dependency lists are made.
pub(crate) fn model(log: Log, graph: Option<Cow<'_, BuildGraph>>) -> Model {
    let Log { mut builder, runs, copies, longest_prepare, window, .. } = log;
    let mut run_of_uid: Vec<Option<TaskId>> = Vec::new();
    for r in &runs {
        let slot = r.uid.index();
        if slot >= run_of_uid.len() {
            run_of_uid.resize(slot + 1, None);
        }
        run_of_uid[slot] = Some(r.task);
    }
    // Each run task's graph node, and the run task of each graph string (by
    // its id in the graph), found with one lookup per run task: dependencies
    // are then followed by index, not by hashing their uids.
    let (nodes, run_of_graph_str) = match graph.as_deref() {
        Some(g) => join_graph(&mut builder, &runs, g),
        None => (Vec::new(), Vec::new()),
    };
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
    let graph_edges: usize = graph.as_deref().map_or(0, |g| nodes.iter().flatten().map(|n| g.deps(n).len()).sum());
    builder.reserve_edges(3 * copies.len() + runs.len() + graph_edges);
    for c in &copies {
        edge(&mut builder, Some(c.task), run_of(c.dep_uid));
        edge(&mut builder, run_of(c.uid), Some(c.task));
        edge(&mut builder, Some(c.task), longest(c.dest_host));
    }
    for (i, r) in runs.iter().enumerate() {
        if let (Some(g), Some(node)) = (graph.as_deref(), nodes.get(i).copied().flatten()) {
            for &dep in g.deps(node) {
                let dep_run = run_of_graph_str.get(dep as usize).copied().flatten();
                edge(&mut builder, Some(r.task), dep_run);
            }
        }
        edge(&mut builder, Some(r.task), longest(r.host));
    }
    // What only the edges needed goes before the dependency lists are made.
    drop((nodes, run_of_graph_str, runs, copies, run_of_uid, timed));
    drop(graph);
    if let Some((first, last)) = window {
        builder.window(first.saturating_mul(NANOS_PER_MS), last.saturating_mul(NANOS_PER_MS));
    }
    builder.build()
}

/// Joins the build graph to the run tasks: each takes its node's type,
/// colour, description and metadata. Gives each run task's node (in the
/// order of `runs`) and the run task of each graph string id (the last run
/// task of a uid, as ya keys them).
fn join_graph<'g>(
    builder: &mut ModelBuilder,
    runs: &[RunRef],
    g: &'g BuildGraph,
) -> (Vec<Option<&'g GraphNode>>, Vec<Option<TaskId>>) {
    // Each string of the log's (by symbol) as a string id of the graph's,
    // found by reading the graph's strings in order: looking each run's uid
    // up in the graph instead read both tables at random, and was most of
    // the join's time for a million nodes.
    let mut graph_str_of_sym = vec![NOT_IN_GRAPH; builder.str_count()];
    for (id, s) in g.strings() {
        if let Some(sym) = builder.find_sym(s) {
            graph_str_of_sym[sym.index()] = id;
        }
    }
    let mut run_of_graph_str: Vec<Option<TaskId>> = vec![None; g.str_count()];
    let nodes: Vec<Option<&GraphNode>> = runs
        .iter()
        .map(|r| {
            let id = graph_str_of_sym.get(r.uid.index()).copied().filter(|&id| id != NOT_IN_GRAPH)?;
            run_of_graph_str[id as usize] = Some(r.task);
            g.node_by_id(id)
        })
        .collect();
    drop(graph_str_of_sym);
    // Descriptions are nearly all distinct, and only read back by their
    // symbols: each is a string of its own (no hashing, no table slot),
    // with room for them all at once, not by doubling.
    let (bytes, count) = nodes.iter().flatten().fold((0, 0), |(b, c), n| (b + g.description(n).len(), c + 1));
    builder.reserve_own_syms(bytes, count);
    // A type's colour is set by its first node, so each type is looked up once.
    let mut kind_of: FastMap<Option<u32>, KindId> = FastMap::default();
    for (r, n) in runs.iter().zip(&nodes) {
        let Some(n) = n else { continue };
        let kind = *kind_of.entry(n.kind()).or_insert_with(|| {
            builder.kind(n.kind().map_or(UNKNOWN_KIND, |k| g.str(k)), Some(n.color().map_or("red", |c| g.str(c))))
        });
        let name = builder.own_sym(g.description(n));
        builder.get_mut(r.task).kind = kind;
        builder.set_name(r.task, name);
        builder.set_meta(r.task, g.meta(n).clone());
    }
    (nodes, run_of_graph_str)
}
