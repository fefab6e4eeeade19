//! The only unrecoverable outcomes: an input that is not a format longpole
//! reads, one that stops being its format, or compressed data that cannot be
//! decoded. Everything else is a [`crate::diagnostics::Diagnostic`].

use crate::decompress::CorruptStream;
use crate::diagnostics::Position;
use std::fmt;

/// An input stopped being the format it was read as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// The format's title, e.g. "distbuild execution log".
    pub format: &'static str,
    /// Where it stopped being that format.
    pub position: Position,
    /// What was expected, in plain words.
    pub message: String,
    /// The offending bytes (a short excerpt).
    pub bytes: Vec<u8>,
}

impl FormatError {
    /// Longest excerpt of offending bytes kept in an error.
    pub const EXCERPT: usize = 48;

    /// Builds an error, keeping at most [`FormatError::EXCERPT`] offending bytes.
    pub fn new(format: &'static str, position: Position, message: impl Into<String>, bytes: &[u8]) -> Self {
        let bytes = bytes[..bytes.len().min(Self::EXCERPT)].to_vec();
        FormatError { format, position, message: message.into(), bytes }
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not a valid {} at {}: {} (offending bytes: {})",
            self.format,
            self.position,
            self.message,
            quote_bytes(&self.bytes)
        )
    }
}

/// Why an input could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// No reader recognises the input's content.
    Unrecognised {
        /// The input's name.
        input: String,
        /// Its first bytes after decompression (a short excerpt).
        head: Vec<u8>,
    },
    /// The input was recognised but stopped being that format.
    Format {
        /// The input's name.
        input: String,
        /// What went wrong, and where.
        error: FormatError,
    },
    /// The input looks like a format, but a line or record at its start is
    /// longer than detection reads.
    TooLongToTell {
        /// The input's name.
        input: String,
        /// The bytes detection reads.
        limit: usize,
        /// The format it looked like (its title).
        format: &'static str,
        /// The line detection gave up in (1-based).
        line: u64,
        /// Bytes read when it gave up.
        at: u64,
    },
    /// The input's compressed stream ends before its end marker, and what
    /// came before the cut is not (yet) a format longpole reads.
    Truncated {
        /// The input's name.
        input: String,
        /// The compression (`gzip`, `bzip2`, `zstd`).
        codec: &'static str,
        /// Compressed bytes read.
        after: u64,
        /// Bytes decoded before the cut.
        decoded: u64,
    },
    /// The input's compressed data is damaged.
    Corrupt {
        /// The input's name.
        input: String,
        /// What the decoder found.
        error: CorruptStream,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Unrecognised { input, head } if head.is_empty() => {
                write!(f, "{input}: the file is empty")
            }
            Error::Unrecognised { input, head } => write!(
                f,
                "{input}: not a format longpole reads; no reader recognises its first bytes {}",
                quote_bytes(head)
            ),
            Error::TooLongToTell { input, limit, format, line, at } => write!(
                f,
                "{input}: it looks like a {format}, but line {line} is longer than the {} KiB read to recognise a format; gave up at line {line}, byte {at}",
                limit >> 10
            ),
            Error::Truncated { input, codec, after, decoded } => write!(
                f,
                "{input}: truncated {codec} data after {after} bytes: the file was cut short, and the {decoded} bytes decoded before the cut are not enough to recognise a format"
            ),
            Error::Format { input, error } => write!(f, "{input}: {error}"),
            Error::Corrupt { input, error } => write!(f, "{input}: {error}"),
        }
    }
}

impl std::error::Error for Error {}

/// Shows bytes as a quoted string: printable ASCII as is, the rest as `\xNN`.
pub fn quote_bytes(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() + 2);
    s.push('"');
    for &b in bytes {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'\n' => s.push_str("\\n"),
            b'\r' => s.push_str("\\r"),
            b'\t' => s.push_str("\\t"),
            0x20..=0x7e => s.push(b as char),
            _ => s.push_str(&format!("\\x{b:02x}")),
        }
    }
    s.push('"');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_format_the_position_and_the_bytes() {
        let e = Error::Format {
            input: "x.log".into(),
            error: FormatError::new("distbuild execution log", Position::Line(3), "expected a time", b"\x00\xffab\"c"),
        };
        assert_eq!(
            e.to_string(),
            "x.log: not a valid distbuild execution log at line 3: expected a time (offending bytes: \"\\x00\\xffab\\\"c\")"
        );
        let e = Error::Unrecognised { input: "r.bin".into(), head: vec![0x8f, b'A'] };
        assert_eq!(
            e.to_string(),
            "r.bin: not a format longpole reads; no reader recognises its first bytes \"\\x8fA\""
        );
    }
}
