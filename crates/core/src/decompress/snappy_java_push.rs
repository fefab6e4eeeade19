//! Push-style decoding of snappy-java's stream (`SnappyOutputStream`), the
//! framing Spark's `snappy` codec writes event logs in (not Snappy's own
//! framing format).
//!
//! A stream opens with a 16-byte header: the magic `\x82SNAPPY\0`, then a
//! version and a compatible version, big-endian 32-bit numbers. Chunks
//! follow, each a big-endian 32-bit length and that many bytes of raw
//! Snappy. Another stream's header may come where a chunk would, as
//! snappy-java's reader reads concatenated streams.

use super::{units, Decoded, Fail};

/// A stream's first bytes.
pub(super) const MAGIC: &[u8] = b"\x82SNAPPY\0";
const HEADER: usize = MAGIC.len() + 8;
/// Larger chunks than this are taken for damage (snappy-java writes 32 KiB by default).
const MAX_CHUNK: usize = 1 << 28;

pub(super) struct SnappyJavaPush {
    pending: Vec<u8>,
    decoder: snap::raw::Decoder,
    out: Vec<u8>,
}

impl SnappyJavaPush {
    pub(super) fn new() -> Self {
        SnappyJavaPush { pending: Vec::new(), decoder: snap::raw::Decoder::new(), out: Vec::new() }
    }

    pub(super) fn push<E>(&mut self, input: &[u8], out: &mut dyn FnMut(&[u8]) -> Result<(), E>) -> Result<(), Fail<E>> {
        let SnappyJavaPush { pending, decoder, out: buffer } = self;
        units(pending, input, |buf| chunk(buf, decoder, buffer, out))
    }

    pub(super) fn finish(&self) -> Decoded {
        if self.pending.is_empty() {
            Decoded::Complete
        } else {
            Decoded::Truncated
        }
    }
}

/// Reads the header or chunk at the start of `buf`; how many bytes it
/// took, 0 when it is not all in yet.
fn chunk<E>(
    buf: &[u8],
    decoder: &mut snap::raw::Decoder,
    buffer: &mut Vec<u8>,
    out: &mut dyn FnMut(&[u8]) -> Result<(), E>,
) -> Result<usize, Fail<E>> {
    let Some(len) = buf.get(..4) else { return Ok(0) };
    if MAGIC.starts_with(buf.get(..MAGIC.len()).unwrap_or(buf)) && buf.len() < HEADER {
        return Ok(0);
    }
    if buf.starts_with(MAGIC) {
        return Ok(HEADER);
    }
    let len = u32::from_be_bytes([len[0], len[1], len[2], len[3]]) as usize;
    if len > MAX_CHUNK {
        return Err(Fail::Corrupt(format!("a chunk of {len} bytes is larger than snappy-java writes")));
    }
    let Some(chunk) = buf.get(4..4 + len) else { return Ok(0) };
    let size = snap::raw::decompress_len(chunk).map_err(|e| Fail::Corrupt(e.to_string()))?;
    if size > MAX_CHUNK {
        return Err(Fail::Corrupt(format!("a chunk says it holds {size} bytes, more than snappy-java writes")));
    }
    buffer.resize(size, 0);
    let n = decoder.decompress(chunk, buffer).map_err(|e| Fail::Corrupt(e.to_string()))?;
    out(buffer.get(..n).unwrap_or_default()).map_err(Fail::Out)?;
    Ok(4 + len)
}
