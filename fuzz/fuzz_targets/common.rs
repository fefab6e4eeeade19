//! What every target does with what it read: the whole analysis, as the
//! CLI and the app build it (reconcile, the view, both reports), and the
//! chunk sizes a fuzz input asks for.

#![allow(dead_code)] // each target uses its own part

use longpole_core::layout::timeline::TimelineIndex;
use longpole_core::report::{analysis_json, analysis_text};
use longpole_core::Input;

/// Chunk sizes from two bytes: 1 to 4096, so every reader is fed in
/// pieces cut anywhere.
pub fn chunk_size(a: u8, b: u8) -> usize {
    usize::from(u16::from_le_bytes([a, b]) % 4096) + 1
}

/// Everything downstream of a reader.
pub fn analyse(input: Input) {
    let analysis = longpole_core::reconcile(vec![input]);
    for d in &analysis.datasets {
        let index = TimelineIndex::new(&d.model);
        let view = analysis.view(d, &index);
        std::hint::black_box(&view);
    }
    std::hint::black_box(analysis_json(&analysis));
    std::hint::black_box(analysis_text(&analysis));
}
