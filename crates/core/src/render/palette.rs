//! One palette for task types across formats, and the critical path's
//! colour, which no type uses.

/// The critical path's colour (outline, arrows).
pub const CRITICAL: &str = "#d6249f";
/// Idle gaps on a path.
pub const WAITING: &str = "#8a8f98";

/// Colours for ya's `kv.pc` names.
const NAMED: &[(&str, &str)] = &[
    ("green", "#4caf50"),
    ("light-green", "#9ccc65"),
    ("red", "#e57373"),
    ("light-red", "#ef9a9a"),
    ("blue", "#42a5f5"),
    ("light-blue", "#81d4fa"),
    ("cyan", "#26c6da"),
    ("light-cyan", "#80deea"),
    ("yellow", "#fdd835"),
    ("light-yellow", "#fff59d"),
    ("magenta", "#ab47bc"),
    ("light-magenta", "#ce93d8"),
    ("gray", "#b0b5bd"),
    ("grey", "#b0b5bd"),
    ("white", "#eceff1"),
    ("brown", "#a1887f"),
    ("orange", "#ffb74d"),
];

/// Colours for kinds with no colour of their own, picked by name.
const CYCLE: &[&str] =
    &["#64b5f6", "#81c784", "#ffb74d", "#ba68c8", "#4db6ac", "#f06292", "#aed581", "#7986cb", "#ffd54f", "#90a4ae"];

/// The fill of a kind: its producer's colour name if known, else one picked from its name.
pub fn fill(color: Option<&str>, kind: &str) -> &'static str {
    if let Some(c) = color.and_then(|c| NAMED.iter().find(|(n, _)| *n == c)) {
        return c.1;
    }
    let h = kind.bytes().fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
    CYCLE[h as usize % CYCLE.len()]
}

#[cfg(test)]
mod tests {
    #[test]
    fn named_and_picked_colours() {
        assert_eq!(super::fill(Some("green"), "CC"), "#4caf50");
        assert_eq!(super::fill(None, "CC"), super::fill(Some("no-such"), "CC"));
        assert!(!super::NAMED.iter().any(|(_, c)| *c == super::CRITICAL));
    }
}
