//! What a finished run sends the page ([`conclude`]), and what the worker
//! keeps of it to answer the views' questions ([`Loaded`]); shared by a
//! real run and the warm-up.

use crate::protocol::{first_bars, Response, RunId};
use crate::worker_io::memory_bytes;
use longpole_core::layout::timeline::TimelineIndex;
use longpole_core::view::what_if::WhatIfs;
use longpole_core::view::RunView;
use longpole_core::{Analysis, Summary};
use std::cell::OnceCell;

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
    /// The first dataset's replay, prepared on the first lever or what-if
    /// asked (`None` inside: it records no dependencies), so that a slider
    /// step replays without preparing it again.
    pub what_ifs: OnceCell<Option<WhatIfs>>,
}

impl Loaded {
    /// The first dataset's prepared replay, if it records dependencies.
    pub fn what_ifs(&self) -> Option<&WhatIfs> {
        self.what_ifs.get_or_init(|| self.analysis.datasets.first().and_then(WhatIfs::of)).as_ref()
    }
}

/// What run `run`, begun at `began` (ms since the epoch), sends the page
/// once its files are read into `analysis`, and what the worker keeps for
/// the views' questions. `with_sides` is the memory the second workers held
/// with this one (see `read_all` in [`crate::worker`]).
pub fn conclude(run: RunId, analysis: Analysis, began: f64, with_sides: u64) -> (Response, Loaded) {
    let summary = Summary::of(&analysis);
    let (index, view) = match analysis.datasets.first() {
        Some(d) => {
            let index = TimelineIndex::new(&d.model);
            let view = analysis.view(d, &index);
            (index, Some(view))
        }
        None => (TimelineIndex::default(), None),
    };
    let memory_bytes = memory_bytes().max(with_sides);
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
    };
    (response, Loaded { run, analysis, index, view, what_ifs: OnceCell::new() })
}
