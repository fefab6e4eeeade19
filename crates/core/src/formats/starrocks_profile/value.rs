//! Counter values as StarRocks prints them, with their units.
//!
//! ```text
//! TIME_NS           0ns  456ns  2.192us  3.713ms  1s54ms  9m41s  1h30m   (Planner: 0, 4ms)
//! UNIT              624   1.026K (1026)   20.124M (20123648)   1.5B (1500000000)
//! BYTES             0.000 B   278.391 KB   538.353 MB   5.708 GB   -1.000 B   (base 1024)
//! BYTES_PER_SECOND  0.000 B/sec   12.5 MB/sec
//! ```
//!
//! Anything else is an info string ([`Value::Text`]): hostnames, `True`,
//! JSON. The printed text is kept beside the value, so nothing here has to
//! print it back.

use crate::model::Nanos;
use serde::Serialize;

/// A counter's value, read from its text.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "unit", content = "value", rename_all = "snake_case")]
pub enum Value {
    /// A flag: the line has no value (`- IsSubordinate`).
    Flag,
    /// A time, ns.
    Time(Nanos),
    /// A count: exact where the text gives the exact value in parentheses,
    /// else the shown value times its suffix (K, M, B = 10³, 10⁶, 10⁹).
    Count(i64),
    /// A size, bytes (base 1024; rounded as printed).
    Bytes(f64),
    /// A rate, bytes per second.
    Rate(f64),
    /// An info string (free text, JSON, `True`).
    Text,
}

impl Value {
    /// Reads a value's text; what is no number with a unit is [`Value::Text`].
    pub fn parse(text: &str) -> Value {
        if let Some(ns) = parse_time(text) {
            Value::Time(ns)
        } else if let Some(n) = parse_count(text) {
            Value::Count(n)
        } else if let Some(rate) = text.strip_suffix("/sec").and_then(parse_bytes) {
            Value::Rate(rate)
        } else if let Some(b) = parse_bytes(text) {
            Value::Bytes(b)
        } else {
            Value::Text
        }
    }

    /// The value as a number: ns, a count, bytes or bytes per second.
    pub fn number(self) -> Option<f64> {
        match self {
            Value::Time(ns) => Some(ns as f64),
            Value::Count(n) => Some(n as f64),
            Value::Bytes(b) | Value::Rate(b) => Some(b),
            Value::Flag | Value::Text => None,
        }
    }

    /// The time, if it is one.
    pub fn time(self) -> Option<Nanos> {
        match self {
            Value::Time(ns) => Some(ns),
            _ => None,
        }
    }
}

/// A decimal number (`12`, `2.192`, `-1.000`) with nothing around it.
fn decimal(s: &str) -> Option<f64> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    let ok = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && digits.bytes().filter(|&b| b == b'.').count() <= 1
        && digits.bytes().next().is_some_and(|b| b.is_ascii_digit())
        && !digits.ends_with('.');
    if ok {
        s.parse().ok()
    } else {
        None
    }
}

/// A time: one or more `<number><unit>` parts, units h, m, s, ms, us, ns
/// (`9m41s`, `1s54ms`, `2.192us`), or `0` as the Planner prints zero.
pub fn parse_time(text: &str) -> Option<Nanos> {
    if text == "0" {
        return Some(0);
    }
    let (negative, mut rest) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text),
    };
    if rest.is_empty() {
        return None;
    }
    let mut total = 0f64;
    while !rest.is_empty() {
        let num_len = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
        let number = decimal(&rest[..num_len])?;
        rest = &rest[num_len..];
        let unit_len = rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len());
        let scale = match &rest[..unit_len] {
            "h" => 3_600e9,
            "m" => 60e9,
            "s" => 1e9,
            "ms" => 1e6,
            "us" => 1e3,
            "ns" => 1.0,
            _ => return None,
        };
        rest = &rest[unit_len..];
        total += number * scale;
    }
    let ns = total.round();
    if ns > i64::MAX as f64 {
        return None;
    }
    Some(if negative { -(ns as i64) } else { ns as i64 })
}

/// A count: a plain integer, or `<number><K|M|B>` with the exact value in
/// parentheses (`1.026K (1026)`), which wins.
pub fn parse_count(text: &str) -> Option<i64> {
    if let Ok(n) = text.parse::<i64>() {
        return Some(n);
    }
    let (shown, exact) = match text.split_once(" (") {
        Some((shown, rest)) => (shown, Some(rest.strip_suffix(')')?.parse::<i64>().ok()?)),
        None => (text, None),
    };
    let scale = match shown.as_bytes().last()? {
        b'K' => 1e3,
        b'M' => 1e6,
        b'B' => 1e9,
        _ => return None,
    };
    let number = decimal(&shown[..shown.len() - 1])?;
    Some(exact.unwrap_or((number * scale).round() as i64))
}

/// A size: `<number> <B|KB|MB|GB|TB|PB>`, base 1024.
pub fn parse_bytes(text: &str) -> Option<f64> {
    let (number, unit) = text.split_once(' ')?;
    let power = match unit {
        "B" => 0,
        "KB" => 1,
        "MB" => 2,
        "GB" => 3,
        "TB" => 4,
        "PB" => 5,
        _ => return None,
    };
    Some(decimal(number)? * 1024f64.powi(power))
}

/// A time as StarRocks prints it (`456ns`, `2.192us`, `3.713ms`, `1s54ms`,
/// `9m41s`, `1h30m`): below a second, three decimals cut (not rounded) at
/// the unit; from a second on, whole milliseconds, then the two largest of
/// hours, minutes, seconds and milliseconds that apply.
pub fn print_time(ns: Nanos) -> String {
    if ns < 0 {
        return format!("-{}", print_time(ns.saturating_neg()));
    }
    if ns < 1_000 {
        return format!("{ns}ns");
    }
    if ns < 1_000_000 {
        return format!("{}.{:03}us", ns / 1_000, ns % 1_000);
    }
    if ns < 1_000_000_000 {
        let us = ns / 1_000;
        return format!("{}.{:03}ms", us / 1_000, us % 1_000);
    }
    print_millis(ns)
}

/// A time in whole milliseconds as StarRocks prints one (`0`, `4ms`,
/// `1s54ms`, `9m41s`, `1h30m`): the Planner's timers, `Collect Profile
/// Time`, and every time of a second or more.
pub fn print_millis(ns: Nanos) -> String {
    let mut ms = ns.max(0) / 1_000_000;
    if ms == 0 {
        return "0".to_owned();
    }
    let mut out = String::new();
    let hour = ms >= 3_600_000;
    if hour {
        out.push_str(&format!("{}h", ms / 3_600_000));
        ms %= 3_600_000;
    }
    let minute = ms >= 60_000;
    if minute {
        out.push_str(&format!("{}m", ms / 60_000));
        ms %= 60_000;
    }
    if !hour && ms >= 1_000 {
        out.push_str(&format!("{}s", ms / 1_000));
        ms %= 1_000;
    }
    if !hour && !minute {
        out.push_str(&format!("{ms}ms"));
    }
    out
}

/// A size as StarRocks prints it: three decimals and the largest unit of
/// B, KB, MB, GB, TB (base 1024) the size reaches (`0.000 B`, `1.027 GB`).
pub fn print_bytes(bytes: f64) -> String {
    let units = ["B", "KB", "MB", "GB", "TB"];
    let mut value = bytes;
    let mut unit = 0;
    while value.abs() >= 1024.0 && unit + 1 < units.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.3} {}", units[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_in_every_unit() {
        assert_eq!(parse_time("0ns"), Some(0));
        assert_eq!(parse_time("456ns"), Some(456));
        assert_eq!(parse_time("2.192us"), Some(2_192));
        assert_eq!(parse_time("3us"), Some(3_000));
        assert_eq!(parse_time("3.713ms"), Some(3_713_000));
        assert_eq!(parse_time("4ms"), Some(4_000_000));
        assert_eq!(parse_time("1s54ms"), Some(1_054_000_000));
        assert_eq!(parse_time("45s45ms"), Some(45_045_000_000));
        assert_eq!(parse_time("9m41s"), Some(581_000_000_000));
        assert_eq!(parse_time("1h30m"), Some(5_400_000_000_000));
        assert_eq!(parse_time("0"), Some(0));
        assert_eq!(parse_time("-1ms"), Some(-1_000_000));
        for bad in ["", "ms", "1x", "1..2ms", "1 ms", "True", "1.m", ".5s", "-"] {
            assert_eq!(parse_time(bad), None, "{bad}");
        }
    }

    #[test]
    fn counts_with_suffixes_and_exact_values() {
        assert_eq!(parse_count("624"), Some(624));
        assert_eq!(parse_count("-1"), Some(-1));
        assert_eq!(parse_count("1.026K (1026)"), Some(1026));
        assert_eq!(parse_count("20.124M (20123648)"), Some(20_123_648));
        assert_eq!(parse_count("1.500B (1500000001)"), Some(1_500_000_001));
        assert_eq!(parse_count("2.5K"), Some(2500));
        assert_eq!(parse_count("1.5B"), Some(1_500_000_000));
        assert_eq!(parse_count("1.0X (3)"), None);
        assert_eq!(parse_count("1K (x)"), None);
    }

    #[test]
    fn sizes_and_rates() {
        assert_eq!(parse_bytes("0.000 B"), Some(0.0));
        assert_eq!(parse_bytes("-1.000 B"), Some(-1.0));
        assert_eq!(parse_bytes("14.000 B"), Some(14.0));
        assert_eq!(parse_bytes("2.000 KB"), Some(2048.0));
        assert_eq!(parse_bytes("1.500 MB"), Some(1.5 * 1024.0 * 1024.0));
        assert_eq!(parse_bytes("1.000 GB"), Some(1024f64.powi(3)));
        assert_eq!(Value::parse("0.000 B/sec"), Value::Rate(0.0));
        assert_eq!(Value::parse("2.000 MB/sec"), Value::Rate(2.0 * 1024.0 * 1024.0));
        assert_eq!(Value::parse("3.000 KB/sec"), Value::Rate(3072.0));
        assert_eq!(Value::parse("5.708 GB"), Value::Bytes(5.708 * 1024f64.powi(3)));
    }

    #[test]
    fn everything_else_is_text() {
        assert_eq!(Value::parse("9m41s"), Value::Time(581_000_000_000));
        assert_eq!(Value::parse("1.026K (1026)"), Value::Count(1026));
        for text in ["True", "Passthrough", "1: dayno", "{\"a\":1}", "", "2025-10-15 15:37:06", "3.5.2-69de616"] {
            assert_eq!(Value::parse(text), Value::Text, "{text}");
        }
    }

    #[test]
    fn times_print_as_starrocks_prints_them() {
        // Each text is one the corpus profiles print; printing its value gives it back.
        for text in [
            "0ns",
            "456ns",
            "2.192us",
            "538.833us",
            "3.713ms",
            "19.492ms",
            "1s54ms",
            "18s164ms",
            "1s727ms",
            "9m41s",
            "3m7s",
            "1h30m",
            "1h31m",
        ] {
            assert_eq!(print_time(parse_time(text).unwrap()), text);
        }
        // Cut, not rounded, at the unit; a whole minute prints no seconds.
        assert_eq!(print_time(1_999), "1.999us");
        assert_eq!(print_time(581_001_628_529), "9m41s");
        assert_eq!(print_time(540_000_000_000), "9m");
        assert_eq!(print_time(-456), "-456ns");
        for text in ["0", "1ms", "4ms", "8ms", "7s854ms"] {
            assert_eq!(print_millis(parse_time(text).unwrap()), text);
        }
    }

    #[test]
    fn sizes_print_as_starrocks_prints_them() {
        for text in ["0.000 B", "14.000 B", "442.328 KB", "38.890 MB", "1.027 GB", "23.757 GB", "558.156 GB"] {
            assert_eq!(print_bytes(parse_bytes(text).unwrap()), text);
        }
        assert_eq!(print_bytes(-1.0), "-1.000 B");
    }
}
