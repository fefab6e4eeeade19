//! Numbers and durations as people read them: milliseconds written exactly,
//! durations in the unit that suits them, integers with thousands
//! separators, sizes in KiB, MiB and GiB; [`Ms`], milliseconds as the
//! reports' JSON and text give them. Durations are nanoseconds (`i64`, as
//! the model's `Nanos`).

use serde_json::{json, Value};
use std::fmt;

/// Nanoseconds in a millisecond.
const NANOS_PER_MS: i64 = 1_000_000;

/// Formats nanoseconds as milliseconds, exact, without trailing zeros: `1500`, `0.0015`.
pub fn ms(ns: i64) -> String {
    let sign = if ns < 0 { "-" } else { "" };
    let (whole, frac) = (ns.unsigned_abs() / 1_000_000, ns.unsigned_abs() % 1_000_000);
    if frac == 0 {
        format!("{sign}{whole}")
    } else {
        let frac = format!("{frac:06}");
        format!("{sign}{whole}.{}", frac.trim_end_matches('0'))
    }
}

/// Nanoseconds shown as milliseconds: exact, as an integer when whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ms(pub i64);

impl Ms {
    /// As a JSON number: an integer when whole, else a float.
    pub fn json(self) -> Value {
        if self.0 % NANOS_PER_MS == 0 {
            json!(self.0 / NANOS_PER_MS)
        } else {
            json!(self.0 as f64 / NANOS_PER_MS as f64)
        }
    }

    /// Rounded to whole milliseconds (Python's `{:.0f}`).
    pub fn rounded(self) -> String {
        format!("{:.0}", self.0 as f64 / NANOS_PER_MS as f64)
    }
}

impl fmt::Display for Ms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&ms(self.0))
    }
}

/// A duration as people read it: `850 µs`, `12.4 ms`, `4.73 s`, `3 m 12 s`, `2 h 05 m`.
pub fn duration_label(ns: i64) -> String {
    let sign = if ns < 0 { "-" } else { "" };
    let ns = ns.unsigned_abs() as f64;
    let trim = |s: String| if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_owned() } else { s };
    if ns < 1e3 {
        format!("{sign}{ns} ns")
    } else if ns < 1e6 {
        format!("{sign}{} µs", trim(format!("{:.1}", ns / 1e3)))
    } else if ns < 1e9 {
        format!("{sign}{} ms", trim(format!("{:.1}", ns / 1e6)))
    } else if ns < 60e9 {
        format!("{sign}{} s", trim(format!("{:.2}", ns / 1e9)))
    } else if ns < 3600e9 {
        let s = (ns / 1e9).round() as u64;
        format!("{sign}{} m {:02} s", s / 60, s % 60)
    } else {
        let m = (ns / 60e9).round() as u64;
        format!("{sign}{} h {:02} m", m / 60, m % 60)
    }
}

/// An integer with thousands separators: `1,271,973`.
pub fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A byte count: `617 B`, `12.4 KiB`, `3.1 MiB`, `1.00 GiB`.
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let mut v = n as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    let digits = if v < 10.0 {
        2
    } else if v < 100.0 {
        1
    } else {
        0
    };
    format!("{v:.digits$} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes_read_well() {
        assert_eq!(super::bytes(617), "617 B");
        assert_eq!(super::bytes(12_697), "12.4 KiB");
        assert_eq!(super::bytes(1 << 30), "1.00 GiB");
        assert_eq!(super::bytes(300 << 20), "300 MiB");
    }

    #[test]
    fn durations_read_well() {
        assert_eq!(super::duration_label(850_000), "850 µs");
        assert_eq!(super::duration_label(12_400_000), "12.4 ms");
        assert_eq!(super::duration_label(4_730_000_000), "4.73 s");
        assert_eq!(super::duration_label(192_000_000_000), "3 m 12 s");
        assert_eq!(super::duration_label(1_000_000_000), "1 s");
    }

    #[test]
    fn ms_is_exact() {
        assert_eq!(super::ms(1_500_000_000), "1500");
        assert_eq!(super::ms(1_500), "0.0015");
        assert_eq!(super::ms(-2_000_001), "-2.000001");
    }

    #[test]
    fn milliseconds() {
        use super::Ms;
        assert_eq!(Ms(1_500_000_000).json(), serde_json::json!(1500));
        assert_eq!(Ms(1_500_000).to_string(), "1.5");
        assert_eq!(Ms(2_500_000).rounded(), "2");
    }

    #[test]
    fn groups_thousands() {
        assert_eq!(super::group(0), "0");
        assert_eq!(super::group(999), "999");
        assert_eq!(super::group(1_271_973), "1,271,973");
    }
}
