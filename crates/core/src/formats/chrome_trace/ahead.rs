//! Events read ahead of the builder: a chunk's complete event objects found
//! and parsed by the fast path ([`super::fast`]) on any thread, their names
//! hashed and a slice's `args` written as kept, then built in order
//! ([`super::event::Builder::event_read`]). Finding an event needs
//! no state but being between the elements of an event array, which the
//! reader checks before it uses what was read ahead; parsing one needs
//! nothing of the events before it. An event read alone goes through the
//! same fast path, so both ways give the same trace.

use super::event::{write_kept_args, Known};
use super::raw::{Args, IdText, Num, RawEvent};
use crate::formats::ReadAhead;
use crate::hash::hash_bytes;
use crate::json_split::container_end;
use std::borrow::Cow;
use std::ops::Range;

/// A string of an event, as its byte range in the event's text.
type Span = Range<u32>;

/// What the fast path read of an event, its strings as spans of its text.
#[derive(Debug, Default)]
struct SpanEvent {
    ph: Option<Span>,
    name: Option<Span>,
    cat: Option<Span>,
    ts: Option<Num>,
    dur: Option<Num>,
    tdur: Option<Num>,
    pid: Option<Span>,
    tid: Option<Span>,
    args: Option<Span>,
    id: Option<Span>,
    scope: Option<Span>,
    bp: Option<Span>,
    s: Option<Span>,
    bind_id: Option<Span>,
    flow_in: Option<bool>,
    flow_out: Option<bool>,
}

/// The span of `part` in `text`, if it lies there.
fn span_of(text: &str, part: &str) -> Option<Span> {
    let start = (part.as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
    let end = start.checked_add(part.len()).filter(|&e| e <= text.len())?;
    Some(u32::try_from(start).ok()?..u32::try_from(end).ok()?)
}

/// `Some(span)` of an optional borrowed string; `None` (do not use) when
/// it does not lie in `text`.
fn opt_span(text: &str, s: Option<&str>) -> Option<Option<Span>> {
    match s {
        None => Some(None),
        Some(s) => span_of(text, s).map(Some),
    }
}

fn cow<'s>(s: &'s Option<Cow<'_, str>>) -> Option<&'s str> {
    s.as_deref()
}

fn id<'s>(s: &'s Option<IdText<'_>>) -> Option<&'s str> {
    s.as_ref().map(IdText::as_str)
}

impl SpanEvent {
    /// `e`, read from `text`, as spans; `None` when one of its strings is
    /// not in `text` (a `true` or `false` id), or it has an `id2`.
    fn of(text: &str, e: &RawEvent<'_>) -> Option<SpanEvent> {
        if e.id2.is_some() {
            return None;
        }
        Some(SpanEvent {
            ph: opt_span(text, cow(&e.ph))?,
            name: opt_span(text, cow(&e.name))?,
            cat: opt_span(text, cow(&e.cat))?,
            ts: e.ts,
            dur: e.dur,
            tdur: e.tdur,
            pid: opt_span(text, id(&e.pid))?,
            tid: opt_span(text, id(&e.tid))?,
            args: opt_span(text, e.args.map(|a| a.0))?,
            id: opt_span(text, id(&e.id))?,
            scope: opt_span(text, cow(&e.scope))?,
            bp: opt_span(text, cow(&e.bp))?,
            s: opt_span(text, cow(&e.s))?,
            bind_id: opt_span(text, id(&e.bind_id))?,
            flow_in: e.flow_in,
            flow_out: e.flow_out,
        })
    }

    /// The event again, its strings borrowed from `text`; `None` if `text`
    /// is not the text it was read from.
    fn event<'a>(&self, text: &'a str) -> Option<RawEvent<'a>> {
        let get = |s: &Option<Span>| -> Option<Option<&'a str>> {
            match s {
                None => Some(None),
                Some(r) => text.get(r.start as usize..r.end as usize).map(Some),
            }
        };
        let cow = |s: &Option<Span>| get(s).map(|s| s.map(Cow::Borrowed));
        let id = |s: &Option<Span>| get(s).map(|s| s.map(|s| IdText(Cow::Borrowed(s))));
        Some(RawEvent {
            ph: cow(&self.ph)?,
            name: cow(&self.name)?,
            cat: cow(&self.cat)?,
            ts: self.ts,
            dur: self.dur,
            tdur: self.tdur,
            pid: id(&self.pid)?,
            tid: id(&self.tid)?,
            args: get(&self.args)?.map(Args),
            id: id(&self.id)?,
            id2: None,
            scope: cow(&self.scope)?,
            bp: cow(&self.bp)?,
            s: cow(&self.s)?,
            bind_id: id(&self.bind_id)?,
            flow_in: self.flow_in,
            flow_out: self.flow_out,
        })
    }
}

/// One event object of a chunk, read ahead.
#[derive(Debug)]
struct Ahead {
    /// Its bytes in the chunk.
    at: Range<usize>,
    /// Newlines in the chunk before it.
    lines: u64,
    /// What the fast path read, when it could.
    read: Option<SpanEvent>,
    /// The hashes of its name and category.
    hashes: (Option<u64>, Option<u64>),
    /// A slice's `args` as kept: where in [`EventsAhead::kept_args`], and
    /// their hash (`Some(None)`: not kept; `None`: not worked out).
    args: Option<Option<(Range<usize>, u64)>>,
}

impl Ahead {
    /// Hashes what `e` (read from `text`) names, and writes a slice's
    /// `args` as kept to the end of `kept_args`.
    fn work_out(&mut self, text: &str, e: &SpanEvent, kept_args: &mut String) {
        let get = |s: &Option<Span>| s.as_ref().and_then(|r| text.get(r.start as usize..r.end as usize));
        self.hashes = (get(&e.name).map(|n| hash_bytes(n.as_bytes())), get(&e.cat).map(|c| hash_bytes(c.as_bytes())));
        if matches!(get(&e.ph), Some("B" | "E" | "X")) {
            self.args = get(&e.args).map(|raw| {
                let from = kept_args.len();
                write_kept_args(raw, kept_args)
                    .then(|| (from..kept_args.len(), hash_bytes(&kept_args.as_bytes()[from..])))
            });
        }
    }
}

/// The event objects a chunk starts with, read ahead
/// ([`ReadAhead::prepare`]).
#[derive(Debug, Default)]
pub struct EventsAhead {
    /// The length of the chunk read.
    chunk_len: usize,
    /// The chunk's bytes up to the end of its last event read.
    end: usize,
    /// Newlines in those bytes.
    lines: u64,
    events: Vec<Ahead>,
    /// The slices' `args` as kept, one after another.
    kept_args: String,
}

impl ReadAhead for EventsAhead {
    /// Reads ahead the event objects `chunk` starts with, taking it to
    /// start between two elements of an event array: whitespace, commas and
    /// objects that end in it, up to anything else. In place of what was
    /// held (its memory is used again); pure, for any thread.
    fn prepare(&mut self, chunk: &[u8]) {
        self.events.clear();
        self.kept_args.clear();
        self.chunk_len = chunk.len();
        let (mut at, mut lines) = (0, 0u64);
        let (mut end, mut end_lines) = (0, 0);
        while let Some(&b) = chunk.get(at) {
            match b {
                b' ' | b'\t' | b'\r' | b',' => at += 1,
                b'\n' => {
                    at += 1;
                    lines += 1;
                }
                b'{' => {
                    let Some((len, inside)) = container_end(&chunk[at..]) else { break };
                    let bytes = &chunk[at..at + len];
                    let text = std::str::from_utf8(bytes).ok();
                    let read = text.and_then(|text| super::fast::event(bytes).and_then(|e| SpanEvent::of(text, &e)));
                    let mut ahead = Ahead { at: at..at + len, lines, read: None, hashes: (None, None), args: None };
                    if let (Some(text), Some(read)) = (text, &read) {
                        ahead.work_out(text, read, &mut self.kept_args);
                    }
                    ahead.read = read;
                    self.events.push(ahead);
                    at += len;
                    lines += inside;
                    (end, end_lines) = (at, lines);
                }
                _ => break,
            }
        }
        self.end = end;
        self.lines = end_lines;
    }
}

impl EventsAhead {
    /// Whether these are the events of `chunk` (of its length).
    pub(super) fn fit(&self, chunk: &[u8]) -> bool {
        chunk.len() == self.chunk_len
    }

    /// The length of the part of the chunk read ahead, and its newlines.
    pub(super) fn read_part(&self) -> (usize, u64) {
        (self.end, self.lines)
    }

    /// The events of `chunk` (which they [`EventsAhead::fit`]), in order:
    /// each one's bytes, what the fast path read of it (`None`: left to
    /// serde, which names its error), what is known of it, and the
    /// newlines before it in the chunk.
    pub(super) fn events<'a>(
        &'a self,
        chunk: &'a [u8],
    ) -> impl Iterator<Item = (&'a [u8], Option<RawEvent<'a>>, Known<'a>, u64)> + 'a {
        self.events.iter().map(move |a| {
            let bytes = chunk.get(a.at.clone()).unwrap_or_default();
            let read = a.read.as_ref().and_then(|r| r.event(std::str::from_utf8(bytes).ok()?));
            let args = a
                .args
                .as_ref()
                .map(|kept| kept.as_ref().and_then(|(at, hash)| Some((self.kept_args.get(at.clone())?, *hash))));
            (bytes, read, Known { name: a.hashes.0, cat: a.hashes.1, args }, a.lines)
        })
    }
}
