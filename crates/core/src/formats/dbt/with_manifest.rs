//! The dbt artifacts given together: each `run_results.json` joined with
//! the manifest of its invocation (the one with the same `invocation_id`,
//! else the first given), whichever order they came in.

use super::artifacts::{Manifest, RunResults};
use crate::diagnostics::{Position, Severity};
use crate::model::InputInfo;
use crate::run::Dataset;

/// The runs of `results`, each joined with its manifest among `manifests`;
/// each input's diagnostics go to its `infos` entry. Manifests without
/// results say that they hold no times.
pub fn datasets(
    results: Vec<(usize, Box<RunResults>)>,
    manifests: &[(usize, Box<Manifest>)],
    infos: &mut [InputInfo],
) -> Vec<Dataset> {
    if results.is_empty() {
        for (i, _) in manifests {
            infos[*i].diagnostics.report(
                Severity::Info,
                "dbt.manifest-alone",
                Position::Whole,
                "a manifest holds the project's dependencies, not when anything ran: open it together with the run's run_results.json",
            );
        }
        return Vec::new();
    }
    let mut out = Vec::with_capacity(results.len());
    for (ri, r) in results {
        let pick = manifests.iter().find(|(_, m)| m.invocation_id == r.invocation_id).or(manifests.first());
        let (model, run) = super::reconcile::reconcile(&r, pick.map(|(_, m)| &**m), &mut infos[ri].diagnostics);
        let mut inputs = vec![ri];
        inputs.extend(pick.map(|(i, _)| *i));
        out.push(Dataset { format: super::ID, inputs, model, kind: Box::new(run) });
    }
    out
}
