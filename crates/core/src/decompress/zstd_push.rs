//! Push-style Zstandard decoding over ruzstd's `FrameDecoder`.
//!
//! ruzstd reads from a `Read` and cannot resume a half-read block, so this
//! buffers input until a whole frame header or block (at most 128 KiB plus
//! its header) is present, then lets ruzstd decode exactly that much.
//! Skippable frames are skipped; several frames are decoded in order; a
//! frame's content checksum, when present, is verified.

use super::{Decoded, Fail};
use ruzstd::decoding::{BlockDecodingStrategy, FrameDecoder};

const ZSTD_MAGIC: u32 = 0xFD2F_B528;
const SKIPPABLE_MASK: u32 = 0xFFFF_FFF0;
const SKIPPABLE_MAGIC: u32 = 0x184D_2A50;

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// Between frames: the next bytes are a magic number.
    FrameStart,
    /// Inside a frame whose header was read.
    Blocks { checksum: bool },
    /// Skipping this many bytes of a skippable frame.
    Skipping(u64),
}

pub(super) struct ZstdPush {
    decoder: FrameDecoder,
    state: State,
    pending: Vec<u8>,
}

impl ZstdPush {
    pub(super) fn new() -> Self {
        ZstdPush { decoder: FrameDecoder::new(), state: State::FrameStart, pending: Vec::new() }
    }

    pub(super) fn push<E>(&mut self, input: &[u8], out: &mut dyn FnMut(&[u8]) -> Result<(), E>) -> Result<(), Fail<E>> {
        let mut pending = std::mem::take(&mut self.pending);
        pending.extend_from_slice(input);
        let mut at = 0;
        let result = loop {
            match self.step(&pending[at..], out) {
                Ok(0) => break Ok(()),
                Ok(n) => at += n,
                Err(e) => break Err(e),
            }
        };
        pending.drain(..at);
        self.pending = pending;
        result
    }

    /// Decodes one unit (header, block or skipped bytes) from `buf`, returning
    /// how many bytes it consumed; 0 means more input is needed.
    fn step<E>(&mut self, buf: &[u8], out: &mut dyn FnMut(&[u8]) -> Result<(), E>) -> Result<usize, Fail<E>> {
        match self.state {
            State::Skipping(n) => {
                let take = (buf.len() as u64).min(n) as usize;
                self.state = if take as u64 == n { State::FrameStart } else { State::Skipping(n - take as u64) };
                Ok(take)
            }
            State::FrameStart => {
                let Some(magic) = buf.get(..4) else { return Ok(0) };
                let magic = u32::from_le_bytes([magic[0], magic[1], magic[2], magic[3]]);
                if magic & SKIPPABLE_MASK == SKIPPABLE_MAGIC {
                    let Some(len) = buf.get(4..8) else { return Ok(0) };
                    let skip = u32::from_le_bytes([len[0], len[1], len[2], len[3]]);
                    if skip > 0 {
                        self.state = State::Skipping(u64::from(skip));
                    }
                    return Ok(8);
                }
                if magic != ZSTD_MAGIC {
                    return Err(Fail::Corrupt(format!("not a zstd frame: magic number {magic:#010x}")));
                }
                let Some(&descriptor) = buf.get(4) else { return Ok(0) };
                if buf.len() < frame_header_len(descriptor) {
                    return Ok(0);
                }
                let mut reader = buf;
                self.decoder.reset(&mut reader).map_err(|e| Fail::Corrupt(e.to_string()))?;
                self.state = State::Blocks { checksum: descriptor & 0b100 != 0 };
                Ok(buf.len() - reader.len())
            }
            State::Blocks { checksum } => {
                let Some(h) = buf.get(..3) else { return Ok(0) };
                let header = u32::from(h[0]) | u32::from(h[1]) << 8 | u32::from(h[2]) << 16;
                let last = header & 1 == 1;
                let body = match (header >> 1) & 0b11 {
                    1 => 1, // RLE: one byte, repeated
                    3 => return Err(Fail::Corrupt("reserved block type".into())),
                    _ => (header >> 3) as usize,
                };
                let need = 3 + body + if last && checksum { 4 } else { 0 };
                if buf.len() < need {
                    return Ok(0);
                }
                let mut reader = &buf[..need];
                self.decoder
                    .decode_blocks(&mut reader, BlockDecodingStrategy::UptoBlocks(1))
                    .map_err(|e| Fail::Corrupt(e.to_string()))?;
                // Collecting feeds ruzstd's checksum, so deliver before checking it.
                self.deliver(out)?;
                if last {
                    if let (Some(want), Some(got)) =
                        (self.decoder.get_checksum_from_data(), self.decoder.get_calculated_checksum())
                    {
                        if want != got {
                            return Err(Fail::Corrupt(format!(
                                "content checksum mismatch: frame says {want:#010x}, data gives {got:#010x}"
                            )));
                        }
                    }
                    self.state = State::FrameStart;
                }
                Ok(need - reader.len())
            }
        }
    }

    fn deliver<E>(&mut self, out: &mut dyn FnMut(&[u8]) -> Result<(), E>) -> Result<(), Fail<E>> {
        if let Some(bytes) = self.decoder.collect() {
            if !bytes.is_empty() {
                out(&bytes).map_err(Fail::Out)?;
            }
        }
        Ok(())
    }

    pub(super) fn finish(&self) -> Decoded {
        if self.state == State::FrameStart && self.pending.is_empty() {
            Decoded::Complete
        } else {
            Decoded::Truncated
        }
    }
}

/// Size of a frame header (magic included) from its descriptor byte.
fn frame_header_len(descriptor: u8) -> usize {
    let single_segment = descriptor & 0b10_0000 != 0;
    let dict_id = [0, 1, 2, 4][usize::from(descriptor & 0b11)];
    let content_size = match descriptor >> 6 {
        0 => usize::from(single_segment),
        1 => 2,
        2 => 4,
        _ => 8,
    };
    4 + 1 + usize::from(!single_segment) + dict_id + content_size
}
