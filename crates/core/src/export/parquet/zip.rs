//! The fleet tables of one analysis as one zip file (the app's download),
//! laid out as `longpole export --to parquet` writes them to a folder: a
//! zip unpacked into an export folder adds its runs there.

use super::Files;
use std::io::{Cursor, Write};
use zip::result::ZipError;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

/// A zip of every run's three files, at their paths
/// (`TABLE/dt=…/part-RUN_ID.parquet`), stored: Parquet is compressed already.
pub fn zip(runs: &[Files]) -> Result<Vec<u8>, ZipError> {
    let mut out = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(CompressionMethod::Stored);
    for run in runs {
        for (name, bytes) in run.named() {
            out.start_file(name, options)?;
            out.write_all(bytes)?;
        }
    }
    Ok(out.finish()?.into_inner())
}
