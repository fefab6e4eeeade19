//! dbt's timestamps (`2026-11-27T19:59:52.177337Z`, UTC ISO-8601, an offset
//! such as `+00:00` allowed) as nanoseconds since 1970.

use crate::model::Nanos;

/// Nanoseconds since 1970-01-01 UTC of an ISO-8601 date and time, or `None`
/// when `text` is not one.
pub fn parse(text: &str) -> Option<Nanos> {
    let b = text.as_bytes();
    let num = |from: usize, len: usize| -> Option<i64> {
        let digits = b.get(from..from + len)?;
        digits.iter().try_fold(0i64, |n, &d| d.is_ascii_digit().then(|| n * 10 + i64::from(d - b'0')))
    };
    let sep = |at: usize, c: &[u8]| b.get(at).is_some_and(|x| c.contains(x));
    if !(sep(4, b"-") && sep(7, b"-") && sep(10, b"Tt ") && sep(13, b":") && sep(16, b":")) {
        return None;
    }
    let (year, month, day) = (num(0, 4)?, num(5, 2)?, num(8, 2)?);
    let (hour, minute, second) = (num(11, 2)?, num(14, 2)?, num(17, 2)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let mut at = 19;
    let mut frac: i64 = 0;
    if sep(at, b".") {
        at += 1;
        let mut scale = 100_000_000;
        while let Some(d) = b.get(at).filter(|d| d.is_ascii_digit()) {
            frac += i64::from(d - b'0') * scale;
            scale /= 10;
            at += 1;
        }
    }
    let offset = match b.get(at) {
        None | Some(b'Z' | b'z') if at + 1 >= b.len() => 0,
        Some(&s @ (b'+' | b'-')) if b.len() == at + 6 && sep(at + 3, b":") => {
            let minutes = num(at + 1, 2)? * 60 + num(at + 4, 2)?;
            if s == b'+' {
                minutes
            } else {
                -minutes
            }
        }
        _ => return None,
    };
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3_600 + (minute - offset) * 60 + second;
    seconds.checked_mul(1_000_000_000)?.checked_add(frac)
}

/// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
/// `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn reads_utc_timestamps_as_the_calendar_counts() {
        // `date -u -d '2026-11-27T19:59:52Z' +%s` is 1795809592.
        assert_eq!(parse("2026-11-27T19:59:52.177337Z"), Some(1_795_809_592_177_337_000));
        assert_eq!(parse("1970-01-01T00:00:00Z"), Some(0));
        // `date -u -d '2000-02-29T12:00:00Z' +%s` is 951825600.
        assert_eq!(parse("2000-02-29T12:00:00"), Some(951_825_600_000_000_000));
        assert_eq!(parse("2026-11-27T19:59:47.110061+00:00"), Some(1_795_809_587_110_061_000));
        assert_eq!(parse("2026-11-27T21:59:47+02:00"), parse("2026-11-27T19:59:47Z"));
    }

    #[test]
    fn refuses_what_is_not_a_timestamp() {
        for bad in ["", "2026-11-27", "2026-13-01T00:00:00Z", "2026-11-27T19:59:52Zjunk", "yesterday at noon..."] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}
