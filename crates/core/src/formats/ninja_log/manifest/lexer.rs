//! The words of one manifest statement, as ninja's lexer (`src/lexer.in.cc`)
//! reads them: identifiers, the `|`, `||`, `|@`, `:` and `=` marks, and
//! strings with `$` escapes.
//!
//! A statement is one logical line: physical lines joined where one ends
//! in an unescaped `$` (the `$` newline and the next line's leading spaces
//! read as nothing). Escapes: `$$` is `$`, `$ ` a space, `$:` a colon,
//! `${name}` and `$name` a variable (`name` of `[A-Za-z0-9_.-]` in braces,
//! without the dot bare). Any other `$` is an error, as in ninja. In a
//! path an unescaped space, `:` or `|` ends it; in a value only the line's
//! end does.

/// A string whose variables are not yet looked up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalString(pub Vec<Piece>);

/// One piece of an [`EvalString`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Text as it stands (escapes already read).
    Text(String),
    /// A variable to look up.
    Var(String),
}

impl EvalString {
    /// The string with each variable replaced by `lookup`'s answer (an
    /// unknown variable is empty, as in ninja).
    pub fn evaluate<'v>(&self, lookup: &mut dyn FnMut(&str) -> Option<&'v str>) -> String {
        match &self.0[..] {
            [Piece::Text(t)] => t.clone(),
            pieces => {
                let mut out = String::new();
                for p in pieces {
                    match p {
                        Piece::Text(t) => out.push_str(t),
                        Piece::Var(v) => out.push_str(lookup(v).unwrap_or("")),
                    }
                }
                out
            }
        }
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn text(&mut self, s: &str) {
        match self.0.last_mut() {
            Some(Piece::Text(t)) => t.push_str(s),
            _ => self.0.push(Piece::Text(s.to_owned())),
        }
    }
}

/// A problem in a statement: what ninja says, and at which byte of the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    /// ninja's words for it.
    pub message: String,
    /// Byte offset in the logical line.
    pub at: usize,
}

/// Reads the words of one logical line.
pub struct Lexer<'a> {
    s: &'a [u8],
    pos: usize,
}

fn ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')
}

fn simple_var_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-')
}

impl<'a> Lexer<'a> {
    /// A lexer over `line` (a logical line without its final newline).
    pub fn new(line: &'a [u8]) -> Self {
        Lexer { s: line, pos: 0 }
    }

    /// The byte offset read up to.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// An error here.
    pub fn error(&self, message: impl Into<String>) -> LexError {
        LexError { message: message.into(), at: self.pos }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    /// Skips spaces and `$`-newlines (with the spaces after them).
    pub fn skip_space(&mut self) {
        loop {
            match self.peek() {
                Some(b' ') => self.pos += 1,
                Some(b'$') if self.continuation_len(self.pos).is_some() => {
                    self.pos += self.continuation_len(self.pos).unwrap_or(0);
                }
                _ => return,
            }
        }
    }

    /// The length of a `$`-newline at `at` with the next line's leading spaces.
    fn continuation_len(&self, at: usize) -> Option<usize> {
        let rest = &self.s[at..];
        let nl = if rest.starts_with(b"$\n") {
            2
        } else if rest.starts_with(b"$\r\n") {
            3
        } else {
            return None;
        };
        Some(nl + rest[nl..].iter().take_while(|&&b| b == b' ').count())
    }

    /// Whether the line is read to its end.
    pub fn at_end(&self) -> bool {
        self.pos >= self.s.len()
    }

    /// An identifier (`[A-Za-z0-9_.-]+`), then spaces; `None` (nothing
    /// read) when there is none.
    pub fn ident(&mut self) -> Option<&'a str> {
        let start = self.pos;
        while self.peek().is_some_and(ident_byte) {
            self.pos += 1;
        }
        if self.pos == start {
            return None;
        }
        let word = std::str::from_utf8(&self.s[start..self.pos]).ok();
        self.skip_space();
        word
    }

    /// Reads `mark` (`:`, `=`, `|`, `||`, `|@`) if it is next, then spaces.
    pub fn mark(&mut self, mark: &str) -> bool {
        let m = mark.as_bytes();
        if !self.s[self.pos..].starts_with(m) {
            return false;
        }
        // `|` is not the start of `||` or `|@`.
        if mark == "|" && matches!(self.s.get(self.pos + 1), Some(b'|' | b'@')) {
            return false;
        }
        self.pos += m.len();
        self.skip_space();
        true
    }

    /// A path: up to an unescaped space, `:`, `|` or the end; then spaces.
    /// `Ok(None)` when there is none.
    pub fn path(&mut self) -> Result<Option<EvalString>, LexError> {
        let s = self.eval(true)?;
        self.skip_space();
        Ok((!s.is_empty()).then_some(s))
    }

    /// A value: the rest of the line.
    pub fn value(&mut self) -> Result<EvalString, LexError> {
        self.eval(false)
    }

    fn eval(&mut self, path: bool) -> Result<EvalString, LexError> {
        let mut out = EvalString::default();
        let mut text_from = self.pos;
        let flush = |out: &mut EvalString, s: &[u8], from: usize, to: usize| {
            if to > from {
                out.text(&String::from_utf8_lossy(&s[from..to]));
            }
        };
        while let Some(b) = self.peek() {
            if path && matches!(b, b' ' | b':' | b'|') {
                break;
            }
            if b == b'\r' && self.s.get(self.pos + 1).is_none() {
                break;
            }
            if b != b'$' {
                self.pos += 1;
                continue;
            }
            flush(&mut out, self.s, text_from, self.pos);
            if let Some(n) = self.continuation_len(self.pos) {
                self.pos += n;
            } else {
                match self.s.get(self.pos + 1) {
                    Some(&c @ (b'$' | b' ' | b':')) => {
                        out.text(if c == b'$' {
                            "$"
                        } else if c == b' ' {
                            " "
                        } else {
                            ":"
                        });
                        self.pos += 2;
                    }
                    Some(b'{') => {
                        let start = self.pos + 2;
                        let len = self.s[start..].iter().take_while(|&&b| ident_byte(b)).count();
                        if len == 0 || self.s.get(start + len) != Some(&b'}') {
                            return Err(self.error("bad $-escape (literal $ must be written as $$)"));
                        }
                        out.0.push(Piece::Var(String::from_utf8_lossy(&self.s[start..start + len]).into_owned()));
                        self.pos = start + len + 1;
                    }
                    Some(&c) if simple_var_byte(c) => {
                        let start = self.pos + 1;
                        let len = self.s[start..].iter().take_while(|&&b| simple_var_byte(b)).count();
                        out.0.push(Piece::Var(String::from_utf8_lossy(&self.s[start..start + len]).into_owned()));
                        self.pos = start + len;
                    }
                    _ => return Err(self.error("bad $-escape (literal $ must be written as $$)")),
                }
            }
            text_from = self.pos;
        }
        flush(&mut out, self.s, text_from, self.pos);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::{EvalString, Lexer, Piece};

    fn text(s: &str) -> Piece {
        Piece::Text(s.into())
    }

    fn var(s: &str) -> Piece {
        Piece::Var(s.into())
    }

    #[test]
    fn escapes_read_as_ninja_reads_them() {
        let mut l = Lexer::new(b"a$ b$:c$$d${x.y}e$f_-g.h $\n    next: rest");
        assert_eq!(
            l.path().unwrap(),
            Some(EvalString(vec![text("a b:c$d"), var("x.y"), text("e"), var("f_-g"), text(".h")]))
        );
        assert_eq!(l.path().unwrap(), Some(EvalString(vec![text("next")])));
        assert!(l.mark(":"));
        assert_eq!(l.value().unwrap(), EvalString(vec![text("rest")]));
        assert!(l.at_end());
    }

    #[test]
    fn a_value_keeps_spaces_colons_and_bars() {
        let mut l = Lexer::new(b"cc -c $in -o $out | tee a:b$\n  more");
        assert_eq!(
            l.value().unwrap(),
            EvalString(vec![text("cc -c "), var("in"), text(" -o "), var("out"), text(" | tee a:bmore")])
        );
    }

    #[test]
    fn a_bad_escape_is_an_error_at_its_byte() {
        let err = Lexer::new(b"foo$!bar").path().unwrap_err();
        assert_eq!((err.message.as_str(), err.at), ("bad $-escape (literal $ must be written as $$)", 3));
        assert!(Lexer::new(b"${unclosed").path().is_err());
    }

    #[test]
    fn marks_tell_bar_from_double_bar_and_validations() {
        let mut l = Lexer::new(b"|| x |@ y | z");
        assert!(!l.mark("|"));
        assert!(l.mark("||"));
        assert!(l.path().unwrap().is_some());
        assert!(!l.mark("|"));
        assert!(l.mark("|@"));
        assert!(l.path().unwrap().is_some());
        assert!(l.mark("|"));
    }
}
