//! The dependency graph as layers: a layered DAG layout (Sugiyama style).
//!
//! 1. **Choice.** Small graphs are drawn whole. Past [`GraphOptions::max_nodes`]
//!    the path and its direct neighbourhood (what each step waited for and
//!    what waited for it) are drawn, and every other task is folded into a
//!    group per type that says how many it holds; a group can be expanded.
//! 2. **Layers.** Longest-path layering: a task sits one layer right of the
//!    latest of its dependencies, so time flows left to right. Edges that
//!    close a cycle are ignored.
//! 3. **Order.** Barycentric crossing reduction: a few sweeps right and left,
//!    each placing a node at the mean position of its neighbours.
//! 4. **Coordinates.** Each layer's nodes stacked, the layers shifted so
//!    that the path runs along one horizontal line (a layer without a path
//!    node centred on it).

use crate::model::{Model, Role, TaskId};
use serde::{Deserialize, Serialize};

/// What to lay out.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct GraphOptions {
    /// Largest graph drawn whole; bigger ones are folded. Default 2,000.
    pub max_nodes: usize,
    /// Groups (by kind index) to unfold, up to [`GraphOptions::max_unfold`] tasks each.
    pub unfold: Vec<u32>,
    /// Most tasks one unfolded group adds. Default 300.
    pub max_unfold: usize,
}

impl Default for GraphOptions {
    fn default() -> Self {
        GraphOptions { max_nodes: 2_000, unfold: Vec::new(), max_unfold: 300 }
    }
}

impl GraphOptions {
    /// Options that unfold these groups.
    pub fn unfolding(unfold: Vec<u32>) -> Self {
        GraphOptions { unfold, ..Self::default() }
    }
}

/// A node of the drawing: a task, or a folded group of tasks of one kind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GraphNode {
    /// The task, for a task node.
    pub task: Option<u32>,
    /// The kind (for a group: the kind of all its tasks).
    pub kind: u32,
    /// How many tasks it stands for (1 for a task).
    pub count: u32,
    /// What to write in it.
    pub label: String,
    /// Centre x, px.
    pub x: f64,
    /// Centre y, px.
    pub y: f64,
    /// A transfer (drawn small).
    pub small: bool,
    /// On the path.
    pub on_path: bool,
}

impl GraphNode {
    /// Half its drawn width and height, px: a transfer is a dot of 8 px,
    /// anything else a box of [`NODE_W`] × [`NODE_H`].
    pub fn half_size(&self) -> (f64, f64) {
        if self.small {
            (4.0, 4.0)
        } else {
            (NODE_W / 2.0, NODE_H / 2.0)
        }
    }
}

/// An edge of the drawing, from a node to one it waited for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GraphEdge {
    /// Index of the waiting node in [`GraphLayout::nodes`].
    pub from: u32,
    /// Index of the node waited for.
    pub to: u32,
    /// Joins two consecutive steps of the path.
    pub on_path: bool,
}

/// The laid-out graph.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GraphLayout {
    /// The nodes.
    pub nodes: Vec<GraphNode>,
    /// The edges.
    pub edges: Vec<GraphEdge>,
    /// Width, px.
    pub width: f64,
    /// Height, px.
    pub height: f64,
    /// Tasks folded into groups.
    pub hidden: usize,
}

/// Horizontal distance between layers, px.
pub const LAYER_GAP: f64 = 190.0;
/// Vertical distance between nodes of a layer, px.
pub const NODE_GAP: f64 = 30.0;
/// Width of a task node, px.
pub const NODE_W: f64 = 150.0;
/// Height of a task node, px.
pub const NODE_H: f64 = 20.0;

/// Lays out the dependencies of `model`, highlighting `path` (first step first).
pub fn layout(model: &Model, path: &[TaskId], opts: &GraphOptions) -> GraphLayout {
    let n = model.tasks().len();
    let drawable = |t: TaskId| model.task(t).role != Role::Phase;
    let mut shown = vec![false; n];
    let mut hidden = 0usize;
    let all = (0..n as u32).map(TaskId).filter(|&t| drawable(t)).count();
    if all <= opts.max_nodes {
        for t in (0..n as u32).map(TaskId).filter(|&t| drawable(t)) {
            shown[t.index()] = true;
        }
    } else {
        let on_path: Vec<bool> = {
            let mut v = vec![false; n];
            path.iter().for_each(|t| v[t.index()] = true);
            v
        };
        for &t in path {
            shown[t.index()] = true;
            for &d in model.deps(t) {
                shown[d.index()] = true;
            }
        }
        for t in (0..n as u32).map(TaskId) {
            if model.deps(t).iter().any(|d| on_path[d.index()]) {
                shown[t.index()] = true;
            }
        }
        let mut unfolded = vec![0usize; model.kinds().len()];
        for t in (0..n as u32).map(TaskId) {
            if !drawable(t) || shown[t.index()] {
                continue;
            }
            let k = model.task(t).kind.0;
            if opts.unfold.contains(&k) && unfolded[k as usize] < opts.max_unfold {
                unfolded[k as usize] += 1;
                shown[t.index()] = true;
            }
        }
        hidden = (0..n).filter(|&i| drawable(TaskId(i as u32)) && !shown[i]).count();
    }

    // Nodes: shown tasks, then one group per kind of the hidden ones.
    let mut node_of: Vec<u32> = vec![u32::MAX; n];
    let mut nodes: Vec<GraphNode> = Vec::new();
    let on_path: Vec<bool> = {
        let mut v = vec![false; n];
        path.iter().for_each(|t| v[t.index()] = true);
        v
    };
    for t in (0..n as u32).map(TaskId).filter(|t| shown[t.index()]) {
        let task = model.task(t);
        node_of[t.index()] = nodes.len() as u32;
        let kind = &model.kinds()[task.kind.index()].name;
        let label = match task.role {
            Role::Transfer => String::new(),
            Role::Setup => short(kind),
            _ => short(&format!("{kind} {}", model.label(t).rsplit('/').next().unwrap_or_default())),
        };
        nodes.push(GraphNode {
            task: Some(t.0),
            kind: task.kind.0,
            count: 1,
            label,
            x: 0.0,
            y: 0.0,
            small: task.role == Role::Transfer,
            on_path: on_path[t.index()],
        });
    }
    let mut group_of_kind: Vec<u32> = vec![u32::MAX; model.kinds().len()];
    for t in (0..n as u32).map(TaskId).filter(|&t| drawable(t) && !shown[t.index()]) {
        let k = model.task(t).kind.index();
        if group_of_kind[k] == u32::MAX {
            group_of_kind[k] = nodes.len() as u32;
            nodes.push(GraphNode {
                task: None,
                kind: k as u32,
                count: 0,
                label: String::new(),
                x: 0.0,
                y: 0.0,
                small: false,
                on_path: false,
            });
        }
        let g = group_of_kind[k];
        nodes[g as usize].count += 1;
        node_of[t.index()] = g;
    }
    for node in nodes.iter_mut().filter(|n| n.task.is_none()) {
        node.label = format!("{} × {} more", model.kinds()[node.kind as usize].name, node.count);
    }

    // Edges between drawn nodes (deduplicated; groups absorb their members' edges).
    let mut edges: Vec<GraphEdge> = Vec::new();
    let mut seen = crate::hash::FastSet::default();
    let path_pairs: crate::hash::FastSet<(u32, u32)> = path.windows(2).map(|w| (w[1].0, w[0].0)).collect();
    for t in (0..n as u32).map(TaskId).filter(|&t| drawable(t)) {
        let from = node_of[t.index()];
        for &d in model.deps(t) {
            let to = node_of[d.index()];
            if from == u32::MAX || to == u32::MAX || from == to || !seen.insert((from, to)) {
                continue;
            }
            edges.push(GraphEdge { from, to, on_path: path_pairs.contains(&(t.0, d.0)) });
        }
    }

    // Layers come from the edges between tasks; a folded group sits right of
    // the tasks it waited for (groups can wait for each other in circles).
    let between_tasks: Vec<GraphEdge> = edges
        .iter()
        .copied()
        .filter(|e| nodes[e.from as usize].task.is_some() && nodes[e.to as usize].task.is_some())
        .collect();
    let mut layers = layering(nodes.len(), &between_tasks);
    for e in &edges {
        if nodes[e.from as usize].task.is_none() && nodes[e.to as usize].task.is_some() {
            layers[e.from as usize] = layers[e.from as usize].max(layers[e.to as usize] + 1);
        }
    }
    let order = crossing_reduction(&layers, &edges);
    let layer_count = layers.iter().copied().max().map_or(0, |m| m + 1);
    // The path runs along one line: each layer is shifted so that its path
    // node (or, without one, its middle) sits on it, the rest above and below.
    let rows_above: Vec<f64> = order
        .iter()
        .map(|col| match col.iter().position(|&n| nodes[n as usize].on_path) {
            Some(p) => p as f64 + 0.5,
            None => col.len() as f64 / 2.0,
        })
        .collect();
    let line = rows_above.iter().copied().fold(0.0, f64::max) * NODE_GAP;
    let mut height: f64 = 0.0;
    for (layer, col) in order.iter().enumerate() {
        let top = line - rows_above[layer] * NODE_GAP;
        height = height.max(top + col.len() as f64 * NODE_GAP);
        for (i, &node) in col.iter().enumerate() {
            let nd = &mut nodes[node as usize];
            nd.x = NODE_W / 2.0 + 10.0 + layer as f64 * LAYER_GAP;
            nd.y = top + (i as f64 + 0.5) * NODE_GAP;
        }
    }
    let width = layer_count as f64 * LAYER_GAP + NODE_W / 2.0;
    GraphLayout { nodes, edges, width, height: height.max(NODE_GAP), hidden }
}

/// Shortens a label to fit a node.
fn short(s: &str) -> String {
    if s.chars().count() > 26 {
        s.chars().take(25).chain(['…']).collect()
    } else {
        s.to_owned()
    }
}

/// Longest-path layering: each node one layer right of its deepest
/// dependency; edges that close a cycle are ignored (iterative DFS).
/// Nodes without edges sit in layer 0.
fn layering(n: usize, edges: &[GraphEdge]) -> Vec<usize> {
    let mut out: Vec<Vec<u32>> = vec![Vec::new(); n];
    for e in edges {
        out[e.from as usize].push(e.to);
    }
    let mut layer: Vec<Option<usize>> = vec![None; n];
    let mut on_stack = vec![false; n];
    for root in 0..n {
        if layer[root].is_some() {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        on_stack[root] = true;
        while let Some(&mut (v, ref mut i)) = stack.last_mut() {
            if let Some(&d) = out[v].get(*i) {
                *i += 1;
                let d = d as usize;
                if layer[d].is_none() && !on_stack[d] {
                    on_stack[d] = true;
                    stack.push((d, 0));
                }
                continue;
            }
            let l = out[v].iter().filter_map(|&d| layer[d as usize]).max().map_or(0, |m| m + 1);
            layer[v] = Some(l);
            on_stack[v] = false;
            stack.pop();
        }
    }
    layer.into_iter().map(|l| l.unwrap_or(0)).collect()
}

/// Orders each layer by the barycentre of its neighbours' positions, sweeping
/// left to right and back a few times.
fn crossing_reduction(layers: &[usize], edges: &[GraphEdge]) -> Vec<Vec<u32>> {
    let count = layers.iter().copied().max().map_or(0, |m| m + 1);
    let mut order: Vec<Vec<u32>> = vec![Vec::new(); count];
    for (node, &l) in layers.iter().enumerate() {
        order[l].push(node as u32);
    }
    let mut neighbours: Vec<Vec<u32>> = vec![Vec::new(); layers.len()];
    for e in edges {
        neighbours[e.from as usize].push(e.to);
        neighbours[e.to as usize].push(e.from);
    }
    let mut pos = vec![0.0f64; layers.len()];
    let place = |order: &Vec<Vec<u32>>, pos: &mut Vec<f64>| {
        for col in order {
            for (i, &n) in col.iter().enumerate() {
                pos[n as usize] = i as f64 / col.len().max(1) as f64;
            }
        }
    };
    place(&order, &mut pos);
    for sweep in 0..6 {
        let layers_in_order: Vec<usize> =
            if sweep % 2 == 0 { (1..count).collect() } else { (0..count.saturating_sub(1)).rev().collect() };
        for l in layers_in_order {
            let mut keyed: Vec<(f64, u32)> = order[l]
                .iter()
                .map(|&n| {
                    let ns = &neighbours[n as usize];
                    let b = if ns.is_empty() {
                        pos[n as usize]
                    } else {
                        ns.iter().map(|&m| pos[m as usize]).sum::<f64>() / ns.len() as f64
                    };
                    (b, n)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            order[l] = keyed.into_iter().map(|(_, n)| n).collect();
            for (i, &n) in order[l].iter().enumerate() {
                pos[n as usize] = i as f64 / order[l].len().max(1) as f64;
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::read_bytes;

    fn example() -> Model {
        let log = std::fs::read(crate::test_support::corpus("distbuild/example.log")).unwrap();
        crate::reconcile(vec![read_bytes("example.log", &log, 4096).unwrap()]).datasets.remove(0).model
    }

    #[test]
    fn dependencies_sit_left_of_what_waits_for_them() {
        let m = example();
        let g = layout(&m, &[], &GraphOptions::default());
        assert_eq!(g.nodes.len(), m.tasks().len());
        assert_eq!(g.hidden, 0);
        for e in &g.edges {
            assert!(g.nodes[e.from as usize].x > g.nodes[e.to as usize].x, "{e:?}");
        }
    }

    #[test]
    fn big_graphs_fold_into_groups_around_the_path() {
        let m = example();
        let path = [TaskId(0), TaskId(8)];
        let opts = GraphOptions { max_nodes: 3, ..GraphOptions::default() };
        let g = layout(&m, &path, &opts);
        assert!(g.hidden > 0);
        let folded: u32 = g.nodes.iter().filter(|n| n.task.is_none()).map(|n| n.count).sum();
        assert_eq!(folded as usize, g.hidden);
        assert!(g.nodes.iter().filter(|n| n.on_path).count() == 2);
        let unfolded = layout(&m, &path, &GraphOptions { max_nodes: 3, unfold: vec![0, 1, 2, 3], max_unfold: 100 });
        assert_eq!(unfolded.hidden, 0);
    }
}
