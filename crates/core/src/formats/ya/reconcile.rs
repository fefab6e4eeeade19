//! A ya build's logs joined with the build graphs given with them: each
//! distbuild log or evlog becomes a [`Dataset`] whose kind is a
//! [`YaBuild`]; a graph without a log is reported.

use super::distbuild::Log;
use super::evlog::Evlog;
use super::graph::BuildGraph;
use super::run_kind::YaBuild;
use crate::diagnostics::{Position, Severity};
use crate::model::InputInfo;
use crate::run::Dataset;
use std::borrow::Cow;

/// An input with times, that a build graph can join.
pub enum Timed {
    /// A distbuild log.
    Distbuild(Box<Log>),
    /// A local evlog.
    Evlog(Evlog),
}

/// The datasets of the `logs` given with the build `graphs` (each with its
/// input's index; `infos` are every input's): with one graph, every log
/// uses it; with several, the n-th log uses the n-th graph (the last one
/// when there are fewer graphs than logs).
pub fn datasets(logs: Vec<(usize, Timed)>, graphs: Vec<(usize, BuildGraph)>, infos: &mut [InputInfo]) -> Vec<Dataset> {
    if logs.is_empty() {
        for (i, _) in &graphs {
            infos[*i].diagnostics.report(
                Severity::Info,
                "ya-graph.alone",
                Position::Whole,
                "a build graph has no times of its own: open it together with the distbuild log or the evlog of the build",
            );
        }
    }
    let n_logs = logs.len();
    let mut graphs: Vec<(usize, Option<BuildGraph>)> = graphs.into_iter().map(|(i, g)| (i, Some(g))).collect();
    logs.into_iter()
        .enumerate()
        .map(|(n, (i, log))| {
            let gi = n.min(graphs.len().saturating_sub(1));
            // The last log to use a graph takes it, so that it is freed as
            // soon as that log's model no longer needs it.
            let last_user = gi + 1 < graphs.len() || n + 1 == n_logs;
            let mut inputs = vec![i];
            inputs.extend(graphs.get(gi).map(|(g, _)| *g));
            let graph: Option<Cow<'_, BuildGraph>> = match graphs.get_mut(gi) {
                Some((_, g)) if last_user => g.take().map(Cow::Owned),
                Some((_, g)) => g.as_ref().map(Cow::Borrowed),
                None => None,
            };
            match log {
                Timed::Distbuild(mut log) => {
                    let retried = std::mem::take(&mut log.retried);
                    Dataset {
                        format: super::distbuild::ID,
                        inputs,
                        model: super::distbuild::model::model(*log, graph),
                        kind: Box::new(YaBuild { retried }),
                    }
                }
                Timed::Evlog(log) => Dataset {
                    format: super::evlog::ID,
                    inputs,
                    model: super::evlog::model::model(&log, graph.as_deref()),
                    kind: Box::new(YaBuild::default()),
                },
            }
        })
        .collect()
}
