//! The first few tasks by some key, without sorting them all.

use crate::model::TaskId;

/// The first `n` of `items` by `key`, in key order (ties by task id).
pub fn top<K: Ord>(items: &[TaskId], n: usize, key: impl Fn(TaskId) -> K) -> Vec<TaskId> {
    let mut heap: std::collections::BinaryHeap<(K, TaskId)> = std::collections::BinaryHeap::with_capacity(n + 1);
    for &i in items {
        heap.push((key(i), i));
        if heap.len() > n {
            heap.pop();
        }
    }
    heap.into_sorted_vec().into_iter().map(|(_, i)| i).collect()
}
