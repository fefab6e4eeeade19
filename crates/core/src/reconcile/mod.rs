//! Joining what the readers produced into models: one [`Dataset`] per run
//! that the inputs describe.
//!
//! Each input is read on its own; here inputs that belong together are
//! joined (a distbuild log with its build graph, the traces of one
//! distributed query) and turned into the common [`Model`].

mod distbuild;

use crate::diagnostics::{Position, Severity};
use crate::formats::{FormatId, Parsed};
use crate::ingest::{Input, InputInfo};
use crate::model::Model;

/// One run, reconciled into a model.
#[derive(Debug)]
pub struct Dataset {
    /// The format of its primary input.
    pub format: FormatId,
    /// Indices of the inputs it was built from.
    pub inputs: Vec<usize>,
    /// The reconciled model.
    pub model: Model,
}

/// Everything the user gave, read and reconciled.
#[derive(Debug)]
pub struct Analysis {
    /// The inputs, in the order given.
    pub inputs: Vec<InputInfo>,
    /// The runs they describe.
    pub datasets: Vec<Dataset>,
}

/// Reconciles read inputs into datasets; what the readers produced is
/// consumed, so only the models stay in memory.
///
/// A build graph joins the execution logs given with it: with one graph,
/// every log uses it; with several, the n-th log uses the n-th graph (the
/// last one when there are fewer graphs than logs).
pub fn reconcile(inputs: Vec<Input>) -> Analysis {
    let mut infos = Vec::with_capacity(inputs.len());
    let mut logs = Vec::new();
    let mut graphs = Vec::new();
    for (i, Input { info, parsed }) in inputs.into_iter().enumerate() {
        match parsed {
            Parsed::Distbuild(log) => logs.push((i, log)),
            Parsed::YaGraph(graph) => graphs.push((i, graph)),
        }
        infos.push(info);
    }
    if logs.is_empty() {
        for (i, _) in &graphs {
            infos[*i].diagnostics.report(
                Severity::Info,
                "ya-graph.alone",
                Position::Whole,
                "a build graph has no times of its own: open it together with the distbuild log of the build",
            );
        }
    }
    let datasets = logs
        .into_iter()
        .enumerate()
        .map(|(n, (i, log))| {
            let graph = graphs.get(n.min(graphs.len().saturating_sub(1)));
            let mut inputs = vec![i];
            inputs.extend(graph.map(|(g, _)| *g));
            Dataset { format: FormatId::Distbuild, inputs, model: distbuild::model(&log, graph.map(|(_, g)| g)) }
        })
        .collect();
    Analysis { inputs: infos, datasets }
}
