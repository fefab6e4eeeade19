//! Lines read ahead of the reconciler: split into fields, the time and the
//! event type read, the names hashed. None of it depends on earlier lines,
//! so a chunk's whole lines can be read ahead on another thread
//! ([`LinesAhead`]) and reconciled in order afterwards; a line read on its own
//! goes through the same [`Line::read`], so both ways give the same result.

use super::line::{parse_int, Fields};
use crate::formats::ReadAhead;
use crate::hash::hash_bytes;

/// An event type, as the reconciler tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Event {
    Started,
    Deployed,
    Finished,
    FinishedFromCache,
    Deploy,
    PrepareStart,
    RepositoryPrepared,
    ResourcesPrepared,
    DepStart,
    DepWait,
    DepFinished,
    /// `dep_extract_queue`, `dep_extract_start`, `dep_extract_finish`.
    DepExtract,
    /// Any other (retired or unknown) type.
    Other,
}

impl Event {
    fn of(name: &[u8]) -> Event {
        match name {
            b"started" => Event::Started,
            b"deployed" => Event::Deployed,
            b"finished" => Event::Finished,
            b"finished_from_cache" => Event::FinishedFromCache,
            b"deploy" => Event::Deploy,
            b"prepare_start" => Event::PrepareStart,
            b"repository_prepared" => Event::RepositoryPrepared,
            b"resources_prepared" => Event::ResourcesPrepared,
            b"dep_start" => Event::DepStart,
            b"dep_wait" => Event::DepWait,
            b"dep_finished" => Event::DepFinished,
            b"dep_extract_queue" | b"dep_extract_start" | b"dep_extract_finish" => Event::DepExtract,
            _ => Event::Other,
        }
    }

    /// Fields a line of this type needs.
    pub(super) fn needs(self) -> usize {
        match self {
            Event::Started
            | Event::Finished
            | Event::FinishedFromCache
            | Event::Deployed
            | Event::Deploy
            | Event::PrepareStart
            | Event::RepositoryPrepared
            | Event::ResourcesPrepared => 4,
            Event::DepStart | Event::DepWait => 5,
            Event::DepFinished => 7,
            Event::DepExtract | Event::Other => 3,
        }
    }

    /// How many fields from the third name a uid or a host.
    fn names(self) -> usize {
        match self {
            Event::Started | Event::Deployed | Event::Finished | Event::FinishedFromCache => 2,
            Event::Deploy => 1,
            Event::DepStart | Event::DepWait => 3,
            Event::DepFinished => 4,
            _ => 0,
        }
    }
}

/// The first field that names a uid or a host.
const FIRST_NAME: usize = 2;

/// One line, read ahead.
#[derive(Clone, Copy, Debug)]
pub(super) struct Line {
    /// Its fields, as ya splits them.
    pub(super) fields: Fields,
    /// The first field as an integer, if it is one.
    pub(super) time: Option<i64>,
    /// The second field's event type (`Other` when there is none).
    pub(super) event: Event,
    /// [`hash_bytes`] of the fields from the third that name a uid or a
    /// host ([`Event::names`] of them; 0 for the others).
    hashes: [u64; 4],
}

impl Line {
    /// Reads `line` (without its `\n`).
    pub(super) fn read(line: &[u8]) -> Line {
        let fields = Fields::split(line);
        let event = fields.get(line, 1).map_or(Event::Other, Event::of);
        let mut hashes = [0; 4];
        for (i, h) in hashes.iter_mut().enumerate().take(event.names()) {
            *h = hash_bytes(fields.get(line, FIRST_NAME + i).unwrap_or_default());
        }
        Line { fields, time: fields.get(line, 0).and_then(parse_int), event, hashes }
    }

    /// Field `i` of `line` (the line read), empty when it has none.
    pub(super) fn field<'a>(&self, line: &'a [u8], i: usize) -> &'a [u8] {
        self.fields.get(line, i).unwrap_or_default()
    }

    /// Field `i` of `line` with its [`hash_bytes`] (for a field that names
    /// a uid or a host; others are hashed here).
    pub(super) fn name<'a>(&self, line: &'a [u8], i: usize) -> (&'a [u8], u64) {
        let field = self.field(line, i);
        let ahead = i.checked_sub(FIRST_NAME).filter(|&k| k < self.event.names()).and_then(|k| self.hashes.get(k));
        (field, ahead.copied().unwrap_or_else(|| hash_bytes(field)))
    }
}

/// A chunk's whole lines, read ahead ([`ReadAhead::prepare`]).
#[derive(Debug, Default)]
pub struct LinesAhead {
    /// The length of the chunk read.
    chunk_len: usize,
    /// Its bytes up to the end of its last whole line.
    whole: usize,
    /// Each whole line's start in the chunk, and what was read of it.
    lines: Vec<(usize, Line)>,
    /// Whether those lines hold a NUL byte.
    nul: bool,
}

impl ReadAhead for LinesAhead {
    /// Reads the whole lines of `chunk` ahead, in place of what was held
    /// (its memory is used again): pure, for any thread.
    fn prepare(&mut self, chunk: &[u8]) {
        self.lines.clear();
        let mut from = 0;
        for nl in memchr::memchr_iter(b'\n', chunk) {
            self.lines.push((from, Line::read(&chunk[from..nl])));
            from = nl + 1;
        }
        self.chunk_len = chunk.len();
        self.whole = from;
        self.nul = memchr::memchr(0, &chunk[..from]).is_some();
    }
}

impl LinesAhead {
    /// Whether these are the lines of `chunk` and can be used: not when
    /// `chunk` is not the chunk read, or its lines hold a NUL byte (it is
    /// then read line by line, where the first such line is the error).
    pub(super) fn fit(&self, chunk: &[u8]) -> bool {
        chunk.len() == self.chunk_len && !self.nul
    }

    /// The whole lines of `chunk` (which they [`LinesAhead::fit`]; their
    /// `\n` left off), in order, with what was read of them.
    pub(super) fn lines<'a>(&'a self, chunk: &'a [u8]) -> impl Iterator<Item = (&'a [u8], &'a Line)> {
        let ends = self.lines.iter().skip(1).map(|(at, _)| at - 1).chain(self.whole.checked_sub(1));
        self.lines.iter().zip(ends).map(move |((at, line), end)| (chunk.get(*at..end).unwrap_or_default(), line))
    }

    /// What follows the whole lines of `chunk`: the start of a line it does not end.
    pub(super) fn rest<'a>(&self, chunk: &'a [u8]) -> &'a [u8] {
        chunk.get(self.whole..).unwrap_or_default()
    }
}
