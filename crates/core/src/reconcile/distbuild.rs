//! A distbuild [`Log`] as a [`Model`], with ya's dependency edges in ya's order.

use crate::formats::distbuild::Log;
use crate::formats::ya_graph::BuildGraph;
use crate::model::{KindId, LaneId, Model, ModelBuilder, Role, Sym, Task, TaskId, NANOS_PER_MS};

const PREPARE_PREFIX: &str = "prepare:";
const COPY_KIND: &str = "Copy";
/// ya's type of a run task whose build-graph node is unknown.
const UNKNOWN_KIND: &str = "UNKNOWN";

fn ns(ms: Option<i64>) -> Option<i64> {
    ms.map(|t| t.saturating_mul(NANOS_PER_MS))
}

/// Builds the model: prepare tasks, then copies, then run tasks (ya's order
/// of all nodes), and the edges ya adds, only between tasks with durations.
/// The build graph, when given, names and types the run tasks and adds
/// their run → run edges. The log's uid table becomes the model's strings,
/// so a uid id of the log is the same [`Sym`] in the model.
pub(super) fn model(log: Log, graph: Option<&BuildGraph>) -> Model {
    let Log { uids, hosts, statuses, prepares, copies, runs, longest_prepare, window, .. } = log;
    let uid_count = uids.len();
    let tasks = prepares.len() + copies.len() + runs.len();
    let mut b = ModelBuilder::with_strings(uids, tasks, 3 * copies.len() + 2 * runs.len());
    // Lanes by interned host, made on first use (so lanes come in task order).
    let mut lanes: Vec<Option<LaneId>> = vec![None; hosts.len()];
    let mut lane_of =
        |b: &mut ModelBuilder, host: u32| *lanes[host as usize].get_or_insert_with(|| b.lane(hosts.name(host)));
    let plain = |uid, name, kind, role, lane, start, end| Task { name, ..Task::new(uid, kind, role, lane, start, end) };

    let prepare_ids: Vec<TaskId> = prepares
        .iter()
        .map(|p| {
            let kind = b.kind(&format!("{PREPARE_PREFIX}{}", p.kind), Some("gray"));
            let lane = lane_of(&mut b, p.host);
            let uid = b.sym(&p.kind);
            let name = b.sym(&format!("[{PREPARE_PREFIX}{}] {}", p.kind, hosts.name(p.host)));
            b.task(plain(uid, Some(name), kind, Role::Setup, lane, ns(p.start), ns(Some(p.end))))
        })
        .collect();
    let copy_kind = (!copies.is_empty()).then(|| b.kind(COPY_KIND, Some("brown")));
    let copy_ids: Vec<TaskId> = copies
        .iter()
        .map(|c| {
            let lane = lane_of(&mut b, c.dest_host);
            let origin = c.origin_host.map(|h| lane_of(&mut b, h));
            let mut task = plain(
                Sym(c.dep_uid),
                None,
                copy_kind.unwrap_or(KindId(0)),
                Role::Transfer,
                lane,
                ns(c.start),
                ns(c.end),
            );
            task.bytes = Some(c.size);
            task.origin = origin;
            task.target = Some(Sym(c.uid));
            b.task(task)
        })
        .collect();
    let mut run_of_uid: Vec<Option<TaskId>> = vec![None; uid_count];
    let mut unknown_kind = None;
    for r in &runs {
        let node = graph.and_then(|g| Some((g, g.node(b.str(Sym(r.uid)))?)));
        let kind = match node {
            Some((g, n)) => {
                let color = n.color.map_or("red", |c| g.str(c));
                b.kind(n.kind.map_or(UNKNOWN_KIND, |k| g.str(k)), Some(color))
            }
            None => *unknown_kind.get_or_insert_with(|| b.kind(UNKNOWN_KIND, Some("red"))),
        };
        let lane = lane_of(&mut b, r.host);
        let name = node.map(|(_, n)| b.sym(&n.description));
        let mut task = plain(Sym(r.uid), name, kind, Role::Work, lane, ns(r.start), ns(r.end));
        task.bytes = r.size;
        task.cached = r.from_cache;
        task.failed = r.status.is_some_and(|s| statuses.name(s) != "OK");
        task.meta = node.map(|(g, n)| g.meta(n).clone());
        run_of_uid[r.uid as usize] = Some(b.task(task));
    }

    let has_duration: Vec<bool> = prepares
        .iter()
        .map(|p| p.start.is_some())
        .chain(copies.iter().map(|c| c.start.is_some() && c.end.is_some()))
        .chain(runs.iter().map(|r| r.start.is_some() && r.end.is_some()))
        .collect();
    let edge = |b: &mut ModelBuilder, from: Option<TaskId>, to: Option<TaskId>| {
        if let (Some(f), Some(t)) = (from, to) {
            if has_duration[f.index()] && has_duration[t.index()] {
                b.depends(f, t);
            }
        }
    };
    let longest = |host: u32| longest_prepare.get(&host).copied().flatten().map(|i| prepare_ids[i]);
    for (c, &id) in copies.iter().zip(&copy_ids) {
        edge(&mut b, Some(id), run_of_uid[c.dep_uid as usize]);
        edge(&mut b, run_of_uid[c.uid as usize], Some(id));
        edge(&mut b, Some(id), longest(c.dest_host));
    }
    for r in &runs {
        let run = run_of_uid[r.uid as usize];
        if let Some((g, node)) = graph.and_then(|g| Some((g, g.node(b.str(Sym(r.uid)))?))) {
            for &dep in node.deps.iter() {
                let dep_run = b.find_sym(g.str(dep)).and_then(|d| run_of_uid.get(d.index()).copied().flatten());
                edge(&mut b, run, dep_run);
            }
        }
        edge(&mut b, run, longest(r.host));
    }
    if let Some((first, last)) = window {
        b.window(first.saturating_mul(NANOS_PER_MS), last.saturating_mul(NANOS_PER_MS));
    }
    b.build()
}
