//! Where the graph view looks: a camera over a [`GraphLayout`] (the
//! layout's point at the viewport's top left, and a scale), and the moves a
//! person makes with it — open on the path, zoom around the cursor, pan,
//! fit everything, fit one node, centre on a task.

use super::graph::{GraphLayout, GraphNode};
use serde::{Deserialize, Serialize};

/// Smallest and largest scale.
pub const MIN_SCALE: f64 = 0.001;
/// Largest scale.
pub const MAX_SCALE: f64 = 4.0;
/// The least scale the graph opens at, so that its 10 px labels stay
/// readable (8 px and up).
pub const READABLE_SCALE: f64 = 0.8;
/// Room kept around what is fitted, px of the viewport.
const MARGIN: f64 = 24.0;

/// The view's transform: layout point `(x, y)` at the viewport's top left,
/// `scale` viewport px per layout px.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Camera {
    /// Layout x at the viewport's left edge.
    pub x: f64,
    /// Layout y at the viewport's top edge.
    pub y: f64,
    /// Viewport px per layout px.
    pub scale: f64,
}

/// A box in layout px: left, top, right, bottom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// Left.
    pub x0: f64,
    /// Top.
    pub y0: f64,
    /// Right.
    pub x1: f64,
    /// Bottom.
    pub y1: f64,
}

impl Bounds {
    /// The box around `nodes`, or `None` if there are none.
    pub fn around<'a>(nodes: impl IntoIterator<Item = &'a GraphNode>) -> Option<Bounds> {
        nodes.into_iter().map(node_bounds).reduce(|a, b| Bounds {
            x0: a.x0.min(b.x0),
            y0: a.y0.min(b.y0),
            x1: a.x1.max(b.x1),
            y1: a.y1.max(b.y1),
        })
    }
}

/// The box one node takes.
fn node_bounds(n: &GraphNode) -> Bounds {
    let (hw, hh) = n.half_size();
    Bounds { x0: n.x - hw, y0: n.y - hh, x1: n.x + hw, y1: n.y + hh }
}

impl Camera {
    /// The camera that shows `b` whole in a `width` × `height` viewport,
    /// centred, at most at `max_scale`.
    pub fn fit(b: Bounds, width: f64, height: f64, max_scale: f64) -> Camera {
        let (w, h) = ((b.x1 - b.x0).max(1.0), (b.y1 - b.y0).max(1.0));
        let scale =
            ((width - 2.0 * MARGIN).max(1.0) / w).min((height - 2.0 * MARGIN).max(1.0) / h).clamp(MIN_SCALE, max_scale);
        Camera::centred((b.x0 + b.x1) / 2.0, (b.y0 + b.y1) / 2.0, scale, width, height)
    }

    /// The camera at `scale` with layout point `(cx, cy)` in the viewport's centre.
    pub fn centred(cx: f64, cy: f64, scale: f64, width: f64, height: f64) -> Camera {
        Camera { x: cx - width / 2.0 / scale, y: cy - height / 2.0 / scale, scale }
    }

    /// How the graph opens: on its path (the nodes marked `on_path`, with
    /// what each waited for and what waited for it, as the layout holds
    /// them), fitted if that keeps labels readable, else at the readable
    /// scale from the path's start; the whole graph when it has no path.
    pub fn opening(g: &GraphLayout, width: f64, height: f64) -> Camera {
        let Some(path) = Bounds::around(g.nodes.iter().filter(|n| n.on_path)) else {
            return Camera::everything(g, width, height);
        };
        let fitted = Camera::fit(path, width, height, 1.0);
        if fitted.scale >= READABLE_SCALE {
            return fitted;
        }
        let scale = READABLE_SCALE;
        let cy = (path.y0 + path.y1) / 2.0;
        let c = Camera::centred(0.0, cy, scale, width, height);
        Camera { x: path.x0 - MARGIN / scale, ..c }
    }

    /// Everything, fitted, at most at scale 1.
    pub fn everything(g: &GraphLayout, width: f64, height: f64) -> Camera {
        let b = Bounds::around(&g.nodes).unwrap_or(Bounds { x0: 0.0, y0: 0.0, x1: g.width, y1: g.height });
        Camera::fit(b, width, height, 1.0)
    }

    /// One node fitted: centred, at twice the readable scale.
    pub fn on_node(n: &GraphNode, width: f64, height: f64) -> Camera {
        Camera::centred(n.x, n.y, 2.0 * READABLE_SCALE, width, height)
    }

    /// This camera moved so that `n` is in the viewport's centre, scale kept.
    pub fn centre_on(self, n: &GraphNode, width: f64, height: f64) -> Camera {
        Camera::centred(n.x, n.y, self.scale, width, height)
    }

    /// Zoomed by `factor` around viewport point `(px, py)`, which stays put.
    pub fn zoom_at(self, factor: f64, px: f64, py: f64) -> Camera {
        let scale = (self.scale * factor).clamp(MIN_SCALE, MAX_SCALE);
        let (lx, ly) = (self.x + px / self.scale, self.y + py / self.scale);
        Camera { x: lx - px / scale, y: ly - py / scale, scale }
    }

    /// Panned by `(dx, dy)` viewport px (the content follows the pointer).
    pub fn pan(self, dx: f64, dy: f64) -> Camera {
        Camera { x: self.x - dx / self.scale, y: self.y - dy / self.scale, ..self }
    }

    /// The SVG `viewBox` for a `width` × `height` viewport.
    pub fn view_box(self, width: f64, height: f64) -> String {
        format!("{:.1} {:.1} {:.1} {:.1}", self.x, self.y, width / self.scale, height / self.scale)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(x: f64, y: f64, on_path: bool) -> GraphNode {
        GraphNode { task: Some(0), kind: 0, count: 1, label: String::new(), x, y, small: false, on_path }
    }

    fn graph(nodes: Vec<GraphNode>) -> GraphLayout {
        GraphLayout { nodes, width: 2000.0, height: 2000.0, ..GraphLayout::default() }
    }

    #[test]
    fn a_short_path_opens_fitted_and_centred() {
        // Path nodes span x 25..475 (centres 100 and 400, 150 wide), y 90..110.
        let g = graph(vec![node(100.0, 100.0, true), node(400.0, 100.0, true), node(1900.0, 1900.0, false)]);
        let c = Camera::opening(&g, 1000.0, 600.0);
        assert_eq!(c.scale, 1.0);
        assert_eq!((c.x + 500.0, c.y + 300.0), (250.0, 100.0));
    }

    #[test]
    fn a_long_path_opens_readable_from_its_start() {
        let g = graph((0..40).map(|i| node(100.0 + 190.0 * f64::from(i), 500.0, true)).collect());
        let c = Camera::opening(&g, 1000.0, 600.0);
        assert_eq!(c.scale, READABLE_SCALE);
        // The first node's left edge (25) is MARGIN px from the viewport's left.
        assert!(((25.0 - c.x) * c.scale - MARGIN).abs() < 1e-9, "{c:?}");
        assert!(((500.0 - c.y) * c.scale - 300.0).abs() < 1e-9, "{c:?}");
    }

    #[test]
    fn zooming_keeps_the_point_under_the_cursor() {
        let c = Camera { x: 10.0, y: 20.0, scale: 1.0 };
        let z = c.zoom_at(2.0, 300.0, 100.0);
        assert_eq!(z.scale, 2.0);
        assert_eq!((z.x + 300.0 / z.scale, z.y + 100.0 / z.scale), (310.0, 120.0));
        let p = z.pan(40.0, -20.0);
        assert_eq!((p.x, p.y), (z.x - 20.0, z.y + 10.0));
        assert_eq!(p.view_box(800.0, 400.0), "140.0 80.0 400.0 200.0");
    }

    #[test]
    fn everything_fits_inside_the_viewport() {
        let g = graph(vec![node(100.0, 100.0, false), node(3000.0, 900.0, false)]);
        let c = Camera::everything(&g, 1000.0, 600.0);
        for n in &g.nodes {
            let b = node_bounds(n);
            let (l, r) = ((b.x0 - c.x) * c.scale, (b.x1 - c.x) * c.scale);
            let (t, bo) = ((b.y0 - c.y) * c.scale, (b.y1 - c.y) * c.scale);
            assert!(l >= 0.0 && r <= 1000.0 && t >= 0.0 && bo <= 600.0, "{c:?}");
        }
    }
}
