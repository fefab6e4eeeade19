//! Readable text dumps of a model, one task per line: what snapshot tests
//! compare and what `longpole dump` prints.

use crate::model::{Model, Nanos, Role, TaskId};
use std::fmt::Write;

/// Formats nanoseconds as milliseconds, exact, without trailing zeros: `1500`, `0.0015`.
pub fn ms(ns: Nanos) -> String {
    let sign = if ns < 0 { "-" } else { "" };
    let (whole, frac) = (ns.unsigned_abs() / 1_000_000, ns.unsigned_abs() % 1_000_000);
    if frac == 0 {
        format!("{sign}{whole}")
    } else {
        let frac = format!("{frac:06}");
        format!("{sign}{whole}.{}", frac.trim_end_matches('0'))
    }
}

/// A duration as people read it: `850 µs`, `12.4 ms`, `4.73 s`, `3 m 12 s`, `2 h 05 m`.
pub fn duration_label(ns: Nanos) -> String {
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

fn opt_ms(t: Option<Nanos>) -> String {
    t.map_or_else(|| "?".to_owned(), ms)
}

fn role(r: Role) -> &'static str {
    match r {
        Role::Work => "work",
        Role::Transfer => "transfer",
        Role::Setup => "setup",
        Role::Phase => "phase",
    }
}

/// One line per task: role, uid, lane, start, end, duration (ms; `?` when
/// unknown), kind, flags and dependencies; then the window.
pub fn tasks(model: &Model) -> String {
    let mut out = String::new();
    for (i, t) in model.tasks().iter().enumerate() {
        let deps: Vec<String> = model
            .deps(TaskId(i as u32))
            .iter()
            .map(|&d| format!("{}@{}", model.uid(d), role(model.task(d).role)))
            .collect();
        let _ = write!(
            out,
            "{} {} lane={} {}..{} dur={} kind={}",
            role(t.role),
            model.uid(TaskId(i as u32)),
            model.lanes()[t.lane.index()].name,
            opt_ms(t.start),
            opt_ms(t.end),
            opt_ms(t.duration()),
            model.kinds()[t.kind.index()].name,
        );
        if let Some(b) = t.bytes() {
            let _ = write!(out, " bytes={b}");
        }
        if let Some(o) = t.origin() {
            let _ = write!(out, " from={}", model.lanes()[o.index()].name);
        }
        if t.cached {
            out.push_str(" cached");
        }
        if t.failed {
            out.push_str(" failed");
        }
        let _ = writeln!(out, " deps=[{}]", deps.join(", "));
    }
    match model.window() {
        Some((a, b)) => {
            let _ = writeln!(out, "window {}..{} wall={}", ms(a), ms(b), ms(b - a));
        }
        None => out.push_str("window none\n"),
    }
    out
}

#[cfg(test)]
mod tests {
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
}
