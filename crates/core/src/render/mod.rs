//! Rendering: standalone SVG text of the views, for export. Everything from
//! a log is escaped; output is deterministic (fixed precision, stable order)
//! so it can be snapshotted.

pub mod flame_svg;
pub mod graph_svg;
pub mod palette;
pub mod timeline_svg;

/// Escapes text for XML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Characters XML 1.0 forbids: dropped, visibly.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_markup() {
        assert_eq!(super::escape("\"><img onerror=x>&'\u{1}"), "&quot;&gt;&lt;img onerror=x&gt;&amp;&#39;\u{fffd}");
    }
}
