//! One line of a distbuild log, split as ya splits it.
//!
//! ya does `line.rstrip().split(' ')`: trailing whitespace goes, then every
//! single space separates two fields, so two spaces in a row hold an empty
//! field. Whitespace is never collapsed.

use crate::byte_places::each_place;

/// No known event has more than 7 fields; a few more are counted so that
/// a longer line is still read (its extra fields are ignored).
pub(super) const MAX_FIELDS: usize = 10;

/// Fields whose place is kept: every field a known event reads.
const KEPT: usize = 7;

/// The fields of one line: where each of the first [`KEPT`] ends, and how
/// many there are (up to [`MAX_FIELDS`]). Offsets are from the line's start.
#[derive(Clone, Copy, Debug)]
pub(super) struct Fields {
    ends: [usize; KEPT],
    len: u8,
}

impl Fields {
    /// Splits `line` (without its `\n`) into fields.
    pub(super) fn split(line: &[u8]) -> Self {
        let end = line.iter().rposition(|b| !is_python_space(*b)).map_or(0, |i| i + 1);
        let mut fields = Fields { ends: [0; KEPT], len: 0 };
        if end > 0 {
            each_place(&line[..end], b' ', |space| {
                if usize::from(fields.len) == MAX_FIELDS - 1 {
                    return false;
                }
                fields.push(space);
                true
            });
            fields.push(end);
        }
        fields
    }

    fn push(&mut self, end: usize) {
        if let Some(e) = self.ends.get_mut(usize::from(self.len)) {
            *e = end;
        }
        self.len += 1;
    }

    /// Number of fields (an empty line has none).
    pub(super) fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Field `i` (0-based) of `line`, the line these fields were split
    /// from, if present and kept.
    pub(super) fn get<'a>(&self, line: &'a [u8], i: usize) -> Option<&'a [u8]> {
        if i >= self.len() {
            return None;
        }
        let from = if i == 0 { 0 } else { self.ends.get(i - 1)? + 1 };
        line.get(from..*self.ends.get(i)?)
    }
}

/// The ASCII characters Python's `str.rstrip()` removes.
fn is_python_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0x1c..=0x1f)
}

/// Parses an integer field as Python's `int()` does for plain decimal text:
/// an optional sign, then digits.
pub(super) fn parse_int(field: &[u8]) -> Option<i64> {
    let (neg, digits) = match field.first() {
        Some(b'-') => (true, &field[1..]),
        Some(b'+') => (false, &field[1..]),
        _ => (false, field),
    };
    if digits.is_empty() {
        return None;
    }
    if !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    // Eighteen digits always fit: plain arithmetic for them (an overflow
    // check per digit is a 128-bit multiply in WebAssembly), checked after.
    let (head, tail) = digits.split_at(digits.len().min(18));
    let mut v = head.iter().fold(0i64, |v, &d| v * 10 + i64::from(d - b'0'));
    for &d in tail {
        v = v.checked_mul(10)?.checked_add(i64::from(d - b'0'))?;
    }
    Some(if neg { -v } else { v })
}

/// ya's `str.isnumeric()` test for ASCII text: non-empty and all digits.
pub(super) fn is_numeric(field: &[u8]) -> bool {
    !field.is_empty() && field.iter().all(u8::is_ascii_digit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(line: &str) -> Vec<String> {
        let f = Fields::split(line.as_bytes());
        (0..f.len()).map(|i| String::from_utf8(f.get(line.as_bytes(), i).unwrap().to_vec()).unwrap()).collect()
    }

    #[test]
    fn splits_like_python_rstrip_split_space() {
        assert_eq!(fields("1400 resources_prepared  9"), ["1400", "resources_prepared", "", "9"]);
        assert_eq!(fields("1 a b  \r"), ["1", "a", "b"]);
        assert_eq!(fields("  1 a"), ["", "", "1", "a"]);
        assert!(fields("   ").is_empty());
        assert!(fields("").is_empty());
        let long = "0 1 2 3 4 5 6 7 8 9 10 11";
        assert_eq!(Fields::split(long.as_bytes()).len(), MAX_FIELDS);
        assert_eq!(fields(&long[..13]), ["0", "1", "2", "3", "4", "5", "6"]);
    }

    #[test]
    fn parses_integers_like_python_int() {
        assert_eq!(parse_int(b"1700"), Some(1700));
        assert_eq!(parse_int(b"-5"), Some(-5));
        assert_eq!(parse_int(b"+5"), Some(5));
        assert_eq!(parse_int(b"9223372036854775807"), Some(i64::MAX));
        assert_eq!(parse_int(b"-000000000000000000001"), Some(-1));
        for bad in [&b""[..], b"-", b"12a", b"1.5", b"99999999999999999999", b"9223372036854775808"] {
            assert_eq!(parse_int(bad), None);
        }
        assert!(is_numeric(b"007") && !is_numeric(b"") && !is_numeric(b"host1"));
    }
}
