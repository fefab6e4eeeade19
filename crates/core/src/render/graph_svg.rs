//! The dependency graph as a standalone SVG file.

use super::{escape, palette};
use crate::layout::graph::{GraphLayout, NODE_H, NODE_W};
use crate::layout::graph_view::Curve;
use crate::view::RunView;
use std::fmt::Write;

fn r(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// Renders a laid-out graph: edges from each node to what it waited for,
/// the path's nodes and edges in the critical colour, groups dashed.
pub fn graph_svg(view: &RunView, g: &GraphLayout, title: &str) -> String {
    let mut s = String::new();
    let (w, h) = (r(g.width + 20.0), r(g.height + 20.0));
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="system-ui, sans-serif" font-size="10">"#
    );
    let _ = writeln!(s, "<title>{}</title>", escape(title));
    let _ = writeln!(s, r##"<rect x="0" y="0" width="{w}" height="{h}" fill="#ffffff"/>"##);
    for e in &g.edges {
        let (stroke, width) = if e.on_path { (palette::CRITICAL, 2.0) } else { ("#c4c8ce", 1.0) };
        let mut d = String::new();
        Curve::of(g, e).write_d(&mut d);
        let _ = writeln!(s, r#"<path d="{d}" fill="none" stroke="{stroke}" stroke-width="{width}"/>"#);
    }
    for n in &g.nodes {
        let kind = view.kinds.get(n.kind as usize);
        let fill = palette::fill(kind.and_then(|k| k.color.as_deref()), kind.map_or("", |k| k.name.as_str()));
        let stroke = if n.on_path { palette::CRITICAL } else { "#5f6368" };
        if n.small {
            let _ = writeln!(s, r#"<circle cx="{}" cy="{}" r="4" fill="{fill}" stroke="{stroke}"/>"#, r(n.x), r(n.y));
            continue;
        }
        let dash = if n.task.is_none() { r#" stroke-dasharray="4 2""# } else { "" };
        let _ = writeln!(
            s,
            r#"<rect x="{}" y="{}" width="{NODE_W}" height="{NODE_H}" rx="4" fill="{fill}" stroke="{stroke}" stroke-width="{}"{dash}/><text x="{}" y="{}">{}</text>"#,
            r(n.x - NODE_W / 2.0),
            r(n.y - NODE_H / 2.0),
            if n.on_path { 2 } else { 1 },
            r(n.x - NODE_W / 2.0 + 4.0),
            r(n.y + 3.5),
            escape(&n.label)
        );
    }
    s.push_str("</svg>\n");
    s
}
