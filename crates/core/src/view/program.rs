//! The run view of a program without paths (a GHC program, a benchmark):
//! its timeline's lanes, its longest spans and the time per kind of span.
//! There is no dependency between tasks, so no critical path.

use super::{task_row, RunView, TaskCounts, TypeRow};
use crate::analysis::top::top;
use crate::layout::timeline::TimelineIndex;
use crate::model::FormatId;
use crate::model::{Model, TaskId};
use std::cmp::Reverse;

/// Longest spans listed.
pub const LONGEST: usize = 50;

impl RunView {
    /// The view of a program's run, laid out on `index`: lanes, the
    /// [`LONGEST`] longest spans and time per kind; no paths, no format detail.
    pub fn of_program(model: &Model, format: FormatId, index: &TimelineIndex) -> RunView {
        let mut by_kind: Vec<TypeRow> =
            model.kinds().iter().map(|k| TypeRow { task_type: k.name.clone(), count: 0, total: 0 }).collect();
        for t in model.tasks() {
            let row = &mut by_kind[t.kind.index()];
            row.count += 1;
            row.total = row.total.saturating_add(t.duration().unwrap_or(0));
        }
        by_kind.sort_by_key(|r| Reverse(r.total));
        let all: Vec<TaskId> = (0..model.tasks().len() as u32).map(TaskId).collect();
        let longest = top(&all, LONGEST, |t| Reverse(model.task(t).duration().unwrap_or(0)));
        RunView {
            counts: TaskCounts { run: model.tasks().len() as u64, ..TaskCounts::default() },
            longest: longest.into_iter().map(|t| task_row(model, index, t, 0)).collect(),
            by_type: by_kind,
            ..RunView::bare(model, format, index)
        }
    }
}
