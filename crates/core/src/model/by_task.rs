//! What only some tasks have (a transfer's bytes and ends, a build node's
//! metadata), kept beside the tasks by id rather than in each of them.
//!
//! A GHC eventlog's five million tasks have none of it; a field for it in
//! every task took 16 of each task's 56 bytes. Here each task that has a
//! value costs its id and the value. Values mostly come in task order (a
//! task is made with its payload); those are appended to a sorted list and
//! found by binary search. One set out of order, to a task already passed,
//! waits in a map until [`ByTask::seal`] merges it in.

use super::TaskId;
use crate::hash::FastMap;

/// Values of some tasks, by task id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ByTask<T> {
    /// Sorted by id, one entry an id.
    sorted: Vec<(TaskId, T)>,
    /// Set after a later id was: merged in by [`ByTask::seal`].
    late: FastMap<TaskId, T>,
}

impl<T> Default for ByTask<T> {
    fn default() -> Self {
        ByTask { sorted: Vec::new(), late: FastMap::default() }
    }
}

impl<T> ByTask<T> {
    /// Task `id`'s value, to change: made by `make` when it has none.
    fn entry_with(&mut self, id: TaskId, make: impl FnOnce() -> T) -> &mut T {
        match self.sorted.last() {
            None => {}
            Some(&(last, _)) if last < id => {}
            Some(_) => {
                if let Ok(at) = self.sorted.binary_search_by_key(&id, |e| e.0) {
                    return &mut self.sorted[at].1;
                }
                return self.late.entry(id).or_insert_with(make);
            }
        }
        self.sorted.push((id, make()));
        &mut self.sorted.last_mut().expect("an entry was just pushed").1
    }

    /// Sets task `id`'s value, in place of any it had.
    pub(crate) fn set(&mut self, id: TaskId, value: T) {
        let mut value = Some(value);
        let slot = self.entry_with(id, || value.take().expect("made once"));
        if let Some(value) = value {
            *slot = value;
        }
    }
}

impl<T: Default> ByTask<T> {
    /// Task `id`'s value, to change: made (as the default) when it has none.
    pub(crate) fn entry(&mut self, id: TaskId) -> &mut T {
        self.entry_with(id, T::default)
    }
}

impl<T> ByTask<T> {
    /// Task `id`'s value, if it has one.
    pub fn get(&self, id: TaskId) -> Option<&T> {
        match self.sorted.binary_search_by_key(&id, |e| e.0) {
            Ok(at) => Some(&self.sorted[at].1),
            Err(_) => self.late.get(&id),
        }
    }

    /// Every value, to change, in no particular order.
    pub(crate) fn values_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.sorted.iter_mut().map(|e| &mut e.1).chain(self.late.values_mut())
    }

    /// Merges the values set out of order into the sorted list, so that
    /// [`ByTask::iter`] gives them all.
    pub(crate) fn seal(&mut self) {
        if self.late.is_empty() {
            return;
        }
        self.sorted.extend(self.late.drain());
        self.sorted.sort_unstable_by_key(|e| e.0);
        self.sorted.shrink_to_fit();
    }

    /// Every task's value, by id, once [`ByTask::seal`]ed.
    pub fn iter(&self) -> impl Iterator<Item = (TaskId, &T)> {
        debug_assert!(self.late.is_empty(), "values read in order before they were sealed");
        self.sorted.iter().map(|(id, v)| (*id, v))
    }

    /// The values of `count` tasks in id order (`None` for a task without
    /// one), once [`ByTask::seal`]ed: one pass, no search a task.
    pub fn column(&self, count: usize) -> impl Iterator<Item = Option<&T>> {
        let mut next = self.iter().peekable();
        (0..count).map(move |i| next.next_if(|(id, _)| id.index() == i).map(|(_, v)| v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_set_in_any_order_are_found_and_each_id_keeps_its_last() {
        let mut by = ByTask::<u32>::default();
        // In order, then back to an earlier id, then one never set, then again.
        for (id, v) in [(1, 10), (3, 30), (3, 31), (7, 70), (2, 20), (3, 32), (0, 1), (2, 21), (9, 90)] {
            by.set(TaskId(id), v);
        }
        *by.entry(TaskId(2)) += 0;
        let want = [Some(1), Some(10), Some(21), Some(32), None, None, None, Some(70), None, Some(90)];
        let got: Vec<Option<u32>> = (0..10).map(|i| by.get(TaskId(i)).copied()).collect();
        assert_eq!(got, want);
        by.seal();
        let got: Vec<Option<u32>> = (0..10).map(|i| by.get(TaskId(i)).copied()).collect();
        assert_eq!(got, want);
        assert_eq!(by.column(11).map(|v| v.copied()).collect::<Vec<_>>()[..10], want);
        assert_eq!(by.iter().count(), 6);
        for v in by.values_mut() {
            *v += 1;
        }
        assert_eq!(by.get(TaskId(9)), Some(&91));
    }
}
