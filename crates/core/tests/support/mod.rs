//! The harness the integration tests share (`mod support;` in each): where
//! the test data lives, and [`check_format!`]: a file, or files read
//! together, read at every chunk size with the same answer, sniffed the
//! same under the name `unknown`, damaged copies read without a panic, and
//! the answer snapshotted. The CLI's tests include it too.
#![allow(dead_code, unused_macros, unused_imports)] // each test binary uses its own part

use longpole_core::ingest::read_bytes;
use longpole_core::reconcile::Analysis;
use longpole_core::report::{analysis_json, analysis_text};
use std::path::PathBuf;

#[path = "../../src/test_support/chunk_tests.rs"]
mod chunk_tests;

pub use chunk_tests::{same_at_every_chunk, CHUNKS};

/// A file of the repository's test data (`tests/data/`, credited in its
/// README), or of `$LONGPOLE_CORPUS` when set (the same layout).
pub fn data(rel: &str) -> PathBuf {
    std::env::var_os("LONGPOLE_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data"))
        .join(rel)
}

/// The bytes of a file of the test data.
pub fn bytes(rel: &str) -> Vec<u8> {
    let path = data(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// An input as a test reads it: the name it is read under and its bytes.
pub struct File {
    /// The name given to the reader (a hint only: formats sniff content).
    pub name: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

/// The data file `rel`, read under its own file name.
pub fn file(rel: &str) -> File {
    named(rel.rsplit('/').next().unwrap_or(rel), bytes(rel))
}

/// `bytes`, read under `name`.
pub fn named(name: &str, bytes: Vec<u8>) -> File {
    File { name: name.to_owned(), bytes }
}

/// The report as text and as pretty JSON: what most snapshots hold.
pub fn text_and_json(analysis: &Analysis) -> Vec<String> {
    let json = serde_json::to_string_pretty(&analysis_json(analysis)).unwrap_or_else(|e| panic!("{e}"));
    vec![analysis_text(analysis), json]
}

/// `render` of the files read together, at `chunk` bytes a chunk.
fn rendered<T>(files: &[File], chunk: usize, render: &impl Fn(&Analysis) -> T) -> T {
    let inputs = files
        .iter()
        .map(|f| {
            read_bytes(&f.name, &f.bytes, chunk).unwrap_or_else(|e| panic!("{} at chunk size {chunk}: {e}", f.name))
        })
        .collect();
    render(&longpole_core::reconcile(inputs))
}

/// The checks of [`check_format!`] but the snapshot: `render` of `files`
/// read together whole, which every size of [`CHUNKS`] (those below
/// `min_chunk` left out) must give too; each file must be recognised as
/// the same format under the name `unknown`; and each file cut in half, or
/// with its middle byte changed, must be read (or refused) and rendered
/// without a panic. Returns the whole read's rendering.
pub fn check_inputs<T: PartialEq + std::fmt::Debug>(
    files: &[File],
    min_chunk: usize,
    render: impl Fn(&Analysis) -> T,
) -> T {
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    let whole = same_at_every_chunk(&format!("{names:?}"), min_chunk, |chunk| rendered(files, chunk, &render));
    for f in files {
        let format = |name: &str| read_bytes(name, &f.bytes, usize::MAX).map(|input| input.info.format);
        let (known, unknown) = (format(&f.name), format("unknown"));
        assert!(known.is_ok(), "{}: {known:?}", f.name);
        assert_eq!(unknown.ok(), known.ok(), "{} sniffed under the name `unknown`", f.name);
    }
    for f in files {
        let mut changed = f.bytes.clone();
        if let Some(b) = changed.get_mut(f.bytes.len() / 2) {
            *b ^= 0x55;
        }
        for damaged in [&f.bytes[..f.bytes.len() / 2], &changed[..]] {
            if let Ok(input) = read_bytes(&f.name, damaged, 4096) {
                let _ = render(&longpole_core::reconcile(vec![input]));
            }
        }
    }
    whole
}

/// `check_format!(files, render => "snapshot", …)`: [`check_inputs`] on
/// `files` (every chunk size; or `check_format!(files, min_chunk, render
/// => …)` to leave out the sizes below `min_chunk`), then each part of the
/// rendering (a `Vec<String>`) snapshotted under its name, beside the
/// calling test as insta names it.
macro_rules! check_format {
    ($files:expr, $render:expr => $($name:expr),+ $(,)?) => {
        check_format!($files, 1, $render => $($name),+)
    };
    ($files:expr, $min_chunk:expr, $render:expr => $($name:expr),+ $(,)?) => {{
        let parts: Vec<String> = $crate::support::check_inputs(&$files, $min_chunk, $render);
        let names: Vec<String> = vec![$($name.to_string()),+];
        assert_eq!(parts.len(), names.len(), "one snapshot name per part");
        for (name, part) in names.iter().zip(parts) {
            insta::assert_snapshot!(name.as_str(), part);
        }
    }};
}
pub(crate) use check_format;
