//! The tasks of a model, stored in fixed-size chunks.
//!
//! A list that grows by reallocating holds its old and its new copy at the
//! moment it moves; for the 2.4 million tasks of a 1 GB distbuild log that
//! moment cost 280 MB more than the tasks themselves, and WebAssembly
//! memory, once grown, never shrinks. Chunks of [`CHUNK`] tasks are filled
//! one after another and never move, so the list holds at most one
//! part-filled chunk more than its tasks.

use crate::model::Task;
use serde::{Serialize, Serializer};
use std::ops::Index;

/// log2 of the tasks per chunk.
const CHUNK_BITS: u32 = 16;
/// Tasks per chunk (65,536: 6 MiB of tasks).
pub const CHUNK: usize = 1 << CHUNK_BITS;

/// Tasks in order, indexed by [`crate::model::TaskId`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TaskList {
    /// Full chunks, then the one being filled (each allocated at [`CHUNK`]).
    chunks: Vec<Vec<Task>>,
    len: usize,
}

impl TaskList {
    /// Number of tasks.
    pub fn len(&self) -> usize {
        self.len
    }

    /// No tasks.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Task `i`, if there is one.
    pub fn get(&self, i: usize) -> Option<&Task> {
        self.chunks.get(i >> CHUNK_BITS)?.get(i & (CHUNK - 1))
    }

    /// Task `i`, to change.
    pub(crate) fn get_mut(&mut self, i: usize) -> Option<&mut Task> {
        self.chunks.get_mut(i >> CHUNK_BITS)?.get_mut(i & (CHUNK - 1))
    }

    /// Every task, in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter { inner: self.chunks.iter().flatten(), left: self.len }
    }

    /// Every task, in order, to change.
    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = &mut Task> {
        self.chunks.iter_mut().flatten()
    }

    /// Adds a task at the end; gives its index.
    pub(crate) fn push(&mut self, task: Task) -> usize {
        match self.chunks.last_mut() {
            Some(last) if last.len() < CHUNK => last.push(task),
            _ => {
                let mut chunk = Vec::with_capacity(CHUNK);
                chunk.push(task);
                self.chunks.push(chunk);
            }
        }
        self.len += 1;
        self.len - 1
    }
}

impl Index<usize> for TaskList {
    type Output = Task;

    fn index(&self, i: usize) -> &Task {
        &self.chunks[i >> CHUNK_BITS][i & (CHUNK - 1)]
    }
}

impl<'a> IntoIterator for &'a TaskList {
    type Item = &'a Task;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl Serialize for TaskList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// The tasks of a [`TaskList`], in order (from either end).
#[derive(Clone)]
pub struct Iter<'a> {
    inner: std::iter::Flatten<std::slice::Iter<'a, Vec<Task>>>,
    left: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a Task;

    fn next(&mut self) -> Option<&'a Task> {
        let t = self.inner.next()?;
        self.left -= 1;
        Some(t)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let t = self.inner.next_back()?;
        self.left -= 1;
        Some(t)
    }
}

impl ExactSizeIterator for Iter<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{KindId, LaneId, Role, Sym};

    fn task(i: usize) -> Task {
        Task::new(Sym(i as u32), KindId(0), Role::Work, LaneId(0), Some(i as i64), None)
    }

    #[test]
    fn indexes_and_iterates_across_chunks() {
        let mut list = TaskList::default();
        let n = 2 * CHUNK + 5;
        for i in 0..n {
            assert_eq!(list.push(task(i)), i);
        }
        assert_eq!(list.len(), n);
        for i in [0, 1, CHUNK - 1, CHUNK, 2 * CHUNK, n - 1] {
            assert_eq!(list[i].uid, Sym(i as u32));
            assert_eq!(list.get(i).map(|t| t.uid), Some(Sym(i as u32)));
        }
        assert!(list.get(n).is_none());
        assert!(list.iter().map(|t| t.uid.0 as usize).eq(0..n));
        assert!(list.iter().rev().map(|t| t.uid.0 as usize).eq((0..n).rev()));
        let mut it = list.iter();
        it.next();
        it.next_back();
        assert_eq!(it.len(), n - 2);
        assert_eq!(list.chunks.iter().map(Vec::capacity).collect::<Vec<_>>(), vec![CHUNK; 3]);
    }
}
