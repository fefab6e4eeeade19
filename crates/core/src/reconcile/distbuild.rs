//! A distbuild [`Log`] as a [`Model`], with ya's dependency edges in ya's order.

use crate::formats::distbuild::Log;
use crate::formats::ya_graph::BuildGraph;
use crate::model::{KindId, LaneId, Model, ModelBuilder, Role, Task, TaskId, TaskMeta, NANOS_PER_MS};
use std::sync::Arc;

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
/// their run → run edges.
pub(super) fn model(log: &Log, graph: Option<&BuildGraph>) -> Model {
    let mut b = ModelBuilder::with_capacity(
        log.prepares.len() + log.copies.len() + log.runs.len(),
        3 * log.copies.len() + 2 * log.runs.len(),
    );
    // Lanes by interned host, made on first use (so lanes come in task order).
    let mut lanes: Vec<Option<LaneId>> = vec![None; log.hosts.len()];
    let mut lane_of =
        |b: &mut ModelBuilder, host: u32| *lanes[host as usize].get_or_insert_with(|| b.lane(log.host(host)));
    let prepare_ids: Vec<TaskId> = log
        .prepares
        .iter()
        .map(|p| {
            let kind = b.kind(&format!("{PREPARE_PREFIX}{}", p.kind), Some("gray"));
            let lane = lane_of(&mut b, p.host);
            b.task(Task {
                uid: Arc::from(p.kind.as_str()),
                name: Some(Arc::from(format!("[{PREPARE_PREFIX}{}] {}", p.kind, log.host(p.host)))),
                kind,
                role: Role::Setup,
                lane,
                start: ns(p.start),
                end: ns(Some(p.end)),
                bytes: None,
                origin: None,
                target: None,
                meta: None,
                cached: false,
                failed: false,
            })
        })
        .collect();
    let copy_kind = (!log.copies.is_empty()).then(|| b.kind(COPY_KIND, Some("brown")));
    let copy_ids: Vec<TaskId> = log
        .copies
        .iter()
        .map(|c| {
            let kind = copy_kind.unwrap_or(KindId(0));
            let lane = lane_of(&mut b, c.dest_host);
            let origin = c.origin_host.map(|h| lane_of(&mut b, h));
            b.task(Task {
                uid: log.uids.shared(c.dep_uid),
                name: None,
                kind,
                role: Role::Transfer,
                lane,
                start: ns(c.start),
                end: ns(c.end),
                bytes: Some(c.size),
                origin,
                target: Some(log.uids.shared(c.uid)),
                meta: None,
                cached: false,
                failed: false,
            })
        })
        .collect();
    let mut run_of_uid: Vec<Option<TaskId>> = vec![None; log.uids.len()];
    let mut unknown_kind = None;
    for r in &log.runs {
        let node = graph.and_then(|g| g.node(log.uid(r.uid)));
        let kind = match node {
            Some(n) => b.kind(n.kind.as_deref().unwrap_or(UNKNOWN_KIND), Some(n.color.as_deref().unwrap_or("red"))),
            None => *unknown_kind.get_or_insert_with(|| b.kind(UNKNOWN_KIND, Some("red"))),
        };
        let lane = lane_of(&mut b, r.host);
        let id = b.task(Task {
            uid: log.uids.shared(r.uid),
            name: node.map(|n| n.description.clone()),
            kind,
            role: Role::Work,
            lane,
            start: ns(r.start),
            end: ns(r.end),
            bytes: r.size,
            origin: None,
            target: None,
            meta: node.map(|n| {
                Arc::new(TaskMeta {
                    node_type: n.node_type.clone(),
                    runs_test: n.is_test,
                    tags: n.tags.clone(),
                    platform: n.platform.clone(),
                })
            }),
            cached: r.from_cache,
            failed: log.failed(r),
        });
        run_of_uid[r.uid as usize] = Some(id);
    }

    let has_duration: Vec<bool> = log
        .prepares
        .iter()
        .map(|p| p.start.is_some())
        .chain(log.copies.iter().map(|c| c.start.is_some() && c.end.is_some()))
        .chain(log.runs.iter().map(|r| r.start.is_some() && r.end.is_some()))
        .collect();
    let edge = |b: &mut ModelBuilder, from: Option<TaskId>, to: Option<TaskId>| {
        if let (Some(f), Some(t)) = (from, to) {
            if has_duration[f.index()] && has_duration[t.index()] {
                b.depends(f, t);
            }
        }
    };
    let longest = |host: u32| log.longest_prepare.get(&host).copied().flatten().map(|i| prepare_ids[i]);
    for (c, &id) in log.copies.iter().zip(&copy_ids) {
        edge(&mut b, Some(id), run_of_uid[c.dep_uid as usize]);
        edge(&mut b, run_of_uid[c.uid as usize], Some(id));
        edge(&mut b, Some(id), longest(c.dest_host));
    }
    for r in &log.runs {
        let run = run_of_uid[r.uid as usize];
        if let Some(node) = graph.and_then(|g| g.node(log.uid(r.uid))) {
            for dep in &node.deps {
                let dep_run = log.uids.get(dep).and_then(|d| run_of_uid[d as usize]);
                edge(&mut b, run, dep_run);
            }
        }
        edge(&mut b, run, longest(r.host));
    }
    if let Some((first, last)) = log.window {
        b.window(first.saturating_mul(NANOS_PER_MS), last.saturating_mul(NANOS_PER_MS));
    }
    b.build()
}
