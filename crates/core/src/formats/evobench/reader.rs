//! The streaming reader: splits chunks into lines (a line cut by a chunk's
//! end is the only thing copied), parses each and hands it to the pairing.

use super::fast::timing_record;
use super::log::{Metadata, StartInfo};
use super::pairing::{Pairing, ScopeKind};
use super::record::Record;
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::error::FormatError;
use crate::formats::{FormatReader, Parsed, ReadCounts};

const TITLE: &str = "evobench log";

/// Parses one line (without its newline): the fast path, else serde_json.
fn parse(line: &[u8]) -> Result<Record<'_>, serde_json::Error> {
    timing_record(line).map_or_else(|| serde_json::from_slice(line), Ok)
}

/// The log versions this reader knows.
const KNOWN_VERSION: u32 = 1;

#[derive(Default)]
pub(super) struct Reader {
    pairing: Pairing,
    /// The start of a line cut by the last chunk's end.
    partial: Vec<u8>,
    counts: ReadCounts,
    /// The dialect was reported.
    dialect_seen: bool,
}

impl Reader {
    fn line(&mut self, line: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError> {
        self.counts.lines += 1;
        let n = self.counts.lines;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let record = parse(line);
        if n == 1 {
            return match record {
                Ok(Record::Start { evobench_log_version, evobench_version }) => {
                    if evobench_log_version != KNOWN_VERSION {
                        diags.report(
                            Severity::Warning,
                            "evobench.unknown-version",
                            Position::Line(1),
                            format!("log version {evobench_log_version}; this reader knows version {KNOWN_VERSION} and reads it as that"),
                        );
                    }
                    self.pairing.log.start =
                        StartInfo { log_version: evobench_log_version, writer_version: evobench_version };
                    self.counts.events += 1;
                    Ok(())
                }
                _ => Err(FormatError::new(
                    TITLE,
                    Position::Line(1),
                    "the first line must be the Start record {\"Start\":{\"evobench_log_version\":…}}",
                    line,
                )),
            };
        }
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let shown = String::from_utf8_lossy(&line[..line.len().min(80)]).into_owned();
                diags.report(
                    Severity::Warning,
                    "evobench.bad-line",
                    Position::Line(n),
                    format!("not an evobench record ({e}): {shown:?}"),
                );
                return Ok(());
            }
        };
        self.counts.events += 1;
        if n == 2 && !matches!(record, Record::Metadata(_)) {
            diags.report(
                Severity::Info,
                "evobench.no-metadata",
                Position::Line(2),
                "line 2 is not the Metadata record",
            );
        }
        let log = &mut self.pairing.log;
        let kind_index = match &record {
            Record::Start { .. } => {
                diags.report(
                    Severity::Warning,
                    "evobench.second-start",
                    Position::Line(n),
                    "a second Start record; ignored",
                );
                return Ok(());
            }
            Record::Metadata(m) => {
                log.metadata = Some(Metadata {
                    username: m.username.clone(),
                    hostname: m.hostname.clone(),
                    uname: [
                        m.uname.sysname.clone(),
                        m.uname.nodename.clone(),
                        m.uname.release.clone(),
                        m.uname.version.clone(),
                        m.uname.machine.clone(),
                    ],
                    compiler: m.compiler.clone(),
                });
                log.ended = false;
                return Ok(());
            }
            Record::KeyValue(_) => 0,
            Record::TStart(_) => 1,
            Record::T(_) => 2,
            Record::TS(_) => 3,
            Record::TE(_) => 4,
            Record::TThreadStart(_) => 5,
            Record::TThreadEnd(_) => 6,
            Record::TEnd(_) => 7,
            Record::Tio(_) => 8,
        };
        log.records[kind_index] += 1;
        log.ended = kind_index == 7;
        let timing = match &record {
            Record::KeyValue(kv) => {
                self.pairing.key_value(kv.tid, &kv.k, &kv.v, n, diags);
                return Ok(());
            }
            Record::TStart(t)
            | Record::T(t)
            | Record::TS(t)
            | Record::TE(t)
            | Record::TThreadStart(t)
            | Record::TThreadEnd(t)
            | Record::TEnd(t)
            | Record::Tio(t) => t,
            Record::Start { .. } | Record::Metadata(_) => return Ok(()),
        };
        if timing.real().is_none() {
            diags.report(
                Severity::Warning,
                "evobench.no-real-time",
                Position::Line(n),
                format!("`{}` has no real time (`r`, or `t` in old logs); ignored", timing.pn),
            );
            return Ok(());
        }
        if !self.dialect_seen {
            self.dialect_seen = true;
            if timing.r.is_none() {
                self.pairing.log.old_dialect = true;
                diags.report(
                    Severity::Info,
                    "evobench.old-dialect",
                    Position::Line(n),
                    "real time is called `t` (the 2025-04 dialect); read as `r`",
                );
            }
        }
        match &record {
            Record::TStart(t) => self.pairing.open(ScopeKind::Process, t, n, diags),
            Record::TThreadStart(t) => self.pairing.open(ScopeKind::Thread, t, n, diags),
            Record::TS(t) => self.pairing.open(ScopeKind::Probe, t, n, diags),
            Record::TE(t) => self.pairing.close(ScopeKind::Probe, t, n, diags),
            Record::TThreadEnd(t) => self.pairing.close(ScopeKind::Thread, t, n, diags),
            Record::TEnd(t) => self.pairing.close(ScopeKind::Process, t, n, diags),
            _ => {}
        }
        Ok(())
    }
}

impl FormatReader for Reader {
    fn feed(&mut self, chunk: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError> {
        let mut rest = chunk;
        if !self.partial.is_empty() {
            let Some(nl) = memchr::memchr(b'\n', rest) else {
                self.partial.extend_from_slice(rest);
                return Ok(());
            };
            let mut line = std::mem::take(&mut self.partial);
            line.extend_from_slice(&rest[..nl]);
            self.line(&line, diags)?;
            line.clear();
            self.partial = line;
            rest = &rest[nl + 1..];
        }
        while let Some(nl) = memchr::memchr(b'\n', rest) {
            self.line(&rest[..nl], diags)?;
            rest = &rest[nl + 1..];
        }
        self.partial.extend_from_slice(rest);
        Ok(())
    }

    fn finish(mut self: Box<Self>, diags: &mut Diagnostics) -> Result<Parsed, FormatError> {
        if !self.partial.is_empty() {
            let line = std::mem::take(&mut self.partial);
            self.line(&line, diags)?;
        }
        if !self.pairing.log.ended {
            let open = self.pairing.still_open();
            diags.report(
                Severity::Error,
                "evobench.cut-off",
                Position::Line(self.counts.lines),
                format!("the log does not end with TEnd: it was cut off; {open} scopes still open are left out"),
            );
        }
        Ok(Parsed::run(std::mem::take(&mut self.pairing.log)))
    }

    fn counts(&self) -> ReadCounts {
        self.counts
    }
}
