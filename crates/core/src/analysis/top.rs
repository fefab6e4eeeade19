//! The first few tasks by some key, without sorting them all.

use crate::model::TaskId;

/// The first `n` of `items` by `key`, in key order (ties by task id).
pub fn top<K: Ord>(items: &[TaskId], n: usize, key: impl Fn(TaskId) -> K) -> Vec<TaskId> {
    let mut heap: std::collections::BinaryHeap<(K, TaskId)> = std::collections::BinaryHeap::with_capacity(n + 1);
    for &i in items {
        let entry = (key(i), i);
        // A full heap only takes an entry below its greatest.
        if heap.len() == n && heap.peek().is_none_or(|top| entry >= *top) {
            continue;
        }
        heap.push(entry);
        if heap.len() > n {
            heap.pop();
        }
    }
    heap.into_sorted_vec().into_iter().map(|(_, i)| i).collect()
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
