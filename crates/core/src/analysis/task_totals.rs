//! The longest tasks and the time by type of a model, gathered in one pass
//! over its tasks ([`Tally`]) with ya's orders (`statistics.py`'s stable
//! sorts), so that every format's "longest" and "time by type" read as
//! ya's; ya's own statistics gather them in the same pass as the rest.

use super::top::Top;
use crate::model::{Model, Nanos, Role, Task, TaskId, When};

/// How many tasks "longest" (and ya's "biggest copies") list.
pub const TOP: usize = 10;

/// Total time of one task type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeTotal {
    /// The type (`CC`, `Copy`, `prepare:resources`).
    pub kind: String,
    /// The type's colour.
    pub color: Option<String>,
    /// Sum of durations.
    pub total: Nanos,
    /// Number of tasks.
    pub count: u64,
}

/// ya's type of a task: the kind, with `-CACHED` for a cached run task when `cached_mark`.
pub fn type_name(model: &Model, id: TaskId, cached_mark: bool) -> String {
    let t = model.task(id);
    let kind = &model.kinds()[t.kind.index()].name;
    if cached_mark && t.cached && t.role == Role::Work {
        format!("{kind}-CACHED")
    } else {
        kind.clone()
    }
}

/// (start, end, id) of a type's first task: ya's order of types on a tie.
type First = (Option<Nanos>, Option<Nanos>, TaskId);

/// The longest tasks and the totals by type, as the tasks are offered.
pub struct Tally {
    /// ya's `tasks`: every task with a duration, in model order, stably
    /// sorted by (start, end); its later stable sorts break ties by that
    /// order, which is the key (start, end, id).
    longest: Top<(std::cmp::Reverse<Nanos>, (When, When, TaskId))>,
    /// Per type (a kind: ya's type without the cached mark): total, count
    /// and its first task, in ya's order.
    types: Vec<Option<(TypeTotal, First)>>,
}

impl Tally {
    /// An empty tally for `model`'s kinds.
    pub fn new(model: &Model) -> Self {
        Tally { longest: Top::new(TOP), types: vec![None; model.kinds().len()] }
    }

    /// Counts task `id` (`t`), which lasted `d`: every task with a duration
    /// but a phase is a candidate for the longest, those with a positive one
    /// count in their type.
    pub fn offer(&mut self, model: &Model, id: TaskId, t: &Task, d: Nanos) {
        self.longest.offer((std::cmp::Reverse(d), (t.start, t.end, id)), id);
        if d <= 0 {
            return;
        }
        let k = t.kind.index();
        let Some(slot) = self.types.get_mut(k) else { return };
        let entry = slot.get_or_insert_with(|| {
            let kind = &model.kinds()[k];
            (
                TypeTotal { kind: kind.name.clone(), color: kind.color.clone(), total: 0, count: 0 },
                (t.start.get(), t.end.get(), id),
            )
        });
        entry.0.total += d;
        entry.0.count += 1;
    }

    /// The longest tasks, longest first (at most [`TOP`]), and the time by
    /// type, largest first.
    pub fn finish(self) -> (Vec<TaskId>, Vec<TypeTotal>) {
        let mut types: Vec<(TypeTotal, First)> = self.types.into_iter().flatten().collect();
        types.sort_by_key(|(t, first)| (std::cmp::Reverse(t.total), *first));
        (self.longest.into_vec(), types.into_iter().map(|(t, _)| t).collect())
    }
}

/// The longest tasks and the time by type of `model` ([`Tally::finish`]).
pub fn longest_and_by_type(model: &Model) -> (Vec<TaskId>, Vec<TypeTotal>) {
    let mut tally = Tally::new(model);
    for (i, t) in model.tasks().iter().enumerate() {
        if let Some(d) = t.duration().filter(|_| t.role != Role::Phase) {
            tally.offer(model, TaskId(i as u32), t, d);
        }
    }
    tally.finish()
}
