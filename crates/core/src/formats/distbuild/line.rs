//! One line of a distbuild log, split as ya splits it.
//!
//! ya does `line.rstrip().split(' ')`: trailing whitespace goes, then every
//! single space separates two fields, so two spaces in a row hold an empty
//! field. Whitespace is never collapsed.

/// No known event has more than 7 fields; a few more are kept so that
/// a longer line is still read (its extra fields are ignored).
pub(super) const MAX_FIELDS: usize = 10;

/// The fields of one line.
pub(super) struct Fields<'a> {
    fields: [&'a [u8]; MAX_FIELDS],
    len: usize,
}

impl<'a> Fields<'a> {
    /// Splits `line` (without its `\n`) into fields.
    pub(super) fn split(line: &'a [u8]) -> Self {
        let end = line.iter().rposition(|b| !is_python_space(*b)).map_or(0, |i| i + 1);
        let mut fields = [&line[..0]; MAX_FIELDS];
        let mut len = 0;
        if end > 0 {
            let text = &line[..end];
            let mut from = 0;
            for space in memchr::memchr_iter(b' ', text) {
                if len == MAX_FIELDS - 1 {
                    break;
                }
                fields[len] = &text[from..space];
                len += 1;
                from = space + 1;
            }
            fields[len] = &text[from..];
            len += 1;
        }
        Fields { fields, len }
    }

    /// Number of fields (an empty line has none).
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Field `i` (0-based), if present.
    pub(super) fn get(&self, i: usize) -> Option<&'a [u8]> {
        (i < self.len).then(|| self.fields[i])
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
        (0..f.len()).map(|i| String::from_utf8(f.get(i).unwrap().to_vec()).unwrap()).collect()
    }

    #[test]
    fn splits_like_python_rstrip_split_space() {
        assert_eq!(fields("1400 resources_prepared  9"), ["1400", "resources_prepared", "", "9"]);
        assert_eq!(fields("1 a b  \r"), ["1", "a", "b"]);
        assert_eq!(fields("  1 a"), ["", "", "1", "a"]);
        assert!(fields("   ").is_empty());
        assert!(fields("").is_empty());
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
