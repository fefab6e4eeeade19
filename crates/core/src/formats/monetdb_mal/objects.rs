//! Cutting a MAL trace into its JSON objects.
//!
//! The server writes one object per line; tools write them pretty-printed
//! over several lines. An object ends at the end of the line where its
//! braces balance (strings and escapes respected), as mal_analytics'
//! `trace_reader` ends one at a line ending in `}`. A line that starts with
//! `{` in its first column while an object is still open starts a new one:
//! the open one was cut and is reported, so one damaged object never
//! swallows the rest of the trace.

/// What a finished line means for the object being assembled.
#[derive(Debug, PartialEq, Eq)]
pub enum Piece {
    /// Nothing finished yet (a blank line, or an object still open).
    Nothing,
    /// An object, from its first byte to the end of its last line.
    Object {
        /// Offset of its first byte in the stream.
        start: u64,
        /// Offset just past its last byte (before the newline).
        end: u64,
        /// The line it starts on (1-based).
        line: u64,
    },
    /// Bytes that are not a whole object: the reason, and where.
    Broken {
        /// Offset of the first byte.
        start: u64,
        /// Offset past the last byte.
        end: u64,
        /// The line it starts on.
        line: u64,
        /// Why these bytes are not an object.
        reason: &'static str,
    },
}

/// Brace and string state across the lines of one object.
#[derive(Debug, Default)]
pub struct ObjectSplitter {
    /// Line, offset and nesting of the open object, if one is open.
    open: Option<(u64, u64)>,
    depth: u32,
    in_string: bool,
    escaped: bool,
}

impl ObjectSplitter {
    /// Takes one whole line (without its newline) that starts at byte
    /// `offset` and is line `line_no`, and adds what it finished to `out`.
    /// A line starting with `{` while an object is open reports the open one
    /// as cut and starts the next object.
    pub fn line(&mut self, line_no: u64, offset: u64, line: &[u8], out: &mut Vec<Piece>) {
        let end = offset + line.len() as u64;
        if let Some((open_line, open_start)) = self.open {
            if line.first() == Some(&b'{') {
                out.push(Piece::Broken {
                    start: open_start,
                    end: offset.saturating_sub(1).max(open_start),
                    line: open_line,
                    reason: "the object is not closed before the next one starts",
                });
                self.reset();
            } else {
                self.scan(line, end, out);
                return;
            }
        }
        let Some(first) = line.iter().position(|b| !b.is_ascii_whitespace()) else { return };
        if line[first] != b'{' {
            out.push(Piece::Broken { start: offset, end, line: line_no, reason: "the line is not a JSON object" });
            return;
        }
        self.open = Some((line_no, offset + first as u64));
        self.scan(&line[first..], end, out);
    }

    /// Whether an object is open (started on an earlier line).
    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// Ends the stream: an object still open was cut off.
    pub fn finish(&mut self, end: u64) -> Option<Piece> {
        let (line, start) = self.open?;
        self.reset();
        Some(Piece::Broken { start, end, line, reason: "the trace ends inside this object" })
    }

    fn reset(&mut self) {
        *self = ObjectSplitter::default();
    }

    fn scan(&mut self, bytes: &[u8], end: u64, out: &mut Vec<Piece>) {
        let Some((open_line, start)) = self.open else { return };
        let mut i = 0;
        while i < bytes.len() {
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                    i += 1;
                    continue;
                }
                // Jump to the string's next quote or backslash.
                match memchr::memchr2(b'"', b'\\', &bytes[i..]) {
                    Some(j) => {
                        i += j;
                        if bytes[i] == b'"' {
                            self.in_string = false;
                        } else {
                            self.escaped = true;
                        }
                        i += 1;
                        continue;
                    }
                    None => return,
                }
            }
            let b = bytes[i];
            i += 1;
            match b {
                b'"' => self.in_string = true,
                b'{' | b'[' => self.depth += 1,
                b'}' | b']' => {
                    if self.depth == 0 {
                        out.push(Piece::Broken {
                            start,
                            end,
                            line: open_line,
                            reason: "a closing bracket has no opening one",
                        });
                        self.reset();
                        return;
                    }
                    self.depth -= 1;
                    if self.depth == 0 {
                        let rest = &bytes[i..];
                        if rest.iter().all(u8::is_ascii_whitespace) {
                            out.push(Piece::Object { start, end: end - rest.len() as u64, line: open_line });
                        } else {
                            out.push(Piece::Broken {
                                start,
                                end,
                                line: open_line,
                                reason: "more text follows the object on its last line",
                            });
                        }
                        self.reset();
                        return;
                    }
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Vec<Piece> {
        let mut s = ObjectSplitter::default();
        let mut out = Vec::new();
        let mut offset = 0u64;
        for (i, line) in text.split('\n').enumerate() {
            s.line(i as u64 + 1, offset, line.as_bytes(), &mut out);
            offset += line.len() as u64 + 1;
        }
        out.extend(s.finish(text.len() as u64));
        out
    }

    #[test]
    fn objects_on_lines_and_over_lines() {
        let text = "{\"a\":\"}{\\\"\"}\n\n{\n  \"b\": [\n    {\"c\": 1}\n  ]\n}\n";
        assert_eq!(
            split(text),
            [Piece::Object { start: 0, end: 12, line: 1 }, Piece::Object { start: 14, end: 43, line: 3 }]
        );
    }

    #[test]
    fn a_cut_object_is_reported_and_the_next_one_kept() {
        let text = "{\"a\": [1,\n{\"b\":2}\n{\"c\":\n";
        assert_eq!(
            split(text),
            [
                Piece::Broken {
                    start: 0,
                    end: 9,
                    line: 1,
                    reason: "the object is not closed before the next one starts"
                },
                Piece::Object { start: 10, end: 17, line: 2 },
                Piece::Broken { start: 18, end: 24, line: 3, reason: "the trace ends inside this object" },
            ]
        );
    }

    #[test]
    fn junk_and_stray_brackets() {
        let text = "hello\n}\n{\"a\":1} x\n";
        let pieces = split(text);
        assert_eq!(pieces.len(), 3);
        assert!(matches!(pieces[0], Piece::Broken { line: 1, reason: "the line is not a JSON object", .. }));
        assert!(matches!(pieces[1], Piece::Broken { line: 2, .. }));
        assert!(matches!(
            pieces[2],
            Piece::Broken { line: 3, reason: "more text follows the object on its last line", .. }
        ));
    }
}
