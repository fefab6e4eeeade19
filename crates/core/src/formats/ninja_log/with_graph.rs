//! The ninja inputs given together (`.ninja_log`s, `build.ninja` and the
//! files it includes, a `.ninja_deps`) as runs: the manifests evaluated into
//! one build graph, then each build of each log a run along it
//! ([`super::graph_build`]).

use super::deps_log::DepsLog;
use super::manifest::{eval, Manifest};
use super::NinjaLog;
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::model::InputInfo;
use crate::run::Dataset;

/// Deps logs given without a manifest say that they need one (the edges
/// are in `build.ninja`).
pub fn deps_alone(deps: &[(usize, Box<DepsLog>)], infos: &mut [InputInfo]) {
    for (i, _) in deps {
        infos[*i].diagnostics.report(
            Severity::Info,
            "ninja-deps.alone",
            Position::Whole,
            "a deps log names inputs, not the edges that made them: open it together with build.ninja and the .ninja_log",
        );
    }
}

/// The runs of `logs` along the graph of `manifests` (and the first of
/// `deps`), each input's diagnostics added to its `infos` entry. With no
/// log, the manifests and deps logs say they have no times.
pub fn datasets(
    logs: Vec<(usize, Box<NinjaLog>)>,
    manifests: &[(usize, Box<Manifest>)],
    deps: &[(usize, Box<DepsLog>)],
    infos: &mut [InputInfo],
) -> Vec<Dataset> {
    if logs.is_empty() {
        for &i in manifests.iter().map(|(i, _)| i).chain(deps.iter().map(|(i, _)| i)) {
            infos[i].diagnostics.report(
                Severity::Info,
                "ninja.no-log",
                Position::Whole,
                "a build graph has no times of its own: open it together with the build's .ninja_log",
            );
        }
        return Vec::new();
    }
    let files: Vec<(&str, &Manifest)> = manifests.iter().map(|(i, m)| (infos[*i].name.as_str(), &**m)).collect();
    let mut diags: Vec<Diagnostics> = files.iter().map(|_| Diagnostics::default()).collect();
    let graph = eval::evaluate(&files, &mut diags);
    for m in &graph.missing {
        diags[m.file].report(
            Severity::Warning,
            "ninja-manifest.missing",
            Position::Line(m.line),
            format!(
                "`{}` is included here but was not given: its rules and edges are missing (give it with build.ninja)",
                m.path
            ),
        );
    }
    for ((i, _), d) in manifests.iter().zip(diags) {
        infos[*i].diagnostics.absorb(d);
    }
    for (i, _) in deps.iter().skip(1) {
        infos[*i].diagnostics.report(
            Severity::Warning,
            "ninja-deps.extra",
            Position::Whole,
            "a build has one deps log; this one, given after the first, is not read",
        );
    }
    let deps_log = deps.first().map(|(_, d)| &**d);
    let mut inputs_with: Vec<usize> = manifests.iter().map(|(i, _)| *i).collect();
    inputs_with.extend(deps.first().map(|(i, _)| *i));
    let mut out = Vec::new();
    for (li, log) in logs {
        for (model, run) in super::graph_build::reconcile(&log, &graph, deps_log, &mut infos[li].diagnostics) {
            let mut inputs = vec![li];
            inputs.extend(&inputs_with);
            out.push(Dataset { format: super::ID, inputs, model, kind: Box::new(run) });
        }
    }
    out
}
