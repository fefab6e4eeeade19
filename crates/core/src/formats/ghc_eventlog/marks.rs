//! A log's user markers and messages, kept small: each text once, and each
//! mark as 24 bytes (its time, its event's offset, its text's id, its
//! capability, whether it is a marker). A scheduler-heavy program marks
//! millions of steps with a few distinct texts (`START step3`...), so a
//! mark holding its own text took three times the room.

use super::run::Mark;
use crate::hash::FastMap;
use crate::model::Nanos;

/// One mark, its text by id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Row {
    time: Nanos,
    offset: u64,
    text: u32,
    /// The capability, `u16::MAX` for none (a block of cap 0xFFFF is none too).
    cap: u16,
    marker: bool,
}

/// User markers and messages, in the order pushed (time order once
/// [`Marks::sort_by_time`] has run).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    rows: Vec<Row>,
    texts: Vec<String>,
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
                self.ids.insert(text.to_owned(), id);
                id
            }
        };
        self.rows.push(Row { time, offset, text, cap: cap.unwrap_or(u16::MAX), marker });
    }

    /// Puts the marks in time order; marks at the same time keep their order.
    pub(super) fn sort_by_time(&mut self) {
        self.rows.sort_by_key(|r| r.time);
    }

    /// How many marks there are.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// No marks at all.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// How many distinct texts they have.
    pub fn text_count(&self) -> usize {
        self.texts.len()
    }

    /// The text of id `id` (below [`Marks::text_count`]).
    pub fn text(&self, id: u32) -> Option<&str> {
        self.texts.get(id as usize).map(String::as_str)
    }

    /// Every mark, in order.
    pub fn iter(&self) -> impl Iterator<Item = MarkRef<'_>> + '_ {
        self.rows.iter().map(|r| MarkRef {
            time: r.time,
            cap: (r.cap != u16::MAX).then_some(r.cap),
            offset: r.offset,
            marker: r.marker,
            text: self.texts.get(r.text as usize).map_or("", String::as_str),
            text_id: r.text,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_give_back_what_was_pushed_each_text_kept_once() {
        let mut m = Marks::default();
        m.push(30, Some(1), 300, false, "START a");
        m.push(10, None, 100, true, "here");
        m.push(10, Some(0), 200, false, "START a");
        assert_eq!((m.len(), m.text_count()), (3, 2));
        m.sort_by_time();
        let got: Vec<Mark> = m.iter().map(|r| r.to_mark()).collect();
        let mark = |time, cap, offset, marker, text: &str| Mark { time, cap, offset, marker, text: text.to_owned() };
        assert_eq!(
            got,
            [
                mark(10, None, 100, true, "here"),
                mark(10, Some(0), 200, false, "START a"),
                mark(30, Some(1), 300, false, "START a")
            ]
        );
        assert_eq!(m.iter().map(|r| r.text_id).collect::<Vec<_>>(), [1, 0, 0]);
    }
}
