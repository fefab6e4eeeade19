//! What names a ya build's task across builds: a node by its type (`kv.p`)
//! and what ya describes it by (its output or source path), a copy by the
//! nodes it moves a result between, a prepare phase by its type. uids stay
//! out of it: another build graph gives the same node another uid. A node
//! without a description (no graph.json given) is named by its uid.

use crate::hash::FastMap;
use crate::model::{Model, Role, Sym, TaskId};

/// Every task's key, by [`TaskId`]. A node's key is made once and a copy's
/// is made from it (a build has hundreds of thousands of each), each by
/// joining its parts, sized once (not through `format!`).
pub fn keys(model: &Model) -> Vec<String> {
    let kind = |id: TaskId| model.kinds()[model.task(id).kind.index()].name.as_str();
    let mut by_uid: FastMap<Sym, usize> = FastMap::default();
    let mut out: Vec<String> = (0..model.tasks().len() as u32)
        .map(TaskId)
        .map(|id| {
            let t = model.task(id);
            match t.role {
                Role::Work => {
                    by_uid.insert(t.uid, id.index());
                    [kind(id), " ", &model.label(id)].concat()
                }
                Role::Transfer => String::new(),
                Role::Setup => kind(id).to_owned(),
                Role::Phase => model.uid(id).to_owned(),
            }
        })
        .collect();
    let copies: Vec<(usize, String)> = {
        let of_uid = |s: Sym| by_uid.get(&s).map_or_else(|| model.str(s), |&i| out[i].as_str());
        (0..model.tasks().len() as u32)
            .map(TaskId)
            .filter(|&id| model.task(id).role == Role::Transfer)
            .map(|id| {
                let target = model.target(id).map_or("", of_uid);
                (id.index(), ["copy of ", of_uid(model.task(id).uid), " for ", target].concat())
            })
            .collect()
    };
    for (i, key) in copies {
        out[i] = key;
    }
    out
}
