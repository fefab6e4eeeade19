//! Lists each sorted by (time, file offset), merged into one in that order:
//! the capabilities' marks ([`super::marks`]).
//!
//! A capability's marks come in runs (a block of its events covers a
//! stretch of time), so the list whose head was given last goes on giving
//! while its next head comes before every other list's, without the heap.

use crate::model::Nanos;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// One list's place in the merge: its head's key, and a step past it.
pub(super) trait Cursor {
    /// The (time, offset) of the list's head, if it has one left.
    fn key(&self) -> Option<(Nanos, u64)>;
    /// Moves past the head.
    fn advance(&mut self);
}

/// The lists' heads, in key order (keys differ: no two marks share an offset).
pub(super) struct Merge<C> {
    lists: Vec<C>,
    /// The head of each list but the current one: (time, offset, list).
    heads: BinaryHeap<Reverse<(Nanos, u64, usize)>>,
    /// The list whose head was given last, not yet moved past it.
    current: Option<usize>,
}

impl<C: Cursor> Merge<C> {
    /// The merge of `lists`, each in key order.
    pub(super) fn new(lists: Vec<C>) -> Merge<C> {
        let heads = lists.iter().enumerate().filter_map(|(i, c)| c.key().map(|(t, o)| Reverse((t, o, i)))).collect();
        Merge { lists, heads, current: None }
    }

    /// The list holding the next head in key order, that head now its
    /// cursor's (read it there before the next call); `None` at the end.
    pub(super) fn next(&mut self) -> Option<&C> {
        if let Some(i) = self.current.take() {
            let list = self.lists.get_mut(i)?;
            list.advance();
            if let Some((t, o)) = list.key() {
                if self.heads.peek().is_none_or(|Reverse(h)| (t, o) < (h.0, h.1)) {
                    self.current = Some(i);
                    return self.lists.get(i);
                }
                self.heads.push(Reverse((t, o, i)));
            }
        }
        let Reverse((_, _, i)) = self.heads.pop()?;
        self.current = Some(i);
        self.lists.get(i)
    }

    /// Where the list of the head given last sits among the lists.
    pub(super) fn current(&self) -> Option<usize> {
        self.current
    }
}
