//! The fast path of the reader's `parse`: a timing record as the probes
//! library writes it, read without serde.
//!
//! It takes only the plain form: `{"<Kind>":{"key":value,…}}` with no
//! whitespace, every key one of the timing fields and at most once, `pn` a
//! string without escapes, numbers unsigned integers of at most 19 digits
//! without leading zeros that fit their fields, and each time object exactly `{"sec":…,"nsec":…}`
//! (`"usec"` for `u` and `s`). Anything else, well-formed or not, gives
//! `None`, and the caller parses the line with serde_json, so the result,
//! errors included, is serde_json's in every case. Total: it never indexes
//! out of bounds and never panics.

use super::record::{MicroTime, NanoTime, Record, Timing};
use std::borrow::Cow;

/// A position in a line.
struct Cursor<'a> {
    line: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    /// The bytes not yet read.
    fn rest(&self) -> &'a [u8] {
        self.line.get(self.at..).unwrap_or_default()
    }

    /// The next 16 bytes (zeros past the end) as a little-endian number.
    fn window(&self) -> u128 {
        let rest = self.rest();
        if let Some(bytes) = rest.first_chunk::<16>() {
            return u128::from_le_bytes(*bytes);
        }
        let mut bytes = [0u8; 16];
        for (b, r) in bytes.iter_mut().zip(rest) {
            *b = *r;
        }
        u128::from_le_bytes(bytes)
    }

    /// Skips `lit`, which must come next.
    fn eat(&mut self, lit: &[u8]) -> Option<()> {
        self.rest().starts_with(lit).then(|| self.at += lit.len())
    }

    /// Takes the next byte.
    fn next(&mut self) -> Option<u8> {
        let b = *self.rest().first()?;
        self.at += 1;
        Some(b)
    }

    /// A string's bytes, if it has no escapes or control characters.
    fn raw_string(&mut self) -> Option<&'a [u8]> {
        self.eat(b"\"")?;
        let rest = self.rest();
        let len = rest.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        if rest.get(len) != Some(&b'"') {
            return None;
        }
        self.at += len + 1;
        rest.get(..len)
    }

    /// A string without escapes or control characters, borrowed.
    fn string(&mut self) -> Option<&'a str> {
        std::str::from_utf8(self.raw_string()?).ok()
    }

    /// An unsigned integer as JSON writes it (no leading zeros) of at most
    /// 19 digits, which always fits in `u64`.
    fn unsigned(&mut self) -> Option<u64> {
        let rest = self.rest();
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 || digits > 19 || (digits > 1 && rest.first() == Some(&b'0')) {
            return None;
        }
        let value = rest.get(..digits)?.iter().fold(0u64, |v, &d| v * 10 + u64::from(d - b'0'));
        self.at += digits;
        Some(value)
    }

    /// `{"sec":…,"<fraction>":…}`: the two numbers; `fraction` is the
    /// second key as written, `,"nsec":` or `,"usec":`.
    fn time(&mut self, fraction: &[u8]) -> Option<(u64, u64)> {
        self.eat(b"{\"sec\":")?;
        let sec = self.unsigned()?;
        self.eat(fraction)?;
        let frac = self.unsigned()?;
        self.eat(b"}")?;
        Some((sec, frac))
    }

    fn nano_time(&mut self) -> Option<NanoTime> {
        self.time(b",\"nsec\":").map(|(sec, nsec)| NanoTime { sec, nsec })
    }

    fn micro_time(&mut self) -> Option<MicroTime> {
        self.time(b",\"usec\":").map(|(sec, usec)| MicroTime { sec, usec })
    }
}

/// The timing record's variant for its tag.
fn variant<'a>(tag: &[u8]) -> Option<fn(Timing<'a>) -> Record<'a>> {
    Some(match tag {
        b"TStart" => Record::TStart,
        b"T" => Record::T,
        b"TS" => Record::TS,
        b"TE" => Record::TE,
        b"TThreadStart" => Record::TThreadStart,
        b"TThreadEnd" => Record::TThreadEnd,
        b"TEnd" => Record::TEnd,
        b"TIO" => Record::Tio,
        _ => return None,
    })
}

/// A timing field. Declared in the writer's order; the discriminant is
/// its index in [`Field::ALL`] and its bit in [`timing`]'s mask of fields seen.
#[derive(Clone, Copy)]
enum Field {
    Pn,
    Pid,
    Tid,
    N,
    R,
    T,
    U,
    S,
    Maxrss,
    Minflt,
    Majflt,
    Inblock,
    Oublock,
    Nvcsw,
    Nivcsw,
}

impl Field {
    const ALL: [Field; 15] = [
        Field::Pn,
        Field::Pid,
        Field::Tid,
        Field::N,
        Field::R,
        Field::T,
        Field::U,
        Field::S,
        Field::Maxrss,
        Field::Minflt,
        Field::Majflt,
        Field::Inblock,
        Field::Oublock,
        Field::Nvcsw,
        Field::Nivcsw,
    ];

    fn bit(self) -> u16 {
        1 << self as u16
    }

    /// The next key, through its colon, tried first as the field after
    /// `previous` in the writer's order (no key is a prefix of another).
    fn read(c: &mut Cursor<'_>, previous: Option<Field>) -> Option<Field> {
        let first = previous.map_or(0, |f| f as usize + 1);
        let window = c.window();
        let field = (0..Field::ALL.len())
            .map(|i| Field::ALL[(first + i) % Field::ALL.len()])
            .find(|&f| KEYS[f as usize].starts(window))?;
        c.at += KEYS[field as usize].len;
        Some(field)
    }
}

/// A key as written, with its quotes and colon, as a number of its bytes
/// (little-endian, as [`Cursor::window`]), to be compared in one go.
struct Key {
    bytes: u128,
    /// Ones over its bytes.
    mask: u128,
    len: usize,
}

impl Key {
    /// `key` (at most 15 bytes).
    const fn new(key: &[u8]) -> Key {
        let mut bytes = [0u8; 16];
        let mut i = 0;
        while i < key.len() {
            bytes[i] = key[i];
            i += 1;
        }
        Key { bytes: u128::from_le_bytes(bytes), mask: (1u128 << (8 * key.len())) - 1, len: key.len() }
    }

    /// The window starts with this key.
    fn starts(&self, window: u128) -> bool {
        window & self.mask == self.bytes
    }
}

/// The keys of [`Field::ALL`].
const KEYS: [Key; 15] = [
    Key::new(b"\"pn\":"),
    Key::new(b"\"pid\":"),
    Key::new(b"\"tid\":"),
    Key::new(b"\"n\":"),
    Key::new(b"\"r\":"),
    Key::new(b"\"t\":"),
    Key::new(b"\"u\":"),
    Key::new(b"\"s\":"),
    Key::new(b"\"maxrss\":"),
    Key::new(b"\"minflt\":"),
    Key::new(b"\"majflt\":"),
    Key::new(b"\"inblock\":"),
    Key::new(b"\"oublock\":"),
    Key::new(b"\"nvcsw\":"),
    Key::new(b"\"nivcsw\":"),
];

/// Reads the fields of a timing object after its `{`, through its `}`.
fn timing<'a>(c: &mut Cursor<'a>) -> Option<Timing<'a>> {
    let mut t = Timing {
        pn: Cow::Borrowed(""),
        tid: 0,
        n: None,
        r: None,
        t: None,
        u: None,
        s: None,
        nvcsw: None,
        nivcsw: None,
    };
    let mut seen: u16 = 0;
    let mut previous = None;
    loop {
        let field = Field::read(c, previous)?;
        previous = Some(field);
        if seen & field.bit() != 0 {
            return None;
        }
        seen |= field.bit();
        match field {
            Field::Pn => t.pn = Cow::Borrowed(c.string()?),
            Field::Tid => t.tid = c.unsigned()?,
            Field::N => t.n = Some(u32::try_from(c.unsigned()?).ok()?),
            Field::R => t.r = Some(c.nano_time()?),
            Field::T => t.t = Some(c.nano_time()?),
            Field::U => t.u = Some(c.micro_time()?),
            Field::S => t.s = Some(c.micro_time()?),
            Field::Nvcsw => t.nvcsw = Some(i64::try_from(c.unsigned()?).ok()?),
            Field::Nivcsw => t.nivcsw = Some(i64::try_from(c.unsigned()?).ok()?),
            Field::Pid | Field::Maxrss | Field::Minflt | Field::Majflt | Field::Inblock | Field::Oublock => {
                c.unsigned()?;
            }
        }
        match c.next()? {
            b',' => {}
            b'}' => break,
            _ => return None,
        }
    }
    // pn and tid are required.
    let required = Field::Pn.bit() | Field::Tid.bit();
    (seen & required == required).then_some(t)
}

/// A plain timing record, or `None` for serde_json to parse.
pub(super) fn timing_record(line: &[u8]) -> Option<Record<'_>> {
    let mut c = Cursor { line, at: 0 };
    c.eat(b"{")?;
    let make = variant(c.raw_string()?)?;
    c.eat(b":{")?;
    let t = timing(&mut c)?;
    c.eat(b"}")?;
    (c.at == line.len()).then(|| make(t))
}
