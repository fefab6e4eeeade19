//! Splitting a byte stream that arrives in chunks of any size into lines.
//!
//! Text formats read line by line; the chunk boundaries the caller chooses
//! (a worker's slices, a decompressor's output) must not matter. The splitter
//! keeps only the unfinished last line between chunks.

/// Splits chunks into `\n`-terminated lines, numbering them from 1.
///
/// The `\n` is not part of the line; a `\r` before it is kept (formats that
/// care strip it). A last line without `\n` is delivered by [`LineSplitter::finish`].
#[derive(Debug, Default)]
pub struct LineSplitter {
    partial: Vec<u8>,
    line_no: u64,
}

impl LineSplitter {
    /// A splitter at the start of a stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of complete lines delivered so far.
    pub fn lines(&self) -> u64 {
        self.line_no
    }

    /// Whether an unfinished line is held, for the next chunk to complete.
    pub fn holds_partial(&self) -> bool {
        !self.partial.is_empty()
    }

    /// Counts `n` whole lines that were delivered without the splitter (read
    /// ahead from a chunk while no unfinished line was held).
    pub fn count_lines(&mut self, n: u64) {
        self.line_no += n;
    }

    /// Feeds one chunk, calling `each(line_no, line)` for every line it completes.
    pub fn feed<E>(&mut self, chunk: &[u8], mut each: impl FnMut(u64, &[u8]) -> Result<(), E>) -> Result<(), E> {
        let mut from = 0;
        for nl in memchr::memchr_iter(b'\n', chunk) {
            self.line_no += 1;
            if self.partial.is_empty() {
                each(self.line_no, &chunk[from..nl])?;
            } else {
                self.partial.extend_from_slice(&chunk[from..nl]);
                let line = std::mem::take(&mut self.partial);
                each(self.line_no, &line)?;
                self.partial = line;
                self.partial.clear();
            }
            from = nl + 1;
        }
        self.partial.extend_from_slice(&chunk[from..]);
        Ok(())
    }

    /// Ends the stream, delivering a last line that has no `\n`.
    pub fn finish<E>(&mut self, mut each: impl FnMut(u64, &[u8]) -> Result<(), E>) -> Result<(), E> {
        if self.partial.is_empty() {
            return Ok(());
        }
        self.line_no += 1;
        let line = std::mem::take(&mut self.partial);
        each(self.line_no, &line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(data: &[u8], chunk: usize) -> Vec<(u64, Vec<u8>)> {
        let mut s = LineSplitter::new();
        let mut out = Vec::new();
        for c in data.chunks(chunk.max(1)) {
            s.feed::<()>(c, |n, l| {
                out.push((n, l.to_vec()));
                Ok(())
            })
            .unwrap();
        }
        s.finish::<()>(|n, l| {
            out.push((n, l.to_vec()));
            Ok(())
        })
        .unwrap();
        out
    }

    #[test]
    fn chunk_boundaries_do_not_matter() {
        let data = b"one\ntwo\r\n\nlast";
        let whole = split(data, data.len());
        assert_eq!(whole.len(), 4);
        assert_eq!(whole[1], (2, b"two\r".to_vec()));
        assert_eq!(whole[3], (4, b"last".to_vec()));
        for chunk in [1, 2, 3, 7] {
            assert_eq!(split(data, chunk), whole, "chunk size {chunk}");
        }
    }
}
