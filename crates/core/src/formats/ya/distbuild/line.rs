//! One line of a distbuild log, split as ya splits it.
//!
//! ya does `line.rstrip().split(' ')`: trailing whitespace goes, then every
//! single space separates two fields, so two spaces in a row hold an empty
//! field. Whitespace is never collapsed.

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
            each_space(&line[..end], |space| {
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

/// Calls `each` with the place of every space in `bytes`, in order, while
/// it returns true. Eight bytes at a time in one machine word: a line has
/// a handful of fields, and a search call per field (memchr's) cost more
/// than the search, most of all in WebAssembly.
fn each_space(bytes: &[u8], mut each: impl FnMut(usize) -> bool) {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const SPACES: u64 = 0x2020_2020_2020_2020;
    let mut words = bytes.chunks_exact(8);
    let mut at = 0;
    for word in &mut words {
        let x = u64::from_le_bytes([word[0], word[1], word[2], word[3], word[4], word[5], word[6], word[7]]) ^ SPACES;
        // A byte's top bit is set here exactly when the byte was not a
        // space (no carry crosses bytes: 0x7f + 0x7f < 0x100).
        let other = ((x & LOW7) + LOW7) | x;
        let mut spaces = !other & !LOW7;
        while spaces != 0 {
            if !each(at + (spaces.trailing_zeros() / 8) as usize) {
                return;
            }
            spaces &= spaces - 1;
        }
        at += 8;
    }
    for (i, _) in words.remainder().iter().enumerate().filter(|(_, &b)| b == b' ') {
        if !each(at + i) {
            return;
        }
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
    fn finds_every_space_as_a_plain_search_does() {
        // Spaces at every place of a word, bytes with the top bit set and
        // bytes one off a space (0x1f, 0x21, 0xa0), lengths around 8 and 16.
        let alphabet = [b' ', b'a', 0x1f, 0x21, 0xa0, 0xff, 0x00, b'\t'];
        let mut seed = 7u32;
        for len in 0..40 {
            for _ in 0..50 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                        alphabet[(seed >> 16) as usize % alphabet.len()]
                    })
                    .collect();
                let want: Vec<usize> = (0..len).filter(|&i| bytes[i] == b' ').collect();
                let mut got = Vec::new();
                each_space(&bytes, |i| {
                    got.push(i);
                    true
                });
                assert_eq!(got, want, "{bytes:?}");
                // Stopping after the first.
                let mut first = Vec::new();
                each_space(&bytes, |i| {
                    first.push(i);
                    false
                });
                assert_eq!(first, want.first().copied().into_iter().collect::<Vec<_>>());
            }
        }
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
