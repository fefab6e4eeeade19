//! Splitting one large JSON document, fed in chunks, into the small values
//! worth parsing one at a time.
//!
//! Build graphs and traces are single JSON documents of hundreds of
//! megabytes whose bulk is one long array (`graph`, `traceEvents`). This
//! scanner tracks only strings and nesting, and hands out the raw bytes of
//! each element of the arrays it is asked to split (and of every other
//! top-level member, whole), so each can be parsed with serde_json on its own
//! and memory holds one element, not the document. It does not validate JSON:
//! the parser of each piece does.

/// A piece of the document.
#[derive(Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    /// A member of the root object that is not split: its key and raw value.
    Member {
        /// The member's key (raw, without quotes; escapes are kept as written).
        key: &'a str,
        /// The raw value bytes.
        value: &'a [u8],
    },
    /// One element of a split array: of the root array (`key` is `None`) or of
    /// a root-object member named in [`JsonSplitter::new`].
    Element {
        /// The member the array belongs to, if any.
        key: Option<&'a str>,
        /// The raw element bytes.
        value: &'a [u8],
        /// Byte offset of the element's first byte in the document.
        offset: u64,
        /// 1-based line of the element's first byte.
        line: u64,
    },
}

/// What the root of the document is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Root {
    /// Nothing but whitespace so far.
    Unknown,
    /// An object.
    Object,
    /// An array.
    Array,
}

/// Something that is not a JSON object or array at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotJson {
    /// Byte offset of the offending byte.
    pub offset: u64,
    /// The offending byte.
    pub byte: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ObjectState {
    /// Expecting a key (or the end of the object).
    Key,
    /// Inside a key string.
    InKey,
    /// After a key, expecting ':'.
    Colon,
    /// After ':', expecting the value.
    Value,
    /// After a value, expecting ',' or the end.
    Next,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Capture {
    None,
    /// A container that started at this depth.
    Container(u32),
    /// A scalar (number, literal or string) at the element level.
    Scalar,
}

/// The streaming splitter.
#[derive(Debug)]
pub struct JsonSplitter {
    split_keys: &'static [&'static str],
    /// Root-object members whose object value is split member by member.
    object_keys: &'static [&'static str],
    /// Keep the bytes of members that are not split (else their values come empty).
    keep_members: bool,
    /// The current capture's bytes are kept.
    keeping: bool,
    root: Root,
    depth: u32,
    in_string: bool,
    escaped: bool,
    object: ObjectState,
    key: Vec<u8>,
    /// Inside the array of a split key (elements at depth 2).
    splitting: bool,
    capture: Capture,
    buf: Vec<u8>,
    start_offset: u64,
    start_line: u64,
    offset: u64,
    line: u64,
    done: bool,
}

impl JsonSplitter {
    /// A splitter that hands out the elements of the root array, and of the
    /// arrays held by the root object's members named in `split_keys`.
    pub fn new(split_keys: &'static [&'static str]) -> Self {
        JsonSplitter {
            split_keys,
            object_keys: &[],
            keep_members: true,
            keeping: true,
            root: Root::Unknown,
            depth: 0,
            in_string: false,
            escaped: false,
            object: ObjectState::Key,
            key: Vec::new(),
            splitting: false,
            capture: Capture::None,
            buf: Vec::new(),
            start_offset: 0,
            start_line: 1,
            offset: 0,
            line: 1,
            done: false,
        }
    }

    /// Also splits the objects held by the root object's members named in
    /// `keys` (a dbt manifest's `nodes`): each member of such an object
    /// comes as two elements, its key (a string) and then its value.
    pub fn split_objects(mut self, keys: &'static [&'static str]) -> Self {
        self.object_keys = keys;
        self
    }

    /// Hands out the root object's other members with empty values, without
    /// holding their bytes (for members that can be huge and are not used).
    pub fn skip_members(mut self) -> Self {
        self.keep_members = false;
        self
    }

    /// The root's kind, once seen.
    pub fn root(&self) -> Root {
        self.root
    }

    /// The 1-based line the scanner is on (1 plus the newlines fed so far).
    pub fn line(&self) -> u64 {
        self.line
    }

    /// The root value has been closed.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Bytes of an element or member begun but not finished (at the end of
    /// the input: a cut-off document).
    pub fn pending(&self) -> Option<(u64, u64)> {
        (self.capture != Capture::None).then_some((self.start_offset, self.start_line))
    }

    /// Where an element of a split array may start (between two elements,
    /// nothing begun): the array's member (`None` for the root array).
    /// Whitespace, commas and whole objects fed from here leave the scanner
    /// as it is, but for [`JsonSplitter::pass`].
    pub fn between_elements(&self) -> Option<Option<&str>> {
        (self.at_element_start() && !self.escaped && !self.done)
            .then(|| (self.root == Root::Object).then(|| Self::key_str(&self.key)))
    }

    /// Moves past `bytes` bytes holding `lines` newlines, read by the caller
    /// from where [`JsonSplitter::between_elements`] held: whitespace,
    /// commas and whole objects, each of which the caller took as an element.
    pub fn pass(&mut self, bytes: usize, lines: u64) {
        self.offset += bytes as u64;
        self.line += lines;
    }

    fn key_str(key: &[u8]) -> &str {
        std::str::from_utf8(key).unwrap_or("")
    }

    /// Is the scanner where a value of interest starts?
    fn at_value_start(&self) -> bool {
        match self.root {
            Root::Array => self.depth == 1,
            Root::Object => {
                (self.depth == 1 && self.object == ObjectState::Value) || (self.splitting && self.depth == 2)
            }
            Root::Unknown => false,
        }
    }

    /// Is the scanner, outside any string or capture, where an element of
    /// a split array starts?
    fn at_element_start(&self) -> bool {
        !self.in_string
            && self.capture == Capture::None
            && match self.root {
                Root::Array => self.depth == 1,
                Root::Object => self.splitting && self.depth == 2,
                Root::Unknown => false,
            }
    }

    fn begin(&mut self, capture: Capture) {
        self.capture = capture;
        self.buf.clear();
        let member = self.root == Root::Object && !(self.splitting && self.depth >= 2);
        self.keeping = self.keep_members || !member;
        self.start_offset = self.offset;
        self.start_line = self.line;
    }

    fn emit(&mut self, each: &mut dyn FnMut(Piece<'_>)) {
        self.capture = Capture::None;
        let piece = if self.root == Root::Object && !(self.splitting && self.depth >= 2) {
            self.object = ObjectState::Next;
            Piece::Member { key: Self::key_str(&self.key), value: &self.buf }
        } else {
            let key = (self.root == Root::Object).then(|| Self::key_str(&self.key));
            Piece::Element { key, value: &self.buf, offset: self.start_offset, line: self.start_line }
        };
        each(piece);
    }

    fn keep(&mut self, b: u8) {
        if self.keeping {
            self.buf.push(b);
        }
    }

    /// Feeds a chunk; complete pieces go to `each` in document order.
    pub fn feed(&mut self, chunk: &[u8], each: &mut dyn FnMut(Piece<'_>)) -> Result<(), NotJson> {
        let mut i = 0;
        while i < chunk.len() {
            if self.in_string && !self.escaped {
                // Inside a string only '"' and '\\' matter: take the bytes before them at once.
                let span_end = memchr::memchr2(b'"', b'\\', &chunk[i..]).map_or(chunk.len(), |k| i + k);
                let span = &chunk[i..span_end];
                if self.capture != Capture::None {
                    if self.keeping {
                        self.buf.extend_from_slice(span);
                    }
                } else if self.object == ObjectState::InKey {
                    self.key.extend_from_slice(span);
                }
                self.offset += span.len() as u64;
                self.line += memchr::memchr_iter(b'\n', span).count() as u64;
                i = span_end;
                if i == chunk.len() {
                    break;
                }
            }
            let b = chunk[i];
            if matches!(b, b'{' | b'[') && self.at_element_start() {
                // An element that ends in this chunk goes out as it lies, scanned in one go.
                if let Some((len, lines)) = container_end(&chunk[i..]) {
                    let key = (self.root == Root::Object).then(|| Self::key_str(&self.key));
                    let value = &chunk[i..i + len];
                    each(Piece::Element { key, value, offset: self.offset, line: self.line });
                    self.offset += len as u64;
                    self.line += lines;
                    i += len;
                    continue;
                }
            }
            self.byte(b, each)?;
            self.offset += 1;
            if b == b'\n' {
                self.line += 1;
            }
            i += 1;
        }
        Ok(())
    }

    fn byte(&mut self, b: u8, each: &mut dyn FnMut(Piece<'_>)) -> Result<(), NotJson> {
        if self.in_string {
            if self.capture != Capture::None {
                self.keep(b);
            } else if self.object == ObjectState::InKey {
                self.key.push(b);
            }
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_string = false;
                if self.capture == Capture::None && self.object == ObjectState::InKey {
                    self.key.pop();
                    self.object = ObjectState::Colon;
                } else if self.capture == Capture::Scalar {
                    self.emit(each);
                }
            }
            return Ok(());
        }
        if self.done {
            return if b.is_ascii_whitespace() { Ok(()) } else { Err(NotJson { offset: self.offset, byte: b }) };
        }
        // A scalar ends at the first byte that cannot be part of it.
        if self.capture == Capture::Scalar && matches!(b, b',' | b']' | b'}' | b' ' | b'\t' | b'\r' | b'\n') {
            self.emit(each);
        }
        match b {
            b'"' => {
                self.in_string = true;
                if self.capture != Capture::None {
                    self.keep(b);
                } else if self.at_value_start() {
                    self.begin(Capture::Scalar);
                    self.keep(b);
                } else if self.root == Root::Object && self.depth == 1 && self.object == ObjectState::Key {
                    self.object = ObjectState::InKey;
                    self.key.clear();
                }
            }
            b'{' | b'[' => {
                if self.root == Root::Unknown {
                    self.root = if b == b'{' { Root::Object } else { Root::Array };
                    self.depth = 1;
                    return Ok(());
                }
                if self.capture == Capture::None && self.at_value_start() {
                    let key = Self::key_str(&self.key);
                    let split_here = self.root == Root::Object
                        && self.depth == 1
                        && ((b == b'[' && self.split_keys.contains(&key))
                            || (b == b'{' && self.object_keys.contains(&key)));
                    if split_here {
                        self.splitting = true;
                        self.depth = 2;
                        return Ok(());
                    }
                    self.begin(Capture::Container(self.depth));
                }
                if self.capture != Capture::None {
                    self.keep(b);
                }
                self.depth += 1;
            }
            b'}' | b']' => {
                if self.capture != Capture::None {
                    self.keep(b);
                }
                self.depth = self.depth.saturating_sub(1);
                match self.capture {
                    Capture::Container(d) if d == self.depth => self.emit(each),
                    Capture::None if self.splitting && self.depth == 1 => {
                        self.splitting = false;
                        self.object = ObjectState::Next;
                    }
                    Capture::None if self.depth == 0 => self.done = true,
                    _ => {}
                }
            }
            b':' if self.capture == Capture::None && self.root == Root::Object && self.depth == 1 => {
                if self.object == ObjectState::Colon {
                    self.object = ObjectState::Value;
                }
            }
            b',' if self.capture == Capture::None && self.root == Root::Object && self.depth == 1 => {
                self.object = ObjectState::Key;
            }
            b' ' | b'\t' | b'\r' | b'\n' => {
                if self.capture != Capture::None {
                    self.keep(b);
                }
            }
            _ if self.root == Root::Unknown => return Err(NotJson { offset: self.offset, byte: b }),
            _ => {
                if self.capture != Capture::None {
                    self.keep(b);
                } else if b != b',' && b != b':' && self.at_value_start() {
                    self.begin(Capture::Scalar);
                    self.keep(b);
                }
            }
        }
        Ok(())
    }
}

/// The length of the object or array that `bytes` starts with, and the
/// newlines in it, if it ends within `bytes`. Brackets and strings are
/// tracked as [`JsonSplitter::feed`] tracks them.
pub(crate) fn container_end(bytes: &[u8]) -> Option<(usize, u64)> {
    let mut depth = 0u32;
    let mut lines = 0u64;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        i += 1;
        match b {
            // Inside a string only these three matter: the bytes between go at once.
            b'"' => loop {
                i += memchr::memchr3(b'"', b'\\', b'\n', bytes.get(i..)?)?;
                match bytes[i] {
                    b'"' => {
                        i += 1;
                        break;
                    }
                    b'\\' => i += 2,
                    _ => {
                        lines += 1;
                        i += 1;
                    }
                }
            },
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some((i, lines));
                }
            }
            b'\n' => lines += 1,
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(doc: &str, keys: &'static [&'static str], chunk: usize) -> Vec<String> {
        pieces_of(doc, &|| JsonSplitter::new(keys), chunk)
    }

    fn pieces_of(doc: &str, splitter: &dyn Fn() -> JsonSplitter, chunk: usize) -> Vec<String> {
        let mut s = splitter();
        let mut out = Vec::new();
        for c in doc.as_bytes().chunks(chunk) {
            s.feed(c, &mut |p| {
                out.push(match p {
                    Piece::Member { key, value } => format!("M {key} = {}", String::from_utf8_lossy(value)),
                    Piece::Element { key, value, offset, line } => {
                        format!("E {key:?} @{offset}:{line} {}", String::from_utf8_lossy(value))
                    }
                })
            })
            .unwrap();
        }
        assert!(s.is_done() || s.pending().is_some() || s.root() == Root::Array);
        out
    }

    #[test]
    fn splits_the_named_arrays_and_keeps_other_members_whole() {
        let doc = "{\"conf\": {\"a\": [1, {\"b\": \"}]\"}]},\n \"graph\": [ {\"uid\": \"x\\\"y\", \"deps\": []},\n{\"uid\": \"z\"} ],\"result\": [\"x\"], \"n\": 12, \"s\": \"str\"}";
        let want = vec![
            "M conf = {\"a\": [1, {\"b\": \"}]\"}]}".to_owned(),
            "E Some(\"graph\") @46:2 {\"uid\": \"x\\\"y\", \"deps\": []}".to_owned(),
            "E Some(\"graph\") @75:3 {\"uid\": \"z\"}".to_owned(),
            "M result = [\"x\"]".to_owned(),
            "M n = 12".to_owned(),
            "M s = \"str\"".to_owned(),
        ];
        for chunk in [1, 7, 4096] {
            assert_eq!(pieces(doc, &["graph"], chunk), want, "chunk {chunk}");
        }
    }

    #[test]
    fn splits_a_root_array_even_when_cut_off() {
        let doc = "[{\"ph\":\"X\"},\n {\"ph\":\"B\", \"args\": {}}, 7, \"s\",\n {\"ph\":";
        let mut s = JsonSplitter::new(&[]);
        let mut n = 0;
        s.feed(doc.as_bytes(), &mut |_| n += 1).unwrap();
        assert_eq!(n, 4);
        assert!(!s.is_done());
        assert_eq!(s.pending(), Some((47, 3)));
    }

    #[test]
    fn skipped_members_come_without_their_bytes() {
        let mut s = JsonSplitter::new(&["graph"]).skip_members();
        let mut out = Vec::new();
        s.feed(b"{\"inputs\": {\"a\": [1, 2]}, \"graph\": [{\"uid\": 1}]}", &mut |p| {
            out.push(match p {
                Piece::Member { key, value } => format!("{key}={}", value.len()),
                Piece::Element { value, .. } => String::from_utf8_lossy(value).into_owned(),
            })
        })
        .unwrap();
        assert_eq!(out, ["inputs=0", "{\"uid\": 1}"]);
    }

    #[test]
    fn splits_the_named_objects_into_keys_and_values() {
        let doc = "{\"metadata\": {\"v\": 1}, \"nodes\": {\"a\": {\"x\": [1]},\n \"b\" : 2}, \"n\": 3}";
        let want = vec![
            "M metadata = {\"v\": 1}".to_owned(),
            "E Some(\"nodes\") @33:1 \"a\"".to_owned(),
            "E Some(\"nodes\") @38:1 {\"x\": [1]}".to_owned(),
            "E Some(\"nodes\") @51:2 \"b\"".to_owned(),
            "E Some(\"nodes\") @57:2 2".to_owned(),
            "M n = 3".to_owned(),
        ];
        for chunk in [1, 7, 4096] {
            assert_eq!(
                pieces_of(doc, &|| JsonSplitter::new(&[]).split_objects(&["nodes"]), chunk),
                want,
                "chunk {chunk}"
            );
        }
    }

    #[test]
    fn rejects_what_is_not_an_object_or_array() {
        let mut s = JsonSplitter::new(&[]);
        assert_eq!(s.feed(b"  1000 started", &mut |_| {}), Err(NotJson { offset: 2, byte: b'1' }));
        let mut s = JsonSplitter::new(&[]);
        assert_eq!(s.feed(b"{}\n{}", &mut |_| {}), Err(NotJson { offset: 3, byte: b'{' }));
    }
}
