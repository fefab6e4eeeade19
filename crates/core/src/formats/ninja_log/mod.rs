//! ninja's `.ninja_log`: when each output of a build was made.
//!
//! **Who writes it.** ninja, in the build directory, appending one line per
//! output as each edge finishes (`src/build_log.cc`). Spec:
//! `shared/specs/other-formats.md` §6.
//!
//! **A record.** A header `# ninja log v<N>` (5, 6 or 7), then tab-separated
//! lines (tabs shown as spaces):
//!
//! ```text
//! 1  371  1591718248439892353  strutil_bench.o  a231adbfdff37899
//! ^ start ms  ^ end ms  ^ mtime           ^ output         ^ command hash (hex)
//! ```
//!
//! Times are milliseconds since that ninja invocation started, so every new
//! build restarts near 0. Outputs of one edge share their times and hash.
//!
//! **What is read.** Every record (start, end, mtime, output, hash); lines
//! starting with `#` after the header are comments.
//!
//! **Kept.** Every byte, for `longpole rewrite`.
//!
//! **Builds.** The file is append-only, and within one build lines come in
//! order of their end times: a line that ends before the previous one starts
//! a new build (ninjatracing's rule). A recompacted file (ninja rewrites it
//! in hash-map order) has its lines out of order: when more than a quarter
//! of the lines go back in time, the file is taken as recompacted, builds
//! cannot be told apart, and all records are one build (a diagnostic says
//! so).
//!
//! **Caveats.** A line without five fields or with non-integer times is
//! reported and skipped; the version is reported when it is not 5–7.

pub mod canon;
pub mod deps_log;
pub mod graph_build;
pub mod graph_report;
pub mod manifest;
pub mod reconcile;
pub(crate) mod report;
mod run_kind;
pub mod tables;
pub mod weighted;
pub mod with_graph;

use super::{Format, FormatId, FormatReader, Parsed, ReadCounts, Sniff, SniffInput};
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::error::FormatError;
use crate::lines::LineSplitter;

/// This format's id: ninja's `.ninja_log`.
pub const ID: FormatId = FormatId::new("ninja-log", "ninja log");

/// The first bytes of every `.ninja_log`.
const HEADER: &[u8] = b"# ninja log v";

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NinjaRecord {
    /// Start, ms since the build began.
    pub start: i64,
    /// End, ms since the build began.
    pub end: i64,
    /// The output's mtime as written (ns since 1970 on Linux; 100-ns ticks
    /// since 2000 on Windows; 0 when unknown).
    pub mtime: i64,
    /// The output's path.
    pub output: String,
    /// The command's hash, as written (hex).
    pub hash: String,
    /// Its line number.
    pub line: u64,
}

/// A whole `.ninja_log`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NinjaLog {
    /// The version in the header.
    pub version: u32,
    /// The records, in file order.
    pub records: Vec<NinjaRecord>,
    /// Every byte as read.
    pub raw: Vec<u8>,
}

/// The `.ninja_log` format.
pub struct NinjaLogFormat;

impl Format for NinjaLogFormat {
    fn id(&self) -> FormatId {
        crate::formats::ninja_log::ID
    }

    /// Yes when the input starts with `# ninja log v`.
    fn sniff(&self, input: SniffInput<'_>) -> Sniff {
        input.starts_with(HEADER)
    }

    fn reader(&self) -> Box<dyn FormatReader> {
        Box::new(Reader::default())
    }
}

#[derive(Default)]
struct Reader {
    lines: LineSplitter,
    log: NinjaLog,
}

impl Reader {
    fn line(log: &mut NinjaLog, no: u64, line: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError> {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if no == 1 {
            let version = line.strip_prefix(HEADER).and_then(|v| std::str::from_utf8(v).ok()?.trim().parse().ok());
            let Some(version) = version else {
                return Err(FormatError::new(
                    "ninja log",
                    Position::Line(1),
                    "the header is not `# ninja log v<number>`",
                    line,
                ));
            };
            if !(5..=7).contains(&version) {
                diags.report(
                    Severity::Warning,
                    "ninja.version",
                    Position::Line(1),
                    format!("version {version}: ninja writes 5, 6 and 7; read as those"),
                );
            }
            log.version = version;
            return Ok(());
        }
        if line.is_empty() || line.starts_with(b"#") {
            return Ok(());
        }
        let text = String::from_utf8_lossy(line);
        let fields: Vec<&str> = text.split('\t').collect();
        let [start, end, mtime, output, hash] = fields[..] else {
            diags.report(
                Severity::Warning,
                "ninja.fields",
                Position::Line(no),
                format!(
                    "{} tab-separated fields instead of 5 (start, end, mtime, output, hash); skipped",
                    fields.len()
                ),
            );
            return Ok(());
        };
        let (Ok(start), Ok(end)) = (start.parse::<i64>(), end.parse::<i64>()) else {
            diags.report(
                Severity::Warning,
                "ninja.time",
                Position::Line(no),
                "the start or end is not an integer; skipped",
            );
            return Ok(());
        };
        if end < start {
            diags.report(
                Severity::Warning,
                "ninja.negative",
                Position::Line(no),
                "the end is before the start; skipped",
            );
            return Ok(());
        }
        log.records.push(NinjaRecord {
            start,
            end,
            mtime: mtime.parse().unwrap_or(0),
            output: output.to_owned(),
            hash: hash.to_owned(),
            line: no,
        });
        Ok(())
    }
}

impl FormatReader for Reader {
    fn feed(&mut self, chunk: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError> {
        self.log.raw.extend_from_slice(chunk);
        let Reader { lines, log } = self;
        lines.feed(chunk, |no, line| Self::line(log, no, line, diags))
    }

    fn end_of_input(&mut self, diags: &mut Diagnostics) -> Result<(), FormatError> {
        let Reader { lines, log } = self;
        lines.finish(|no, line| Self::line(log, no, line, diags))
    }

    fn finish(mut self: Box<Self>, diags: &mut Diagnostics) -> Result<Parsed, FormatError> {
        self.end_of_input(diags)?;
        if self.log.records.is_empty() {
            diags.report(Severity::Warning, "ninja.empty", Position::Whole, "the log has no records");
        }
        Ok(Parsed::run(std::mem::take(&mut self.log)))
    }

    fn counts(&self) -> ReadCounts {
        ReadCounts { lines: self.lines.lines(), events: self.log.records.len() as u64 }
    }
}

/// One edge of a build: its outputs (those of one command hash), their times.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// Start, ms.
    pub start: i64,
    /// End, ms.
    pub end: i64,
    /// The outputs, in file order.
    pub outputs: Vec<String>,
    /// The command hash.
    pub hash: String,
}

/// How a log splits into builds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Builds {
    /// Each build's records (indices into [`NinjaLog::records`]), in order.
    pub builds: Vec<Vec<usize>>,
    /// The file was recompacted (out of time order): one build holds all.
    pub recompacted: bool,
}

/// Splits `log` into builds (see the module's notes).
pub fn builds(log: &NinjaLog) -> Builds {
    let r = &log.records;
    let back = r.windows(2).filter(|w| w[1].end < w[0].end).count();
    if back >= 3 && back * 4 > r.len() {
        return Builds { builds: vec![(0..r.len()).collect()], recompacted: true };
    }
    let mut builds: Vec<Vec<usize>> = Vec::new();
    for (i, rec) in r.iter().enumerate() {
        if i == 0 || rec.end < r[i - 1].end {
            builds.push(Vec::new());
        }
        if let Some(b) = builds.last_mut() {
            b.push(i);
        }
    }
    Builds { builds, recompacted: false }
}

/// The edges of some records: records with one command hash are one edge
/// (its outputs joined), kept at the first record's times, in order of first
/// appearance.
pub fn targets(log: &NinjaLog, records: &[usize]) -> Vec<Target> {
    let mut out: Vec<Target> = Vec::new();
    let mut by_hash: crate::hash::FastMap<&str, usize> = Default::default();
    for &i in records {
        let rec = &log.records[i];
        match by_hash.get(rec.hash.as_str()) {
            Some(&t) => out[t].outputs.push(rec.output.clone()),
            None => {
                by_hash.insert(&rec.hash, out.len());
                out.push(Target {
                    start: rec.start,
                    end: rec.end,
                    outputs: vec![rec.output.clone()],
                    hash: rec.hash.clone(),
                });
            }
        }
    }
    out
}

/// Slots (lanes) for targets as ninjatracing allocates them
/// ([`crate::layout::slots::allocate`]). Returns each target's slot.
pub fn slots(targets: &[Target]) -> Vec<u32> {
    let spans: Vec<(i64, i64)> = targets.iter().map(|t| (t.start, t.end)).collect();
    crate::layout::slots::allocate(&spans)
}

#[cfg(test)]
mod tests;
