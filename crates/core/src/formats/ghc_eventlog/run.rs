//! What a GHC eventlog says beyond its model: collections, heap figures,
//! threads and user marks ([`GhcRun`]), as [`super::timeline`] gathers them.

use super::marks::KeptMarks;
use crate::model::Nanos;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a GHC eventlog says beyond its model.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GhcRun {
    /// Events of the data section, block markers included.
    pub events: u64,
    /// Capabilities that logged events.
    pub capabilities: u32,
    /// Events per type id.
    pub events_by_type: BTreeMap<u16, u64>,
    /// The declared description of each type id.
    pub type_names: BTreeMap<u16, String>,
    /// Garbage collections, in time order.
    pub collections: Vec<Collection>,
    /// Heap figures over time, in time order.
    pub heap: Vec<HeapSample>,
    /// Every Haskell thread, by id.
    pub threads: Vec<ThreadStats>,
    /// User markers and user messages: the first, in time order, and their count.
    pub marks: KeptMarks,
}

/// One garbage collection: the span of the capability leading it, which
/// logs its statistics; in a log without statistics, the capabilities'
/// overlapping spans joined ([`super::collections`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Collection {
    /// Start, ns.
    pub start: Nanos,
    /// End, ns.
    pub end: Nanos,
    /// The generation collected, when the log has GC statistics.
    pub generation: Option<u16>,
    /// Bytes copied, when the log has GC statistics.
    pub copied: Option<u64>,
}

/// The heap's figures at one time; each event gives one of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeapSample {
    /// When, ns.
    pub time: Nanos,
    /// Which figure.
    pub figure: HeapFigure,
    /// Bytes.
    pub bytes: u64,
    /// The capability whose block holds the event: each capability logs
    /// its own allocation counter ([`HeapFigure::Allocated`]).
    pub cap: Option<u16>,
}

/// A heap figure the runtime reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HeapFigure {
    /// The heap's current size.
    Size,
    /// Live data after the last major collection.
    Live,
    /// Bytes one capability allocated since the program started: each
    /// capability counts its own, and the program's total is their sum
    /// ([`super::allocation`]).
    Allocated,
}

/// What a thread did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadStats {
    /// Its id.
    pub id: u32,
    /// Its label, if the program gave one.
    pub label: Option<String>,
    /// When it was created, if the log says.
    pub created: Option<Nanos>,
    /// How many times it ran.
    pub runs: u64,
    /// Total time it ran, ns.
    pub run_time: Nanos,
    /// Its longest run, ns.
    pub longest_run: Nanos,
    /// First time it ran, ns.
    pub first_run: Option<Nanos>,
    /// When its last run ended, ns.
    pub last_stop: Option<Nanos>,
    /// Capabilities it ran on.
    pub caps: u32,
}
