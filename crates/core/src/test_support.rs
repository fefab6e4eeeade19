//! Helpers shared by the unit tests.

use std::path::PathBuf;

/// A file of the shared corpus (`../shared/corpus` beside the repository,
/// or `$LONGPOLE_CORPUS`).
pub fn corpus(rel: &str) -> PathBuf {
    let root = std::env::var_os("LONGPOLE_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    root.join(rel)
}

/// `base` with `edits` applied, for the property tests of fast paths: each
/// edit (a place, bytes to cut, a piece) replaces up to `cut` bytes at one
/// of the places next to a JSON structural character with `pieces[piece]`.
pub fn edited(base: &str, edits: &[(proptest::sample::Index, usize, usize)], pieces: &[&str]) -> Vec<u8> {
    let mut text = base.as_bytes().to_vec();
    for (at, cut, piece) in edits {
        let structural = |i: usize| text.get(i).is_some_and(|b| b"{}[],:\"".contains(b));
        let places: Vec<usize> = (0..=text.len()).filter(|&i| structural(i) || (i > 0 && structural(i - 1))).collect();
        let from = places[at.index(places.len())];
        let to = (from + cut).min(text.len());
        text.splice(from..to, pieces[*piece].bytes());
    }
    text
}
