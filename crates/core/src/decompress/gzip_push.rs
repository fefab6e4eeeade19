//! Push-style gzip decoding over flate2's raw deflate `Decompress`, with the
//! member header and trailer read here so that a stream cut short (truncated)
//! and a stream whose checksum is wrong (corrupt) are told apart. Members
//! written one after another (`cat a.gz b.gz`, pigz) are all read.

use super::{Decoded, Fail, OUT_PIECE};
use flate2::{Crc, Decompress, FlushDecompress, Status};

const FHCRC: u8 = 0b0000_0010;
const FEXTRA: u8 = 0b0000_0100;
const FNAME: u8 = 0b0000_1000;
const FCOMMENT: u8 = 0b0001_0000;

enum State {
    /// Expecting a member header (or the end of the input).
    Header,
    /// Inside a member's deflate data.
    Deflate,
    /// Expecting a member's 8-byte trailer.
    Trailer,
}

pub(super) struct GzipPush {
    state: State,
    inflate: Decompress,
    crc: Crc,
    pending: Vec<u8>,
    out: Vec<u8>,
}

impl GzipPush {
    pub(super) fn new() -> Self {
        GzipPush {
            state: State::Header,
            inflate: Decompress::new(false),
            crc: Crc::new(),
            pending: Vec::new(),
            out: vec![0; OUT_PIECE],
        }
    }

    pub(super) fn push<E>(&mut self, input: &[u8], out: &mut dyn FnMut(&[u8]) -> Result<(), E>) -> Result<(), Fail<E>> {
        let mut pending = std::mem::take(&mut self.pending);
        pending.extend_from_slice(input);
        let mut at = 0;
        let result = loop {
            match self.step(&pending[at..], out) {
                Ok(None) => break Ok(()),
                Ok(Some(n)) => at += n,
                Err(e) => break Err(e),
            }
        };
        pending.drain(..at);
        self.pending = pending;
        result
    }

    /// Consumes one unit (a header, some deflate data, a trailer), returning
    /// the bytes used; `None` means more input is needed.
    fn step<E>(&mut self, buf: &[u8], out: &mut dyn FnMut(&[u8]) -> Result<(), E>) -> Result<Option<usize>, Fail<E>> {
        match self.state {
            State::Header => {
                let Some(len) = header_len(buf).map_err(Fail::Corrupt)? else { return Ok(None) };
                self.inflate.reset(false);
                self.crc.reset();
                self.state = State::Deflate;
                Ok(Some(len))
            }
            State::Deflate => {
                if buf.is_empty() {
                    return Ok(None);
                }
                let (in0, out0) = (self.inflate.total_in(), self.inflate.total_out());
                let status = self
                    .inflate
                    .decompress(buf, &mut self.out, FlushDecompress::None)
                    .map_err(|e| Fail::Corrupt(e.to_string()))?;
                let used = (self.inflate.total_in() - in0) as usize;
                let made = (self.inflate.total_out() - out0) as usize;
                if made > 0 {
                    self.crc.update(&self.out[..made]);
                    out(&self.out[..made]).map_err(Fail::Out)?;
                }
                if status == Status::StreamEnd {
                    self.state = State::Trailer;
                    return Ok(Some(used));
                }
                Ok((used > 0 || made > 0).then_some(used))
            }
            State::Trailer => {
                let Some(t) = buf.get(..8) else { return Ok(None) };
                let crc = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
                let size = u32::from_le_bytes([t[4], t[5], t[6], t[7]]);
                if crc != self.crc.sum() || size != self.crc.amount() {
                    return Err(Fail::Corrupt(format!(
                        "gzip member checksum mismatch: trailer says crc {crc:#010x} for {size} bytes, data gives {:#010x} for {}",
                        self.crc.sum(),
                        self.crc.amount()
                    )));
                }
                self.state = State::Header;
                Ok(Some(8))
            }
        }
    }

    pub(super) fn finish(&self) -> Decoded {
        if matches!(self.state, State::Header) && self.pending.is_empty() {
            Decoded::Complete
        } else {
            Decoded::Truncated
        }
    }
}

/// The length of the member header at the start of `buf`; `None` if `buf`
/// does not hold all of it yet.
fn header_len(buf: &[u8]) -> Result<Option<usize>, String> {
    let Some(fixed) = buf.get(..10) else { return Ok(None) };
    if fixed[0] != 0x1f || fixed[1] != 0x8b {
        return Err(format!("expected a gzip member, found bytes {:#04x} {:#04x}", fixed[0], fixed[1]));
    }
    if fixed[2] != 8 {
        return Err(format!("unknown gzip compression method {}", fixed[2]));
    }
    let flags = fixed[3];
    let mut at = 10;
    if flags & FEXTRA != 0 {
        let Some(x) = buf.get(at..at + 2) else { return Ok(None) };
        at += 2 + usize::from(u16::from_le_bytes([x[0], x[1]]));
    }
    for flag in [FNAME, FCOMMENT] {
        if flags & flag != 0 {
            let Some(rest) = buf.get(at..) else { return Ok(None) };
            let Some(nul) = memchr::memchr(0, rest) else { return Ok(None) };
            at += nul + 1;
        }
    }
    if flags & FHCRC != 0 {
        at += 2;
    }
    Ok((buf.len() >= at).then_some(at))
}
