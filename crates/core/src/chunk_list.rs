//! A list stored in fixed-size chunks (a model's tasks).
//!
//! A list that grows by reallocating holds its old and its new copy at the
//! moment it moves; for the 2.4 million tasks of a 1 GB distbuild log that
//! moment cost 280 MB more than the tasks themselves, and WebAssembly
//! memory, once grown, never shrinks. Chunks of [`CHUNK`] items are filled
//! one after another and never move, so the list holds at most one
//! part-filled chunk more than its items. The first chunk grows by doubling
//! (a list of a few items takes a few items' room), so its moves copy at
//! most one chunk.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::ops::{Index, IndexMut};

/// log2 of the tasks per chunk.
const CHUNK_BITS: u32 = 16;
/// Items per chunk (65,536: 4.5 MiB of a model's tasks).
pub const CHUNK: usize = 1 << CHUNK_BITS;

/// Items in order, by index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChunkList<T> {
    /// Full chunks, then the one being filled (each allocated at [`CHUNK`]).
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for ChunkList<T> {
    fn default() -> Self {
        ChunkList { chunks: Vec::new(), len: 0 }
    }
}

impl<T> ChunkList<T> {
    /// Number of items.
    pub fn len(&self) -> usize {
        self.len
    }

    /// No items.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Item `i`, if there is one.
    pub fn get(&self, i: usize) -> Option<&T> {
        self.chunks.get(i >> CHUNK_BITS)?.get(i & (CHUNK - 1))
    }

    /// Item `i`, to change.
    pub(crate) fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        self.chunks.get_mut(i >> CHUNK_BITS)?.get_mut(i & (CHUNK - 1))
    }

    /// Every item, in order.
    pub fn iter(&self) -> Iter<'_, T> {
        Iter { inner: self.chunks.iter().flatten(), left: self.len }
    }

    /// Every item, in order, to change.
    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.chunks.iter_mut().flatten()
    }

    /// The chunks, in order: a reader that frees each once read.
    pub(crate) fn into_chunks(self) -> Vec<Vec<T>> {
        self.chunks
    }

    /// Adds an item at the end; gives its index.
    pub(crate) fn push(&mut self, item: T) -> usize {
        match self.chunks.last_mut() {
            Some(last) if last.len() < CHUNK => last.push(item),
            // The first chunk grows as a list does (a small list stays
            // small); the others are made whole.
            None => self.chunks.push(vec![item]),
            Some(_) => {
                let mut chunk = Vec::with_capacity(CHUNK);
                chunk.push(item);
                self.chunks.push(chunk);
            }
        }
        self.len += 1;
        self.len - 1
    }
}

impl<T> Index<usize> for ChunkList<T> {
    type Output = T;

    fn index(&self, i: usize) -> &T {
        &self.chunks[i >> CHUNK_BITS][i & (CHUNK - 1)]
    }
}

impl<T> IndexMut<usize> for ChunkList<T> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.chunks[i >> CHUNK_BITS][i & (CHUNK - 1)]
    }
}

impl<T> FromIterator<T> for ChunkList<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut list = ChunkList::default();
        for item in items {
            list.push(item);
        }
        list
    }
}

impl<T> From<Vec<T>> for ChunkList<T> {
    fn from(items: Vec<T>) -> Self {
        items.into_iter().collect()
    }
}

impl<'a, T> IntoIterator for &'a ChunkList<T> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;

    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

impl<T: Serialize> Serialize for ChunkList<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ChunkList<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Vec::<T>::deserialize(d)?.into())
    }
}

/// The items of a [`ChunkList`], in order (from either end).
#[derive(Clone)]
pub struct Iter<'a, T> {
    inner: std::iter::Flatten<std::slice::Iter<'a, Vec<T>>>,
    left: usize,
}

impl<'a, T> Iterator for Iter<'a, T> {
    type Item = &'a T;

    fn next(&mut self) -> Option<&'a T> {
        let t = self.inner.next()?;
        self.left -= 1;
        Some(t)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl<T> DoubleEndedIterator for Iter<'_, T> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let t = self.inner.next_back()?;
        self.left -= 1;
        Some(t)
    }
}

impl<T> ExactSizeIterator for Iter<'_, T> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexes_and_iterates_across_chunks() {
        let mut list = ChunkList::default();
        let n = 2 * CHUNK + 5;
        for i in 0..n {
            assert_eq!(list.push(i as u32), i);
        }
        assert_eq!(list.len(), n);
        for i in [0, 1, CHUNK - 1, CHUNK, 2 * CHUNK, n - 1] {
            assert_eq!(list[i], i as u32);
            assert_eq!(list.get(i), Some(&(i as u32)));
        }
        assert!(list.get(n).is_none());
        assert!(list.iter().map(|&t| t as usize).eq(0..n));
        assert!(list.iter().rev().map(|&t| t as usize).eq((0..n).rev()));
        let mut it = list.iter();
        it.next();
        it.next_back();
        assert_eq!(it.len(), n - 2);
        assert_eq!(list.chunks.iter().map(Vec::capacity).collect::<Vec<_>>(), vec![CHUNK; 3]);
        list[CHUNK + 1] = 7;
        assert_eq!(list[CHUNK + 1], 7);
    }

    #[test]
    fn a_small_list_takes_a_small_room_and_reads_back_from_json() {
        let list: ChunkList<u64> = vec![3, 1, 2].into();
        assert!(list.chunks[0].capacity() < 16);
        let json = serde_json::to_string(&list).unwrap();
        assert_eq!(json, "[3,1,2]");
        assert_eq!(serde_json::from_str::<ChunkList<u64>>(&json).unwrap(), list);
    }
}
