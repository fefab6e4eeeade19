//! A file read in chunks that end where a line ends, so that each chunk's
//! lines can be read ahead on their own (only a line longer than a chunk,
//! or the file's last, unterminated line, ends a chunk elsewhere). What
//! follows a chunk's last line is kept for the next one: memory holds a
//! chunk, never the file.

use std::fs::File;
use std::io::{self, Read};

/// Reads a file in chunks of about `size` bytes that end at a line's end.
pub struct LineChunks {
    file: File,
    size: usize,
    /// Bytes read past the last chunk's last line.
    carry: Vec<u8>,
}

impl LineChunks {
    /// Chunks of `file`, each about `size` bytes.
    pub fn new(file: File, size: usize) -> Self {
        LineChunks { file, size, carry: Vec::new() }
    }

    /// Makes the next chunks about `size` bytes.
    pub fn resize(&mut self, size: usize) {
        self.size = size;
    }

    /// The next chunk, written into `buf` (a chunk given back, so that its
    /// memory is used again); `None` at the end of the file.
    pub fn next(&mut self, mut buf: Vec<u8>) -> io::Result<Option<Vec<u8>>> {
        buf.clear();
        buf.append(&mut self.carry);
        let want = self.size.saturating_sub(buf.len()).max(1);
        let read = (&mut self.file).take(want as u64).read_to_end(&mut buf)?;
        if buf.is_empty() {
            return Ok(None);
        }
        if read == want {
            // Not at the end yet: what follows the last line waits for the next chunk.
            if let Some(nl) = memchr::memrchr(b'\n', &buf) {
                self.carry.extend_from_slice(&buf[nl + 1..]);
                buf.truncate(nl + 1);
            }
        }
        Ok(Some(buf))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn chunks_end_at_line_ends_and_give_back_every_byte() {
        let dir = std::env::temp_dir().join(format!("longpole-chunks-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("lines.txt");
        let text: Vec<u8> =
            (0..500).flat_map(|i| format!("line {i} {}\n", "x".repeat(i % 37)).into_bytes()).chain(*b"end").collect();
        File::create(&path).unwrap().write_all(&text).unwrap();
        for size in [1, 7, 64, 4096, 1 << 20] {
            let mut chunks = LineChunks::new(File::open(&path).unwrap(), size);
            let mut all = Vec::new();
            while let Some(c) = chunks.next(Vec::new()).unwrap() {
                let whole_lines = c.ends_with(b"\n") || !c.contains(&b'\n') || all.len() + c.len() == text.len();
                assert!(whole_lines, "size {size}: a chunk cut within a line it does not start");
                all.extend_from_slice(&c);
            }
            assert_eq!(all, text, "size {size}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
