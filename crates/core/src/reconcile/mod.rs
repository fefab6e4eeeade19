//! Joining what the readers produced into models: one [`Dataset`] per run
//! that the inputs describe.
//!
//! Each input is read on its own; here inputs that belong together are
//! joined (a distbuild log with its build graph, the traces of one
//! distributed query) and turned into the common [`Model`].

pub mod groups;

use crate::diagnostics::{Position, Severity};
use crate::formats::ninja_log::NinjaLog;
use crate::formats::ya::reconcile::Timed;
use crate::formats::{Parsed, RunInput};
use crate::ingest::Input;
use crate::join::{in_turn, Join};
use crate::model::Model;
pub use crate::run::{Analysis, Dataset, RunKind};

/// Reports each dependency cycle of a model (ya stops at the first with
/// "cyclic dependency detected"; the critical path here cuts the edge that
/// closes it).
fn report_cycles(model: &Model, diags: &mut crate::diagnostics::Diagnostics) {
    for cycle in crate::analysis::graph::cycles(model) {
        let names: Vec<&str> = cycle.iter().take(8).map(|&t| model.uid(t)).collect();
        let more = if cycle.len() > 8 { format!(" and {} more", cycle.len() - 8) } else { String::new() };
        diags.report(
            Severity::Error,
            "graph.cycle",
            Position::Whole,
            format!(
                "dependency cycle through {} tasks ({}{more}); ya stops here, longpole ignores the edge that closes it on the critical path",
                cycle.len(),
                names.join(", ")
            ),
        );
    }
}

/// Takes the runs whose reader produced a `T` (a ninja log, a dbt run's
/// results) out of `runs`, which keeps the others in order.
fn take_runs<T: RunInput>(runs: &mut Vec<(usize, Box<dyn RunInput>)>) -> Vec<(usize, Box<T>)> {
    let mut taken = Vec::new();
    let mut others = Vec::new();
    for (i, run) in runs.drain(..) {
        let parsed = Parsed::Run(run);
        if parsed.read::<T>().is_some() {
            taken.extend(parsed.into_read::<T>().map(|t| (i, t)));
        } else if let Parsed::Run(run) = parsed {
            others.push((i, run));
        }
    }
    *runs = others;
    taken
}

/// Reconciles read inputs into datasets; what the readers produced is
/// consumed, so only the models stay in memory.
///
/// A build graph joins the execution logs given with it: with one graph,
/// every log uses it; with several, the n-th log uses the n-th graph (the
/// last one when there are fewer graphs than logs).
pub fn reconcile(inputs: Vec<Input>) -> Analysis {
    reconcile_with(inputs, &in_turn)
}

/// [`reconcile`], with a reconciler's independent computations (a Chrome
/// trace's threads) run by `join`: the same result whatever the join.
pub fn reconcile_with(inputs: Vec<Input>, join: Join<'_>) -> Analysis {
    let mut infos = Vec::with_capacity(inputs.len());
    let mut logs = Vec::new();
    let mut graphs = Vec::new();
    let mut traces = Vec::new();
    let mut runs = Vec::new();
    let (mut manifests, mut ninja_deps, mut dbt_manifests) = (Vec::new(), Vec::new(), Vec::new());
    for (i, Input { info, parsed }) in inputs.into_iter().enumerate() {
        match parsed {
            Parsed::Distbuild(log) => logs.push((i, Timed::Distbuild(log))),
            Parsed::YaEvlog(log) => logs.push((i, Timed::Evlog(log))),
            Parsed::YaGraph(graph) => graphs.push((i, *graph)),
            Parsed::MonetdbMal(trace) => traces.push((i, trace)),
            Parsed::NinjaManifest(m) => manifests.push((i, m)),
            Parsed::NinjaDeps(d) => ninja_deps.push((i, d)),
            Parsed::DbtManifest(m) => dbt_manifests.push((i, m)),
            Parsed::Run(run) => runs.push((i, run)),
        }
        infos.push(info);
    }
    let mut datasets = crate::formats::ya::reconcile::datasets(logs, graphs, &mut infos);
    // ninja logs given with their build graph are joined along it.
    if manifests.is_empty() {
        crate::formats::ninja_log::with_graph::deps_alone(&ninja_deps, &mut infos);
    } else {
        let ninja_logs = take_runs::<NinjaLog>(&mut runs);
        datasets.extend(crate::formats::ninja_log::with_graph::datasets(
            ninja_logs,
            &manifests,
            &ninja_deps,
            &mut infos,
        ));
    }
    // dbt's results given with a manifest are joined along it.
    if !dbt_manifests.is_empty() {
        let results = take_runs::<crate::formats::dbt::artifacts::RunResults>(&mut runs);
        datasets.extend(crate::formats::dbt::with_manifest::datasets(results, &dbt_manifests, &mut infos));
    }
    // Every other input is a run of its own, in the order given.
    for (i, run) in runs {
        let format = infos[i].format;
        let (model, kind) = run.reconcile(&mut infos[i].diagnostics, join);
        datasets.push(Dataset { format, inputs: vec![i], model, kind });
    }
    if !traces.is_empty() {
        let refs: Vec<(usize, &crate::formats::monetdb_mal::MalTrace)> =
            traces.iter().map(|(i, t)| (*i, &**t)).collect();
        let inputs: Vec<usize> = refs.iter().map(|(i, _)| *i).collect();
        let mut diags: Vec<crate::diagnostics::Diagnostics> = inputs.iter().map(|_| Default::default()).collect();
        let (model, run) = crate::formats::monetdb_mal::reconcile::reconcile(&refs, &mut diags);
        drop(traces);
        for (i, d) in inputs.iter().zip(diags) {
            infos[*i].diagnostics.absorb(d);
        }
        datasets.push(Dataset { format: crate::formats::monetdb_mal::ID, inputs, model, kind: Box::new(run) });
    }
    for d in &datasets {
        report_cycles(&d.model, &mut infos[d.inputs[0]].diagnostics);
    }
    Analysis { inputs: infos, datasets }
}
