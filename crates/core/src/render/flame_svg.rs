//! A flame graph (or icicle) as a standalone SVG file.

use super::{escape, palette};
use crate::layout::flame::FlameBox;
use crate::model::flame::FlameGraph;
use std::fmt::Write;

/// Width of the drawing, px.
pub const WIDTH: f64 = 1200.0;
/// Height of one frame, px.
pub const FRAME_H: f64 = 18.0;

/// A frame's fill: a warm colour picked by its name, so a frame keeps its
/// colour when zooming (the flame-graph convention).
pub fn frame_fill(name: &str, grouping: bool) -> String {
    if grouping {
        return "#d9d2e9".to_owned();
    }
    let h = name.bytes().fold(2166136261u32, |h, b| (h ^ u32::from(b)).wrapping_mul(16777619));
    let (r, g, b) = (205 + (h % 50), 80 + ((h >> 8) % 130), 30 + ((h >> 16) % 50));
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// What fits of `name` in `px` pixels (about 7 px a character), with `…` when cut.
pub fn fit_label(name: &str, px: f64) -> Option<String> {
    let chars = (px / 7.0).floor() as usize;
    if chars < 3 {
        return None;
    }
    let count = name.chars().count();
    Some(if count <= chars { name.to_owned() } else { name.chars().take(chars - 1).chain(['…']).collect() })
}

/// Renders frames laid out for measure `m`: the hottest path outlined in
/// the critical colour; `icicle` puts the root at the top instead of the
/// bottom.
pub fn flame_svg(graph: &FlameGraph, boxes: &[FlameBox], m: usize, icicle: bool, title: &str) -> String {
    let Some(measure) = graph.measures.get(m) else { return String::new() };
    let depth = boxes.iter().map(|b| b.depth + 1).max().unwrap_or(1);
    let h = f64::from(depth) * FRAME_H + 24.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{h}" viewBox="0 0 {WIDTH} {h}" font-family="system-ui, sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, "<title>{}</title>", escape(title));
    let _ = writeln!(s, r##"<rect x="0" y="0" width="{WIDTH}" height="{h}" fill="#ffffff"/>"##);
    let _ = writeln!(s, r#"<text x="4" y="14">{} — {}</text>"#, escape(title), escape(&measure.title));
    for b in boxes {
        let n = &graph.nodes[b.node as usize];
        let y = if icicle { 20.0 + f64::from(b.depth) * FRAME_H } else { h - f64::from(b.depth + 1) * FRAME_H };
        let (x, w) = (b.x * WIDTH, (b.width * WIDTH).max(0.5));
        let stroke =
            if b.hot { format!(r#" stroke="{}" stroke-width="1.5""#, palette::CRITICAL) } else { String::new() };
        let total = n.total.get(m).copied().flatten().map_or("-".to_owned(), |v| measure.unit.show(v));
        let own = n.self_time.get(m).copied().flatten().map_or("-".to_owned(), |v| measure.unit.show(v));
        let _ = write!(
            s,
            r#"<g><title>{} — total {total}, self {own}</title><rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{}" fill="{}"{stroke}/>"#,
            escape(&n.name),
            FRAME_H - 1.0,
            frame_fill(&n.name, n.grouping),
        );
        if let Some(label) = fit_label(&n.name, w - 6.0) {
            let _ = write!(s, r#"<text x="{:.1}" y="{:.1}">{}</text>"#, x + 3.0, y + 12.5, escape(&label));
        }
        s.push_str("</g>\n");
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_fit_and_fills_are_stable() {
        assert_eq!(fit_label("main|fib", 100.0).as_deref(), Some("main|fib"));
        assert_eq!(fit_label("sum_of_fibs|body", 50.0).as_deref(), Some("sum_of…"));
        assert_eq!(fit_label("x", 10.0), None);
        assert_eq!(frame_fill("main|fib", false), frame_fill("main|fib", false));
        assert_ne!(frame_fill("main|fib", false), frame_fill("main|main", false));
    }
}
