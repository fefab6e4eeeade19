//! A Cargo build's timings: the `--timings` HTML report, and the JSON-lines
//! log of `-Zbuild-analysis`.
//!
//! **Who writes it.** Cargo. `cargo build --timings` writes
//! `target/cargo-timings/cargo-timing-<stamp>.html`; a nightly cargo with
//! `-Zbuild-analysis` (and `build.analysis.enabled`) writes
//! `$CARGO_HOME/log/<run-id>.jsonl`, which `cargo report timings` turns into
//! the same page. Spec: `shared/specs/dag-formats.md`, "Cargo"; the writer is
//! `src/cargo/core/compiler/timings*` in rust-lang/cargo.
//!
//! **A record.** The page embeds, in a `<script>`, one JSON array per chart:
//!
//! ```text
//! const UNIT_DATA = [
//!   {"i": 2, "name": "beta", "version": "0.1.0", "mode": "todo", "target": "",
//!    "start": 0.33, "duration": 0.06,          <- seconds from the build's start
//!    "unblocked_units": [], "unblocked_rmeta_units": [5],   <- made ready by its end / metadata
//!    "sections": [["frontend", {"start": 0.0, "end": 0.03}], ["codegen", ...]]}, ...];
//! const CONCURRENCY_DATA = [{"t": 0.16, "active": 1, "waiting": 0, "inactive": 5}, ...];
//! ```
//!
//! and a summary table (`<td>Fresh units:</td><td>0</td>`, dirty and total
//! units, max concurrency with `jobs=`, total time, profile, rustc). The log
//! has one object a line with a `reason`: `build-started` (rustc, jobs,
//! profile), `unit-registered` (index, `package_id`, target name and kind,
//! mode), `unit-fingerprint` (fresh, dirty or new), `unit-started`,
//! `unit-rmeta-finished` and `unit-finished` (`elapsed` seconds, the indices
//! it `unblocked`), `unit-section-started/finished`.
//!
//! **Dialects**, told apart by content: until cargo 1.92 a unit's lists are
//! `unlocked_units` / `unlocked_rmeta_units`, from 1.93 `unblocked_units` /
//! `unblocked_rmeta_units`; until 1.94 `rmeta_time` (seconds after the
//! unit's start) says when its metadata was out, from 1.95 the end of its
//! `frontend` section does. A rebuild's fresh units are listed with start 0
//! and duration 0 (older pages); the log lists only units that ran.
//!
//! **Tasks, lanes, edges.** Each unit is a task (`beta v0.1.0 build-script
//! (run)`, as cargo's table names it), on concurrency slots packed first fit
//! ([`crate::layout::slots`]). Cargo lists each unit in the lists of the one
//! unit whose end (or, pipelined, whose metadata) made it ready: that unit is
//! its one dependency in the model, and the path ([`path`]) walks these back
//! from the unit that finished last.
//!
//! **Caveats.** Units missing a field, repeated indices, lists naming
//! unknown units, a unit made ready twice and a page or log cut short are
//! reported (codes `cargo.*`) and read around; the rest is kept as read.
//!
//! Files: `html.rs` reads the page, `build_log.rs` the log, `seconds.rs`
//! turns cargo's seconds into time, `path.rs` finds the path,
//! `reconcile.rs` builds the model, `run_kind.rs`, `report.rs` and
//! `tables.rs` show it.

mod build_log;
mod html;
pub mod path;
pub mod reconcile;
mod report;
mod run_kind;
mod seconds;
mod tables;

use super::{Format, FormatId, FormatReader, Parsed, ReadCounts, Sniff, SniffInput};
use crate::diagnostics::{Diagnostics, Position};
use crate::error::FormatError;
use crate::lines::LineSplitter;
use crate::model::Nanos;

/// This format's id: a Cargo build's timings.
pub const ID: FormatId = FormatId::new("cargo-timings", "Cargo timings");

/// The title every `--timings` page starts with.
const TITLE: &[u8] = b"Cargo Build Timings";

/// Which of cargo's writers made the input, and so which fields it has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dialect {
    /// A `--timings` page with `unlocked_units` (cargo 1.92 and before).
    #[default]
    HtmlUnlocked,
    /// A `--timings` page with `unblocked_units` (cargo 1.93 and after).
    HtmlUnblocked,
    /// The `-Zbuild-analysis` JSON-lines log.
    BuildAnalysis,
}

/// One section of a unit's compilation (`frontend`, `codegen`, `link`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Section {
    /// Its name, in lower case.
    pub name: String,
    /// Its start after the unit's start.
    pub start: Nanos,
    /// Its end after the unit's start.
    pub end: Nanos,
}

/// One unit of the build: a crate's target compiled (or a build script run).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// Cargo's index of the unit (`i`).
    pub index: u64,
    /// The package's name.
    pub name: String,
    /// The package's version.
    pub version: String,
    /// Cargo's mode: `todo`, or `run-custom-build` for a build script's run.
    pub mode: String,
    /// The target as cargo's table shows it after the version: `""` for a
    /// library, `" build-script"`, `" build-script (run)"`, `' app "bin"'`.
    pub target: String,
    /// The features it was built with.
    pub features: Vec<String>,
    /// Its start after the build's start.
    pub start: Nanos,
    /// How long it took.
    pub duration: Nanos,
    /// When its metadata was out, after its start (`rmeta_time`, the end of
    /// its `frontend` section, `unit-rmeta-finished`), if known.
    pub rmeta: Option<Nanos>,
    /// The units its end made ready.
    pub unblocked: Vec<u64>,
    /// The units its metadata made ready.
    pub unblocked_rmeta: Vec<u64>,
    /// Its sections, if recorded.
    pub sections: Vec<Section>,
    /// Where it was read.
    pub position: Position,
}

impl Unit {
    /// Its end after the build's start.
    pub fn end(&self) -> Nanos {
        self.start.saturating_add(self.duration)
    }
}

/// What the page's summary table (or the log's `build-started`) says.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Summary {
    /// Fresh units, as cargo counted them.
    pub fresh: Option<u64>,
    /// Dirty units, as cargo counted them.
    pub dirty: Option<u64>,
    /// Total units, as cargo counted them.
    pub total_units: Option<u64>,
    /// The most units cargo saw running at once.
    pub max_concurrency: Option<u64>,
    /// `jobs=`: the parallelism asked for.
    pub jobs: Option<u64>,
    /// The total time as the page prints it (`0.6s`, `75.3s (1m 15.3s)`).
    pub total_time: Option<String>,
    /// The time of the page's last concurrency record: cargo's total time
    /// before rounding.
    pub last_concurrency: Option<Nanos>,
    /// The largest `active` of the page's concurrency records: the units
    /// running at once as cargo counts them for its "Max concurrency".
    pub most_active: Option<u64>,
    /// The profile (`dev`, `release`).
    pub profile: Option<String>,
    /// The compiler (`rustc 1.95.0 (…)`).
    pub rustc: Option<String>,
}

/// A Cargo build's timings as read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CargoTimings {
    /// Which writer made it.
    pub dialect: Dialect,
    /// Units carry `rmeta_time` (cargo 1.94 and before).
    pub rmeta_time_field: bool,
    /// The units, in the order read.
    pub units: Vec<Unit>,
    /// The summary.
    pub summary: Summary,
    /// Every byte as read.
    pub raw: Vec<u8>,
}

/// A Cargo build's timings.
pub struct CargoTimingsFormat;

impl Format for CargoTimingsFormat {
    fn id(&self) -> FormatId {
        crate::formats::cargo_timings::ID
    }

    /// Yes for an HTML page titled `Cargo Build Timings`, or a JSON line
    /// with a `run_id` and a `reason` cargo's build-analysis log gives.
    fn sniff(&self, input: SniffInput<'_>) -> Sniff {
        match input.head.iter().find(|b| !b.is_ascii_whitespace()) {
            None if input.at_eof => Sniff::No,
            None => Sniff::NeedMore,
            Some(b'<') => sniff_html(input),
            Some(b'{') => build_log::sniff(input),
            Some(_) => Sniff::No,
        }
    }

    fn reader(&self) -> Box<dyn FormatReader> {
        Box::new(Reader::default())
    }
}

/// An HTML page is cargo's when its title says so before its `<body>`.
fn sniff_html(input: SniffInput<'_>) -> Sniff {
    let head = input.head;
    let find = |needle: &[u8]| head.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle));
    match (find(TITLE), find(b"<body")) {
        (Some(t), b) if b.is_none_or(|b| t < b) => Sniff::Yes,
        (_, Some(_)) => Sniff::No,
        _ if input.at_eof || head.len() >= super::SNIFF_LIMIT => Sniff::No,
        _ => Sniff::NeedMore,
    }
}

/// What the input turned out to be, from its first byte that is not space.
#[derive(Default)]
enum Mode {
    #[default]
    Unknown,
    Html,
    Log(Box<build_log::LogReader>),
}

#[derive(Default)]
struct Reader {
    raw: Vec<u8>,
    mode: Mode,
    lines: LineSplitter,
}

impl FormatReader for Reader {
    fn feed(&mut self, chunk: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError> {
        let from = self.raw.len();
        self.raw.extend_from_slice(chunk);
        if let Mode::Unknown = self.mode {
            match self.raw.iter().find(|b| !b.is_ascii_whitespace()) {
                Some(b'{') => self.mode = Mode::Log(Box::default()),
                Some(_) => self.mode = Mode::Html,
                None => return Ok(()),
            }
            // What came before, all of it space, is fed with this chunk.
            return self.feed_log(0, diags);
        }
        self.feed_log(from, diags)
    }

    fn end_of_input(&mut self, diags: &mut Diagnostics) -> Result<(), FormatError> {
        if let Mode::Log(log) = &mut self.mode {
            self.lines.finish(|no, line| log.line(no, line, diags))?;
        }
        Ok(())
    }

    fn finish(mut self: Box<Self>, diags: &mut Diagnostics) -> Result<Parsed, FormatError> {
        self.end_of_input(diags)?;
        let raw = std::mem::take(&mut self.raw);
        let mut timings = match std::mem::take(&mut self.mode) {
            Mode::Log(log) => log.finish(diags),
            Mode::Html | Mode::Unknown => html::read(&raw, diags)?,
        };
        timings.raw = raw;
        Ok(Parsed::run(timings))
    }

    fn counts(&self) -> ReadCounts {
        match &self.mode {
            Mode::Log(log) => ReadCounts { lines: self.lines.lines(), events: log.events() },
            _ => ReadCounts { lines: 0, events: 0 },
        }
    }
}

impl Reader {
    /// Feeds a log's bytes from `from` on to its lines.
    fn feed_log(&mut self, from: usize, diags: &mut Diagnostics) -> Result<(), FormatError> {
        let Reader { raw, mode, lines } = self;
        match mode {
            Mode::Log(log) => lines.feed(raw.get(from..).unwrap_or_default(), |no, line| log.line(no, line, diags)),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests;
