//! An evobench [`Log`] as a [`Model`] and an [`EvobenchRun`].
//!
//! The model has one lane per thread number, in order (`thread00`, …);
//! every closed span is a task on its thread's lane, of kind `process`,
//! `thread` or `scope`, named by its probe name (`main thread` for the
//! process scope, `threadNN` for a thread scope) with its `N:` path as
//! label, times relative to the earliest span start. KeyValue
//! pseudo-scopes have no times of their own and are not tasks. The
//! statistics are computed here once ([`Table`]); the samples are dropped
//! after that, so a run keeps its call tree and its table.

use crate::formats::evobench::analysis::table::path_key;
use crate::formats::evobench::analysis::{FlameGraph, PathMode, Table};
use crate::formats::evobench::{Label, Log};
use crate::model::{Model, ModelBuilder, Nanos, Role, Sym, Task};

/// What an evobench log says beyond its model.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvobenchRun {
    /// The log: header records, call tree (without samples), spans, counts.
    pub log: Log,
    /// The evaluator's statistics of this run.
    pub table: Table,
}

impl EvobenchRun {
    /// The run's flame graph.
    pub fn flame(&self) -> FlameGraph {
        FlameGraph::of(&self.log, &self.table)
    }
}

/// The model and statistics of a log.
pub fn reconcile(mut log: Log) -> (Model, EvobenchRun) {
    let table = Table::of(&log);
    let mut b = ModelBuilder::new();
    let lanes: Vec<_> = (0..log.threads.len()).map(|n| b.lane(&format!("thread{n:02}"))).collect();
    let kinds = [b.kind("process", Some("grey")), b.kind("thread", Some("green")), b.kind("scope", Some("blue"))];
    let base = log.spans.iter().map(|s| s.start).min().unwrap_or(0);
    let at = |t: u64| Nanos::try_from(t - base).unwrap_or(Nanos::MAX);
    let mut syms: Vec<Option<(Sym, Sym)>> = vec![None; log.nodes.len()];
    for s in &log.spans {
        let (uid, name) = *syms[s.node as usize].get_or_insert_with(|| {
            let uid = b.sym(&log.label_text(s.node, true));
            (uid, b.sym(&path_key(&log, s.node, PathMode::N)))
        });
        let kind = match log.nodes[s.node as usize].label {
            Label::Process(_) => kinds[0],
            Label::Thread(..) => kinds[1],
            Label::Probe(_) | Label::KeyValue(..) => kinds[2],
        };
        let Some(&lane) = lanes.get(s.thread as usize) else { continue };
        b.named_task(Task::new(uid, kind, Role::Work, lane, Some(at(s.start)), Some(at(s.end))), Some(name));
    }
    if let (Some(first), Some(last)) = (log.spans.iter().map(|s| s.start).min(), log.spans.iter().map(|s| s.end).max())
    {
        b.window(at(first), at(last));
    }
    for n in &mut log.nodes {
        n.samples = Vec::new();
    }
    (b.build(), EvobenchRun { log, table })
}
