//! The fast path of event parsing: one event object read into a
//! [`RawEvent`] without serde, for the plain form nearly every trace is
//! written in.
//!
//! It takes an object (whitespace allowed between tokens) whose keys have
//! no escapes, each field read at most once; strings without escapes or
//! control characters (borrowed); `null` for any field; integers of at most
//! 18 digits as numbers (other numbers are handed to serde_json alone,
//! which reads them as it would in the object); `args`, `id2` and unknown members'
//! values checked against the JSON grammar as serde_json checks what it
//! skips (`args` kept as written, `id2` then read by serde_json). The bytes
//! must be valid UTF-8 and nest fewer than [`MAX_DEPTH`] levels. Anything
//! else, well-formed or not, gives `None`, and the caller parses the event
//! with serde_json, so the result, errors included, is serde_json's in
//! every case. Total: it never indexes out of bounds and never panics.

use super::raw::{number_text, Args, Id2, IdText, Num, RawEvent};
use std::borrow::Cow;

/// Nesting past which the value is left to serde_json (whose own limit is 128).
const MAX_DEPTH: u32 = 64;

/// A position in an event's text.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.at += 1;
        Some(b)
    }

    fn eat(&mut self, b: u8) -> Option<()> {
        (self.next()? == b).then_some(())
    }

    fn eat_lit(&mut self, lit: &str) -> Option<()> {
        self.text.get(self.at..)?.starts_with(lit).then(|| self.at += lit.len())
    }

    /// Skips JSON whitespace.
    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// A string without escapes or control characters, after its opening
    /// quote is seen (not eaten).
    fn plain_string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.at;
        let bytes = self.text.as_bytes();
        loop {
            match *bytes.get(self.at)? {
                b'"' => break,
                b'\\' => return None,
                b if b < 0x20 => return None,
                _ => self.at += 1,
            }
        }
        let s = self.text.get(start..self.at)?;
        self.at += 1;
        Some(s)
    }

    /// A number by JSON's grammar: its text and whether it is a plain integer.
    fn number(&mut self) -> Option<(&'a str, bool)> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.next()? {
            b'0' => {}
            b'1'..=b'9' => self.digits(),
            _ => return None,
        }
        let mut integer = true;
        if self.peek() == Some(b'.') {
            self.at += 1;
            self.digit()?;
            self.digits();
            integer = false;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            self.digit()?;
            self.digits();
            integer = false;
        }
        Some((self.text.get(start..self.at)?, integer))
    }

    fn digit(&mut self) -> Option<()> {
        self.next()?.is_ascii_digit().then_some(())
    }

    fn digits(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.at += 1;
        }
    }

    /// A string of any content, checked as serde_json checks a string it skips.
    fn skip_string(&mut self) -> Option<()> {
        self.eat(b'"')?;
        loop {
            match self.next()? {
                b'"' => return Some(()),
                b'\\' => match self.next()? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {}
                    b'u' => {
                        for _ in 0..4 {
                            self.next()?.is_ascii_hexdigit().then_some(())?;
                        }
                    }
                    _ => return None,
                },
                b if b < 0x20 => return None,
                _ => {}
            }
        }
    }

    /// Any JSON value, checked by the grammar; its text.
    fn value(&mut self, depth: u32) -> Option<&'a str> {
        let start = self.at;
        match self.peek()? {
            b'"' => self.skip_string()?,
            b'{' | b'[' if depth >= MAX_DEPTH => return None,
            b'{' => self.items(b'}', |c| {
                c.skip_string()?;
                c.ws();
                c.eat(b':')?;
                c.ws();
                c.value(depth + 1).map(|_| ())
            })?,
            b'[' => self.items(b']', |c| c.value(depth + 1).map(|_| ()))?,
            b't' => self.eat_lit("true")?,
            b'f' => self.eat_lit("false")?,
            b'n' => self.eat_lit("null")?,
            _ => {
                self.number()?;
            }
        }
        self.text.get(start..self.at)
    }

    /// An object's or array's items, each read by `item`, from its opening
    /// bracket to `close`.
    fn items(&mut self, close: u8, mut item: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.at += 1;
        self.ws();
        if self.peek() != Some(close) {
            loop {
                item(self)?;
                self.ws();
                if self.peek() != Some(b',') {
                    break;
                }
                self.at += 1;
                self.ws();
            }
        }
        self.eat(close)
    }

    /// `null`, eaten if next.
    fn null(&mut self) -> bool {
        self.peek() == Some(b'n') && self.eat_lit("null").is_some()
    }

    /// An optional string field.
    fn opt_str(&mut self) -> Option<Option<Cow<'a, str>>> {
        if self.null() {
            return Some(None);
        }
        self.plain_string().map(|s| Some(Cow::Borrowed(s)))
    }

    /// An optional [`Num`] field.
    fn opt_num(&mut self) -> Option<Option<Num>> {
        if self.null() {
            return Some(None);
        }
        if self.peek() == Some(b'"') {
            return number_text(self.plain_string()?).map(Some);
        }
        let (text, integer) = self.number()?;
        let digits = text.strip_prefix('-').unwrap_or(text);
        if integer && digits.len() <= 18 && text != "-0" {
            // serde_json's u64 or i64, converted as it converts them.
            let v = digits.bytes().fold(0u64, |v, d| v * 10 + u64::from(d - b'0')) as f64;
            return Some(Some(Num(if text.starts_with('-') { -v } else { v })));
        }
        serde_json::from_str::<Num>(text).ok().map(Some)
    }

    /// An optional [`IdText`] field.
    fn opt_id(&mut self) -> Option<Option<IdText<'a>>> {
        match self.peek()? {
            b'n' => self.eat_lit("null").map(|_| None),
            b'"' => self.plain_string().map(|s| Some(IdText(Cow::Borrowed(s)))),
            b't' => self.eat_lit("true").map(|_| Some(IdText(Cow::Borrowed("true")))),
            b'f' => self.eat_lit("false").map(|_| Some(IdText(Cow::Borrowed("false")))),
            _ => {
                let (text, integer) = self.number()?;
                let digits = text.strip_prefix('-').unwrap_or(text);
                if integer && digits.len() <= 18 && text != "-0" {
                    // An integer prints back as written.
                    return Some(Some(IdText(Cow::Borrowed(text))));
                }
                serde_json::from_str::<IdText<'a>>(text).ok().map(Some)
            }
        }
    }

    /// An optional bool field.
    fn opt_bool(&mut self) -> Option<Option<bool>> {
        match self.peek()? {
            b'n' => self.eat_lit("null").map(|_| None),
            b't' => self.eat_lit("true").map(|_| Some(true)),
            b'f' => self.eat_lit("false").map(|_| Some(false)),
            _ => None,
        }
    }
}

/// The index of a field read (its bit in [`event`]'s mask of fields seen).
fn index(key: &str) -> Option<u32> {
    Some(match key {
        "ph" => 0,
        "name" => 1,
        "cat" => 2,
        "ts" => 3,
        "dur" => 4,
        "tdur" => 5,
        "pid" => 6,
        "tid" => 7,
        "args" => 8,
        "id" => 9,
        "id2" => 10,
        "scope" => 11,
        "bp" => 12,
        "s" => 13,
        "bind_id" => 14,
        "flow_in" => 15,
        "flow_out" => 16,
        _ => return None,
    })
}

/// Reads one member's value into `e`: `field` is its [`index`], if any.
fn field<'a>(c: &mut Cursor<'a>, e: &mut RawEvent<'a>, field: Option<u32>) -> Option<()> {
    let Some(field) = field else {
        c.value(1)?;
        return Some(());
    };
    match field {
        0 => e.ph = c.opt_str()?,
        1 => e.name = c.opt_str()?,
        2 => e.cat = c.opt_str()?,
        3 => e.ts = c.opt_num()?,
        4 => e.dur = c.opt_num()?,
        5 => e.tdur = c.opt_num()?,
        6 => e.pid = c.opt_id()?,
        7 => e.tid = c.opt_id()?,
        8 => e.args = if c.null() { None } else { Some(Args(c.value(1)?)) },
        9 => e.id = c.opt_id()?,
        10 => e.id2 = serde_json::from_str::<Option<Id2<'a>>>(c.value(1)?).ok()?,
        11 => e.scope = c.opt_str()?,
        12 => e.bp = c.opt_str()?,
        13 => e.s = c.opt_str()?,
        14 => e.bind_id = c.opt_id()?,
        15 => e.flow_in = c.opt_bool()?,
        _ => e.flow_out = c.opt_bool()?,
    }
    Some(())
}

/// An event in the plain form, or `None` for serde_json to parse.
pub(super) fn event(bytes: &[u8]) -> Option<RawEvent<'_>> {
    let text = std::str::from_utf8(bytes).ok()?;
    let mut c = Cursor { text, at: 0 };
    let mut e = RawEvent::default();
    let mut seen = 0u32;
    c.ws();
    c.eat(b'{')?;
    c.ws();
    if c.peek() == Some(b'}') {
        c.at += 1;
    } else {
        loop {
            let key = c.plain_string()?;
            c.ws();
            c.eat(b':')?;
            c.ws();
            let index = index(key);
            if let Some(i) = index {
                if seen & (1 << i) != 0 {
                    return None;
                }
                seen |= 1 << i;
            }
            field(&mut c, &mut e, index)?;
            c.ws();
            match c.next()? {
                b',' => c.ws(),
                b'}' => break,
                _ => return None,
            }
        }
    }
    c.ws();
    (c.at == bytes.len()).then_some(e)
}
