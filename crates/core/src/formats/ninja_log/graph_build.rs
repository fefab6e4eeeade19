//! A `.ninja_log`'s builds with their build graph: each build a run whose
//! edges wait for what `build.ninja` (and the deps log) says they waited for.
//!
//! Every record is matched to its manifest edge by its output, canonicalised
//! as ninja does; a record whose output no edge builds is a diagnostic
//! naming it. An edge that ran depends on the edges that ran in the same
//! build and build one of its inputs: explicit, implicit and order-only
//! (ninja waits for all three), and the inputs the deps log recorded for
//! its outputs (headers a compiler found). A `phony` edge never runs: what
//! waits for it waits for what it names, transitively. An edge that did
//! not run in the build was up to date and is not waited for: a rebuild's
//! path covers only what ran.

use super::deps_log::DepsLog;
use super::manifest::eval::{Graph, NO_EDGE};
use super::reconcile::{lay_build, BuildGraph, NinjaRun};
use super::weighted::{weigh, Weighted};
use super::{builds, targets, NinjaLog};
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::formats::ninja_log::canon::canonical;
use crate::hash::FastMap;
use crate::model::{Model, ModelBuilder, TaskId};

/// Under this share of the edges a plain `ninja` runs from nothing, a
/// build is called a rebuild.
const FEW: f64 = 0.5;

const NONE: u32 = u32::MAX;

/// For each graph node, the nodes the deps log recorded as its inputs that
/// some edge builds (only those can add an edge).
fn discovered(graph: &Graph, deps: Option<&DepsLog>) -> FastMap<u32, Vec<u32>> {
    let mut out = FastMap::default();
    let Some(deps) = deps else { return out };
    let node_of: Vec<u32> = deps.paths.iter().map(|p| graph.node(p).unwrap_or(NONE)).collect();
    for o in deps.outputs() {
        let node = node_of[o as usize];
        if node == NONE {
            continue;
        }
        let ins: Vec<u32> = deps
            .deps_of(o)
            .unwrap_or(&[])
            .iter()
            .map(|&i| node_of[i as usize])
            .filter(|&n| n != NONE && graph.producer[n as usize] != NO_EDGE)
            .collect();
        if !ins.is_empty() {
            out.insert(node, ins);
        }
    }
    out
}

/// How many edges a plain `ninja` would run from nothing: the non-phony
/// edges the `default` targets need, or, without any, those every root
/// (a node no edge takes as input) needs.
fn default_edges(graph: &Graph) -> u64 {
    let mut roots: Vec<u32> = graph.defaults.clone();
    if roots.is_empty() {
        let mut used = vec![false; graph.nodes.len()];
        for e in &graph.edges {
            for &n in &e.ins {
                used[n as usize] = true;
            }
        }
        roots = (0..graph.nodes.len() as u32).filter(|&n| !used[n as usize]).collect();
    }
    let mut seen = vec![false; graph.edges.len()];
    let mut count = 0;
    let mut todo: Vec<u32> = roots.iter().map(|&n| graph.producer[n as usize]).filter(|&e| e != NO_EDGE).collect();
    while let Some(e) = todo.pop() {
        if std::mem::replace(&mut seen[e as usize], true) {
            continue;
        }
        let edge = &graph.edges[e as usize];
        count += u64::from(!graph.is_phony(edge));
        todo.extend(edge.waits_for().iter().map(|&n| graph.producer[n as usize]).filter(|&p| p != NO_EDGE));
    }
    count
}

/// The tasks a phony edge stands for in one build, found without recursion.
struct Phony<'g> {
    graph: &'g Graph,
    /// 0 not seen, 1 being expanded (a cycle), 2 done.
    state: Vec<u8>,
    memo: FastMap<u32, Vec<TaskId>>,
}

impl<'g> Phony<'g> {
    fn new(graph: &'g Graph) -> Self {
        Phony { graph, state: vec![0; graph.edges.len()], memo: FastMap::default() }
    }

    fn expand(&mut self, edge: u32, task_of: &[u32]) -> &[TaskId] {
        if self.state[edge as usize] == 0 {
            let g = self.graph;
            let mut stack: Vec<(u32, usize, Vec<TaskId>)> = vec![(edge, 0, Vec::new())];
            self.state[edge as usize] = 1;
            while let Some((e, i, acc)) = stack.last_mut() {
                let ins = g.edges[*e as usize].waits_for();
                if let Some(&n) = ins.get(*i) {
                    *i += 1;
                    let q = g.producer[n as usize];
                    if q == NO_EDGE {
                        continue;
                    }
                    if task_of[q as usize] != NONE {
                        acc.push(TaskId(task_of[q as usize]));
                    } else if g.is_phony(&g.edges[q as usize]) {
                        match self.state[q as usize] {
                            0 => {
                                self.state[q as usize] = 1;
                                stack.push((q, 0, Vec::new()));
                            }
                            2 => acc.extend_from_slice(&self.memo[&q]),
                            _ => {}
                        }
                    }
                    continue;
                }
                let Some((e, _, mut acc)) = stack.pop() else { break };
                acc.sort_unstable();
                acc.dedup();
                self.state[e as usize] = 2;
                if let Some((_, _, parent)) = stack.last_mut() {
                    parent.extend_from_slice(&acc);
                }
                self.memo.insert(e, acc);
            }
        }
        self.memo.get(&edge).map_or(&[], Vec::as_slice)
    }
}

/// One dataset per build of `log`, its edges joined along `graph` (and
/// `deps`); the log's diagnostics go to `diags`.
pub fn reconcile(
    log: &NinjaLog,
    graph: &Graph,
    deps: Option<&DepsLog>,
    diags: &mut Diagnostics,
) -> Vec<(Model, NinjaRun)> {
    let split = builds(log);
    let discovered = discovered(graph, deps);
    let manifest_edges = graph.edges.iter().filter(|e| !graph.is_phony(e)).count() as u64;
    let default_edges = default_edges(graph);
    let count = split.builds.len();
    let mut out = Vec::with_capacity(count);
    for (n, records) in split.builds.iter().enumerate() {
        let edges = targets(log, records);
        let mut b = ModelBuilder::new();
        let (info, tasks) = lay_build(&mut b, &edges, records.len(), 0);
        if info.edges > 0 {
            b.window(info.start, info.start + info.wall);
        }
        // Each log edge's manifest edge, and each manifest edge's task.
        let mut task_of = vec![NONE; graph.edges.len()];
        let mut edge_of = vec![NONE; tasks.len()];
        let mut unmatched: Vec<&str> = Vec::new();
        for (t, target) in edges.iter().enumerate() {
            for output in &target.outputs {
                let producer = graph.node(&canonical(output)).map_or(NO_EDGE, |n| graph.producer[n as usize]);
                if producer == NO_EDGE {
                    unmatched.push(output);
                } else if edge_of[t] == NONE {
                    edge_of[t] = producer;
                    task_of[producer as usize] = tasks[t].0;
                }
            }
        }
        if !unmatched.is_empty() {
            let line_of: FastMap<&str, u64> =
                records.iter().map(|&i| (log.records[i].output.as_str(), log.records[i].line)).collect();
            for output in &unmatched {
                diags.report(
                    Severity::Warning,
                    "ninja.unmatched",
                    Position::Line(line_of.get(output).copied().unwrap_or(0)),
                    format!("no edge of the manifest builds `{output}`: this edge has no dependencies"),
                );
            }
        }
        let mut phony = Phony::new(graph);
        let (mut dependencies, mut from_deps_log) = (0u64, 0u64);
        for (t, &e) in edge_of.iter().enumerate() {
            if e == NONE {
                continue;
            }
            let edge = &graph.edges[e as usize];
            let mut waits: Vec<TaskId> = Vec::new();
            let add = |nodes: &[u32], waits: &mut Vec<TaskId>, phony: &mut Phony<'_>| {
                for &node in nodes {
                    let p = graph.producer[node as usize];
                    if p == NO_EDGE {
                        continue;
                    }
                    if task_of[p as usize] != NONE {
                        waits.push(TaskId(task_of[p as usize]));
                    } else if graph.is_phony(&graph.edges[p as usize]) {
                        waits.extend_from_slice(phony.expand(p, &task_of));
                    }
                }
            };
            add(edge.waits_for(), &mut waits, &mut phony);
            let declared = {
                let mut d = waits.clone();
                d.sort_unstable();
                d.dedup();
                d
            };
            for o in &edge.outs {
                if let Some(found) = discovered.get(o) {
                    add(found, &mut waits, &mut phony);
                }
            }
            waits.sort_unstable();
            waits.dedup();
            waits.retain(|&d| d != tasks[t]);
            from_deps_log += waits.iter().filter(|d| declared.binary_search(d).is_err()).count() as u64;
            dependencies += waits.len() as u64;
            for d in waits {
                b.depends(tasks[t], d);
            }
        }
        let Weighted { weighted, by_extension } = weigh(&edges, &tasks, tasks.len());
        let ran = edges.len() as u64;
        let graph_info = BuildGraph {
            build: n as u64 + 1,
            builds: count as u64,
            manifest_edges,
            default_edges,
            unmatched: unmatched.len() as u64,
            dependencies,
            from_deps_log,
            rebuild: (ran as f64) < FEW * default_edges as f64,
            weighted,
            by_extension,
        };
        let run = NinjaRun {
            version: log.version,
            recompacted: split.recompacted,
            builds: vec![info],
            graph: Some(graph_info),
            weighted: None,
        };
        out.push((b.build(), run));
    }
    out
}
