//! A task's stable key: what names one task of a model in a link, the same
//! for anyone who reads the same file, never an internal index.
//!
//! The key is the task's uid where no other task has it (a build node, a MAL
//! instruction's execution). Where uids repeat (a Chrome trace's slices are
//! named by their name), the key adds the task's start and, if that still
//! leaves two, its lane: a slice's name, start and thread. Two tasks alike
//! in all three are the same to a reader, and the key names the first.

use crate::model::{Model, Nanos, TaskId};
use serde::{Deserialize, Serialize};

/// The stable key of one task.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskKey {
    /// The task's uid.
    pub uid: String,
    /// Its start (ns), when its uid alone does not name it.
    pub start: Option<Nanos>,
    /// Its lane's name, when its uid and start do not name it.
    pub lane: Option<String>,
}

impl TaskKey {
    /// The shortest key that names `id` in `model`.
    pub fn of(model: &Model, id: TaskId) -> TaskKey {
        let task = model.task(id);
        let lane = &model.lanes()[task.lane.index()].name;
        let same_uid: Vec<TaskId> = ids(model).filter(|&o| model.task(o).uid == task.uid).collect();
        let mut key = TaskKey { uid: model.str(task.uid).to_owned(), start: None, lane: None };
        if same_uid.len() > 1 {
            key.start = task.start.get();
            if same_uid.iter().filter(|&&o| model.task(o).start == task.start).count() > 1 {
                key.lane = Some(lane.clone());
            }
        }
        key
    }

    /// The first task of `model` this key names, if any.
    pub fn find(&self, model: &Model) -> Option<TaskId> {
        ids(model).find(|&id| {
            let t = model.task(id);
            model.str(t.uid) == self.uid
                && self.start.is_none_or(|s| t.start.get() == Some(s))
                && self.lane.as_ref().is_none_or(|l| model.lanes()[t.lane.index()].name == *l)
        })
    }
}

/// Every task id of `model`, in order.
fn ids(model: &Model) -> impl Iterator<Item = TaskId> {
    (0..model.tasks().len() as u32).map(TaskId)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ModelBuilder, Role, Task};

    /// Three slices named `a` (two at the same time on two threads) and a `b`.
    fn model() -> Model {
        let mut b = ModelBuilder::new();
        let (t1, t2) = (b.lane("thread 1"), b.lane("thread 2"));
        let kind = b.kind("slice", None);
        for (name, lane, start) in [("a", t1, 10), ("a", t2, 10), ("a", t1, 50), ("b", t2, 70)] {
            let uid = b.sym(name);
            b.task(Task::new(uid, kind, Role::Work, lane, Some(start), Some(start + 5)));
        }
        b.build()
    }

    #[test]
    fn a_key_is_as_short_as_it_can_be_and_finds_its_task() {
        let m = model();
        let keys: Vec<TaskKey> = ids(&m).map(|id| TaskKey::of(&m, id)).collect();
        let key = |uid: &str, start: Option<Nanos>, lane: Option<&str>| TaskKey {
            uid: uid.into(),
            start,
            lane: lane.map(Into::into),
        };
        assert_eq!(
            keys,
            vec![
                key("a", Some(10), Some("thread 1")),
                key("a", Some(10), Some("thread 2")),
                key("a", Some(50), None),
                key("b", None, None),
            ]
        );
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(k.find(&m), Some(TaskId(i as u32)), "{k:?}");
        }
        assert_eq!(key("c", None, None).find(&m), None);
        assert_eq!(key("a", Some(11), None).find(&m), None);
    }
}
