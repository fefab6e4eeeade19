//! What is kept of a finished run to answer the views' questions
//! ([`Loaded`]), and what it first sends the page ([`Loaded::done`]).

use crate::protocol::{first_bars, Finished, Response, RunId};
use longpole_core::layout::timeline::TimelineIndex;
use longpole_core::view::what_if::WhatIfs;
use longpole_core::view::RunView;
use longpole_core::{Analysis, Summary};
use std::cell::OnceCell;
use std::sync::Arc;

/// The last finished run, kept for the views' questions.
pub struct Loaded {
    /// The run.
    pub run: RunId,
    /// Its analysis.
    pub analysis: Analysis,
    /// The first dataset's timeline index.
    pub index: TimelineIndex,
    /// The first dataset's view (shared with what [`Loaded::done`] sends).
    pub view: Option<Arc<RunView>>,
    /// The first dataset's replay, prepared on the first lever or what-if
    /// asked (`None` inside: it records no dependencies), so that a slider
    /// step replays without preparing it again.
    pub what_ifs: OnceCell<Option<WhatIfs>>,
}

impl Loaded {
    /// Run `run`'s `analysis`, with its first dataset's timeline index and view.
    pub fn of(run: RunId, analysis: Analysis) -> Loaded {
        let (index, view) = match analysis.datasets.first() {
            Some(d) => {
                let index = TimelineIndex::new(&d.model);
                let view = analysis.view(d, &index);
                (index, Some(Arc::new(view)))
            }
            None => (TimelineIndex::default(), None),
        };
        Loaded { run, analysis, index, view, what_ifs: OnceCell::new() }
    }

    /// What the page is sent once the run is loaded: its summary, its view
    /// and the timeline's first bars, with the time since the request
    /// (`elapsed_ms`) and the memory the reading took (`memory_bytes`).
    pub fn done(&self, elapsed_ms: f64, memory_bytes: u64) -> Response {
        let bars = match (self.analysis.datasets.first(), self.view.as_deref().and_then(first_bars)) {
            (Some(d), Some((viewport, lanes))) => self.index.bars(&d.model, viewport, lanes),
            _ => Vec::new(),
        };
        Response::Done(Finished {
            run: self.run,
            summary: Summary::of(&self.analysis),
            view: self.view.clone(),
            bars,
            elapsed_ms,
            memory_bytes,
        })
    }

    /// The first dataset's prepared replay, if it records dependencies.
    pub fn what_ifs(&self) -> Option<&WhatIfs> {
        self.what_ifs.get_or_init(|| self.analysis.datasets.first().and_then(WhatIfs::of)).as_ref()
    }
}
