//! What the page shows of a GHC program's run beyond the timeline: its
//! collections per generation, its heap over time, its threads, its user
//! marks, and its event types. Threads and marks reach the page as tables
//! only, not in the view's part.

use crate::formats::ghc_eventlog::allocation::{allocation, total_over_time, Allocation};
use crate::formats::ghc_eventlog::analysis::{gc_summary, GcRow};
use crate::formats::ghc_eventlog::{GhcRun, HeapFigure, Mark, ThreadStats};
use crate::model::Nanos;
use crate::view::SERIES_POINTS;
use serde::{Deserialize, Serialize};

/// Most marks sent to the page: those the read log keeps.
pub const MARKS: usize = crate::formats::ghc_eventlog::MARKS_KEPT;

/// A heap figure over time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeapSeries {
    /// `heap size`, `live data` or `allocated` (all capabilities together).
    pub figure: String,
    /// (time ns, bytes), in time order; at most [`SERIES_POINTS`], keeping each
    /// bucket's largest value.
    pub points: Vec<(Nanos, u64)>,
    /// Samples in the log.
    pub samples: u64,
    /// The largest value.
    pub max: u64,
}

/// An event type with its count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventTypeRow {
    /// Its id.
    pub id: u16,
    /// Its declared description.
    pub description: String,
    /// Events of it in the data.
    pub count: u64,
}

/// Everything GHC-specific the page shows.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GhcView {
    /// Events in the data section, block markers included.
    pub events: u64,
    /// Capabilities that logged events.
    pub capabilities: u32,
    /// Pauses per generation, then the total row.
    pub gc: Vec<GcRow>,
    /// Heap figures present in the log.
    pub heap: Vec<HeapSeries>,
    /// What the program allocated, in all and per capability, when the
    /// log says.
    pub allocation: Option<Allocation>,
    /// Every thread, by id. Not in the view's part: the page gets them as
    /// a table (a scheduler-heavy log has tens of thousands, megabytes of
    /// the message that ends a load, twice).
    #[serde(skip)]
    pub threads: Vec<ThreadStats>,
    /// The first [`MARKS`] marks, in time order; as a table only, as
    /// [`GhcView::threads`].
    #[serde(skip)]
    pub marks: Vec<Mark>,
    /// All marks in the log.
    pub mark_count: u64,
    /// Every declared type with its count, by id.
    pub event_types: Vec<EventTypeRow>,
}

impl GhcView {
    /// The view of a run.
    pub fn of(run: &GhcRun) -> GhcView {
        GhcView {
            events: run.events,
            capabilities: run.capabilities,
            gc: gc_summary(run),
            heap: [(figure(run, HeapFigure::Size), "heap size"), (figure(run, HeapFigure::Live), "live data")]
                .into_iter()
                .chain([(total_over_time(run), "allocated")])
                .filter_map(|(samples, name)| heap_series(samples, name))
                .collect(),
            allocation: allocation(run),
            threads: run.threads.clone(),
            marks: run.marks.first.iter().take(MARKS).cloned().collect(),
            mark_count: run.marks.count,
            event_types: run
                .type_names
                .iter()
                .map(|(&id, d)| EventTypeRow {
                    id,
                    description: d.clone(),
                    count: run.events_by_type.get(&id).copied().unwrap_or(0),
                })
                .collect(),
        }
    }
}

/// One figure's samples, (time ns, bytes), in time order.
fn figure(run: &GhcRun, figure: HeapFigure) -> Vec<(Nanos, u64)> {
    run.heap.iter().filter(|h| h.figure == figure).map(|h| (h.time, h.bytes)).collect()
}

fn heap_series(samples: Vec<(Nanos, u64)>, name: &str) -> Option<HeapSeries> {
    if samples.is_empty() {
        return None;
    }
    let max = samples.iter().map(|s| s.1).max().unwrap_or(0);
    let per = samples.len().div_ceil(SERIES_POINTS);
    let points = samples.chunks(per).map(|c| *c.iter().max_by_key(|s| s.1).expect("chunks are not empty")).collect();
    Some(HeapSeries { figure: name.to_owned(), points, samples: samples.len() as u64, max })
}
