//! What names a ya build's task across builds: a node by its type (`kv.p`)
//! and what ya describes it by (its output or source path), a copy by the
//! nodes it moves a result between, a prepare phase by its type. uids stay
//! out of it: another build graph gives the same node another uid. A node
//! without a description (no graph.json given) is named by its uid.

use crate::hash::FastMap;
use crate::model::{Model, Role, Sym, TaskId};

/// Every task's key, by [`TaskId`].
pub fn keys(model: &Model) -> Vec<String> {
    let kind = |id: TaskId| model.kinds()[model.task(id).kind.index()].name.as_str();
    let ids = || (0..model.tasks().len() as u32).map(TaskId);
    let node = |id: TaskId| format!("{} {}", kind(id), model.label(id));
    let by_uid: FastMap<Sym, String> =
        ids().filter(|&id| model.task(id).role == Role::Work).map(|id| (model.task(id).uid, node(id))).collect();
    let of_uid = |s: Sym| by_uid.get(&s).cloned().unwrap_or_else(|| model.str(s).to_owned());
    ids()
        .map(|id| {
            let t = model.task(id);
            match t.role {
                Role::Work => node(id),
                Role::Transfer => {
                    let target = t.target().map_or_else(String::new, of_uid);
                    format!("copy of {} for {target}", of_uid(t.uid))
                }
                Role::Setup => kind(id).to_owned(),
                Role::Phase => model.uid(id).to_owned(),
            }
        })
        .collect()
}
