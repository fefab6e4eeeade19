//! What only some formats give their tasks (a transfer's bytes and ends, a
//! build node's metadata, a name beyond the uid), kept beside the tasks by
//! id rather than in each.
//!
//! A scheduler-heavy GHC eventlog's five million tasks have none of it, and
//! fields for it in every task took 24 of each task's 56 bytes. Here a
//! model whose tasks have none holds nothing; once one has a value, every
//! task up to it has a slot (the default: none), in chunks that never move. A distbuild log,
//! where nearly every task has bytes, pays one slot a task and no more: a
//! sorted list and a map for values set out of order cost it 200 MB more
//! at their peak in the tab for a 1 GB log, and 15 % of its time.

use super::TaskId;
use crate::chunk_list::ChunkList;

/// Values of some tasks, by task id: a slot for every task up to the last
/// one given a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ByTask<T> {
    slots: ChunkList<T>,
}

impl<T> Default for ByTask<T> {
    fn default() -> Self {
        ByTask { slots: ChunkList::default() }
    }
}

impl<T: Default> ByTask<T> {
    /// Task `id`'s slot, to change (the slots up to it made as the default).
    pub(crate) fn entry(&mut self, id: TaskId) -> &mut T {
        while self.slots.len() <= id.index() {
            self.slots.push(T::default());
        }
        &mut self.slots[id.index()]
    }

    /// Sets task `id`'s value.
    pub(crate) fn set(&mut self, id: TaskId, value: T) {
        *self.entry(id) = value;
    }
}

impl<T> ByTask<T> {
    /// Task `id`'s slot, if the tasks up to it have slots.
    pub fn get(&self, id: TaskId) -> Option<&T> {
        self.slots.get(id.index())
    }

    /// Every slot, to change.
    pub(crate) fn values_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.slots.iter_mut()
    }

    /// Every slot, by task id.
    pub fn iter(&self) -> impl Iterator<Item = (TaskId, &T)> {
        self.slots.iter().enumerate().map(|(i, v)| (TaskId(i as u32), v))
    }

    /// The slots of `count` tasks in id order (`None` past the last slot).
    pub fn column(&self, count: usize) -> impl Iterator<Item = Option<&T>> {
        (0..count).map(|i| self.slots.get(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_set_in_any_order_are_found_and_each_id_keeps_its_last() {
        let mut by = ByTask::<u32>::default();
        assert_eq!(by.get(TaskId(0)), None);
        // In order, then back to an earlier id, then one never set, then again.
        for (id, v) in [(1, 10), (3, 30), (3, 31), (7, 70), (2, 20), (3, 32), (0, 1), (2, 21), (9, 90)] {
            by.set(TaskId(id), v);
        }
        *by.entry(TaskId(2)) += 0;
        let want = [Some(1), Some(10), Some(21), Some(32), Some(0), Some(0), Some(0), Some(70), Some(0), Some(90)];
        let got: Vec<Option<u32>> = (0..10).map(|i| by.get(TaskId(i)).copied()).collect();
        assert_eq!(got, want);
        assert_eq!(by.column(11).map(|v| v.copied()).collect::<Vec<_>>(), [&want[..], &[None]].concat());
        assert_eq!(by.iter().count(), 10);
        for v in by.values_mut() {
            *v += 1;
        }
        assert_eq!(by.get(TaskId(9)), Some(&91));
    }
}
