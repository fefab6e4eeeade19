//! Push-style decoding of lz4-java's block stream (`LZ4BlockOutputStream`),
//! the framing Spark's `lz4` codec writes event logs in.
//!
//! Each block has a 21-byte header: the magic `LZ4Block`, a token (method in
//! the high nibble: `0x10` stored, `0x20` LZ4; the block size's exponent
//! less 10 in the low one), then the compressed length, the original length
//! and an xxHash32 checksum, each a little-endian 32-bit number. A block of
//! both lengths zero ends a stream; another stream may follow, as Spark's
//! reader reads them concatenated. The checksum is not verified: a damaged
//! block fails to decode or gives a length other than the header's.

use super::{units, Decoded, Fail};

/// Every block's header starts with this.
pub(super) const MAGIC: &[u8] = b"LZ4Block";
const HEADER: usize = MAGIC.len() + 1 + 4 + 4 + 4;
const STORED: u8 = 0x10;
const LZ4: u8 = 0x20;
/// The largest block lz4-java writes (a block size of 2^25 bytes).
const MAX_BLOCK: usize = 1 << 25;

pub(super) struct Lz4BlockPush {
    pending: Vec<u8>,
    /// The last block seen ended a stream.
    ended: bool,
    out: Vec<u8>,
}

fn le32(b: &[u8], at: usize) -> usize {
    let x = b.get(at..at + 4).map_or([0; 4], |s| [s[0], s[1], s[2], s[3]]);
    u32::from_le_bytes(x) as usize
}

impl Lz4BlockPush {
    pub(super) fn new() -> Self {
        Lz4BlockPush { pending: Vec::new(), ended: true, out: Vec::new() }
    }

    pub(super) fn push<E>(&mut self, input: &[u8], out: &mut dyn FnMut(&[u8]) -> Result<(), E>) -> Result<(), Fail<E>> {
        let Lz4BlockPush { pending, ended, out: buffer } = self;
        units(pending, input, |buf| block(buf, ended, buffer, out))
    }

    pub(super) fn finish(&self) -> Decoded {
        if self.ended && self.pending.is_empty() {
            Decoded::Complete
        } else {
            Decoded::Truncated
        }
    }
}

/// Decodes the block at the start of `buf`; how many bytes it took, 0 when
/// it is not all in yet. `ended`: it ended a stream.
fn block<E>(
    buf: &[u8],
    ended: &mut bool,
    buffer: &mut Vec<u8>,
    out: &mut dyn FnMut(&[u8]) -> Result<(), E>,
) -> Result<usize, Fail<E>> {
    if buf.len() < HEADER {
        return Ok(0);
    }
    if !buf.starts_with(MAGIC) {
        return Err(Fail::Corrupt("not an LZ4Block header".into()));
    }
    let token = buf.get(MAGIC.len()).copied().unwrap_or(0);
    let (packed, original) = (le32(buf, MAGIC.len() + 1), le32(buf, MAGIC.len() + 5));
    let method = token & 0xf0;
    let bad = |what: String| Err(Fail::Corrupt(what));
    if packed > MAX_BLOCK || original > MAX_BLOCK {
        return bad(format!("a block of {packed} bytes for {original} is larger than lz4-java writes"));
    }
    if method != STORED && method != LZ4 {
        return bad(format!("unknown compression method {method:#04x}"));
    }
    if method == STORED && packed != original {
        return bad(format!("a stored block of {packed} bytes says it holds {original}"));
    }
    let Some(body) = buf.get(HEADER..HEADER + packed) else { return Ok(0) };
    *ended = original == 0;
    if original > 0 {
        if method == STORED {
            out(body).map_err(Fail::Out)?;
        } else {
            buffer.resize(original, 0);
            match lz4_flex::block::decompress_into(body, buffer) {
                Ok(n) if n == original => out(buffer).map_err(Fail::Out)?,
                Ok(n) => return bad(format!("a block decodes to {n} bytes, its header says {original}")),
                Err(e) => return bad(e.to_string()),
            }
        }
    }
    Ok(HEADER + packed)
}
