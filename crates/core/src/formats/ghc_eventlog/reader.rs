//! The eventlog's bytes, read push-style and written back unchanged.

use super::timeline::{Framed, Timeline};
use super::ReadEventlog;
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::error::FormatError;
use crate::formats::{FormatReader, Parsed, ReadCounts};

/// A declared event type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventType {
    /// Its id.
    pub id: u16,
    /// Its payload size in bytes; `None` for a variable-size type.
    pub size: Option<u16>,
    /// Its description, as declared.
    pub description: String,
    /// Extra bytes declared with it (reserved for extensions).
    pub extra: Vec<u8>,
}

/// One event of the data section, block markers included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventRecord {
    /// Its type id.
    pub ty: u16,
    /// Its time, ns since the program started.
    pub time: u64,
    /// The capability of the block it sits in (`None` outside blocks or for cap 0xFFFF).
    pub cap: Option<u16>,
    /// Byte offset of the event in the file.
    pub offset: u64,
    start: u32,
    len: u32,
}

/// A read eventlog: its header as written, its types, its events.
#[derive(Clone, Debug, Default)]
pub struct Eventlog {
    /// Every byte from the start of the file to the start of the data section.
    pub header: Vec<u8>,
    /// The declared event types, in header order.
    pub types: Vec<EventType>,
    /// The events, in file order.
    pub events: Vec<EventRecord>,
    /// The data section ended with its end marker.
    pub ended: bool,
    /// Bytes after the end marker, or of an event cut short (kept for round trip).
    pub tail: Vec<u8>,
    arena: Vec<u8>,
    type_index: Vec<u32>,
    /// Index in `events` of the last block marker.
    last_marker: Option<usize>,
}

impl Eventlog {
    /// An event's payload bytes.
    pub fn payload(&self, e: &EventRecord) -> &[u8] {
        &self.arena[e.start as usize..(e.start + e.len) as usize]
    }

    /// The declared type `id`.
    pub fn event_type(&self, id: u16) -> Option<&EventType> {
        self.type_index.get(usize::from(id)).filter(|&&i| i != u32::MAX).map(|&i| &self.types[i as usize])
    }
}

/// Writes an eventlog back: the header, each event, the end marker, the tail.
pub fn write(log: &Eventlog) -> Vec<u8> {
    let mut out = Vec::with_capacity(log.header.len() + log.arena.len() + log.events.len() * 12 + log.tail.len() + 2);
    out.extend_from_slice(&log.header);
    for e in &log.events {
        out.extend_from_slice(&e.ty.to_be_bytes());
        out.extend_from_slice(&e.time.to_be_bytes());
        if log.event_type(e.ty).is_some_and(|t| t.size.is_none()) {
            out.extend_from_slice(&(e.len as u16).to_be_bytes());
        }
        out.extend_from_slice(log.payload(e));
    }
    if log.ended {
        out.extend_from_slice(&0xFFFFu16.to_be_bytes());
    }
    out.extend_from_slice(&log.tail);
    out
}

const TITLE: &str = "GHC eventlog";
const BLOCK_MARKER: u16 = 18;
const END: u16 = 0xFFFF;

fn be16(b: &[u8]) -> u16 {
    u16::from_be_bytes([b[0], b[1]])
}

fn be32(b: &[u8]) -> u32 {
    u32::from_be_bytes([b[0], b[1], b[2], b[3]])
}

fn be64(b: &[u8]) -> u64 {
    u64::from_be_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
}

/// Where the reader is.
#[derive(Debug, Default, PartialEq, Eq, Clone, Copy)]
enum Stage {
    /// In the header; `at` is where the next unparsed part of `pending` starts.
    #[default]
    Header,
    /// In the data section.
    Data,
    /// After the end marker (or an undeclared type): the rest is kept as is.
    Tail,
}

/// Where framed events go: the timeline always, the log's event list when
/// the source is kept.
#[derive(Default)]
struct Events {
    /// The header, types and tail always; the events when `keep`.
    log: Eventlog,
    timeline: Timeline,
    keep: bool,
    /// Events framed so far.
    count: u64,
}

#[derive(Default)]
pub(super) struct Reader {
    out: Events,
    stage: Stage,
    pending: Vec<u8>,
    /// Bytes of `pending` already parsed (header) or consumed (data).
    at: usize,
    /// File offset of `pending[0]`.
    base: u64,
    /// The current block: (cap, file offset where it ends).
    block: Option<(Option<u16>, u64)>,
    /// In the header: what the bytes still missing were declared as.
    waiting_for: Option<String>,
    /// Bytes after the data section that were not held (reading to analyse).
    tail_dropped: u64,
}

/// The bytes after the end marker shown in its diagnostic.
const TAIL_SHOWN: usize = 16;

/// The longest header read. GHC writes about 10 KB (some 200 event types);
/// a longer one is an impossible size, and reading on would hold the file.
const MAX_HEADER: usize = 1 << 20;

impl Reader {
    /// A reader that keeps every event (for [`write`](fn@write) and `show`)
    /// when `keep`, or only what the analysis needs.
    pub(super) fn new(keep: bool) -> Reader {
        Reader { out: Events { keep, ..Events::default() }, ..Reader::default() }
    }
}

/// The header parse needs more bytes.
struct More;

impl Reader {
    /// The header is wrong at `at`: the error shows the `len` bytes found
    /// there (no more, so that where chunks were cut does not matter).
    fn error(&self, at: usize, len: usize, message: &str) -> FormatError {
        let end = at.saturating_add(len).min(self.pending.len());
        FormatError::new(TITLE, Position::Byte(self.base + at as u64), message, &self.pending[at.min(end)..end])
    }

    /// The header did not end: says where, what it was waiting for and why it stopped.
    fn header_error(&self, why: &str) -> FormatError {
        let waiting = self.waiting_for.as_ref().map(|w| format!(": {w}")).unwrap_or_default();
        let message = format!("the header ends before its event types do{waiting}; {why}");
        self.error(self.at.min(self.pending.len()), 64, &message)
    }

    /// The event cut at the end of the data, if any: its type, offset,
    /// declared payload size and the bytes left for it.
    fn cut_event(&self) -> Option<String> {
        let p = &self.pending[self.at..];
        let ty = be16(p.get(..2)?);
        let size = self.out.log.event_type(ty)?.size;
        let (len, head) = match size {
            Some(n) => (usize::from(n), 10),
            None => (usize::from(be16(p.get(10..12)?)), 12),
        };
        Some(format!(
            "an event of type {ty} at byte {} that declares {len} bytes of payload, with {} left",
            self.base + self.at as u64,
            p.len().saturating_sub(head)
        ))
    }

    /// Parses header parts from `self.at`; Ok(true) when the data section starts.
    fn header(&mut self) -> Result<Result<bool, More>, FormatError> {
        let p = &self.pending;
        // Sizes come from the input: never add them unchecked.
        let need = |n: usize, at: usize| if p.len().saturating_sub(at) < n { Err(More) } else { Ok(()) };
        loop {
            let at = self.at;
            if at == 0 {
                if let Err(m) = need(8, 0) {
                    return Ok(Err(m));
                }
                if &p[..8] != b"hdrbhetb" {
                    return Err(self.error(0, 8, "expected the header's \"hdrb\" \"hetb\""));
                }
                self.at = 8;
                continue;
            }
            if let Err(m) = need(4, at) {
                return Ok(Err(m));
            }
            match &p[at..at + 4] {
                b"etb\0" => {
                    if let Err(m) = need(4 + 2 + 2 + 4, at) {
                        return Ok(Err(m));
                    }
                    let id = be16(&p[at + 4..]);
                    let size = be16(&p[at + 6..]);
                    let desc_len = be32(&p[at + 8..]) as usize;
                    if let Err(m) = need(desc_len.saturating_add(12 + 4), at) {
                        self.waiting_for = Some(format!(
                            "event type {id} at byte {} declares a description of {desc_len} bytes",
                            self.base + at as u64
                        ));
                        return Ok(Err(m));
                    }
                    let extra_len = be32(&p[at + 12 + desc_len..]) as usize;
                    let end = (at + 12 + desc_len + 4).saturating_add(extra_len);
                    if let Err(m) = need(4, end) {
                        self.waiting_for = Some(format!(
                            "event type {id} at byte {} runs to byte {} (a {desc_len}-byte description, {extra_len} bytes of extra information, its end marker)",
                            self.base + at as u64,
                            (self.base + end as u64).saturating_add(4)
                        ));
                        return Ok(Err(m));
                    }
                    if &p[end..end + 4] != b"ete\0" {
                        return Err(self.error(end, 4, "expected \"ete\\0\" after an event type"));
                    }
                    let description = String::from_utf8_lossy(&p[at + 12..at + 12 + desc_len]).into_owned();
                    let extra = p[at + 16 + desc_len..end].to_vec();
                    self.out.log.index(EventType { id, size: (size != 0xFFFF).then_some(size), description, extra });
                    self.at = end + 4;
                }
                b"hete" => {
                    if let Err(m) = need(12, at) {
                        return Ok(Err(m));
                    }
                    if &p[at + 4..at + 12] != b"hdredatb" {
                        return Err(self.error(at + 4, 8, "expected \"hdre\" \"datb\" after the event types"));
                    }
                    self.at = at + 12;
                    return Ok(Ok(true));
                }
                _ => {
                    return Err(self.error(
                        at,
                        4,
                        "expected an event type (\"etb\\0\") or the end of the types (\"hete\")",
                    ))
                }
            }
        }
    }

    /// Reads complete events from `pending[at..]` and drops what was read.
    fn data_in_pending(&mut self, diags: &mut Diagnostics) {
        let (used, over) =
            read_events(&mut self.out, &mut self.block, &self.pending[self.at..], self.base + self.at as u64, diags);
        self.at += used;
        if over {
            self.stage = Stage::Tail;
        }
        self.pending.drain(..self.at);
        self.base += self.at as u64;
        self.at = 0;
    }

    /// Reads the events of a chunk in place: first completes the event the
    /// last chunk cut (kept in `pending`), then reads the rest where it lies;
    /// only an event cut again at the end is copied.
    fn data(&mut self, mut chunk: &[u8], diags: &mut Diagnostics) {
        if !self.pending.is_empty() {
            let take = chunk.len().min(MAX_EVENT);
            self.pending.extend_from_slice(&chunk[..take]);
            self.data_in_pending(diags);
            // What is still pending came from the chunk's first `take` bytes, or before.
            let left = self.pending.len();
            if self.stage != Stage::Data || left > take || take == chunk.len() {
                self.pending.extend_from_slice(&chunk[take..]);
                return;
            }
            chunk = &chunk[take - left..];
            self.pending.clear();
        }
        let (used, over) = read_events(&mut self.out, &mut self.block, chunk, self.base, diags);
        self.base += used as u64;
        self.pending.extend_from_slice(&chunk[used..]);
        if over {
            self.stage = Stage::Tail;
        }
    }
}

/// The largest event: a variable-size header and 65,535 bytes of payload.
const MAX_EVENT: usize = 12 + u16::MAX as usize;

/// Reads the complete events at the start of `buf`, whose first byte is at
/// file offset `base`; gives the bytes read and whether the data section is
/// over (its end marker, or a type whose size cannot be known).
fn read_events(
    out: &mut Events,
    block: &mut Option<(Option<u16>, u64)>,
    buf: &[u8],
    base: u64,
    diags: &mut Diagnostics,
) -> (usize, bool) {
    let mut at = 0;
    loop {
        let p = &buf[at..];
        let Some(head) = p.get(..2) else { return (at, false) };
        let ty = be16(head);
        let offset = base + at as u64;
        if ty == END {
            out.log.ended = true;
            return (at + 2, true);
        }
        let Some(t) = out.log.event_type(ty) else {
            diags.report(
                Severity::Error,
                "ghc-eventlog.undeclared-type",
                Position::Byte(offset),
                format!("event type {ty} is not declared in the header, so its size is unknown: the rest of the data cannot be read (it is kept as is)"),
            );
            return (at, true);
        };
        let (len, head_len) = match t.size {
            Some(n) => (usize::from(n), 10),
            None => match p.get(10..12) {
                Some(l) => (usize::from(be16(l)), 12),
                None => return (at, false),
            },
        };
        let Some(payload) = p.get(head_len..head_len + len) else { return (at, false) };
        let time = be64(&p[2..10]);
        let marker = ty == BLOCK_MARKER && payload.len() >= 14;
        if marker {
            let size = u64::from(be32(payload));
            let c = be16(&payload[12..]);
            *block = Some(((c != 0xFFFF).then_some(c), offset + size));
        }
        let cap = match *block {
            Some((cap, end)) if offset < end => cap,
            _ => None,
        };
        out.timeline.event(&out.log, Framed { ty, time, cap, offset }, payload, diags);
        out.count += 1;
        if out.keep {
            let log = &mut out.log;
            if marker {
                log.last_marker = Some(log.events.len());
            }
            let start = log.arena.len() as u32;
            log.arena.extend_from_slice(payload);
            log.events.push(EventRecord { ty, time, cap, offset, start, len: len as u32 });
        }
        at += head_len + len;
    }
}

impl FormatReader for Reader {
    fn feed(&mut self, chunk: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError> {
        match self.stage {
            Stage::Header => {
                self.waiting_for = None;
                self.pending.extend_from_slice(chunk);
                if let Ok(true) = self.header()? {
                    self.out.log.header = self.pending[..self.at].to_vec();
                    self.stage = Stage::Data;
                    self.data_in_pending(diags);
                } else if self.pending.len() > MAX_HEADER {
                    return Err(self.header_error(&format!(
                        "the header goes on past {MAX_HEADER} bytes without its end (GHC writes about 10 KB)"
                    )));
                }
            }
            Stage::Data => self.data(chunk, diags),
            // What follows the data is kept for writing back only: reading
            // to analyse, it would hold the rest of the file for nothing
            // (its first bytes are held, to be shown).
            Stage::Tail if self.out.keep => self.pending.extend_from_slice(chunk),
            Stage::Tail => {
                let held = self.pending.len() - self.at;
                let take = chunk.len().min(TAIL_SHOWN.saturating_sub(held));
                self.pending.extend_from_slice(&chunk[..take]);
                self.tail_dropped += (chunk.len() - take) as u64;
            }
        }
        Ok(())
    }

    fn finish(self: Box<Self>, diags: &mut Diagnostics) -> Result<Parsed, FormatError> {
        if self.stage == Stage::Header {
            return Err(
                self.header_error(&format!("the file ends after {} bytes", self.base + self.pending.len() as u64))
            );
        }
        if self.stage == Stage::Data {
            let cut = match self.cut_event() {
                Some(event) => format!("inside {event}: the file was cut, or that size is wrong"),
                None => "the file was cut".to_string(),
            };
            diags.report(
                Severity::Warning,
                "ghc-eventlog.truncated",
                Position::Byte(self.base + self.at as u64),
                format!(
                    "the eventlog stops without its end marker, {cut}; the {} events before it were read",
                    self.out.count
                ),
            );
        }
        let Events { mut log, timeline, keep, .. } = self.out;
        log.tail = self.pending[self.at..].to_vec();
        let after_end = log.tail.len() as u64 + self.tail_dropped;
        if log.ended && after_end > 0 {
            let shown = &log.tail[..log.tail.len().min(TAIL_SHOWN)];
            diags.report(
                Severity::Info,
                "ghc-eventlog.after-end",
                Position::Byte(self.base + self.at as u64),
                format!(
                    "{after_end} bytes follow the end marker (starting {}): not events, so not read; rewriting the file keeps them",
                    crate::error::quote_bytes(shown)
                ),
            );
        }
        let (model, run) = timeline.finish(&log, diags);
        Ok(Parsed::run(ReadEventlog { model, run, source: keep.then_some(log) }))
    }

    fn counts(&self) -> ReadCounts {
        ReadCounts { lines: 0, events: self.out.count }
    }
}

/// Building an eventlog in memory: [`write`](fn@write) then gives the bytes an RTS
/// would have written, and reading them back gives the same log.
impl Eventlog {
    /// An eventlog with no events that declares `types`, its header laid
    /// out as an RTS writes it. (A size of `Some(0xFFFF)` reads back as variable.)
    pub fn new(types: Vec<EventType>) -> Eventlog {
        let mut log = Eventlog { ended: true, ..Eventlog::default() };
        for t in types {
            log.index(t);
        }
        log.header = header_bytes(&log.types);
        log
    }

    /// Declares one more event type (or redeclares an id), rewriting the
    /// header; the events already there move along with it.
    pub fn declare(&mut self, t: EventType) {
        self.index(t);
        let header = header_bytes(&self.types);
        let (old, new) = (self.header.len() as u64, header.len() as u64);
        for e in &mut self.events {
            e.offset = e.offset - old + new;
        }
        self.header = header;
    }

    /// Appends an event of type `ty` at `time`. An undeclared type is first
    /// declared as variable-size (described "event type N"). A fixed-size
    /// payload is cut or zero-padded to its declared size, a variable one cut
    /// to 65535 bytes. A block marker (type 18, 14 bytes or more) opens a block
    /// of its capability: the events pushed after it belong to it, and its
    /// block size and end time grow to cover them.
    pub fn push(&mut self, ty: u16, time: u64, payload: &[u8]) {
        if self.event_type(ty).is_none() {
            self.declare(EventType { id: ty, size: None, description: format!("event type {ty}"), extra: Vec::new() });
        }
        let fixed = self.event_type(ty).and_then(|t| t.size);
        let mut payload = payload.to_vec();
        match fixed {
            Some(n) => payload.resize(usize::from(n), 0),
            None => payload.truncate(usize::from(u16::MAX)),
        }
        let offset = self.data_end();
        let head_len: u32 = if fixed.is_some() { 10 } else { 12 };
        let size = head_len + payload.len() as u32;
        let cap = if ty == BLOCK_MARKER && payload.len() >= 14 {
            payload[..4].copy_from_slice(&size.to_be_bytes());
            let c = be16(&payload[12..]);
            (c != 0xFFFF).then_some(c)
        } else {
            self.grow_block(offset, time, size)
        };
        if ty == BLOCK_MARKER && payload.len() >= 14 {
            self.last_marker = Some(self.events.len());
        }
        let start = self.arena.len() as u32;
        self.arena.extend_from_slice(&payload);
        self.events.push(EventRecord { ty, time, cap, offset, start, len: payload.len() as u32 });
    }

    /// Opens a block of `cap` (`None`: global events) at `time`, declaring
    /// the block marker type if needed; see [`Eventlog::push`].
    pub fn push_block(&mut self, time: u64, cap: Option<u16>) {
        if self.event_type(BLOCK_MARKER).is_none() {
            let description = "Block marker".to_owned();
            self.declare(EventType { id: BLOCK_MARKER, size: Some(14), description, extra: Vec::new() });
        }
        let mut payload = [0; 14];
        payload[4..12].copy_from_slice(&time.to_be_bytes());
        payload[12..].copy_from_slice(&cap.unwrap_or(0xFFFF).to_be_bytes());
        self.push(BLOCK_MARKER, time, &payload);
    }

    /// Records `t` in the types and the index.
    fn index(&mut self, t: EventType) {
        if self.type_index.is_empty() {
            self.type_index = vec![u32::MAX; 1 << 16];
        }
        self.type_index[usize::from(t.id)] = self.types.len() as u32;
        self.types.push(t);
    }

    /// The file offset where the next event goes.
    fn data_end(&self) -> u64 {
        match self.events.last() {
            Some(e) => {
                let head = if self.event_type(e.ty).is_some_and(|t| t.size.is_none()) { 12 } else { 10 };
                e.offset + head + u64::from(e.len)
            }
            None => self.header.len() as u64,
        }
    }

    /// Extends the block that ends where an event of `size` bytes at `offset`
    /// starts, if any, to cover it; gives the block's capability.
    fn grow_block(&mut self, offset: u64, time: u64, size: u32) -> Option<u16> {
        self.event_type(BLOCK_MARKER)?;
        let marker = *self.events.get(self.last_marker?)?;
        let at = marker.start as usize;
        let fields = &mut self.arena[at..at + 14];
        let block_size = be32(fields);
        if marker.offset + u64::from(block_size) != offset {
            return None;
        }
        fields[..4].copy_from_slice(&block_size.wrapping_add(size).to_be_bytes());
        let end_time = be64(&fields[4..]).max(time);
        fields[4..12].copy_from_slice(&end_time.to_be_bytes());
        marker.cap
    }
}

/// A header declaring `types`, the data section's start marker included.
fn header_bytes(types: &[EventType]) -> Vec<u8> {
    let mut h = b"hdrbhetb".to_vec();
    for t in types {
        h.extend_from_slice(b"etb\0");
        h.extend_from_slice(&t.id.to_be_bytes());
        h.extend_from_slice(&t.size.unwrap_or(0xFFFF).to_be_bytes());
        h.extend_from_slice(&(t.description.len() as u32).to_be_bytes());
        h.extend_from_slice(t.description.as_bytes());
        h.extend_from_slice(&(t.extra.len() as u32).to_be_bytes());
        h.extend_from_slice(&t.extra);
        h.extend_from_slice(b"ete\0");
    }
    h.extend_from_slice(b"hetehdredatb");
    h
}
