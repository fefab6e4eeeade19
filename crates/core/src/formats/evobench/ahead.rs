//! Lines read ahead of the pairing: a chunk's whole lines parsed on any
//! thread ([`LinesAhead`]), then paired in order by the reader. A line's
//! record needs nothing of the lines before it, and a line read alone goes
//! through the same [`parse`], so both ways give the same log.

use super::record::{parse, Record};
use crate::formats::ReadAhead;

/// A chunk's whole lines, parsed ahead.
#[derive(Default)]
pub struct LinesAhead {
    /// The length of the chunk read.
    chunk_len: usize,
    /// Its bytes up to the end of its last whole line.
    whole: usize,
    /// Each whole line's end in the chunk (its `\n`), and its record.
    lines: Vec<(usize, Result<Record<'static>, String>)>,
}

impl ReadAhead for LinesAhead {
    fn prepare(&mut self, chunk: &[u8]) {
        self.lines.clear();
        self.chunk_len = chunk.len();
        let mut from = 0;
        for nl in memchr::memchr_iter(b'\n', chunk) {
            let line = &chunk[from..nl];
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            self.lines.push((nl, parse(line).map(Record::into_owned).map_err(|e| e.to_string())));
            from = nl + 1;
        }
        self.whole = from;
    }
}

impl LinesAhead {
    /// Whether these are the lines of `chunk` (of its length).
    pub(super) fn fit(&self, chunk: &[u8]) -> bool {
        chunk.len() == self.chunk_len
    }

    /// The whole lines of `chunk` (which they [`LinesAhead::fit`]; their
    /// `\n` left off), in order, each with its record or the parser's error.
    pub(super) fn lines<'a>(
        &'a self,
        chunk: &'a [u8],
    ) -> impl Iterator<Item = (&'a [u8], &'a Result<Record<'static>, String>)> + 'a {
        let starts = std::iter::once(0).chain(self.lines.iter().map(|(nl, _)| nl + 1));
        self.lines
            .iter()
            .zip(starts)
            .map(move |((nl, record), from)| (chunk.get(from..*nl).unwrap_or_default(), record))
    }

    /// What follows the whole lines of `chunk`: the start of a line it does not end.
    pub(super) fn rest<'a>(&self, chunk: &'a [u8]) -> &'a [u8] {
        chunk.get(self.whole..).unwrap_or_default()
    }
}
