//! Joining what the readers produced into models: one [`Dataset`] per run
//! that the inputs describe.
//!
//! Each input is read on its own; here inputs that belong together are
//! joined (a distbuild log with its build graph, the traces of one
//! distributed query) and turned into the common [`Model`].

mod distbuild;

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
pub fn reconcile(inputs: Vec<Input>) -> Analysis {
    let mut infos = Vec::with_capacity(inputs.len());
    let mut datasets = Vec::new();
    for (i, Input { info, parsed }) in inputs.into_iter().enumerate() {
        match parsed {
            Parsed::Distbuild(log) => {
                datasets.push(Dataset { format: info.format, inputs: vec![i], model: distbuild::model(&log) })
            }
        }
        infos.push(info);
    }
    Analysis { inputs: infos, datasets }
}
