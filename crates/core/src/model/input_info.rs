//! What is known of one input once read, beside what its reader produced:
//! its name, format, sizes, counts and diagnostics. Every floor above the
//! model may name it (a run's report lists its inputs).

use super::FormatId;
use crate::decompress::Compression;
use crate::diagnostics::Diagnostics;
use serde::{Deserialize, Serialize};

/// How much of its input a reader has read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadCounts {
    /// Lines read (text formats).
    pub lines: u64,
    /// Events or records recognised.
    pub events: u64,
}

/// What is known of an input once read: its name, format, sizes, counts
/// and diagnostics (everything but the parsed data).
#[derive(Debug, Serialize, Deserialize)]
pub struct InputInfo {
    /// Its name (a file name).
    pub name: String,
    /// Its format.
    pub format: FormatId,
    /// Its compression.
    pub compression: Compression,
    /// Bytes read (compressed).
    pub bytes: u64,
    /// Bytes after decompression.
    pub decompressed_bytes: u64,
    /// Lines and events read.
    pub counts: ReadCounts,
    /// Every recoverable problem found.
    pub diagnostics: Diagnostics,
}
