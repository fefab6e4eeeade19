//! The chunked reader: the document is split by [`JsonSplitter`] into one
//! event (or sample, or top-level member) at a time; only what
//! [`Builder`] keeps of each stays in memory.

use super::ahead::EventsAhead;
use super::event::{Builder, Problem};
use super::{ChromeTrace, TITLE};
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::error::FormatError;
use crate::formats::{preparer_of, FormatReader, Parsed, Prepared, Preparer, ReadCounts};
use crate::json_split::{JsonSplitter, Piece, Root};

/// Members kept as JSON text.
const KEPT: &[&str] = &["otherData", "metadata"];

pub(super) struct ChromeReader {
    splitter: JsonSplitter,
    builder: Builder,
    lines: u64,
    /// Members neither read nor kept.
    ignored: Vec<String>,
}

impl ChromeReader {
    pub fn new() -> Self {
        ChromeReader {
            splitter: JsonSplitter::new(&["traceEvents", "samples"]),
            builder: Builder::new(),
            lines: 0,
            ignored: Vec::new(),
        }
    }
}

fn problem(diags: &mut Diagnostics, line: u64, p: Problem) {
    let at = Position::Line(line);
    match p {
        Problem::NotAnEvent(e) => {
            diags.report(Severity::Warning, "chrome.bad-event", at, format!("not an event object ({e}); skipped"))
        }
        Problem::NoPhase => diags.report(Severity::Warning, "chrome.no-phase", at, "an event without \"ph\"; skipped"),
        Problem::NoTime(ph) => {
            diags.report(Severity::Warning, "chrome.no-ts", at, format!("a \"{ph}\" event without \"ts\"; skipped"))
        }
        Problem::TimeOutOfRange(ph, t) => diags.report(
            Severity::Warning,
            "chrome.time-range",
            at,
            format!("a \"{ph}\" event at or lasting {t:e} µs, beyond ±285 years; skipped"),
        ),
    }
}

fn piece(builder: &mut Builder, ignored: &mut Vec<String>, diags: &mut Diagnostics, p: Piece<'_>) {
    match p {
        Piece::Element { key: Some("samples"), value, line, .. } => {
            if let Err(e) = builder.sample(value) {
                problem(diags, line, e);
            }
        }
        Piece::Element { key, value, line, .. } => {
            if let Err(e) = builder.event(value, line, key.is_none()) {
                problem(diags, line, e);
            }
        }
        Piece::Member { key: "displayTimeUnit", value } => {
            builder.trace.display_time_unit = serde_json::from_slice(value).ok();
        }
        Piece::Member { key: "stackFrames", value } => {
            if let Err(e) = builder.stack_frames(value) {
                diags.report(
                    Severity::Warning,
                    "chrome.bad-stack-frames",
                    Position::Whole,
                    format!("\"stackFrames\" is not an object of frames ({e}); samples are shown without stacks"),
                );
            }
        }
        Piece::Member { key, value } if KEPT.contains(&key) => {
            builder.trace.members.push((key.to_owned(), String::from_utf8_lossy(value).into_owned()));
        }
        Piece::Member { key, .. } => ignored.push(key.to_owned()),
    }
}

impl FormatReader for ChromeReader {
    fn feed(&mut self, chunk: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError> {
        self.lines += memchr::memchr_iter(b'\n', chunk).count() as u64;
        let (builder, ignored) = (&mut self.builder, &mut self.ignored);
        self.splitter.feed(chunk, &mut |p| piece(builder, ignored, diags, p)).map_err(|e| {
            FormatError::new(TITLE, Position::Byte(e.offset), "expected the end of the JSON document", &[e.byte])
        })
    }

    fn preparer(&self) -> Option<Preparer> {
        Some(preparer_of::<EventsAhead>)
    }

    /// Events read ahead are built as the splitter would have handed them
    /// out, numbered by the line they start on; the chunk is fed as usual
    /// when they cannot be used (the splitter is not between two events of
    /// `traceEvents` or a root array, or they were read from another
    /// chunk), and so is what follows them.
    fn feed_prepared(&mut self, chunk: &[u8], prepared: &Prepared, diags: &mut Diagnostics) -> Result<(), FormatError> {
        let ahead = match prepared.get::<EventsAhead>() {
            Some(ahead) if ahead.fit(chunk) => ahead,
            _ => return self.feed(chunk, diags),
        };
        let root = match self.splitter.between_elements() {
            Some(None) => true,
            Some(Some("traceEvents")) => false,
            _ => return self.feed(chunk, diags),
        };
        let first_line = self.splitter.line();
        for (bytes, read, known, lines) in ahead.events(chunk) {
            let line = first_line + lines;
            let built = match read {
                Some(e) => self.builder.event_read(e, line, root, known),
                None => self.builder.event(bytes, line, root),
            };
            if let Err(e) = built {
                problem(diags, line, e);
            }
        }
        let (len, lines) = ahead.read_part();
        self.splitter.pass(len, lines);
        self.lines += lines;
        self.feed(chunk.get(len..).unwrap_or_default(), diags)
    }

    fn finish(self: Box<Self>, diags: &mut Diagnostics) -> Result<Parsed, FormatError> {
        let ChromeReader { splitter, builder, ignored, .. } = *self;
        let mut trace: ChromeTrace = builder.trace;
        if !splitter.is_done() {
            trace.unterminated = true;
            match splitter.pending() {
                Some((_, line)) => diags.report(
                    Severity::Warning,
                    "chrome.cut-event",
                    Position::Line(line),
                    "the trace ends inside an event; that event is left out",
                ),
                None => diags.report(
                    Severity::Info,
                    "chrome.unterminated",
                    Position::Whole,
                    "the trace ends without closing its event array, as the format allows; read to the last complete event",
                ),
            }
        }
        for (ph, line, n) in &builder.unknown {
            diags.report(
                Severity::Info,
                "chrome.unknown-phase",
                Position::Line(*line),
                format!("{n} events of unknown phase \"{ph}\"; counted, not shown"),
            );
        }
        if !ignored.is_empty() {
            diags.report(
                Severity::Info,
                "chrome.ignored-members",
                Position::Whole,
                format!("top-level members not read: {}", ignored.join(", ")),
            );
        }
        if splitter.root() == Root::Object && trace.events() == 0 && trace.samples.is_empty() {
            diags.report(Severity::Warning, "chrome.no-events", Position::Whole, "the trace holds no events");
        }
        Ok(Parsed::run(trace))
    }

    fn counts(&self) -> ReadCounts {
        ReadCounts { lines: self.lines, events: self.builder.trace.events() }
    }
}
