//! A log's user markers and messages, kept small while the log is read:
//! each text once, and each mark as 24 bytes (its time, its event's offset,
//! its text's id, whether it is a marker), in a list per capability that
//! never moves. A scheduler-heavy program marks millions of steps with a
//! few distinct texts (`START step3`...), so a mark holding its own text
//! took three times the room, and one list sorted by time a copy of half of
//! it more.
//!
//! A capability logs its events in time order, so its marks come sorted;
//! the marks of all are read in time order by merging the capabilities'
//! lists ([`super::mark_merge`]), marks at the same time in file order (by
//! offset), as a stable sort by time would give them. Once read, they are
//! made into spans as the lists are freed ([`Marks::drain`]); the log keeps
//! the first of them and their count ([`KeptMarks`]).

use super::mark_merge::{Cursor, Merge};
use crate::chunk_list::ChunkList;
use crate::hash::FastMap;
use crate::model::Nanos;
use serde::{Deserialize, Serialize};

/// A user marker or message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    /// When, ns.
    pub time: Nanos,
    /// The capability that logged it.
    pub cap: Option<u16>,
    /// Byte offset of its event in the file.
    pub offset: u64,
    /// A marker (`traceMarker`) rather than a message (`traceEvent`).
    pub marker: bool,
    /// Its text.
    pub text: String,
}

/// One mark, its text by id, its capability by the list it is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Row {
    time: Nanos,
    offset: u64,
    text: u32,
    marker: bool,
}

/// User markers and messages, read in time order ([`Marks::iter`]) once
/// [`Marks::order`] has run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// Per capability: index 0 for marks outside any capability's block, `c + 1` for cap `c`.
    caps: Vec<ChunkList<Row>>,
    len: usize,
    texts: Vec<String>,
    /// Per text: seen in a message (bit 0), in a marker (bit 1).
    seen_as: Vec<u8>,
    ids: FastMap<String, u32>,
    /// Texts met lately, by a cheap hash of their bytes ([`recent_slot`]):
    /// a program logs millions of marks with few texts, and this finds most
    /// of them without hashing them whole or checking their UTF-8 again.
    recent: Recent,
}

/// The table of recent texts: text ids by [`recent_slot`] (`u32::MAX`:
/// none), made on first use. A cache: equal whatever it holds.
#[derive(Clone, Debug, Default)]
struct Recent(Vec<u32>);

impl PartialEq for Recent {
    fn eq(&self, _: &Recent) -> bool {
        true
    }
}

impl Eq for Recent {}

/// Slots of [`Marks`]'s table of recent texts.
const RECENT_BITS: u32 = 10;

/// A text's slot in the table of recent texts: its length and its first
/// and last eight bytes, mixed (a hint only: the text is compared).
fn recent_slot(text: &[u8]) -> usize {
    let n = text.len();
    let (first, last) = match (text.first_chunk::<8>(), text.last_chunk::<8>()) {
        (Some(&a), Some(&b)) => (u64::from_le_bytes(a), u64::from_le_bytes(b)),
        _ => {
            let word = text.iter().fold(0u64, |w, &x| (w << 8) | u64::from(x));
            (word, word)
        }
    };
    let mixed = (n as u64) ^ first.rotate_left(17) ^ last;
    (mixed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - RECENT_BITS)) as usize
}

/// One mark, its text borrowed from [`Marks`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MarkRef<'a> {
    /// When, ns.
    pub time: Nanos,
    /// The capability that logged it.
    pub cap: Option<u16>,
    /// Byte offset of its event in the file.
    pub offset: u64,
    /// A marker (`traceMarker`) rather than a message (`traceEvent`).
    pub marker: bool,
    /// Its text.
    pub text: &'a str,
    /// Its text's id: the same for the same text, below [`Marks::text_count`].
    pub text_id: u32,
}

impl Marks {
    /// Adds a mark whose text is `text`; `false` (and nothing added) when
    /// the text is not UTF-8.
    pub(super) fn push(&mut self, time: Nanos, cap: Option<u16>, offset: u64, marker: bool, text: &[u8]) -> bool {
        let Some(text) = self.text_id(text) else { return false };
        if let Some(seen) = self.seen_as.get_mut(text as usize) {
            *seen |= if marker { 2 } else { 1 };
        }
        let slot = cap.map_or(0, |c| usize::from(c) + 1);
        if self.caps.len() <= slot {
            self.caps.resize_with(slot + 1, ChunkList::default);
        }
        if let Some(list) = self.caps.get_mut(slot) {
            list.push(Row { time, offset, text, marker });
            self.len += 1;
        }
        true
    }

    /// The id of text `bytes`, added on first use; `None` when it is not UTF-8.
    fn text_id(&mut self, bytes: &[u8]) -> Option<u32> {
        if self.recent.0.is_empty() {
            self.recent.0 = vec![u32::MAX; 1 << RECENT_BITS];
        }
        let slot = recent_slot(bytes);
        let hint = self.recent.0[slot];
        if self.texts.get(hint as usize).is_some_and(|t| t.as_bytes() == bytes) {
            return Some(hint);
        }
        let text = std::str::from_utf8(bytes).ok()?;
        let id = match self.ids.get(text) {
            Some(&id) => id,
            None => {
                let id = self.texts.len() as u32;
                self.texts.push(text.to_owned());
                self.seen_as.push(0);
                self.ids.insert(text.to_owned(), id);
                id
            }
        };
        self.recent.0[slot] = id;
        Some(id)
    }

    /// Sorts the list of a capability whose marks did not come in time
    /// order (a damaged log), so that [`Marks::iter`] gives time order.
    pub(super) fn order(&mut self) {
        let key = |r: &Row| (r.time, r.offset);
        for list in &mut self.caps {
            if !list.iter().is_sorted_by_key(key) {
                let mut rows: Vec<Row> = list.iter().copied().collect();
                rows.sort_unstable_by_key(key);
                *list = ChunkList::default();
                for r in rows {
                    list.push(r);
                }
            }
        }
    }

    /// How many marks there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// No marks at all.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many distinct texts they have.
    pub fn text_count(&self) -> usize {
        self.texts.len()
    }

    /// The text of id `id` (below [`Marks::text_count`]).
    pub fn text(&self, id: u32) -> Option<&str> {
        self.texts.get(id as usize).map(String::as_str)
    }

    /// Whether text `id` was logged as a marker (`true`) or as a message
    /// (`false`), or both.
    pub fn seen_as(&self, id: u32, marker: bool) -> bool {
        self.seen_as.get(id as usize).is_some_and(|&s| s & if marker { 2 } else { 1 } != 0)
    }

    /// Every mark, in time order (marks at the same time in file order).
    pub fn iter(&self) -> MarksIter<'_> {
        MarksIter { marks: self, merge: Merge::new(self.caps.iter().map(|list| At { list, i: 0 }).collect()) }
    }

    /// Every mark, in time order, each list's memory given back as the
    /// marks are read: for the pass that makes them into spans, which then
    /// keeps only the first [`MARKS_KEPT`] ([`KeptMarks`]).
    pub(super) fn drain(self) -> MarksDrain {
        let lists = self.caps.into_iter().map(|list| Owned::new(list.into_chunks())).collect();
        MarksDrain { merge: Merge::new(lists), texts: self.texts }
    }
}

/// A list's marks from its `i`th on.
struct At<'a> {
    list: &'a ChunkList<Row>,
    i: usize,
}

impl Cursor for At<'_> {
    fn key(&self) -> Option<(Nanos, u64)> {
        self.list.get(self.i).map(|r| (r.time, r.offset))
    }

    fn advance(&mut self) {
        self.i += 1;
    }
}

/// A list's marks left, each chunk freed once read.
struct Owned {
    chunks: std::vec::IntoIter<Vec<Row>>,
    rows: std::vec::IntoIter<Row>,
    head: Option<Row>,
}

impl Owned {
    fn new(chunks: Vec<Vec<Row>>) -> Owned {
        let mut owned = Owned { chunks: chunks.into_iter(), rows: Vec::new().into_iter(), head: None };
        owned.advance();
        owned
    }
}

impl Cursor for Owned {
    fn key(&self) -> Option<(Nanos, u64)> {
        self.head.map(|r| (r.time, r.offset))
    }

    fn advance(&mut self) {
        self.head = loop {
            if let Some(r) = self.rows.next() {
                break Some(r);
            }
            match self.chunks.next() {
                Some(chunk) => self.rows = chunk.into_iter(),
                None => break None,
            }
        };
    }
}

/// The marks in time order, merged from the capabilities' lists.
pub struct MarksIter<'a> {
    marks: &'a Marks,
    merge: Merge<At<'a>>,
}

impl<'a> Iterator for MarksIter<'a> {
    type Item = MarkRef<'a>;

    fn next(&mut self) -> Option<MarkRef<'a>> {
        let at = self.merge.next()?;
        let r = at.list.get(at.i)?;
        Some(MarkRef {
            time: r.time,
            cap: self.merge.current().and_then(|slot| slot.checked_sub(1)).map(|c| c as u16),
            offset: r.offset,
            marker: r.marker,
            text: self.marks.text(r.text).unwrap_or(""),
            text_id: r.text,
        })
    }
}

/// One mark of a [`MarksDrain`], its text by id ([`MarksDrain::text`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Drained {
    /// When, ns.
    pub time: Nanos,
    /// The capability that logged it.
    pub cap: Option<u16>,
    /// Byte offset of its event in the file.
    pub offset: u64,
    /// A marker rather than a message.
    pub marker: bool,
    /// Its text's id.
    pub text_id: u32,
}

/// The marks in time order, their lists freed as they are read ([`Marks::drain`]).
pub(super) struct MarksDrain {
    merge: Merge<Owned>,
    texts: Vec<String>,
}

impl MarksDrain {
    /// The next mark in time order.
    pub(super) fn next(&mut self) -> Option<Drained> {
        let r = self.merge.next()?.head?;
        let cap = self.merge.current().and_then(|slot| slot.checked_sub(1)).map(|c| c as u16);
        Some(Drained { time: r.time, cap, offset: r.offset, marker: r.marker, text_id: r.text })
    }

    /// The text of id `id`.
    pub(super) fn text(&self, id: u32) -> &str {
        self.texts.get(id as usize).map_or("", String::as_str)
    }
}

/// Most marks a read log keeps, in time order (the page's table).
pub const MARKS_KEPT: usize = 10_000;

/// What a read log keeps of its marks once they are made into spans and
/// instants: the first [`MARKS_KEPT`] in time order, and how many there were.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeptMarks {
    /// The first marks, in time order.
    pub first: Vec<Mark>,
    /// Every mark, counted.
    pub count: u64,
}

impl KeptMarks {
    /// How many marks the log has.
    pub fn len(&self) -> u64 {
        self.count
    }

    /// The log has no marks.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The mark, owning its text.
    fn owned(r: MarkRef<'_>) -> Mark {
        Mark { time: r.time, cap: r.cap, offset: r.offset, marker: r.marker, text: r.text.to_owned() }
    }

    proptest! {
        /// Marks of several capabilities, each logged in time order in runs
        /// of blocks as a runtime writes them, with times that tie across
        /// capabilities and texts that repeat: merged, they come back as a
        /// stable sort by time of the file's order, each text by its id.
        #[test]
        fn merged_marks_equal_a_stable_sort_of_the_file(
            blocks in proptest::collection::vec((0..4u16, 1..6usize, 0..3i64), 0..40),
            texts in proptest::collection::vec(0..6u8, 1..200),
        ) {
            let mut clocks = [0i64; 4];
            let mut pushed = Vec::new();
            let mut m = Marks::default();
            let mut offset = 0u64;
            for (cap, len, step) in blocks {
                for _ in 0..len {
                    clocks[usize::from(cap)] += step;
                    let text = format!("t{}", texts[pushed.len() % texts.len()]);
                    let cap = (cap < 3).then_some(cap);
                    offset += 10;
                    let time = clocks[cap.map_or(3, usize::from)];
                    prop_assert!(m.push(time, cap, offset, false, text.as_bytes()));
                    pushed.push(Mark { time, cap, offset, marker: false, text });
                }
            }
            m.order();
            let got: Vec<Mark> = m.iter().map(owned).collect();
            pushed.sort_by_key(|w| w.time);
            prop_assert_eq!(&got, &pushed);
            for r in m.iter() {
                prop_assert_eq!(m.text(r.text_id), Some(r.text));
            }
            let mut drain = m.drain();
            let mut drained = Vec::new();
            while let Some(d) = drain.next() {
                let text = drain.text(d.text_id).to_owned();
                drained.push(Mark { time: d.time, cap: d.cap, offset: d.offset, marker: d.marker, text });
            }
            prop_assert_eq!(&drained, &pushed);
        }
    }

    #[test]
    fn text_that_is_not_utf8_is_no_mark() {
        let mut m = Marks::default();
        assert!(m.push(1, Some(0), 10, false, b"START a"));
        assert!(!m.push(2, Some(0), 20, false, b"START \xff"));
        assert!(m.push(3, Some(0), 30, false, b"START a"));
        assert_eq!((m.len(), m.text_count()), (2, 1));
    }

    #[test]
    fn marks_come_back_in_time_order_then_file_order_each_text_kept_once() {
        let mut m = Marks::default();
        let pushed = [
            (30, Some(1), 300, false, "START a"),
            (10, None, 100, true, "here"),
            (10, Some(0), 200, false, "START a"),
            // Cap 1 out of order: sorted by `order`.
            (20, Some(1), 400, false, "STOP a"),
            (10, Some(1), 150, false, "here"),
        ];
        for &(time, cap, offset, marker, text) in &pushed {
            m.push(time, cap, offset, marker, text.as_bytes());
        }
        assert_eq!((m.len(), m.text_count()), (5, 3));
        m.order();
        let got: Vec<Mark> = m.iter().map(owned).collect();
        // The reference: a stable sort by time of the marks in file (offset) order.
        let mut want: Vec<Mark> = pushed
            .iter()
            .map(|&(time, cap, offset, marker, text)| Mark { time, cap, offset, marker, text: text.to_owned() })
            .collect();
        want.sort_by_key(|w| w.offset);
        want.sort_by_key(|w| w.time);
        assert_eq!(got, want);
        let here = m.iter().find(|r| r.text == "here").map(|r| r.text_id).unwrap();
        assert!(m.seen_as(here, true) && m.seen_as(here, false));
        let start = m.iter().find(|r| r.text == "START a").map(|r| r.text_id).unwrap();
        assert!(!m.seen_as(start, true) && m.seen_as(start, false));
    }
}
