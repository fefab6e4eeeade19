//! Push-style decoding of lz4-java's block stream (`LZ4BlockOutputStream`),
//! the framing Spark's `lz4` codec writes event logs in.
//!
//! Each block has a 21-byte header: the magic `LZ4Block`, a token (method in
//! the high nibble: `0x10` stored, `0x20` LZ4; the block size's exponent
//! less 10 in the low one), then the compressed length, the original length
//! and an xxHash32 checksum, each a little-endian 32-bit number. A block of
//! both lengths zero ends a stream; another stream may follow, as Spark's
//! reader reads them concatenated.
//!
//! The checksum is lz4-java's: xxHash32 of the block's original bytes with
//! the seed `0x9747b28c`, its low 28 bits kept (`StreamingXXHash32`'s
//! `asChecksum` masks it so), and 0 for a stream's end. A block whose
//! checksum differs is still delivered and noted with its offset
//! ([`Lz4BlockPush::take_mismatches`]); lz4-java stops there, but the
//! lines after it may be whole. A block that fails to decode, or decodes
//! to a length other than its header's, ends the stream as corrupt.

use super::{units, Decoded, Fail};
use twox_hash::XxHash32;

/// Every block's header starts with this.
pub(super) const MAGIC: &[u8] = b"LZ4Block";
const HEADER: usize = MAGIC.len() + 1 + 4 + 4 + 4;
const STORED: u8 = 0x10;
const LZ4: u8 = 0x20;
/// The largest block lz4-java writes (a block size of 2^25 bytes).
const MAX_BLOCK: usize = 1 << 25;
/// lz4-java's seed for the blocks' xxHash32 (`LZ4BlockOutputStream`).
const SEED: u32 = 0x9747_b28c;
/// The bits of the hash a block's header keeps.
const CHECK_MASK: u32 = 0x0fff_ffff;

/// A block whose stored checksum is not its data's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Mismatch {
    /// The block header's offset in the compressed input.
    pub offset: u64,
    /// The checksum the header stores.
    pub stored: u32,
    /// The checksum of the block's decoded bytes.
    pub computed: u32,
}

pub(super) struct Lz4BlockPush {
    pending: Vec<u8>,
    /// The last block seen ended a stream.
    ended: bool,
    out: Vec<u8>,
    /// Compressed bytes of the whole blocks taken so far.
    taken: u64,
    /// Blocks whose checksum differed, not yet taken.
    mismatches: Vec<Mismatch>,
}

fn le32(b: &[u8], at: usize) -> usize {
    let x = b.get(at..at + 4).map_or([0; 4], |s| [s[0], s[1], s[2], s[3]]);
    u32::from_le_bytes(x) as usize
}

impl Lz4BlockPush {
    pub(super) fn new() -> Self {
        Lz4BlockPush { pending: Vec::new(), ended: true, out: Vec::new(), taken: 0, mismatches: Vec::new() }
    }

    pub(super) fn push<E>(&mut self, input: &[u8], out: &mut dyn FnMut(&[u8]) -> Result<(), E>) -> Result<(), Fail<E>> {
        let Lz4BlockPush { pending, ended, out: buffer, taken, mismatches } = self;
        units(pending, input, |buf| {
            let n = block(
                buf,
                ended,
                buffer,
                &mut |data, stored| {
                    let computed = checksum(data);
                    if computed != stored {
                        mismatches.push(Mismatch { offset: *taken, stored, computed });
                    }
                },
                out,
            )?;
            *taken += n as u64;
            Ok(n)
        })
    }

    /// The blocks whose checksum differed since the last call.
    pub(super) fn take_mismatches(&mut self) -> Vec<Mismatch> {
        std::mem::take(&mut self.mismatches)
    }

    pub(super) fn finish(&self) -> Decoded {
        if self.ended && self.pending.is_empty() {
            Decoded::Complete
        } else {
            Decoded::Truncated
        }
    }
}

/// The checksum lz4-java stores for a block of `data`: 0 for a stream's
/// end, else its xxHash32's low 28 bits.
fn checksum(data: &[u8]) -> u32 {
    if data.is_empty() {
        0
    } else {
        XxHash32::oneshot(SEED, data) & CHECK_MASK
    }
}

/// Decodes the block at the start of `buf`; how many bytes it took, 0 when
/// it is not all in yet. `ended`: it ended a stream. `check` is shown the
/// block's decoded bytes and the checksum its header stores.
fn block<E>(
    buf: &[u8],
    ended: &mut bool,
    buffer: &mut Vec<u8>,
    check: &mut dyn FnMut(&[u8], u32),
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
    let stored = le32(buf, MAGIC.len() + 9) as u32;
    if original == 0 {
        check(&[], stored);
    } else {
        if method == STORED {
            check(body, stored);
            out(body).map_err(Fail::Out)?;
        } else {
            buffer.resize(original, 0);
            match lz4_flex::block::decompress_into(body, buffer) {
                Ok(n) if n == original => {
                    check(buffer, stored);
                    out(buffer).map_err(Fail::Out)?;
                }
                Ok(n) => return bad(format!("a block decodes to {n} bytes, its header says {original}")),
                Err(e) => return bad(e.to_string()),
            }
        }
    }
    Ok(HEADER + packed)
}
