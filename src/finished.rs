//! What a finished run sends the page ([`conclude`]), and what the worker
//! keeps of it to answer the views' questions ([`Loaded`]); shared by a
//! real run and the warm-up.

use crate::protocol::{first_bars, Response, RunId};
use crate::worker_io::memory_bytes;
use longpole_core::layout::timeline::TimelineIndex;
use longpole_core::view::RunView;
use longpole_core::{Analysis, Summary};

/// What the second workers did for a run (see `read_all` in [`crate::worker`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Sides {
    /// The most WebAssembly memory this worker and the second workers held
    /// together while they ran, bytes (0 without them).
    pub memory_bytes: u64,
    /// Bytes fed with what a second worker read ahead ([`crate::ahead_worker`]).
    pub read_ahead_bytes: u64,
}

/// The last finished run, kept for the views' questions.
pub struct Loaded {
    /// The run.
    pub run: RunId,
    /// Its analysis.
    pub analysis: Analysis,
    /// The first dataset's timeline index.
    pub index: TimelineIndex,
    /// The first dataset's view.
    pub view: Option<RunView>,
}

/// What run `run`, begun at `began` (ms since the epoch), sends the page
/// once its files are read into `analysis`, and what the worker keeps for
/// the views' questions. `sides` says what second workers did.
pub fn conclude(run: RunId, analysis: Analysis, began: f64, sides: Sides) -> (Response, Loaded) {
    let summary = Summary::of(&analysis);
    let (index, view) = match analysis.datasets.first() {
        Some(d) => {
            let index = TimelineIndex::new(&d.model);
            let view = analysis.view(d, &index);
            (index, Some(view))
        }
        None => (TimelineIndex::default(), None),
    };
    let memory_bytes = memory_bytes().max(sides.memory_bytes);
    let bars = match (analysis.datasets.first(), view.as_ref().and_then(first_bars)) {
        (Some(d), Some((viewport, lanes))) => index.bars(&d.model, viewport, lanes),
        _ => Vec::new(),
    };
    let response = Response::Done {
        run,
        summary,
        view: view.clone().map(Box::new),
        bars,
        elapsed_ms: js_sys::Date::now() - began,
        memory_bytes,
        read_ahead_bytes: sides.read_ahead_bytes,
    };
    (response, Loaded { run, analysis, index, view })
}
