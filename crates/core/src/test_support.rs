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
