//! A flame graph's frames as boxes: each frame as wide as its total for one
//! timing kind, its children side by side within it, from a chosen root
//! (zooming in is choosing a deeper root). Flame (root at the bottom) and
//! icicle (root at the top) differ only in which way depth grows, which the
//! renderer decides.

use crate::model::flame::FlameGraph;
use serde::{Deserialize, Serialize};

/// Narrowest frame laid out, as a fraction of the root's width; narrower
/// frames (and their children) are left out.
pub const MIN_WIDTH: f64 = 0.0005;

/// One frame placed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlameBox {
    /// The node in [`FlameGraph::nodes`].
    pub node: u32,
    /// Depth below the root (the root is 0).
    pub depth: u32,
    /// Left edge, 0..1 of the root's width.
    pub x: f64,
    /// Width, 0..1.
    pub width: f64,
    /// On the hottest path from the root.
    pub hot: bool,
}

/// The frames under `root` (itself first), widths by measure `m`'s totals.
/// A frame without a value of that measure has no width and is left out.
pub fn layout(graph: &FlameGraph, m: usize, root: u32) -> Vec<FlameBox> {
    let total = |n: u32| graph.nodes.get(n as usize).and_then(|n| n.total.get(m).copied().flatten()).unwrap_or(0);
    let root_total = total(root);
    if root_total == 0 {
        return Vec::new();
    }
    let hot: Vec<u32> = graph.hottest_path_from(m, root);
    let mut out = Vec::new();
    let mut stack = vec![(root, 0u32, 0.0f64)];
    while let Some((node, depth, x)) = stack.pop() {
        let width = total(node) as f64 / root_total as f64;
        if width < MIN_WIDTH {
            continue;
        }
        out.push(FlameBox { node, depth, x, width, hot: hot.get(depth as usize) == Some(&node) });
        let mut cx = x;
        let children = &graph.nodes[node as usize].children;
        let mut placed = Vec::with_capacity(children.len());
        for &c in children {
            placed.push((c, depth + 1, cx));
            cx += total(c) as f64 / root_total as f64;
        }
        // Children come out in order: push them reversed.
        stack.extend(placed.into_iter().rev());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::flame::FlameNode;

    fn node(name: &str, parent: Option<u32>, children: Vec<u32>, total: u64) -> FlameNode {
        FlameNode {
            name: name.into(),
            path: name.into(),
            parent,
            children,
            grouping: false,
            total: [Some(total), None, None, None],
            self_time: [Some(0), None, None, None],
        }
    }

    #[test]
    fn children_share_their_parent_s_width_in_order() {
        let g = FlameGraph {
            nodes: vec![
                node("all", None, vec![1, 2], 100),
                node("a", Some(0), vec![3], 60),
                node("b", Some(0), vec![], 40),
                node("c", Some(1), vec![], 30),
            ]
            .into(),
            warnings: vec![],
            measures: vec![],
        };
        let boxes = layout(&g, 0, 0);
        let got: Vec<(u32, u32, f64, f64, bool)> =
            boxes.iter().map(|b| (b.node, b.depth, b.x, b.width, b.hot)).collect();
        assert_eq!(
            got,
            [(0, 0, 0.0, 1.0, true), (1, 1, 0.0, 0.6, true), (3, 2, 0.0, 0.3, true), (2, 1, 0.6, 0.4, false)]
        );
        // Zoomed into `a`: it is the whole width.
        let zoomed = layout(&g, 0, 1);
        assert_eq!(zoomed[0].width, 1.0);
        assert_eq!(zoomed[1].width, 0.5);
        // No cpu values: nothing to draw.
        assert!(layout(&g, 1, 0).is_empty());
    }
}
