//! Where a file's chunks read ahead begin and end, so that two workers that
//! share no memory cut them alike ([`crate::ahead_worker`]).
//!
//! A format reads a chunk ahead only when the chunk starts at a line's
//! start (a distbuild log's lines; a trace's events, one a line). So the
//! file is seen as cells of a fixed size, and chunk `k` runs from just
//! after the first newline in cell `k` to just after the first newline in
//! cell `k + 1` ([`chunk_of`]): each worker finds it from those two cells
//! alone. The bytes no chunk covers (a cell without a newline, the file's
//! end) are fed as they are; the analysis worker cuts its slices into both
//! kinds, in order, with a [`Cutter`].

use std::borrow::Cow;
use std::ops::Range;

/// Where chunk `k` begins: just after the first newline of `cell`, the
/// bytes of cell `k` starting at byte `cell_at` of the file.
fn start_in(cell: &[u8], cell_at: u64) -> Option<u64> {
    memchr::memchr(b'\n', cell).map(|i| cell_at + i as u64 + 1)
}

/// Chunk `k` of cells of `cell` bytes, in `data` (the file's bytes from
/// byte `data_at`, covering cells `k` and `k + 1`): its first byte in the
/// file and its range in `data`. `None` when either cell has no newline
/// or `data` does not hold them.
pub fn chunk_of(k: u64, cell: u64, data_at: u64, data: &[u8]) -> Option<(u64, Range<usize>)> {
    let cell_bytes = |k: u64| {
        let from = usize::try_from((k * cell).checked_sub(data_at)?).ok()?;
        let to = usize::try_from(((k + 1) * cell).checked_sub(data_at)?).ok()?.min(data.len());
        (from < to).then(|| (&data[from..to], k * cell))
    };
    let (this, this_at) = cell_bytes(k)?;
    let (next, next_at) = cell_bytes(k + 1)?;
    let (from, to) = (start_in(this, this_at)?, start_in(next, next_at)?);
    Some((from, usize::try_from(from - data_at).ok()?..usize::try_from(to - data_at).ok()?))
}

/// One piece of a slice, as the analysis worker feeds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    /// `Some(k)` when the piece is chunk `k`, which may have been read ahead.
    pub chunk: Option<u64>,
    /// Its first byte in the file.
    pub from: u64,
    /// One past its last byte in the file.
    pub to: u64,
}

/// Cuts the slices of a file, in order, into chunks and the bytes between.
/// What a chunk still lacks at a slice's end is carried to the next slice
/// (at most one cell).
#[derive(Debug)]
pub struct Cutter {
    cell: u64,
    /// Bytes of the file cut so far.
    cut: u64,
    /// The chunk begun and not yet ended: its cell and first byte.
    open: Option<(u64, u64)>,
    /// The bytes from `carry_at` to the end of the slice before.
    carry: Vec<u8>,
    carry_at: u64,
}

impl Cutter {
    /// A cutter of cells of `cell` bytes, the file having been fed up to
    /// byte `from` (a multiple of `cell`).
    pub fn new(cell: u64, from: u64) -> Cutter {
        Cutter { cell, cut: from, open: None, carry: Vec::new(), carry_at: from }
    }

    /// The pieces of `data`, the slice from byte `at` (a multiple of the
    /// cell, right after the slice before), and of what was carried from
    /// that slice; with `last`, the file ends with `data`. Take each
    /// piece's bytes with [`Cutter::bytes`], then call [`Cutter::carry`].
    pub fn cuts(&mut self, at: u64, data: &[u8], last: bool) -> Vec<Cut> {
        let mut cuts = Vec::new();
        for (c, cell) in data.chunks(self.cell as usize).enumerate() {
            let cell_at = at + c as u64 * self.cell;
            let k = cell_at / self.cell;
            match start_in(cell, cell_at) {
                Some(b) => {
                    let chunk = self.open.filter(|&(j, _)| j + 1 == k).map(|(j, _)| j);
                    cuts.push(Cut { chunk, from: self.cut, to: b });
                    (self.cut, self.open) = (b, Some((k, b)));
                }
                None => {
                    // No chunk begins here, and the one begun cannot end.
                    cuts.push(Cut { chunk: None, from: self.cut, to: cell_at + cell.len() as u64 });
                    (self.cut, self.open) = (cell_at + cell.len() as u64, None);
                }
            }
        }
        let end = at + data.len() as u64;
        if last && end > self.cut {
            cuts.push(Cut { chunk: None, from: self.cut, to: end });
            (self.cut, self.open) = (end, None);
        }
        cuts.retain(|c| c.to > c.from);
        cuts
    }

    /// The bytes of `cut`, one of the pieces of `data` (the slice from
    /// byte `at`) and of what was carried before it.
    pub fn bytes<'a>(&'a self, at: u64, data: &'a [u8], cut: &Cut) -> Cow<'a, [u8]> {
        let to = (cut.to.saturating_sub(at) as usize).min(data.len());
        if cut.from >= at {
            return Cow::Borrowed(&data[(cut.from - at) as usize..to]);
        }
        let carried = self.carry.get((cut.from.saturating_sub(self.carry_at)) as usize..).unwrap_or_default();
        Cow::Owned([carried, &data[..to]].concat())
    }

    /// Keeps what of `data` (the slice from byte `at`) is not cut yet.
    pub fn carry(&mut self, at: u64, data: &[u8]) {
        let from = (self.cut.saturating_sub(at) as usize).min(data.len());
        self.carry = data[from..].to_vec();
        self.carry_at = at + from as u64;
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Cuts `data` in slices of `cells_per_slice` cells after a first
    /// slice fed whole; gives every piece's bytes with its cut.
    fn cut_all(data: &[u8], cell: u64, cells_per_slice: u64) -> Vec<(Cut, Vec<u8>)> {
        let slice = (cell * cells_per_slice) as usize;
        let first = slice.min(data.len());
        let mut out = vec![(Cut { chunk: None, from: 0, to: first as u64 }, data[..first].to_vec())];
        let mut cutter = Cutter::new(cell, first as u64);
        let mut at = first;
        while at < data.len() {
            let end = (at + slice).min(data.len());
            let part = &data[at..end];
            for c in cutter.cuts(at as u64, part, end == data.len()) {
                out.push((c.clone(), cutter.bytes(at as u64, part, &c).into_owned()));
            }
            cutter.carry(at as u64, part);
            at = end;
        }
        out
    }

    proptest! {
        #[test]
        fn the_pieces_are_the_file_in_order_and_each_chunk_is_the_one_the_other_worker_cuts(
            lines in proptest::collection::vec(0usize..40, 0..80),
            cell in 1u64..24,
            cells_per_slice in 1u64..5,
        ) {
            let data: Vec<u8> = lines.iter().enumerate().flat_map(|(i, &n)| {
                let mut line = vec![b'a' + (i % 26) as u8; n];
                line.push(b'\n');
                line
            }).collect();
            let pieces = cut_all(&data, cell, cells_per_slice);
            let joined: Vec<u8> = pieces.iter().flat_map(|(_, b)| b.clone()).collect();
            prop_assert_eq!(&joined, &data);
            let mut at = 0;
            for (cut, bytes) in &pieces {
                prop_assert_eq!(cut.from, at);
                prop_assert_eq!(bytes.len() as u64, cut.to - cut.from);
                at = cut.to;
                if let Some(k) = cut.chunk {
                    let (from, range) = chunk_of(k, cell, 0, &data).expect("the other worker finds the chunk");
                    prop_assert_eq!(from, cut.from);
                    prop_assert_eq!(&data[range], &bytes[..]);
                    prop_assert!(bytes.ends_with(b"\n"));
                }
            }
        }
    }

    #[test]
    fn chunks_run_from_a_newline_in_one_cell_to_one_in_the_next() {
        let data = b"ab\ncdef\ngh\nijklmnop\nq";
        // Cells of 4: "ab\nc" "def\n" "gh\ni" "jklm" "nop\n" "q".
        assert_eq!(chunk_of(0, 4, 0, data), Some((3, 3..8)));
        assert_eq!(chunk_of(1, 4, 0, data), Some((8, 8..11)));
        assert_eq!(chunk_of(2, 4, 0, data), None, "cell 3 has no newline");
        assert_eq!(chunk_of(4, 4, 0, data), None, "cell 5 has no newline");
        assert_eq!(chunk_of(1, 4, 4, &data[4..]), Some((8, 4..7)), "from a slice");
        // Slices of one cell: chunk 1 is the one that begins after the
        // first slice and whose next cell has a newline.
        let pieces = cut_all(data, 4, 1);
        let chunks: Vec<_> = pieces.iter().filter_map(|(c, _)| c.chunk).collect();
        assert_eq!(chunks, vec![1]);
    }

    #[test]
    fn a_file_without_newlines_is_cut_cell_by_cell_and_nothing_is_carried() {
        let data = vec![b'x'; 100];
        let pieces = cut_all(&data, 8, 3);
        assert!(pieces.iter().all(|(c, b)| c.chunk.is_none() && b.len() <= 24));
        assert_eq!(pieces.iter().map(|(_, b)| b.len()).sum::<usize>(), 100);
    }
}
