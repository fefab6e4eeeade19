//! Decompression inside the stream: gzip, bzip2, zstd, and the lz4 and
//! snappy streams of Spark's event logs (lz4-java's and snappy-java's
//! framing), detected by their magic bytes, decoded push-style as chunks
//! arrive.
//!
//! Every decoder is pure Rust (miniz_oxide, libbz2-rs-sys, ruzstd, lz4_flex,
//! snap) so the
//! same code runs in the browser's worker and in the CLI. Memory is bounded
//! by the codecs' windows, never by the file. Concatenated members (gzip,
//! bzip2 from parallel compressors) and several zstd frames are all read.
//! A compressed stream that stops early is not an error: what it held is
//! read, and the caller gets [`Decoded::Truncated`] to report.

mod bzip2_push;
mod gzip_push;
mod lz4_block_push;
mod snappy_java_push;
mod zstd_push;

use serde::{Deserialize, Serialize};
use std::fmt;

/// A compression wrapper around an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Compression {
    /// Not compressed.
    None,
    /// gzip (RFC 1952), one or more members.
    Gzip,
    /// bzip2, one or more streams.
    Bzip2,
    /// Zstandard, one or more frames.
    Zstd,
    /// lz4-java's block stream (Spark's `lz4` codec), one or more streams.
    Lz4,
    /// snappy-java's stream (Spark's `snappy` codec), one or more streams.
    Snappy,
}

impl Compression {
    /// Longest magic number looked at by [`Compression::sniff`].
    pub const MAGIC_LEN: usize = 8;

    /// Detects the compression from the first bytes of a stream.
    ///
    /// Returns `None` when `head` is too short to tell and more data may come.
    pub fn sniff(head: &[u8], at_eof: bool) -> Option<Compression> {
        const MAGICS: [(&[u8], Compression); 5] = [
            (&[0x1f, 0x8b], Compression::Gzip),
            (b"BZh", Compression::Bzip2),
            (&[0x28, 0xb5, 0x2f, 0xfd], Compression::Zstd),
            (lz4_block_push::MAGIC, Compression::Lz4),
            (snappy_java_push::MAGIC, Compression::Snappy),
        ];
        for (magic, c) in MAGICS {
            if head.len() >= magic.len() {
                if head.starts_with(magic) {
                    return Some(c);
                }
            } else if magic.starts_with(head) && !at_eof {
                return None;
            }
        }
        Some(Compression::None)
    }

    /// The codec's common name.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
            Compression::Zstd => "zstd",
            Compression::Lz4 => "lz4",
            Compression::Snappy => "snappy",
        }
    }
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Compressed data that cannot be decoded any further.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorruptStream {
    /// The codec.
    pub codec: Compression,
    /// Offset in the compressed input at or after which the damage was found.
    pub offset: u64,
    /// The decoder's own words.
    pub message: String,
}

impl fmt::Display for CorruptStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "corrupt {} data near compressed byte {}: {}", self.codec, self.offset, self.message)
    }
}

/// How a compressed stream ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decoded {
    /// Every member or frame was complete.
    Complete,
    /// The input stopped inside a member or frame; everything before was delivered.
    Truncated,
}

/// Output produced while decoding is passed on in pieces of at most this size.
const OUT_PIECE: usize = 256 * 1024;

enum Inner {
    Plain,
    Gzip(Box<gzip_push::GzipPush>),
    Bzip2(bzip2_push::Bzip2Push),
    Zstd(Box<zstd_push::ZstdPush>),
    Lz4(lz4_block_push::Lz4BlockPush),
    Snappy(snappy_java_push::SnappyJavaPush),
}

/// A push decoder for one input stream.
pub struct Decoder {
    inner: Inner,
    codec: Compression,
    consumed: u64,
}

impl Decoder {
    /// A decoder for `codec`.
    pub fn new(codec: Compression) -> Self {
        let inner = match codec {
            Compression::None => Inner::Plain,
            Compression::Gzip => Inner::Gzip(Box::new(gzip_push::GzipPush::new())),
            Compression::Bzip2 => Inner::Bzip2(bzip2_push::Bzip2Push::new()),
            Compression::Zstd => Inner::Zstd(Box::new(zstd_push::ZstdPush::new())),
            Compression::Lz4 => Inner::Lz4(lz4_block_push::Lz4BlockPush::new()),
            Compression::Snappy => Inner::Snappy(snappy_java_push::SnappyJavaPush::new()),
        };
        Decoder { inner, codec, consumed: 0 }
    }

    /// The codec this decoder reads.
    pub fn codec(&self) -> Compression {
        self.codec
    }

    /// Decodes `input`, passing decoded bytes to `out` in order.
    ///
    /// `out` may fail with the caller's own error type; decoding stops then.
    pub fn push<E: From<CorruptStream>>(
        &mut self,
        input: &[u8],
        out: &mut dyn FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        let codec = self.codec;
        let at = self.consumed;
        self.consumed += input.len() as u64;
        let corrupt = |message: String| CorruptStream { codec, offset: at, message };
        match &mut self.inner {
            Inner::Plain => {
                for piece in input.chunks(OUT_PIECE) {
                    out(piece)?;
                }
                Ok(())
            }
            Inner::Gzip(d) => d.push(input, out).map_err(|f| f.into_error(corrupt)),
            Inner::Bzip2(d) => d.push(input, out).map_err(|f| f.into_error(corrupt)),
            Inner::Zstd(d) => d.push(input, out).map_err(|f| f.into_error(corrupt)),
            Inner::Lz4(d) => d.push(input, out).map_err(|f| f.into_error(corrupt)),
            Inner::Snappy(d) => d.push(input, out).map_err(|f| f.into_error(corrupt)),
        }
    }

    /// Damage found in the blocks decoded since the last call, where
    /// decoding went on: an lz4 block whose checksum is not its data's
    /// (delivered all the same), with the block's offset in the input.
    pub fn take_damage(&mut self) -> Vec<CorruptStream> {
        let codec = self.codec;
        match &mut self.inner {
            Inner::Lz4(d) => d
                .take_mismatches()
                .into_iter()
                .map(|m| CorruptStream {
                    codec,
                    offset: m.offset,
                    message: format!(
                        "the block's checksum is {:#09x}, its data's {:#09x}: the block is damaged; its bytes were read all the same",
                        m.stored, m.computed
                    ),
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// How the stream ended; call after the last [`Decoder::push`].
    pub fn finish(&self) -> Decoded {
        match &self.inner {
            Inner::Plain => Decoded::Complete,
            Inner::Gzip(d) => d.finish(),
            Inner::Bzip2(d) => d.finish(),
            Inner::Zstd(d) => d.finish(),
            Inner::Lz4(d) => d.finish(),
            Inner::Snappy(d) => d.finish(),
        }
    }
}

/// Why a codec's push stopped: its input is corrupt, or the consumer failed.
enum Fail<E> {
    Corrupt(String),
    Out(E),
}

impl<E: From<CorruptStream>> Fail<E> {
    fn into_error(self, corrupt: impl FnOnce(String) -> CorruptStream) -> E {
        match self {
            Fail::Corrupt(message) => E::from(corrupt(message)),
            Fail::Out(e) => e,
        }
    }
}

/// Appends `input` to `pending`, then takes whole units (a block, a chunk,
/// a header) off its front with `unit`, which says how many bytes the
/// unit at the front of what it is shown took (0: not all in yet).
fn units<E>(
    pending: &mut Vec<u8>,
    input: &[u8],
    mut unit: impl FnMut(&[u8]) -> Result<usize, Fail<E>>,
) -> Result<(), Fail<E>> {
    pending.extend_from_slice(input);
    let mut at = 0;
    let result = loop {
        match unit(pending.get(at..).unwrap_or_default()) {
            Ok(0) => break Ok(()),
            Ok(n) => at += n,
            Err(e) => break Err(e),
        }
    };
    pending.drain(..at);
    result
}

#[cfg(test)]
mod tests;
