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
//! description) and every event, kept as its type, time and payload bytes,
//! whatever its type: events this build does not decode are never lost,
//! and bytes past what a decoder knows stay in the payload. Block markers
//! (type 18) say which capability the events after them belong to.
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

pub mod decode;
mod reader;
pub mod show;

pub use reader::{write, EventRecord, EventType, Eventlog};

use super::{Format, FormatId, FormatReader, Sniff, SniffInput};

/// The GHC eventlog format.
pub struct GhcEventlogFormat;

/// The first eight bytes of every eventlog.
const MAGIC: &[u8] = b"hdrbhetb";

impl Format for GhcEventlogFormat {
    fn id(&self) -> FormatId {
        FormatId::GhcEventlog
    }

    /// Yes when the input starts with `hdrb` `hetb`.
    fn sniff(&self, input: SniffInput<'_>) -> Sniff {
        input.starts_with(MAGIC)
    }

    fn reader(&self) -> Box<dyn FormatReader> {
        Box::new(reader::Reader::default())
    }
}

#[cfg(test)]
mod show_tests;
#[cfg(test)]
mod tests;
