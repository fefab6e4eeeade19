//! distbuild execution logs: the build farm behind Yandex's `ya make`.
//!
//! **Who writes it.** distbuild, for every distributed build; ya's own
//! analyser (`devtools/ya/build/stat/graph.py` in `yandex/yatool`) reads it
//! for `ya make --stat`. The spec is `shared/specs/distbuild-log.md`.
//!
//! **A record.** One event per line, fields separated by ONE space:
//!
//! ```text
//! 4720 dep_finished C host1 B host2 200
//! ^    ^            ^ ^     ^ ^     ^ size in bytes
//! |    |            | |     | origin host
//! |    |            | |     dependency uid
//! |    |            | destination host
//! |    |            consumer uid
//! |    event type
//! time, ms
//! ```
//!
//! **What is read.** Every current event: prepare phases (`prepare_start`,
//! `repository_prepared`, `resources_prepared`), copies (`dep_start`,
//! `dep_wait`, `dep_finished`), and runs (`deploy`, `deployed`, `started`,
//! `finished`, `finished_from_cache`). They are reconciled into ya's
//! RunTasks, CopyTasks and PrepareTasks exactly as ya does, in any line
//! order, binding worker ids to hosts in bounded memory ([`binder`]).
//!
//! **What is ignored.** `dep_extract_*` (ya ignores them: their key is not
//! unique) and the retired events of older logs (counted, reported once).
//! Lines of unknown event types are kept verbatim in [`Log::unknown_lines`]
//! and reported once per type.
//!
//! **Mapping.** Hosts are lanes; run tasks are work, copies are transfers,
//! prepare phases are setup. Edges: copy → producer run task; run task →
//! its copies; run task → its build-graph dependencies; every copy and run
//! task → the prepare task of its host that ends last.
//!
//! **Dialects and caveats.** Before late 2024 `dep_start`/`dep_wait`
//! carried the origin host where the dependency count is now, and
//! `prepare_start` carried a host; both are read and named in an info
//! diagnostic. Lines are not in time order. A worker with no
//! `prepare_start` gets an unknown start (ya uses 0, which on epoch times
//! makes one giant task). A line containing a NUL byte ends the log: the
//! input is no longer text.

mod ahead;
mod binder;
mod line;
mod log;
pub(crate) mod model;
mod reconcile;

pub use ahead::LinesAhead;

pub use log::{CopyRef, Log, RunRef};

use crate::diagnostics::{Diagnostics, Position};
use crate::error::FormatError;
use crate::formats::{
    preparer_of, Format, FormatId, FormatReader, Parsed, Prepared, Preparer, ReadCounts, Sniff, SniffInput,
};
use crate::lines::LineSplitter;
use ahead::Line;
use line::{parse_int, Fields};
use reconcile::{is_known_event, Reconciler};

/// This format's id: distbuild's execution log (ya's distributed builds).
pub const ID: FormatId = FormatId::new("distbuild", "distbuild execution log");

/// The distbuild execution log format.
pub struct DistbuildFormat;

/// Lines looked at by the sniffer.
const SNIFF_LINES: usize = 16;

impl Format for DistbuildFormat {
    fn id(&self) -> FormatId {
        crate::formats::ya::distbuild::ID
    }

    /// Yes at the first line that names a distbuild event, when every line
    /// before it starts with an integer time; no at the first line that does
    /// not, or after [`SNIFF_LINES`] lines without an event. The answer
    /// depends only on the lines up to the deciding one, so it does not
    /// change with how much of the input is shown.
    fn sniff(&self, input: SniffInput<'_>) -> Sniff {
        let mut rest = input.head;
        for _ in 0..SNIFF_LINES {
            let line = match memchr::memchr(b'\n', rest) {
                Some(i) => {
                    let line = &rest[..i];
                    rest = &rest[i + 1..];
                    line
                }
                None if input.at_eof && !rest.is_empty() => std::mem::take(&mut rest),
                None if input.at_eof => return Sniff::No,
                None => return sniff_partial(rest),
            };
            let fields = Fields::split(line);
            let Some(time) = fields.get(line, 0) else { continue };
            if parse_int(time).is_none() {
                return Sniff::No;
            }
            if fields.get(line, 1).is_some_and(is_known_event) {
                return Sniff::Yes;
            }
        }
        Sniff::No
    }

    fn reader(&self) -> Box<dyn FormatReader> {
        Box::new(DistbuildReader::default())
    }
    /// Measured in a tab (a 918 MB log with its 337 MB graph: 523 MB).
    fn tab_bytes_per_input_byte(&self) -> f64 {
        0.5
    }
}

/// A line whose end has not come yet: no if what is there already cannot
/// start a distbuild line (a time, then an event), yes once both are whole.
fn sniff_partial(line: &[u8]) -> Sniff {
    let words: Vec<&[u8]> = line.split(u8::is_ascii_whitespace).filter(|w| !w.is_empty()).take(3).collect();
    let ends_in_space = line.last().is_some_and(u8::is_ascii_whitespace);
    match words[..] {
        [time, ..] if !time.iter().all(|b| b.is_ascii_digit() || *b == b'-') => Sniff::No,
        [time, event, ..] if words.len() == 3 || ends_in_space => {
            if parse_int(time).is_some() && is_known_event(event) {
                Sniff::Yes
            } else {
                Sniff::No
            }
        }
        _ => Sniff::NeedMore,
    }
}

/// Reads one distbuild log.
#[derive(Default)]
struct DistbuildReader {
    lines: LineSplitter,
    state: Reconciler,
    /// A NUL byte has been seen: lines are checked for one from here on
    /// (one scan per chunk finds it, instead of one per line).
    nul_seen: bool,
}

impl DistbuildReader {
    fn line(
        state: &mut Reconciler,
        diags: &mut Diagnostics,
        nul_seen: bool,
        line_no: u64,
        line: &[u8],
    ) -> Result<(), FormatError> {
        if nul_seen && memchr::memchr(0, line).is_some() {
            return Err(FormatError::new(
                crate::formats::ya::distbuild::ID.title(),
                Position::Line(line_no),
                "a NUL byte: this is binary data, not a text log",
                line,
            ));
        }
        state.line(line_no, &Line::read(line), line, diags);
        Ok(())
    }
}

impl FormatReader for DistbuildReader {
    fn feed(&mut self, chunk: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError> {
        self.nul_seen = self.nul_seen || memchr::memchr(0, chunk).is_some();
        let (state, nul_seen) = (&mut self.state, self.nul_seen);
        self.lines.feed(chunk, |n, l| Self::line(state, diags, nul_seen, n, l))
    }

    fn preparer(&self) -> Option<Preparer> {
        Some(preparer_of::<LinesAhead>)
    }

    /// Whole lines read ahead go straight to the reconciler, numbered as
    /// the splitter would have numbered them; the chunk is fed as usual
    /// when they cannot be used (an unfinished line is held, the lines
    /// hold a NUL byte, or they were read from another chunk).
    fn feed_prepared(&mut self, chunk: &[u8], prepared: &Prepared, diags: &mut Diagnostics) -> Result<(), FormatError> {
        let ahead = match prepared.get::<LinesAhead>() {
            Some(ahead) if !self.lines.holds_partial() && ahead.fit(chunk) => ahead,
            _ => return self.feed(chunk, diags),
        };
        let mut line_no = self.lines.lines();
        for (raw, line) in ahead.lines(chunk) {
            line_no += 1;
            self.state.line(line_no, line, raw, diags);
        }
        self.lines.count_lines(line_no - self.lines.lines());
        self.feed(ahead.rest(chunk), diags)
    }

    fn finish(mut self: Box<Self>, diags: &mut Diagnostics) -> Result<Parsed, FormatError> {
        let (state, nul_seen) = (&mut self.state, self.nul_seen);
        self.lines.finish(|n, l| Self::line(state, diags, nul_seen, n, l))?;
        Ok(Parsed::Distbuild(Box::new(self.state.finish(diags))))
    }

    fn counts(&self) -> ReadCounts {
        ReadCounts { lines: self.lines.lines(), events: self.state.events() }
    }
}

#[cfg(test)]
mod tests;
