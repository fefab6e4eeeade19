//! Helpers shared by the unit tests.

use std::path::PathBuf;

mod chunk_tests;

pub use chunk_tests::same_at_every_chunk;

/// A file of the repository's test data (`tests/data/`, credited in its
/// README), or of `$LONGPOLE_CORPUS` when set (the same layout).
pub fn corpus(rel: &str) -> PathBuf {
    let root = std::env::var_os("LONGPOLE_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data"));
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

/// `data` read as the CLI reads it on `threads` threads: cut into chunks of
/// about `chunk` bytes (at line ends when `at_lines`), fed as they come
/// until the format is known, then each chunk read ahead by the format's
/// preparer on one of the threads and fed in order. Also returns how many
/// chunks were read ahead (none when the format has no preparer).
pub fn read_ahead(
    name: &str,
    data: &[u8],
    chunk: usize,
    at_lines: bool,
    threads: usize,
) -> (Result<crate::Input, crate::Error>, usize) {
    use crate::formats::Prepared;
    use crate::ingest::Ingest;
    let mut chunks = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        let mut end = chunk.min(rest.len());
        if at_lines && end < rest.len() {
            end = memchr::memrchr(b'\n', &rest[..end]).map_or(end, |nl| nl + 1);
        }
        chunks.push(&rest[..end]);
        rest = &rest[end..];
    }
    let mut ingest = Ingest::new(name);
    let mut plain = 0;
    while ingest.preparer().is_none() && plain < chunks.len() {
        if let Err(e) = ingest.feed(chunks[plain]) {
            return (Err(e), 0);
        }
        plain += 1;
    }
    let ahead = &chunks[plain..];
    let Some(preparer) = ingest.preparer() else { return (ingest.finish(), 0) };
    let mut prepared: Vec<Prepared> = ahead.iter().map(|_| Prepared::default()).collect();
    let per_thread = ahead.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        for (cs, ps) in ahead.chunks(per_thread).zip(prepared.chunks_mut(per_thread)) {
            s.spawn(move || cs.iter().zip(ps).for_each(|(c, p)| preparer(c, p)));
        }
    });
    for (c, p) in ahead.iter().zip(&prepared) {
        if let Err(e) = ingest.feed_prepared(c, p) {
            return (Err(e), ahead.len());
        }
    }
    (ingest.finish(), ahead.len())
}
