//! A ya [`Evlog`] as a [`Model`]: run tasks on threads with the build
//! graph's run → run edges (ya's `create_graph_with_local_log`), and the
//! build's stages as phases.

use super::Evlog;
use crate::formats::ya::graph::BuildGraph;
use crate::hash::FastMap;
use crate::model::{Model, ModelBuilder, Role, Sym, Task, TaskId, TaskMeta, NANOS_PER_MS};
use std::sync::Arc;

/// The lane of the build's stages.
const STAGES_LANE: &str = "stages";

pub(crate) fn model(log: &Evlog, graph: Option<&BuildGraph>) -> Model {
    let mut b = ModelBuilder::new();
    // ya keys run tasks by uid; a later entry of the same uid overwrites the times.
    let mut run_of_uid: FastMap<&str, TaskId> = FastMap::default();
    let mut tasks: Vec<(Task, Option<Sym>, Option<Arc<TaskMeta>>)> = Vec::new();
    for n in &log.nodes {
        let node = graph.and_then(|g| Some((g, g.node(&n.uid)?)));
        let kind_name = node.and_then(|(g, x)| x.kind().map(|k| g.str(k))).unwrap_or(&n.kind);
        let kind = b.kind(kind_name, Some(node.and_then(|(g, x)| x.color().map(|c| g.str(c))).unwrap_or("red")));
        let lane = b.lane(&n.thread);
        let uid = b.sym(&n.uid);
        let name = node.map(|(g, x)| b.sym(g.description(x)));
        let task = Task {
            cached: n.restored,
            ..Task::new(uid, kind, Role::Work, lane, Some(n.start * NANOS_PER_MS), Some(n.end * NANOS_PER_MS))
        };
        let task = (task, name, node.map(|(g, x)| g.meta(x).clone()));
        match run_of_uid.get(n.uid.as_str()) {
            Some(&id) => tasks[id.index()] = task,
            None => {
                run_of_uid.insert(&n.uid, TaskId(tasks.len() as u32));
                tasks.push(task);
            }
        }
    }
    let window = tasks
        .iter()
        .filter_map(|(t, ..)| Some((t.start.get()?, t.end.get()?)))
        .fold(None, |w: Option<(i64, i64)>, (s, e)| Some(w.map_or((s, e), |(a, z)| (a.min(s), z.max(e)))));
    for (t, name, meta) in tasks {
        let id = b.named_task(t, name);
        if let Some(meta) = meta {
            b.set_meta(id, meta);
        }
    }
    for s in &log.stages {
        let kind = b.kind("stage", Some("gray"));
        let lane = b.lane(STAGES_LANE);
        let uid = b.sym(&s.name);
        b.task(Task::new(uid, kind, Role::Phase, lane, Some(s.start * NANOS_PER_MS), Some(s.end * NANOS_PER_MS)));
    }
    if let Some(g) = graph {
        for (uid, &id) in &run_of_uid {
            let Some(node) = g.node(uid) else { continue };
            for &dep in g.deps(node) {
                if let Some(&d) = run_of_uid.get(g.str(dep)) {
                    b.depends(id, d);
                }
            }
        }
    }
    if let Some((first, last)) = window {
        b.window(first, last);
    }
    b.build()
}
