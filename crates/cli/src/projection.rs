//! Before `longpole open` reads anything in earnest: whether the named
//! files would fit a browser tab. Each file's first MiBs go through the
//! core's [`Ingest`], which tells its compression ratio and its format; the
//! whole file's decompressed size is scaled from them and multiplied by the
//! format's measured memory per byte
//! ([`longpole_core::formats::Format::tab_bytes_per_input_byte`]).

use anyhow::{Context, Result};
use longpole_core::decompress::Compression;
use longpole_core::formats::by_id;
use longpole_core::memory_budget::{mib, projected_need, WASM_LIMIT};
use longpole_core::Ingest;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The head of each file read to project it.
const SAMPLE: u64 = 4 << 20;
/// Memory per byte for an input whose format the head does not tell: the
/// page will say what it is, and this only has to be cautious.
const UNKNOWN_PER_BYTE: f64 = 4.0;

/// What the tab would need for all of `files`, projected.
pub struct Projection {
    /// Bytes of memory, projected.
    pub need: u64,
    /// The limit a tab's reader keeps to.
    pub limit: u64,
}

impl Projection {
    /// Projects the tab's need for `files` (both sides of a comparison:
    /// the tab holds both).
    pub fn of(files: &[PathBuf]) -> Result<Projection> {
        let mut need = 0u64;
        for file in files {
            need = need.saturating_add(file_need(file)?);
        }
        Ok(Projection { need, limit: WASM_LIMIT })
    }

    /// Whether the files are projected past the tab's limit.
    pub fn over(&self) -> bool {
        self.need > self.limit
    }

    /// Why they are read here, for the terminal.
    pub fn reason(&self) -> String {
        format!(
            "these files would need about {} in a browser tab, over its limit of {}: reading and analysing them here, the page asks this process (--tab to try the tab anyway)",
            mib(self.need),
            mib(self.limit)
        )
    }
}

/// One file's projected need.
fn file_need(path: &Path) -> Result<u64> {
    let mut file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let size = file.metadata().with_context(|| format!("cannot read {}", path.display()))?.len();
    let mut head = Vec::new();
    file.by_ref().take(SAMPLE).read_to_end(&mut head).with_context(|| format!("cannot read {}", path.display()))?;
    let name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    Ok(need(&name, &head, size))
}

/// The need of a file of `size` bytes that starts with `head`.
fn need(name: &str, head: &[u8], size: u64) -> u64 {
    let mut ingest = Ingest::new(name);
    // A head that does not read is for the page to report; it still
    // projects, at the file's size, as bytes of its format or of none.
    let fed = ingest.feed(head).is_ok();
    let mut progress = ingest.progress();
    let whole = head.len() as u64 >= size;
    if fed && whole {
        // The end settles what a short file's head could not.
        if let Ok(input) = ingest.finish() {
            progress.format = Some(input.info.format);
            progress.decompressed_bytes = input.info.decompressed_bytes;
        }
    }
    // A head that stopped reading was decoded only in part: its ratio is
    // not the file's, so the file counts at its own size.
    let plain = progress.compression.is_none_or(|c| c == Compression::None);
    let decompressed = if whole {
        size.max(progress.decompressed_bytes)
    } else if !fed || plain || progress.bytes == 0 || progress.decompressed_bytes == 0 {
        size
    } else {
        let scaled = u128::from(size) * u128::from(progress.decompressed_bytes) / u128::from(progress.bytes);
        u64::try_from(scaled).unwrap_or(u64::MAX)
    };
    let per_byte = progress.format.and_then(by_id).map_or(UNKNOWN_PER_BYTE, |f| f.tab_bytes_per_input_byte());
    projected_need(decompressed, per_byte)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1 << 20;
    /// A PySpark event log (crates/core/tests/fixtures/spark/README.md), plain and in lz4.
    const SPARK: &[u8] = include_bytes!("../../core/tests/fixtures/spark/skewed-join");
    const SPARK_LZ4: &[u8] = include_bytes!("../../core/tests/fixtures/spark/skewed-join.lz4");

    #[test]
    fn a_file_read_whole_projects_by_its_format() {
        let n = SPARK.len() as u64;
        assert_eq!(need("events", SPARK, n), projected_need(n, 0.3));
    }

    #[test]
    fn a_head_scales_to_the_whole_file_through_its_compression() {
        // The lz4 log as the head of a file ten times its size: ten times
        // the plain log, give or take the block the decoder holds back.
        let projected = need("events.lz4", SPARK_LZ4, SPARK_LZ4.len() as u64 * 10);
        let whole = projected_need(SPARK.len() as u64 * 10, 0.3);
        assert!(projected <= whole && projected * 10 >= whole * 9, "{projected} against {whole}");
    }

    #[test]
    fn unknown_bytes_project_cautiously() {
        assert_eq!(need("x", b"\x01\x02\x03 not a log", 3000 * MIB), projected_need(3000 * MIB, UNKNOWN_PER_BYTE));
        assert!(Projection { need: 3000 * MIB * 4, limit: WASM_LIMIT }.over());
        assert!(!Projection { need: WASM_LIMIT, limit: WASM_LIMIT }.over());
    }
}
