//! The timeline as a standalone SVG file: styles inline, every name
//! escaped, readable offline in any browser or editor.

use super::{escape, palette};
use crate::layout::timeline::{ticks, Frame, RowBars, Viewport};
use crate::numbers::duration_label;
use crate::view::{PathView, RunView};
use std::fmt::Write;

/// Rounds a coordinate to one decimal, for stable output.
fn r(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// Renders the rows' bars in `viewport`, with `path` highlighted, joined by
/// arrows, its idle gaps hatched and labelled.
pub fn timeline_svg(view: &RunView, rows: &[RowBars], viewport: Viewport, path: &PathView, title: &str) -> String {
    let frame = Frame::new(&view.rows_per_lane);
    let (gx, width, height) = (frame.gutter, frame.gutter + viewport.width, frame.height());
    let origin = view.window.map_or(viewport.start, |w| w.0);
    let x = |t: i64| gx + viewport.x(t);
    let clamp = |v: f64| v.clamp(gx, width);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" font-family="system-ui, sans-serif" font-size="11">"#,
        r(width),
        r(height),
        r(width),
        r(height)
    );
    let _ = writeln!(s, "<title>{}</title>", escape(title));
    s.push_str(concat!(
        r#"<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">"#,
        r#"<path d="M0,0 L10,5 L0,10 z" fill=""#,
    ));
    s.push_str(palette::CRITICAL);
    s.push_str(r#""/></marker><pattern id="wait" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="none"/><line x1="0" y1="0" x2="0" y2="6" stroke=""#);
    s.push_str(palette::WAITING);
    s.push_str("\" stroke-width=\"2\"/></pattern></defs>\n");
    let _ = writeln!(s, r##"<rect x="0" y="0" width="{}" height="{}" fill="#ffffff"/>"##, r(width), r(height));
    for (t, label) in ticks(viewport, origin) {
        let tx = r(x(t));
        let _ = writeln!(
            s,
            r##"<line x1="{tx}" y1="{}" x2="{tx}" y2="{}" stroke="#e3e5e8"/><text x="{}" y="14" fill="#5f6368">{}</text>"##,
            r(frame.axis - 4.0),
            r(height),
            r(tx + 2.0),
            escape(&label)
        );
    }
    for (lane, name) in view.lanes.iter().enumerate() {
        let y = frame.lane_y(lane as u32);
        let short: String =
            if name.chars().count() > 28 { name.chars().take(27).chain(['…']).collect() } else { name.clone() };
        let _ = writeln!(
            s,
            r##"<line x1="0" y1="{}" x2="{}" y2="{}" stroke="#eceef1"/><text x="4" y="{}" fill="#1d1f21"><title>{}</title>{}</text>"##,
            r(y - frame.gap / 2.0),
            r(width),
            r(y - frame.gap / 2.0),
            r(y + frame.row - 3.0),
            escape(name),
            escape(&short)
        );
    }
    for row in rows {
        let y = frame.row_y(row.lane, row.row) + 1.0;
        for b in &row.bars {
            let (x0, x1) = (clamp(x(b.start)), clamp(x(b.end)));
            let kind = view.kinds.get(b.kind as usize);
            let fill = palette::fill(kind.and_then(|k| k.color.as_deref()), kind.map_or("", |k| k.name.as_str()));
            let what = match b.count {
                1 => kind.map_or(String::new(), |k| k.name.clone()),
                n => format!("{n} tasks"),
            };
            let _ = writeln!(
                s,
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}"><title>{} · {}</title></rect>"#,
                r(x0),
                r(y),
                r((x1 - x0).max(1.0)),
                r(frame.row - 2.0),
                escape(&what),
                escape(&duration_label(b.end - b.start))
            );
        }
    }
    let mid = |lane: u32, row: Option<u32>| frame.row_y(lane, row.unwrap_or(0)) + frame.row / 2.0;
    for (i, step) in path.steps.iter().enumerate() {
        let (Some(start), Some(end)) = (step.start, step.end) else { continue };
        let y = frame.row_y(step.lane_index, step.row.unwrap_or(0));
        let _ = writeln!(
            s,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{}" stroke-width="2"><title>{} · {}</title></rect>"#,
            r(clamp(x(start))),
            r(y),
            r((clamp(x(end)) - clamp(x(start))).max(2.0)),
            r(frame.row),
            palette::CRITICAL,
            escape(&step.label),
            escape(&duration_label(end - start))
        );
        let Some(prev) = i.checked_sub(1).map(|p| &path.steps[p]) else { continue };
        let Some(prev_end) = prev.end else { continue };
        if start > prev_end {
            let (gx0, gx1) = (clamp(x(prev_end)), clamp(x(start)));
            let _ = writeln!(
                s,
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="url(#wait)" stroke="{}" stroke-dasharray="3 2"/><text x="{}" y="{}" fill="{}">wait {}</text>"#,
                r(gx0),
                r(y),
                r((gx1 - gx0).max(1.0)),
                r(frame.row),
                palette::WAITING,
                r(gx0 + 2.0),
                r(y - 2.0),
                palette::WAITING,
                escape(&duration_label(start - prev_end))
            );
        }
        let _ = writeln!(
            s,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="1.5" marker-end="url(#arrow)"/>"#,
            r(clamp(x(prev_end))),
            r(mid(prev.lane_index, prev.row)),
            r(clamp(x(start))),
            r(mid(step.lane_index, step.row)),
            palette::CRITICAL
        );
    }
    s.push_str("</svg>\n");
    s
}
