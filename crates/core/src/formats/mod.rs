//! Input formats: one module per producing tool, all behind [`Format`], all
//! listed once in [`REGISTRY`].
//!
//! A format answers two questions: "is this me?" ([`Format::sniff`], from
//! content; the file name is only a hint) and "read this, chunk by chunk"
//! ([`Format::reader`]). Adding a format is one module and one line here.

pub mod cargo_timings;
pub mod chrome_trace;
pub mod dbt;
pub mod evobench;
pub mod ghc_eventlog;
pub mod monetdb_mal;
pub mod ninja_log;
mod read_ahead;
pub mod spark;
pub mod starrocks_profile;
pub mod ya;

pub use read_ahead::{preparer_of, Prepared, Preparer, ReadAhead};

pub use crate::model::{FormatId, ReadCounts};

use crate::diagnostics::Diagnostics;
use crate::error::FormatError;
use crate::join::Join;
use crate::model::Model;
use crate::run::RunKind;
use std::any::Any;
use std::fmt::Debug;

/// A sniffer's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sniff {
    /// The content is this format.
    Yes,
    /// The content is not this format.
    No,
    /// Cannot tell yet; show more bytes.
    NeedMore,
}

/// What a sniffer sees: the first bytes of the (decompressed) input.
#[derive(Clone, Copy, Debug)]
pub struct SniffInput<'a> {
    /// The first bytes; at most [`SNIFF_LIMIT`].
    pub head: &'a [u8],
    /// `head` is the whole input.
    pub at_eof: bool,
    /// The file name, a hint only.
    pub name: &'a str,
}

impl SniffInput<'_> {
    /// Whether the input starts with `magic`: yes, no, or need more bytes.
    pub fn starts_with(&self, magic: &[u8]) -> Sniff {
        let n = self.head.len().min(magic.len());
        if self.head[..n] != magic[..n] {
            Sniff::No
        } else if n == magic.len() {
            Sniff::Yes
        } else if self.at_eof {
            Sniff::No
        } else {
            Sniff::NeedMore
        }
    }
}

/// The most bytes any sniffer is shown; past this, [`Sniff::NeedMore`] means no.
pub const SNIFF_LIMIT: usize = 64 * 1024;

/// An input that makes a run of its own (a GHC program, a ninja log, an
/// evobench log, a StarRocks profile, a Chrome trace): what its reader
/// produced, which reconciles itself. A format of this kind adds no arm to
/// [`Parsed`] or to the reconciling: its folder implements this trait.
pub trait RunInput: Any + Debug + Send {
    /// The run: its model and its format's kind; what is worth saying on
    /// the way goes to `diags`; `join` runs independent computations.
    fn reconcile(self: Box<Self>, diags: &mut Diagnostics, join: Join<'_>) -> (Model, Box<dyn RunKind>);

    /// The input written back in its own format, byte for byte as it was
    /// read (decompressed); `None` for a format longpole does not write, or
    /// one read without keeping its source.
    fn write_back(&self) -> Option<Vec<u8>> {
        None
    }
}

/// What a reader produced, ready for reconciliation: the inputs that are
/// read together (a ya build's log and graph, a query's MAL traces) by
/// format, every other one as a run of its own.
#[derive(Debug)]
pub enum Parsed {
    /// A distbuild log's tasks, reconciled as ya does.
    Distbuild(Box<ya::distbuild::Log>),
    /// A ya build graph.
    YaGraph(Box<ya::graph::BuildGraph>),
    /// A ya event log.
    YaEvlog(ya::evlog::Evlog),
    /// A MonetDB MAL trace, every byte of it.
    MonetdbMal(Box<monetdb_mal::MalTrace>),
    /// A ninja manifest (`build.ninja` or a file it includes), read with
    /// the `.ninja_log`.
    NinjaManifest(Box<ninja_log::manifest::Manifest>),
    /// A ninja deps log, read with the `.ninja_log` and its manifest.
    NinjaDeps(Box<ninja_log::deps_log::DepsLog>),
    /// A dbt manifest, read with the run's `run_results.json`.
    DbtManifest(Box<dbt::artifacts::Manifest>),
    /// An input that is a run of its own.
    Run(Box<dyn RunInput>),
}

impl Parsed {
    /// An input that is a run of its own.
    pub fn run(input: impl RunInput) -> Parsed {
        Parsed::Run(Box::new(input))
    }

    /// What the reader of a run of its own produced, when it is a `T` (a
    /// StarRocks `Profile`).
    pub fn read<T: RunInput>(&self) -> Option<&T> {
        match self {
            Parsed::Run(run) => (run.as_ref() as &dyn Any).downcast_ref::<T>(),
            _ => None,
        }
    }

    /// [`Parsed::read`], taking it.
    pub fn into_read<T: RunInput>(self) -> Option<Box<T>> {
        match self {
            Parsed::Run(run) => (run as Box<dyn Any>).downcast::<T>().ok(),
            _ => None,
        }
    }

    /// The input written back in its own format, byte for byte as it was
    /// read (decompressed); `None` for a format longpole does not write, or
    /// one read without keeping its source ([`Format::reader_keeping_source`]).
    pub fn write_back(&self) -> Option<Vec<u8>> {
        match self {
            Parsed::MonetdbMal(trace) => Some(trace.raw.clone()),
            Parsed::Run(run) => run.write_back(),
            Parsed::Distbuild(_)
            | Parsed::YaGraph(_)
            | Parsed::YaEvlog(_)
            | Parsed::NinjaManifest(_)
            | Parsed::NinjaDeps(_)
            | Parsed::DbtManifest(_) => None,
        }
    }
}

/// One input format.
pub trait Format: Sync {
    /// Which format this is.
    fn id(&self) -> FormatId;
    /// Decides from content whether an input is this format.
    fn sniff(&self, input: SniffInput<'_>) -> Sniff;
    /// A reader for one input, keeping what the analysis needs.
    fn reader(&self) -> Box<dyn FormatReader>;
    /// A reader that also keeps the input's every byte, so that
    /// [`Parsed::write_back`] can write it and dumps can show it. The
    /// default, for formats that always keep it, is [`Format::reader`].
    fn reader_keeping_source(&self) -> Box<dyn FormatReader> {
        self.reader()
    }
    /// Bytes of a tab's memory per byte of this format's (decompressed)
    /// input, as measured at size (docs/numbers.md), for projecting before
    /// reading whether an input fits a tab
    /// ([`crate::memory_budget::projected_need`]). The default, for formats
    /// not measured past a few hundred MB, is a cautious 4.
    fn tab_bytes_per_input_byte(&self) -> f64 {
        4.0
    }
}

/// The registered format with this id.
pub fn by_id(id: FormatId) -> Option<&'static dyn Format> {
    REGISTRY.iter().copied().find(|f| f.id() == id)
}

/// Reads one input, fed in chunks cut at any byte.
pub trait FormatReader {
    /// Reads the next chunk. An error means the input is not (or no longer) this format.
    fn feed(&mut self, chunk: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError>;
    /// The input has ended: read what its last, unterminated part holds, so
    /// that [`FormatReader::counts`] includes it. Readers that hold nothing
    /// back keep the default, which does nothing.
    fn end_of_input(&mut self, _diags: &mut Diagnostics) -> Result<(), FormatError> {
        Ok(())
    }
    /// Told once, early (see [`crate::ingest::Ingest::expect_bytes`]),
    /// which share of the whole input has been read so far, so that a reader
    /// can size its big lists once rather than grow them: a growing list
    /// holds its old and new copy at once, and WebAssembly memory never
    /// shrinks. Readers whose lists are small keep the default, which does
    /// nothing.
    fn expect(&mut self, _share_read: f64) {}
    /// For a reader that can take a chunk read ahead (on another thread):
    /// the pure function that reads its whole lines or events.
    fn preparer(&self) -> Option<Preparer> {
        None
    }
    /// Reads `chunk`, given what this reader's [`FormatReader::preparer`]
    /// made of it; the same as [`FormatReader::feed`] of it.
    fn feed_prepared(&mut self, chunk: &[u8], prepared: &Prepared, diags: &mut Diagnostics) -> Result<(), FormatError> {
        let _ = prepared;
        self.feed(chunk, diags)
    }
    /// Ends the input and returns what was read.
    fn finish(self: Box<Self>, diags: &mut Diagnostics) -> Result<Parsed, FormatError>;
    /// Counts so far.
    fn counts(&self) -> ReadCounts;
}

/// Every format, in detection priority order.
pub static REGISTRY: &[&dyn Format] = &[
    &ya::distbuild::DistbuildFormat,
    &evobench::EvobenchFormat,
    &ya::graph::YaGraphFormat,
    &ya::evlog::YaEvlogFormat,
    &ghc_eventlog::GhcEventlogFormat,
    &monetdb_mal::MonetdbMalFormat,
    &ninja_log::NinjaLogFormat,
    &ninja_log::deps_log::NinjaDepsFormat,
    &ninja_log::manifest::NinjaManifestFormat,
    &starrocks_profile::StarRocksFormat,
    &cargo_timings::CargoTimingsFormat,
    &dbt::DbtFormat,
    &spark::SparkFormat,
    &chrome_trace::ChromeTraceFormat,
];

/// The id of the registered format named `name` (`ghc-eventlog`).
pub fn by_name(name: &str) -> Option<FormatId> {
    REGISTRY.iter().map(|f| f.id()).find(|id| id.name() == name)
}

/// A format's id read back from its name, as the registry knows them all.
impl<'de> serde::Deserialize<'de> for FormatId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<FormatId, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(d)?;
        by_name(&name).ok_or_else(|| serde::de::Error::custom(format!("no format is named `{name}`")))
    }
}

/// The outcome of running every sniffer over a head.
pub enum Detection {
    /// This format said yes (the first in priority order to do so).
    Found(&'static dyn Format),
    /// No sniffer said yes and some need more bytes.
    NeedMore,
    /// [`SNIFF_LIMIT`] bytes were shown and this format (the first in
    /// priority order still undecided) needed more: the input looks like it,
    /// but one of its first lines or records is too long to tell.
    GaveUp(&'static dyn Format),
    /// Every sniffer said no.
    Unrecognised,
}

/// Runs every registered sniffer over `input`.
///
/// At the end of the input "need more" counts as no; once [`SNIFF_LIMIT`]
/// bytes were shown, the first format that still needs more is where
/// detection gave up ([`Detection::GaveUp`]).
pub fn detect(input: SniffInput<'_>) -> Detection {
    let mut undecided = None;
    for &f in REGISTRY {
        match f.sniff(input) {
            Sniff::Yes => return Detection::Found(f),
            Sniff::NeedMore => undecided = undecided.or(Some(f)),
            Sniff::No => {}
        }
    }
    match undecided {
        Some(_) if input.at_eof => Detection::Unrecognised,
        Some(f) if input.head.len() >= SNIFF_LIMIT => Detection::GaveUp(f),
        Some(_) => Detection::NeedMore,
        None => Detection::Unrecognised,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_is_read_back_from_its_name_and_names_are_distinct() {
        for f in REGISTRY {
            let id = f.id();
            let json = serde_json::to_string(&id).unwrap();
            assert_eq!(json, format!("\"{}\"", id.name()));
            assert_eq!(serde_json::from_str::<FormatId>(&json).unwrap(), id);
            assert_eq!(REGISTRY.iter().filter(|g| g.id().name() == id.name()).count(), 1, "{}", id.name());
        }
        let err = serde_json::from_str::<FormatId>("\"star-rocks\"").unwrap_err().to_string();
        assert!(err.contains("no format is named `star-rocks`"), "{err}");
    }
}
