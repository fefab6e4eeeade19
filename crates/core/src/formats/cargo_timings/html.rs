//! Cargo's `--timings` page: its `UNIT_DATA` and `CONCURRENCY_DATA`
//! arrays, read element by element (so a page cut short keeps the units
//! before the cut), and its summary table.

use super::seconds::nanos;
use super::{CargoTimings, Dialect, Section, Summary, Unit};
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::error::FormatError;
use serde::Deserialize;
use serde_json::Value;

/// A unit as the page writes it; every field optional, so that each
/// missing one is reported by name.
#[derive(Deserialize)]
struct RawUnit {
    i: Option<u64>,
    name: Option<String>,
    version: Option<String>,
    mode: Option<String>,
    target: Option<String>,
    #[serde(default)]
    features: Vec<String>,
    start: Option<f64>,
    duration: Option<f64>,
    rmeta_time: Option<f64>,
    unlocked_units: Option<Vec<u64>>,
    unlocked_rmeta_units: Option<Vec<u64>>,
    unblocked_units: Option<Vec<u64>>,
    unblocked_rmeta_units: Option<Vec<u64>>,
    sections: Option<Vec<(String, RawSection)>>,
}

#[derive(Deserialize)]
struct RawSection {
    start: f64,
    end: f64,
}

/// Reads a whole page.
pub fn read(raw: &[u8], diags: &mut Diagnostics) -> Result<CargoTimings, FormatError> {
    let Some(at) = array_after(raw, b"UNIT_DATA") else {
        return Err(FormatError::new(
            "Cargo timings",
            Position::Whole,
            "the page has no `UNIT_DATA = [` (is it cut before its script?)",
            raw.get(..raw.len().min(64)).unwrap_or_default(),
        ));
    };
    let mut out = CargoTimings { summary: summary(raw), ..CargoTimings::default() };
    let mut unblocked_names = false;
    for (pos, value) in elements(raw, at, "cargo.unit-data", diags) {
        let position = Position::Byte(pos as u64);
        let has = |k: &str| value.get(k).is_some();
        unblocked_names |= has("unblocked_units");
        out.rmeta_time_field |= has("rmeta_time");
        if !has("unblocked_units") && !has("unlocked_units") {
            diags.report(
                Severity::Warning,
                "cargo.lists",
                position,
                "the unit has neither `unblocked_units` nor `unlocked_units`: what it made ready is unknown",
            );
        }
        match serde_json::from_value::<RawUnit>(value) {
            Ok(u) => out.units.extend(unit(u, position, diags)),
            Err(e) => diags.report(
                Severity::Warning,
                "cargo.unit",
                position,
                format!("the unit is not as cargo writes it ({e}); skipped"),
            ),
        }
    }
    out.dialect = if unblocked_names { Dialect::HtmlUnblocked } else { Dialect::HtmlUnlocked };
    if let Some(at) = array_after(raw, b"CONCURRENCY_DATA") {
        let points = elements(raw, at, "cargo.concurrency-data", diags);
        out.summary.last_concurrency = points.last().and_then(|(_, p)| p.get("t")?.as_f64()).and_then(nanos);
        out.summary.most_active = points.iter().filter_map(|(_, p)| p.get("active")?.as_u64()).max();
    }
    Ok(out)
}

/// A unit from its fields, or `None` (reported) when one it needs is missing.
fn unit(u: RawUnit, position: Position, diags: &mut Diagnostics) -> Option<Unit> {
    let missing = [
        ("i", u.i.is_none()),
        ("name", u.name.is_none()),
        ("start", u.start.is_none()),
        ("duration", u.duration.is_none()),
    ]
    .into_iter()
    .filter(|(_, m)| *m)
    .map(|(f, _)| f)
    .collect::<Vec<_>>();
    if !missing.is_empty() {
        diags.report(
            Severity::Warning,
            "cargo.unit",
            position,
            format!("the unit has no `{}`; skipped", missing.join("`, `")),
        );
        return None;
    }
    let (Some(start), Some(duration)) = (u.start.and_then(nanos), u.duration.and_then(nanos)) else {
        diags.report(
            Severity::Warning,
            "cargo.time",
            position,
            "the unit's start or duration is negative, not a number or over a year; skipped",
        );
        return None;
    };
    let sections: Vec<Section> = u
        .sections
        .unwrap_or_default()
        .into_iter()
        .filter_map(|(name, s)| Some(Section { name, start: nanos(s.start)?, end: nanos(s.end)? }))
        .collect();
    // Until 1.94 `rmeta_time`; from 1.95 the end of the frontend section.
    let rmeta = u.rmeta_time.and_then(nanos).or_else(|| sections.iter().find(|s| s.name == "frontend").map(|s| s.end));
    Some(Unit {
        index: u.i.unwrap_or_default(),
        name: u.name.unwrap_or_default(),
        version: u.version.unwrap_or_default(),
        mode: u.mode.unwrap_or_default(),
        target: u.target.unwrap_or_default(),
        features: u.features,
        start,
        duration,
        rmeta,
        unblocked: u.unblocked_units.or(u.unlocked_units).unwrap_or_default(),
        unblocked_rmeta: u.unblocked_rmeta_units.or(u.unlocked_rmeta_units).unwrap_or_default(),
        sections,
        position,
    })
}

/// Where the array of `const NAME = [` starts (at its `[`).
fn array_after(raw: &[u8], name: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = find(raw.get(from..)?, name) {
        let after = from + i + name.len();
        let rest = raw.get(after..)?;
        let eq = skip_space(rest, 0);
        if rest.get(eq) == Some(&b'=') {
            let open = skip_space(rest, eq + 1);
            if rest.get(open) == Some(&b'[') {
                return Some(after + open);
            }
        }
        from = after;
    }
    None
}

/// The JSON values of the array whose `[` is at `at`, with their byte
/// offsets; a cut or broken array is reported under `code` at the byte
/// where it breaks, keeping the values before it.
fn elements(raw: &[u8], at: usize, code: &'static str, diags: &mut Diagnostics) -> Vec<(usize, Value)> {
    let mut out = Vec::new();
    let mut pos = skip_space(raw, at + 1);
    let broken = |pos: usize, diags: &mut Diagnostics, what: &str| {
        diags.report(
            Severity::Warning,
            code,
            Position::Byte(pos as u64),
            format!("the array breaks off here ({what}); what came before is read"),
        )
    };
    loop {
        match raw.get(pos) {
            Some(b']') => return out,
            None => {
                broken(pos, diags, "the page ends");
                return out;
            }
            Some(_) => {}
        }
        let rest = raw.get(pos..).unwrap_or_default();
        let mut stream = serde_json::Deserializer::from_slice(rest).into_iter::<Value>();
        match stream.next() {
            Some(Ok(v)) => out.push((pos, v)),
            Some(Err(e)) => {
                broken(pos, diags, &e.to_string());
                return out;
            }
            None => {
                broken(pos, diags, "the page ends");
                return out;
            }
        }
        pos = skip_space(raw, pos + stream.byte_offset());
        match raw.get(pos) {
            Some(b',') => pos = skip_space(raw, pos + 1),
            Some(b']') => return out,
            _ => {
                broken(pos, diags, "no `,` or `]` after a value");
                return out;
            }
        }
    }
}

/// The summary table's cells (`<td>Fresh units:</td><td>0</td>`).
fn summary(raw: &[u8]) -> Summary {
    let cell = |label: &str| -> Option<String> {
        let key = format!("<td>{label}:</td><td>");
        let at = find(raw, key.as_bytes())? + key.len();
        let rest = raw.get(at..)?;
        let end = find(rest, b"</td>")?;
        Some(String::from_utf8_lossy(rest.get(..end)?).into_owned())
    };
    let number = |s: &str| s.trim().split(|c: char| !c.is_ascii_digit()).next()?.parse::<u64>().ok();
    let concurrency = cell("Max concurrency");
    Summary {
        fresh: cell("Fresh units").as_deref().and_then(number),
        dirty: cell("Dirty units").as_deref().and_then(number),
        total_units: cell("Total units").as_deref().and_then(number),
        max_concurrency: concurrency.as_deref().and_then(number),
        jobs: concurrency.as_deref().and_then(|c| number(c.split_once("jobs=")?.1)),
        total_time: cell("Total time"),
        last_concurrency: None,
        most_active: None,
        profile: cell("Profile"),
        rustc: cell("rustc").map(|r| r.split("<br>").next().unwrap_or_default().to_owned()),
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn skip_space(raw: &[u8], mut pos: usize) -> usize {
    while raw.get(pos).is_some_and(u8::is_ascii_whitespace) {
        pos += 1;
    }
    pos
}
