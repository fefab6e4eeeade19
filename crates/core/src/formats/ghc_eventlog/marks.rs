//! A log's user markers and messages, kept small: each text once, and each
//! mark as 24 bytes (its time, its event's offset, its text's id, whether
//! it is a marker), in a list per capability that never moves. A
//! scheduler-heavy program marks millions of steps with a few distinct
//! texts (`START step3`...), so a mark holding its own text took three
//! times the room, and one list sorted by time a copy of half of it more.
//!
//! A capability logs its events in time order, so its marks come sorted;
//! the marks of all are read in time order by merging the capabilities'
//! lists, marks at the same time in file order (by offset), as a stable
//! sort by time would give them.

use crate::chunk_list::ChunkList;
use crate::hash::FastMap;
use crate::model::Nanos;
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

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

impl MarkRef<'_> {
    /// The mark, owning its text.
    pub fn to_mark(&self) -> Mark {
        Mark { time: self.time, cap: self.cap, offset: self.offset, marker: self.marker, text: self.text.to_owned() }
    }
}

impl Marks {
    /// Adds a mark.
    pub(super) fn push(&mut self, time: Nanos, cap: Option<u16>, offset: u64, marker: bool, text: &str) {
        let text = match self.ids.get(text) {
            Some(&id) => id,
            None => {
                let id = self.texts.len() as u32;
                self.texts.push(text.to_owned());
                self.seen_as.push(0);
                self.ids.insert(text.to_owned(), id);
                id
            }
        };
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
        let mut heads = BinaryHeap::with_capacity(self.caps.len());
        for (slot, list) in self.caps.iter().enumerate() {
            if let Some(r) = list.get(0) {
                heads.push(Reverse((r.time, r.offset, slot, 0)));
            }
        }
        MarksIter { marks: self, heads }
    }
}

/// The marks in time order, merged from the capabilities' lists.
pub struct MarksIter<'a> {
    marks: &'a Marks,
    /// Each list's next mark: (time, offset, list, index in it).
    heads: BinaryHeap<Reverse<(Nanos, u64, usize, usize)>>,
}

impl<'a> Iterator for MarksIter<'a> {
    type Item = MarkRef<'a>;

    fn next(&mut self) -> Option<MarkRef<'a>> {
        let Reverse((_, _, slot, i)) = self.heads.pop()?;
        let list = self.marks.caps.get(slot)?;
        let r = list.get(i)?;
        if let Some(n) = list.get(i + 1) {
            self.heads.push(Reverse((n.time, n.offset, slot, i + 1)));
        }
        Some(MarkRef {
            time: r.time,
            cap: slot.checked_sub(1).map(|c| c as u16),
            offset: r.offset,
            marker: r.marker,
            text: self.marks.text(r.text).unwrap_or(""),
            text_id: r.text,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            m.push(time, cap, offset, marker, text);
        }
        assert_eq!((m.len(), m.text_count()), (5, 3));
        m.order();
        let got: Vec<Mark> = m.iter().map(|r| r.to_mark()).collect();
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
