//! Push-style bzip2 decoding over `bzip2::Decompress`, reading concatenated
//! streams (as written by pbzip2 and lbzip2) one after another.

use super::{Decoded, Fail, OUT_PIECE};
use bzip2::{Decompress, Status};

pub(super) struct Bzip2Push {
    stream: Decompress,
    /// Inside a stream (some of its bytes were consumed and it has not ended).
    in_stream: bool,
    out: Vec<u8>,
}

impl Bzip2Push {
    pub(super) fn new() -> Self {
        Bzip2Push { stream: Decompress::new(false), in_stream: false, out: vec![0; OUT_PIECE] }
    }

    pub(super) fn push<E>(
        &mut self,
        mut input: &[u8],
        out: &mut dyn FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), Fail<E>> {
        while !input.is_empty() {
            let (in_before, out_before) = (self.stream.total_in(), self.stream.total_out());
            let status = self.stream.decompress(input, &mut self.out).map_err(|e| Fail::Corrupt(e.to_string()))?;
            let used = (self.stream.total_in() - in_before) as usize;
            let made = (self.stream.total_out() - out_before) as usize;
            input = &input[used..];
            self.in_stream = true;
            if made > 0 {
                out(&self.out[..made]).map_err(Fail::Out)?;
            }
            if let Status::StreamEnd = status {
                // The next bytes, if any, start a new stream.
                self.stream = Decompress::new(false);
                self.in_stream = false;
            } else if used == 0 && made == 0 {
                // The decoder wants more input than this chunk holds.
                break;
            }
        }
        Ok(())
    }

    pub(super) fn finish(&self) -> Decoded {
        if self.in_stream {
            Decoded::Truncated
        } else {
            Decoded::Complete
        }
    }
}
