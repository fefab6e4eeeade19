//! What one view of the graph draws: the nodes inside the camera's
//! viewport (with a margin), whether labels are readable at its scale, and
//! the visible edges as two SVG path texts (faint, and on the path). A big
//! graph then costs the page what is on screen, not what was laid out, and
//! its edges cost two elements however many there are. A browser takes
//! about 20 µs to paint one faint curve, so a view draws at most
//! [`EDGE_BUDGET`] of them: first those with both ends in view, then one,
//! then those only passing through; the path's edges always. Past
//! [`NODE_BUDGET`] nodes in view, the nodes are drawn as one path of boxes
//! per kind ([`GraphView::blocks`]), found under the pointer by [`node_at`]
//! instead of by their elements.

use super::graph::{GraphEdge, GraphLayout, GraphNode, NODE_H};
use super::graph_camera::Camera;
use std::fmt::Write;

/// Below this many screen px of node height, labels are not drawn.
const LABEL_MIN_PX: f64 = 6.0;
/// How far past the viewport a view still draws, as a share of its size,
/// so that a small pan shows no empty edge while the next view is made.
const OVERSCAN: f64 = 0.25;
/// The most faint edges one view draws (about 30 ms of painting).
pub const EDGE_BUDGET: usize = 1_500;
/// The most nodes one view draws as elements of their own.
pub const NODE_BUDGET: usize = 2_000;

/// One edge's curve: from the waiting node's left side to the right side of
/// what it waited for, a horizontal S between them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Curve {
    /// Start x (the waiting node's left side).
    pub x1: f64,
    /// Start y.
    pub y1: f64,
    /// End x (the node waited for, its right side).
    pub x2: f64,
    /// End y.
    pub y2: f64,
}

impl Curve {
    /// The curve of `e` in `g`.
    pub fn of(g: &GraphLayout, e: &GraphEdge) -> Curve {
        let (a, b) = (&g.nodes[e.from as usize], &g.nodes[e.to as usize]);
        Curve { x1: a.x - a.half_size().0, y1: a.y, x2: b.x + b.half_size().0, y2: b.y }
    }

    /// Appends the curve as SVG path commands (`M… C…`), to 0.1 px.
    pub fn write_d(&self, out: &mut String) {
        let mid = (self.x1 + self.x2) / 2.0;
        // Writing to a String cannot fail.
        let _ = write!(
            out,
            "M{} {} C{} {} {} {} {} {}",
            tenth(self.x1),
            tenth(self.y1),
            tenth(mid),
            tenth(self.y1),
            tenth(mid),
            tenth(self.y2),
            tenth(self.x2),
            tenth(self.y2)
        );
    }
}

/// Rounded to a tenth of a px.
fn tenth(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// The box a node takes: left, top, right, bottom.
fn node_box(n: &GraphNode) -> [f64; 4] {
    let (hw, hh) = n.half_size();
    [n.x - hw, n.y - hh, n.x + hw, n.y + hh]
}

/// The node at layout point `(x, y)`, if any (the last drawn, if several).
pub fn node_at(g: &GraphLayout, x: f64, y: f64) -> Option<usize> {
    g.nodes.iter().rposition(|n| {
        let [x0, y0, x1, y1] = node_box(n);
        (x0..=x1).contains(&x) && (y0..=y1).contains(&y)
    })
}

/// Nodes of one kind drawn as one path of boxes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Blocks {
    /// Their kind.
    pub kind: u32,
    /// Folded groups.
    pub group: bool,
    /// On the path.
    pub on_path: bool,
    /// How many.
    pub count: usize,
    /// Their boxes as SVG path commands.
    pub d: String,
}

/// What one view draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GraphView {
    /// Indices of the nodes to draw as elements, in layout order.
    pub nodes: Vec<u32>,
    /// The nodes in view when they are more than [`NODE_BUDGET`]: per
    /// kind, whether they are groups and whether on the path, their boxes
    /// as one SVG path text.
    pub blocks: Vec<Blocks>,
    /// The faint edges' path text.
    pub faint: String,
    /// The path edges' path text.
    pub path: String,
    /// How many edges are drawn.
    pub edges: usize,
    /// How many edges cross the view, drawn or not.
    pub edges_in_view: usize,
    /// Whether labels are big enough to read.
    pub labels: bool,
}

/// What `camera` shows of `g` in a `width` × `height` px viewport.
pub fn graph_view(g: &GraphLayout, camera: Camera, width: f64, height: f64) -> GraphView {
    let (w, h) = (width / camera.scale, height / camera.scale);
    let (x0, y0) = (camera.x - OVERSCAN * w, camera.y - OVERSCAN * h);
    let (x1, y1) = (camera.x + (1.0 + OVERSCAN) * w, camera.y + (1.0 + OVERSCAN) * h);
    let seen = |ax: f64, ay: f64, bx: f64, by: f64| {
        ax.min(bx) <= x1 && ax.max(bx) >= x0 && ay.min(by) <= y1 && ay.max(by) >= y0
    };
    let in_view: Vec<u32> = (0u32..)
        .zip(&g.nodes)
        .filter(|(_, n)| {
            let b = node_box(n);
            seen(b[0], b[1], b[2], b[3])
        })
        .map(|(i, _)| i)
        .collect();
    let mut view = GraphView { labels: NODE_H * camera.scale >= LABEL_MIN_PX, ..GraphView::default() };
    if in_view.len() <= NODE_BUDGET {
        view.nodes = in_view;
    } else {
        let mut blocks = std::collections::BTreeMap::<(u32, bool, bool), Blocks>::new();
        for i in in_view {
            let n = &g.nodes[i as usize];
            let [bx0, by0, bx1, by1] = node_box(n);
            let key = (n.kind, n.task.is_none(), n.on_path);
            let b = blocks.entry(key).or_insert_with(|| Blocks {
                kind: key.0,
                group: key.1,
                on_path: key.2,
                ..Blocks::default()
            });
            b.count += 1;
            // Writing to a String cannot fail.
            let _ = write!(
                b.d,
                "M{} {}h{}v{}h-{}z",
                tenth(bx0),
                tenth(by0),
                tenth(bx1 - bx0),
                tenth(by1 - by0),
                tenth(bx1 - bx0)
            );
        }
        view.blocks = blocks.into_values().collect();
    }
    let inside = |x: f64, y: f64| (x0..=x1).contains(&x) && (y0..=y1).contains(&y);
    // Faint edges in view by how many of their ends are in it: 2, 1, 0.
    let mut faint: [Vec<Curve>; 3] = Default::default();
    for e in &g.edges {
        let c = Curve::of(g, e);
        if !seen(c.x1, c.y1, c.x2, c.y2) {
            continue;
        }
        view.edges_in_view += 1;
        if e.on_path {
            c.write_d(&mut view.path);
            view.edges += 1;
        } else {
            faint[2 - usize::from(inside(c.x1, c.y1)) - usize::from(inside(c.x2, c.y2))].push(c);
        }
    }
    for c in faint.iter().flatten().take(EDGE_BUDGET) {
        c.write_d(&mut view.faint);
        view.edges += 1;
    }
    view
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(x: f64, y: f64) -> GraphNode {
        GraphNode { task: Some(0), kind: 0, count: 1, label: String::new(), x, y, small: false, on_path: false }
    }

    /// A row of 100 nodes 190 px apart, each waiting for the one before.
    fn row() -> GraphLayout {
        let nodes = (0..100).map(|i| node(100.0 + 190.0 * f64::from(i), 50.0)).collect();
        let edges = (1..100).map(|i| GraphEdge { from: i, to: i - 1, on_path: i < 3 }).collect();
        GraphLayout { nodes, edges, width: 19_000.0, height: 100.0, hidden: 0 }
    }

    #[test]
    fn a_view_draws_what_it_shows_and_a_margin_only() {
        let g = row();
        // 950 layout px wide from x = 1900: nodes 10..=14 on screen, the
        // overscan adds a quarter width (237.5 px) each side.
        let v = graph_view(&g, Camera { x: 1900.0, y: 0.0, scale: 1.0 }, 950.0, 100.0);
        assert_eq!(v.nodes, (8..=16).collect::<Vec<_>>());
        assert_eq!((v.edges, v.edges_in_view), (8, 8));
        assert!(v.path.is_empty());
        assert!(v.labels);
    }

    #[test]
    fn edges_split_into_faint_and_path_and_labels_go_when_small() {
        let g = row();
        let v = graph_view(&g, Camera::everything(&g, 1000.0, 600.0), 1000.0, 600.0);
        assert_eq!(v.nodes.len(), 100);
        assert_eq!(v.edges, 99);
        assert_eq!(v.path.matches('M').count(), 2);
        assert_eq!(v.faint.matches('M').count(), 97);
        assert!(!v.labels, "19,000 px fitted into 1,000 leaves labels unreadable");
    }

    #[test]
    fn a_view_draws_at_most_the_budget_of_faint_edges_those_inside_first() {
        // A column of 3,000 nodes on the left, each waited for by a node far
        // to the right, outside the view, and by its neighbour below.
        let mut g = GraphLayout::default();
        for i in 0..3000 {
            g.nodes.push(node(100.0, 30.0 * f64::from(i)));
            g.nodes.push(node(1_000_000.0, 30.0 * f64::from(i)));
        }
        for i in 0..3000u32 {
            g.edges.push(GraphEdge { from: 2 * i + 1, to: 2 * i, on_path: i == 7 });
            if i > 0 {
                g.edges.push(GraphEdge { from: 2 * i, to: 2 * i - 2, on_path: false });
            }
        }
        let camera = Camera { x: 0.0, y: 0.0, scale: 0.01 };
        let v = graph_view(&g, camera, 1000.0, 1000.0);
        assert_eq!(v.edges_in_view, 5999);
        assert_eq!(v.edges, EDGE_BUDGET + 1, "the budget, and the path's edge");
        assert_eq!(v.path.matches('M').count(), 1);
        // The column's own edges (both ends in view) come first: no curve
        // drawn reaches x = 1,000,000 - 75.
        assert!(!v.faint.contains("999925"));
    }

    #[test]
    fn past_the_budget_nodes_become_blocks_per_kind_found_by_position() {
        let mut g = GraphLayout::default();
        for i in 0..3000u32 {
            let mut n = node(100.0, 30.0 * f64::from(i));
            n.kind = i % 3;
            n.on_path = i == 5;
            g.nodes.push(n);
        }
        let v = graph_view(&g, Camera::everything(&g, 1000.0, 1000.0), 1000.0, 1000.0);
        assert!(v.nodes.is_empty());
        let kinds = v.blocks.iter().map(|b| (b.kind, b.group, b.on_path, b.count)).collect::<Vec<_>>();
        assert_eq!(
            kinds,
            vec![(0, false, false, 1000), (1, false, false, 1000), (2, false, false, 999), (2, false, true, 1)]
        );
        assert_eq!(v.blocks.iter().map(|b| b.d.matches('M').count()).sum::<usize>(), 3000);
        assert!(v.blocks[0].d.starts_with("M25 -10h150v20h-150z"));
        assert_eq!(node_at(&g, 30.0, 305.0), Some(10));
        assert_eq!(node_at(&g, 180.0, 305.0), None);
    }

    #[test]
    fn a_curve_reads_as_svg() {
        let g = row();
        let mut d = String::new();
        Curve::of(&g, &g.edges[0]).write_d(&mut d);
        assert_eq!(d, "M215 50 C195 50 195 50 175 50");
    }
}
