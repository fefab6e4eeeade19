//! The first few tasks by some key, without sorting them all.

use crate::model::TaskId;
use std::collections::BinaryHeap;

/// The first `n` of `items` by `key`, in key order (ties by task id).
pub fn top<K: Ord>(items: &[TaskId], n: usize, key: impl Fn(TaskId) -> K) -> Vec<TaskId> {
    let mut top = Top::new(n);
    for &i in items {
        top.offer(key(i), i);
    }
    top.into_vec()
}

/// The first `n` tasks by key (ties by task id) of those offered, kept as
/// they come, so a pass over the tasks can gather several lists at once.
pub struct Top<K> {
    n: usize,
    heap: BinaryHeap<(K, TaskId)>,
}

impl<K: Ord> Top<K> {
    /// Keeps the first `n`.
    pub fn new(n: usize) -> Self {
        Top { n, heap: BinaryHeap::with_capacity(n + 1) }
    }

    /// Offers task `id` with its `key`.
    pub fn offer(&mut self, key: K, id: TaskId) {
        let entry = (key, id);
        // A full heap only takes an entry below its greatest.
        if self.heap.len() == self.n && self.heap.peek().is_none_or(|top| entry >= *top) {
            return;
        }
        self.heap.push(entry);
        if self.heap.len() > self.n {
            self.heap.pop();
        }
    }

    /// The tasks kept, in key order.
    pub fn into_vec(self) -> Vec<TaskId> {
        self.heap.into_sorted_vec().into_iter().map(|(_, i)| i).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn is_the_head_of_the_sorted_list(keys in proptest::collection::vec(0u8..8, 0..60), n in 0usize..12) {
            // Items in a shuffled id order, with many equal keys: ties go by id.
            let items: Vec<TaskId> = (0..keys.len() as u32).rev().map(TaskId).collect();
            let key = |t: TaskId| keys[t.index()];
            let mut sorted = items.clone();
            sorted.sort_by_key(|&t| (key(t), t));
            sorted.truncate(n);
            prop_assert_eq!(top(&items, n, key), sorted);
        }
    }
}
