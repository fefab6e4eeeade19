//! GHC eventlogs: what a Haskell program's runtime (`+RTS -l`) records.
//!
//! **Who writes it.** The GHC runtime system; read by ghc-events,
//! ThreadScope, eventlog2html. Spec: `shared/specs/other-formats.md` §1,
//! GHC's `rts/include/rts/EventLogFormat.h`, ghc-events' `Binary.hs`.
//!
//! **A record.** Binary, big-endian. A header declares every event type:
//!
//! ```text
//! "hdrb" "hetb"
//!   "etb\0" u16 id  u16 size (0xFFFF: variable)  u32 len description  u32 len extra  "ete\0"
//!   ...
//! "hete" "hdre" "datb"
//!   u16 type  u64 time (ns)  [u16 length, if variable]  payload      <- one event
//!   ...
//! u16 0xFFFF                                                          <- end of data
//! ```
//!
//! **What is read.** The header (every event type with its size and
//! description) and every event. Each is analysed as it is read
//! ([`timeline`]: the model and [`GhcRun`]), and kept only when the source is
//! asked for ([`Format::reader_keeping_source`]: rewriting, `show`), as its
//! type, time and payload bytes, whatever its type: events this build does
//! not decode are never lost, and bytes past what a decoder knows stay in
//! the payload. Block markers (type 18) say which capability the events
//! after them belong to.
//!
//! **Round trip.** [`write`] gives back the very bytes that were read: the
//! header as it was, every event, the end marker and anything after it.
//!
//! **Caveats.** A file cut in the middle of an event keeps everything
//! before the cut (and the cut bytes, for round trip), with a diagnostic.
//! An event type used but not declared in the header ends the data, as in
//! ghc-events ("undeclared event type").
//!
//! **Typed events.** [`decode`] reads an event's payload as ghc-events
//! does (the layout chosen by the declared size, extra bytes kept) and
//! writes one back; [`show`] prints a log exactly as `ghc-events show` does.

pub mod allocation;
pub mod analysis;
mod collections;
pub mod decode;
mod mark_merge;
mod marks;
mod reader;
pub(crate) mod report;
mod run;
mod run_kind;
mod run_view;
pub mod show;
pub mod tables;
mod threads;
mod timeline;
mod user_spans;
pub mod view;

pub use marks::{KeptMarks, Mark, MARKS_KEPT};
pub use reader::{write, EventRecord, EventType, Eventlog};
pub use run::{Collection, GhcRun, HeapFigure, HeapSample, ThreadStats};

use super::{Format, FormatId, FormatReader, Sniff, SniffInput};
use crate::model::Model;

/// This format's id: a GHC runtime's binary eventlog.
pub const ID: FormatId = FormatId::new("ghc-eventlog", "GHC eventlog");

/// A read eventlog: its model and what it says beyond it, and every event
/// when the source was asked for.
#[derive(Debug)]
pub struct ReadEventlog {
    /// The capabilities' threads and collections, and the user spans.
    pub model: Model,
    /// Collections, heap figures, threads and marks.
    pub run: GhcRun,
    /// The whole log, every event kept, when read with
    /// [`Format::reader_keeping_source`]; otherwise `None`.
    pub source: Option<Eventlog>,
}

/// The GHC eventlog format.
pub struct GhcEventlogFormat;

/// The first eight bytes of every eventlog.
const MAGIC: &[u8] = b"hdrbhetb";

impl Format for GhcEventlogFormat {
    fn id(&self) -> FormatId {
        crate::formats::ghc_eventlog::ID
    }

    /// Yes when the input starts with `hdrb` `hetb`.
    fn sniff(&self, input: SniffInput<'_>) -> Sniff {
        input.starts_with(MAGIC)
    }

    /// Events are analysed as they are read, and not kept.
    fn reader(&self) -> Box<dyn FormatReader> {
        Box::new(reader::Reader::new(false))
    }

    fn reader_keeping_source(&self) -> Box<dyn FormatReader> {
        Box::new(reader::Reader::new(true))
    }
    /// Measured in a tab: a 1 GB heap-profiled eventlog took 2.6 GiB (2.79
    /// bytes a byte), a 198 MB scheduler-heavy one 549 MB (2.78).
    fn tab_bytes_per_input_byte(&self) -> f64 {
        2.8
    }
}

#[cfg(test)]
mod show_tests;
#[cfg(test)]
mod tests;
