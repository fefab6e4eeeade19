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
use crate::formats::{Packed, ReadAhead, Unpacking};
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

    /// Its strings, in the order [`SpanEvent::pack`] writes them.
    fn spans(&self) -> [&Option<Span>; 11] {
        [
            &self.ph,
            &self.name,
            &self.cat,
            &self.pid,
            &self.tid,
            &self.args,
            &self.id,
            &self.scope,
            &self.bp,
            &self.s,
            &self.bind_id,
        ]
    }

    /// Its strings, mutable, in the same order as [`SpanEvent::spans`].
    fn spans_mut(&mut self) -> [&mut Option<Span>; 11] {
        [
            &mut self.ph,
            &mut self.name,
            &mut self.cat,
            &mut self.pid,
            &mut self.tid,
            &mut self.args,
            &mut self.id,
            &mut self.scope,
            &mut self.bp,
            &mut self.s,
            &mut self.bind_id,
        ]
    }

    /// Writes the event to `out`: a word whose bits say which fields it
    /// has (and its flow flags), then each string's span and each number.
    fn pack(&self, out: &mut Packed) {
        let spans = self.spans();
        let nums = [self.ts, self.dur, self.tdur];
        let mut mask = 0u64;
        for (bit, present) in spans.iter().map(|s| s.is_some()).chain(nums.iter().map(Option::is_some)).enumerate() {
            mask |= u64::from(present) << bit;
        }
        for (bit, flag) in [(14, self.flow_in), (16, self.flow_out)] {
            if let Some(v) = flag {
                mask |= (1 << bit) | (u64::from(v) << (bit + 1));
            }
        }
        out.push(mask);
        spans.iter().flat_map(|s| s.as_ref()).for_each(|r| out.push(u64::from(r.start) << 32 | u64::from(r.end)));
        nums.iter().flatten().for_each(|n| out.push(n.0.to_bits()));
    }

    /// An event written by [`SpanEvent::pack`]; `None` when it is not one.
    fn unpack(packed: &mut Unpacking<'_>) -> Option<SpanEvent> {
        let mask = packed.word()?;
        if mask >> 18 != 0 {
            return None;
        }
        let mut e = SpanEvent::default();
        for (bit, span) in e.spans_mut().into_iter().enumerate() {
            if mask & (1 << bit) != 0 {
                let w = packed.word()?;
                *span = Some((w >> 32) as u32..w as u32);
            }
        }
        for (bit, num) in [&mut e.ts, &mut e.dur, &mut e.tdur].into_iter().enumerate() {
            if mask & (1 << (11 + bit)) != 0 {
                *num = Some(Num(f64::from_bits(packed.word()?)));
            }
        }
        let flag = |bit: u32| (mask & (1 << bit) != 0).then_some(mask & (1 << (bit + 1)) != 0);
        (e.flow_in, e.flow_out) = (flag(14), flag(16));
        Some(e)
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
    /// Writes what was read of the event to `out`.
    fn pack(&self, out: &mut Packed) {
        out.words.extend([self.at.start as u64, self.at.end as u64, self.lines]);
        out.push_opt(self.hashes.0);
        out.push_opt(self.hashes.1);
        match &self.args {
            None => out.push(0),
            Some(None) => out.push(1),
            Some(Some((at, hash))) => out.words.extend([2, at.start as u64, at.end as u64, *hash]),
        }
        match &self.read {
            None => out.push(0),
            Some(e) => {
                out.push(1);
                e.pack(out);
            }
        }
    }

    /// An event written by [`Ahead::pack`]; `None` when it is not one.
    fn unpack(packed: &mut Unpacking<'_>) -> Option<Ahead> {
        let at = packed.index()?..packed.index()?;
        let lines = packed.word()?;
        let hashes = (packed.opt()?, packed.opt()?);
        let args = match packed.word()? {
            0 => None,
            1 => Some(None),
            2 => Some(Some((packed.index()?..packed.index()?, packed.word()?))),
            _ => return None,
        };
        let read = match packed.word()? {
            0 => None,
            1 => Some(SpanEvent::unpack(packed)?),
            _ => return None,
        };
        Some(Ahead { at, lines, read, hashes, args })
    }

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

    fn pack(&self, out: &mut Packed) {
        out.words.reserve(4 + self.events.len() * 16);
        out.words.extend([self.chunk_len as u64, self.end as u64, self.lines, self.events.len() as u64]);
        self.events.iter().for_each(|e| e.pack(out));
        out.text.clone_from(&self.kept_args);
    }

    fn unpack(packed: &mut Unpacking<'_>) -> Option<Self> {
        let (chunk_len, end, lines, n) = (packed.index()?, packed.index()?, packed.word()?, packed.index()?);
        // Every event takes at least eight words: a count no bigger than
        // the words left is not a hostile allocation.
        let mut events = Vec::with_capacity(n.min(packed.words_left() / 8));
        for _ in 0..n {
            events.push(Ahead::unpack(packed)?);
        }
        Some(EventsAhead { chunk_len, end, lines, events, kept_args: packed.text.to_owned() })
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
