//! Each lane's tasks split into rows by first-fit interval partitioning (a
//! task goes to the row that was free first at its start), in memory that
//! grows with the tasks' count and nothing more.
//!
//! A lane's tasks are counted before they are gathered, so every list is
//! made at its size: lists grown task by task held up to twice their
//! tasks, which for the 4.9 M tasks of a scheduler-heavy GHC eventlog was
//! the tab's peak. A lane whose tasks come in the order first fit takes
//! them (a capability's thread runs, one after another) is partitioned
//! from its task ids alone; only the others have their sort keys made, as
//! the tasks are read in order.

use crate::model::{Model, Nanos, Role, TaskId};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A task as first-fit row partitioning sorts it: (start, rank, !end, id)
/// — setup first on a tie, so prepare tasks sit at the start of their
/// lane; then instants (which take no room: they must not push a task that
/// starts with them to another row); then longest first (`!end` orders
/// ends backwards).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RowKey(Nanos, u8, Nanos, u32);

impl RowKey {
    /// The key of task `id` of one lane, from `start` to `end`, a setup
    /// task or not.
    pub fn new(start: Nanos, end: Nanos, setup: bool, id: u32) -> Self {
        RowKey(start, u8::from(!setup) * 2 + u8::from(end != start), !end, id)
    }

    /// The key of task `t` of `model`, if it has both times.
    fn of(model: &Model, t: u32) -> Option<RowKey> {
        let task = model.task(TaskId(t));
        Some(RowKey::new(task.start.get()?, task.end.get()?, task.role == Role::Setup, t))
    }
}

/// First fit over `keys`, which come sorted: calls `put(task, row)` for
/// each in that order; gives the number of rows.
pub(super) fn fit_sorted(keys: impl IntoIterator<Item = RowKey>, mut put: impl FnMut(u32, u32)) -> u32 {
    let mut rows = 0;
    let mut free: BinaryHeap<Reverse<(Nanos, u32)>> = BinaryHeap::new();
    for RowKey(start, _, not_end, t) in keys {
        let end = !not_end;
        let row = match free.peek() {
            Some(&Reverse((free_at, row))) if free_at <= start => {
                free.pop();
                row
            }
            _ => {
                rows += 1;
                rows - 1
            }
        };
        put(t, row);
        free.push(Reverse((end.max(start), row)));
    }
    rows
}

/// The rows of every lane of `model` for `tasks` (each row's tasks by
/// start), and the row of each task of the model (`u32::MAX` for a task
/// not in `tasks` or without both times).
pub(super) fn lane_rows(
    model: &Model,
    tasks: impl Iterator<Item = TaskId> + Clone,
) -> (Vec<Vec<Vec<TaskId>>>, Vec<u32>) {
    let lanes = model.lanes().len();
    // Each lane's timed tasks, counted, and whether their keys come sorted.
    let mut counts = vec![0usize; lanes];
    let mut last: Vec<Option<RowKey>> = vec![None; lanes];
    let mut sorted = vec![true; lanes];
    for t in tasks.clone() {
        let Some(key) = RowKey::of(model, t.0) else { continue };
        let lane = model.task(t).lane.index();
        counts[lane] += 1;
        sorted[lane] &= last[lane].is_none_or(|k| k < key);
        last[lane] = Some(key);
    }
    drop(last);
    // Lane after lane in one list each: the task ids of the lanes that come
    // sorted, and the keys of the others, made as the tasks are read in
    // order. A lane's keys made from its ids later read the tasks at
    // random: 45 % of the samples for a 1 GB build log's tasks, whose
    // hosts' tasks overlap. All the keys are held at once (32 bytes a task
    // of such lanes), below the reading's peak.
    let (mut id_starts, mut key_starts) = (Vec::with_capacity(lanes + 1), Vec::with_capacity(lanes + 1));
    let (mut ids_len, mut keys_len) = (0, 0);
    for (&n, &in_order) in counts.iter().zip(&sorted) {
        id_starts.push(ids_len);
        key_starts.push(keys_len);
        if in_order {
            ids_len += n;
        } else {
            keys_len += n;
        }
    }
    id_starts.push(ids_len);
    key_starts.push(keys_len);
    drop(counts);
    let mut ids = vec![0u32; ids_len];
    // Made at its size: a list grown by doubling held up to three times its
    // keys while it moved, the tab's peak for a log of millions of spans.
    let mut keys = vec![RowKey(0, 0, 0, 0); keys_len];
    let (mut next_id, mut next_key) = (id_starts.clone(), key_starts.clone());
    for t in tasks {
        let Some(key) = RowKey::of(model, t.0) else { continue };
        let lane = model.task(t).lane.index();
        if sorted[lane] {
            ids[next_id[lane]] = t.0;
            next_id[lane] += 1;
        } else {
            keys[next_key[lane]] = key;
            next_key[lane] += 1;
        }
    }
    drop((next_id, next_key));
    let mut row_of = vec![u32::MAX; model.tasks().len()];
    let rows = (0..lanes)
        .map(|lane| {
            let mut per_row: Vec<usize> = Vec::new();
            let put = |t: u32, row: u32| {
                row_of[t as usize] = row;
                if per_row.len() <= row as usize {
                    per_row.push(0);
                }
                per_row[row as usize] += 1;
            };
            if sorted[lane] {
                let lane_ids = &ids[id_starts[lane]..id_starts[lane + 1]];
                fit_sorted(lane_ids.iter().filter_map(|&t| RowKey::of(model, t)), put);
                rows_in(per_row, lane_ids.iter().copied(), &row_of)
            } else {
                let lane_keys = &mut keys[key_starts[lane]..key_starts[lane + 1]];
                lane_keys.sort_unstable();
                fit_sorted(lane_keys.iter().copied(), put);
                rows_in(per_row, lane_keys.iter().map(|k| k.3), &row_of)
            }
        })
        .collect();
    (rows, row_of)
}

/// Rows of `per_row[r]` tasks each, filled with `tasks` (in key order) by their row.
fn rows_in(per_row: Vec<usize>, tasks: impl Iterator<Item = u32>, row_of: &[u32]) -> Vec<Vec<TaskId>> {
    let mut rows: Vec<Vec<TaskId>> = per_row.into_iter().map(Vec::with_capacity).collect();
    for t in tasks {
        if let Some(row) = row_of.get(t as usize).and_then(|&r| rows.get_mut(r as usize)) {
            row.push(TaskId(t));
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ModelBuilder, Task};
    use proptest::prelude::*;

    /// First fit done the plain way: each lane's keys sorted, each task to
    /// the row free earliest (the lowest such row on a tie) if it is free
    /// by the task's start, else to a new row.
    fn reference(model: &Model) -> (Vec<Vec<Vec<TaskId>>>, Vec<u32>) {
        let mut row_of = vec![u32::MAX; model.tasks().len()];
        let rows = (0..model.lanes().len())
            .map(|lane| {
                let mut keys: Vec<RowKey> = (0..model.tasks().len() as u32)
                    .filter(|&t| model.task(TaskId(t)).lane.index() == lane)
                    .filter_map(|t| RowKey::of(model, t))
                    .collect();
                keys.sort();
                let mut free_at: Vec<Nanos> = Vec::new();
                let mut rows: Vec<Vec<TaskId>> = Vec::new();
                for RowKey(start, _, not_end, t) in keys {
                    let earliest = (0..free_at.len()).min_by_key(|&r| (free_at[r], r));
                    let row = match earliest {
                        Some(r) if free_at[r] <= start => r,
                        _ => {
                            free_at.push(0);
                            rows.push(Vec::new());
                            rows.len() - 1
                        }
                    };
                    free_at[row] = (!not_end).max(start);
                    rows[row].push(TaskId(t));
                    row_of[t as usize] = row as u32;
                }
                rows
            })
            .collect();
        (rows, row_of)
    }

    proptest! {
        /// Tasks on three lanes, some in first fit's order and some not,
        /// with instants, setup tasks and tasks without times.
        #[test]
        fn lane_rows_are_first_fit_done_the_plain_way(
            tasks in proptest::collection::vec((0..3usize, 0..50i64, 0..12i64, any::<bool>(), 0..8u8), 0..80),
            ordered in any::<bool>(),
        ) {
            let mut tasks = tasks;
            if ordered {
                tasks.sort_by_key(|&(_, start, len, _, _)| (start, len == 0, -len));
            }
            let mut b = ModelBuilder::new();
            let kind = b.kind("K", None);
            let lanes = ["a", "b", "c"].map(|l| b.lane(l));
            let uid = b.sym("t");
            for (lane, start, len, setup, untimed) in tasks {
                let role = if setup { Role::Setup } else { Role::Work };
                let end = (untimed != 0).then_some(start + len);
                b.task(Task::new(uid, kind, role, lanes[lane], Some(start), end));
            }
            let model = b.build();
            let all = (0..model.tasks().len() as u32).map(TaskId);
            prop_assert_eq!(lane_rows(&model, all), reference(&model));
        }
    }
}
