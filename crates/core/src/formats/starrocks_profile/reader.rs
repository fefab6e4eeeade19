//! The chunked reader: lines → node, counter, blank or other lines → the
//! [`Profile`] tree. A JSON profile is gathered whole and read by [`super::json`].

use super::tree::{Counter, Item, Node, Profile, Stray};
use super::value::Value;
use super::ID;
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::error::FormatError;
use crate::formats::{FormatReader, Parsed, ReadCounts};
use crate::lines::LineSplitter;

/// One line, classified.
enum Line<'a> {
    /// Nothing at all.
    Blank,
    /// `<indent><Name>:`.
    Node { indent: usize, name: &'a str },
    /// `<indent>- Name: value` or `<indent>- Flag`.
    Counter { indent: usize, name: &'a str, text: Option<&'a str> },
    /// Anything else (a continuation of a multi-line info string, or noise).
    Other,
}

fn classify(body: &str) -> Line<'_> {
    if body.is_empty() {
        return Line::Blank;
    }
    let indent = body.len() - body.trim_start_matches(' ').len();
    let rest = &body[indent..];
    if let Some(after) = rest.strip_prefix("- ") {
        return match after.split_once(": ") {
            Some((name, text)) => Line::Counter { indent, name, text: Some(text) },
            None => Line::Counter { indent, name: after, text: None },
        };
    }
    match rest.strip_suffix(':') {
        Some(name) if !name.is_empty() && !rest.starts_with('-') => Line::Node { indent, name },
        _ => Line::Other,
    }
}

/// Reads a profile fed in chunks cut anywhere.
#[derive(Default)]
pub struct Reader {
    lines: LineSplitter,
    /// The input is JSON: its bytes, gathered until the end.
    json: Option<Vec<u8>>,
    /// Nothing but whitespace seen yet (the form is not decided).
    undecided: Vec<u8>,
    builder: Builder,
    offset: u64,
    /// The input is text and its lines are being read.
    started: bool,
}

/// Builds the tree line by line.
#[derive(Default)]
struct Builder {
    profile: Profile,
    /// Open nodes, outermost first.
    stack: Vec<Node>,
    /// Blank lines not yet placed: their line numbers.
    blanks: Vec<u64>,
    /// The last line was the end of a counter that may continue (an info string).
    open_text: bool,
    /// Lines that were not valid UTF-8.
    lossy: u64,
    /// Node and counter lines read.
    entries: u64,
}

impl FormatReader for Reader {
    fn feed(&mut self, chunk: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError> {
        if let Some(at) = memchr::memchr(0, chunk) {
            return Err(FormatError::new(
                ID.title(),
                Position::Byte(self.offset + at as u64),
                "a NUL byte: this is binary data, no longer a text profile",
                &chunk[at..],
            ));
        }
        self.offset += chunk.len() as u64;
        if let Some(json) = &mut self.json {
            json.extend_from_slice(chunk);
            return Ok(());
        }
        let chunk = if !self.started {
            self.undecided.extend_from_slice(chunk);
            match self.undecided.iter().find(|b| !b.is_ascii_whitespace()) {
                None => return Ok(()),
                Some(b'{') => {
                    self.json = Some(std::mem::take(&mut self.undecided));
                    return Ok(());
                }
                Some(_) => {
                    self.started = true;
                    std::mem::take(&mut self.undecided)
                }
            }
        } else {
            chunk.to_vec()
        };
        self.text(&chunk, diags)
    }

    fn end_of_input(&mut self, diags: &mut Diagnostics) -> Result<(), FormatError> {
        if self.json.is_none() && !self.undecided.is_empty() {
            let rest = std::mem::take(&mut self.undecided);
            self.text(&rest, diags)?;
        }
        let Reader { lines, builder, .. } = self;
        lines.finish(|no, line| builder.line(no, line, false, diags))
    }

    fn finish(mut self: Box<Self>, diags: &mut Diagnostics) -> Result<Parsed, FormatError> {
        self.end_of_input(diags)?;
        if let Some(json) = self.json.take() {
            return super::json::read(json, diags).map(Parsed::run);
        }
        Ok(Parsed::run(self.builder.finish(diags)))
    }

    fn counts(&self) -> ReadCounts {
        let b = &self.builder;
        ReadCounts { lines: self.lines.lines(), events: b.entries }
    }
}

impl Reader {
    fn text(&mut self, chunk: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError> {
        let Reader { lines, builder, .. } = self;
        lines.feed(chunk, |no, line| builder.line(no, line, true, diags))
    }
}

impl Builder {
    fn line(&mut self, no: u64, raw: &[u8], newline: bool, diags: &mut Diagnostics) -> Result<(), FormatError> {
        self.profile.lines = no;
        self.profile.final_newline = newline;
        let text = match std::str::from_utf8(raw) {
            Ok(t) => std::borrow::Cow::Borrowed(t),
            Err(_) => {
                self.lossy += 1;
                if self.lossy == 1 {
                    diags.report(
                        Severity::Warning,
                        "starrocks.not-utf8",
                        Position::Line(no),
                        "bytes that are not UTF-8 are read (and written back) as U+FFFD",
                    );
                }
                String::from_utf8_lossy(raw)
            }
        };
        let (body, cr) = match text.strip_suffix('\r') {
            Some(b) => (b, true),
            None => (&*text, false),
        };
        let line = classify(body);
        if matches!(line, Line::Blank) && !cr {
            self.blanks.push(no);
            return Ok(());
        }
        if self.stack.is_empty() && self.profile.root.is_none() {
            return self.first(no, body, cr, line, diags);
        }
        match line {
            Line::Node { indent, name } if self.fits_node(indent) && (indent > 0 || !self.open_text) => {
                self.place_blanks(false);
                self.open_text = false;
                self.entries += 1;
                self.node(no, indent, name, cr, diags);
            }
            Line::Counter { indent, name, text } if self.counter_level(indent).is_some() => {
                self.place_blanks(false);
                self.entries += 1;
                self.counter(no, indent, name, text, cr, diags);
            }
            _ if self.open_text => {
                self.place_blanks(true);
                if let Some(c) = self.last_counter() {
                    let t = c.text.get_or_insert_with(String::new);
                    if c.cr {
                        t.push('\r');
                    }
                    t.push('\n');
                    t.push_str(body);
                    c.cr = cr;
                }
            }
            _ => {
                self.place_blanks(false);
                diags.report(
                    Severity::Warning,
                    "starrocks.stray-line",
                    Position::Line(no),
                    format!("neither a node (`Name:`) nor a counter (`- Name: value`) line, kept as is: {body:?}"),
                );
                self.stray(Stray { text: text.into_owned(), line: no });
            }
        }
        Ok(())
    }

    /// The first line with text: a profile starts with its top node (`Query:`).
    fn first(
        &mut self,
        no: u64,
        body: &str,
        cr: bool,
        line: Line<'_>,
        diags: &mut Diagnostics,
    ) -> Result<(), FormatError> {
        let Line::Node { indent: 0, name } = line else {
            return Err(FormatError::new(
                ID.title(),
                Position::Line(no),
                "a profile starts with its top node, such as `Query:`",
                body.as_bytes(),
            ));
        };
        for blank in std::mem::take(&mut self.blanks) {
            self.profile.before.push(Stray { text: String::new(), line: blank });
        }
        self.entries += 1;
        self.node(no, 0, name, cr, diags);
        Ok(())
    }

    /// A node line may open a child of any open node (2 more spaces than
    /// it), or follow the top node.
    fn fits_node(&self, indent: usize) -> bool {
        indent % 2 == 0 && self.stack.last().is_none_or(|top| indent <= top.indent + 2)
    }

    /// The nesting level of a counter at `indent` under the innermost open
    /// node (3 spaces past the node, 2 more per level).
    fn counter_level(&self, indent: usize) -> Option<usize> {
        let base = self.stack.last()?.indent + 3;
        let extra = indent.checked_sub(base)?;
        (extra % 2 == 0).then_some(extra / 2)
    }

    fn node(&mut self, no: u64, indent: usize, name: &str, cr: bool, diags: &mut Diagnostics) {
        while self.stack.last().is_some_and(|n| n.indent >= indent) {
            self.close();
        }
        if self.stack.is_empty() && self.profile.root.is_some() {
            diags.report(
                Severity::Warning,
                "starrocks.second-top-node",
                Position::Line(no),
                format!("a second top node `{name}:` is kept under the first"),
            );
            if let Some(root) = self.profile.root.take() {
                self.stack.push(root);
            }
        }
        self.stack.push(Node { name: name.to_owned(), indent, line: no, cr, items: Vec::new() });
    }

    fn close(&mut self) {
        if let Some(node) = self.stack.pop() {
            match self.stack.last_mut() {
                Some(parent) => parent.items.push(Item::Node(node)),
                None => self.profile.root = Some(node),
            }
        }
    }

    fn counter(&mut self, no: u64, indent: usize, name: &str, text: Option<&str>, cr: bool, diags: &mut Diagnostics) {
        let level = self.counter_level(indent).unwrap_or(0);
        let value = text.map_or(Value::Flag, Value::parse);
        self.open_text = value == Value::Text;
        let counter = Counter {
            name: name.to_owned(),
            text: text.map(str::to_owned),
            value,
            indent,
            line: no,
            cr,
            children: Vec::new(),
        };
        let Some(top) = self.stack.last_mut() else { return };
        let depth = match top.items.last_mut() {
            Some(Item::Counter(last)) if level > 0 => attach(last, level, counter),
            _ => {
                top.items.push(Item::Counter(counter));
                0
            }
        };
        if depth < level {
            diags.report(
                Severity::Warning,
                "starrocks.indent",
                Position::Line(no),
                format!("counter `{name}` is indented {level} levels below its node's counters, but only {depth} are open; kept at level {depth}"),
            );
        }
    }

    /// The counter read last, if nothing came after it.
    fn last_counter(&mut self) -> Option<&mut Counter> {
        let Some(Item::Counter(c)) = self.stack.last_mut()?.items.last_mut() else { return None };
        let mut c = c;
        while !c.children.is_empty() {
            c = c.children.last_mut()?;
        }
        Some(c)
    }

    /// Places the blank lines read before this line: into the info string
    /// being read (when `continuing`, or when the line after them ends it),
    /// else as stray blank lines.
    fn place_blanks(&mut self, continuing: bool) {
        if self.blanks.is_empty() {
            return;
        }
        let blanks = std::mem::take(&mut self.blanks);
        if continuing || self.open_text {
            if let Some(c) = self.last_counter() {
                let t = c.text.get_or_insert_with(String::new);
                for _ in &blanks {
                    if c.cr {
                        t.push('\r');
                        c.cr = false;
                    }
                    t.push('\n');
                }
                return;
            }
        }
        for line in blanks {
            self.stray(Stray { text: String::new(), line });
        }
    }

    fn stray(&mut self, s: Stray) {
        self.open_text = false;
        match self.stack.last_mut() {
            Some(top) => top.items.push(Item::Stray(s)),
            None => self.profile.before.push(s),
        }
    }

    fn finish(mut self, diags: &mut Diagnostics) -> Profile {
        while !self.stack.is_empty() {
            self.close();
        }
        self.profile.trailing_blank = self.blanks.len();
        if self.profile.root.is_none() {
            diags.report(Severity::Warning, "starrocks.empty", Position::Whole, "the profile has no node line");
        }
        self.profile
    }
}

/// Adds `counter` `level` levels below `parent` (1: as its child), along
/// the last children; returns the level it got (less when the chain ends).
fn attach(parent: &mut Counter, level: usize, counter: Counter) -> usize {
    match parent.children.last_mut() {
        Some(last) if level > 1 => 1 + attach(last, level - 1, counter),
        _ => {
            parent.children.push(counter);
            1
        }
    }
}
