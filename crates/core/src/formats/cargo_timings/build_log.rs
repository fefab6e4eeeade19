//! Cargo's `-Zbuild-analysis` log, one JSON object a line: its units from
//! `unit-registered`, their times from `unit-started`,
//! `unit-rmeta-finished`, `unit-section-*` and `unit-finished`, the fresh
//! and dirty counts from `unit-fingerprint`.

use super::seconds::nanos;
use super::{CargoTimings, Dialect, Section, Summary, Unit};
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::error::FormatError;
use crate::formats::{Sniff, SniffInput};
use crate::hash::FastMap;
use crate::model::Nanos;
use serde_json::Value;

/// How every line of the log starts (cargo writes `run_id` first).
const START: &[u8] = b"{\"run_id\":\"";

/// Yes when the first line starts as cargo writes it and names a `reason`.
pub fn sniff(input: SniffInput<'_>) -> Sniff {
    let head = input.head.trim_ascii_start();
    let short = SniffInput { head, ..input };
    match short.starts_with(START) {
        Sniff::Yes => {}
        other => return other,
    }
    let line = head.split(|&b| b == b'\n').next().unwrap_or_default();
    let complete = line.len() < head.len() || input.at_eof;
    match (line.windows(10).any(|w| w == b"\"reason\":\""), complete) {
        (true, _) => Sniff::Yes,
        (false, true) => Sniff::No,
        (false, false) => Sniff::NeedMore,
    }
}

/// A unit while its events come in.
struct Pending {
    unit: Unit,
    started: bool,
    finished: bool,
    /// Named sections as started and ended (after the unit's start).
    sections: Vec<(String, Nanos, Option<Nanos>)>,
}

/// Reads a log line by line.
#[derive(Default)]
pub struct LogReader {
    units: Vec<Pending>,
    by_index: FastMap<u64, usize>,
    summary: Summary,
    fresh: u64,
    dirty: u64,
    events: u64,
}

impl LogReader {
    /// Events read so far.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Reads line `no`.
    pub fn line(&mut self, no: u64, line: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError> {
        let line = line.trim_ascii();
        if line.is_empty() {
            return Ok(());
        }
        let at = Position::Line(no);
        let v: Value = match serde_json::from_slice(line) {
            Ok(v) => v,
            Err(e) => {
                if no == 1 {
                    return Err(FormatError::new("Cargo build-analysis log", at, "the first line is not JSON", line));
                }
                diags.report(Severity::Warning, "cargo.line", at, format!("not a JSON object ({e}); skipped"));
                return Ok(());
            }
        };
        self.events += 1;
        let reason = v.get("reason").and_then(Value::as_str).unwrap_or_default();
        let elapsed = v.get("elapsed").and_then(Value::as_f64).and_then(nanos);
        match reason {
            "build-started" => {
                let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
                self.summary.jobs = v.get("jobs").and_then(Value::as_u64);
                self.summary.profile = s("profile");
                self.summary.rustc = s("rustc_version").map(|r| format!("rustc {r}"));
            }
            "unit-registered" => self.register(&v, at, diags),
            "unit-fingerprint" => match v.get("status").and_then(Value::as_str) {
                Some("fresh") => self.fresh += 1,
                Some(_) => self.dirty += 1,
                None => {}
            },
            "unit-started"
            | "unit-rmeta-finished"
            | "unit-section-started"
            | "unit-section-finished"
            | "unit-finished" => {
                let Some(i) = v.get("index").and_then(Value::as_u64) else {
                    diags.report(
                        Severity::Warning,
                        "cargo.line",
                        at,
                        format!("`{reason}` without an `index`; skipped"),
                    );
                    return Ok(());
                };
                let Some(elapsed) = elapsed else {
                    diags.report(
                        Severity::Warning,
                        "cargo.time",
                        at,
                        format!("`{reason}` without a valid `elapsed`; skipped"),
                    );
                    return Ok(());
                };
                let Some(&slot) = self.by_index.get(&i) else {
                    diags.report(
                        Severity::Warning,
                        "cargo.unknown-unit",
                        at,
                        format!("`{reason}` of unit {i}, which was not registered; skipped"),
                    );
                    return Ok(());
                };
                let list = || -> Vec<u64> {
                    v.get("unblocked")
                        .and_then(Value::as_array)
                        .map_or_else(Vec::new, |a| a.iter().filter_map(Value::as_u64).collect())
                };
                let section = v.get("section").and_then(Value::as_str).unwrap_or_default().to_owned();
                let Some(p) = self.units.get_mut(slot) else { return Ok(()) };
                let since = (elapsed - p.unit.start).max(0);
                match reason {
                    "unit-started" => {
                        p.unit.start = elapsed;
                        p.started = true;
                    }
                    "unit-rmeta-finished" => {
                        p.unit.rmeta = Some(since);
                        p.unit.unblocked_rmeta = list();
                    }
                    "unit-section-started" => p.sections.push((section, since, None)),
                    "unit-section-finished" => {
                        if let Some(s) = p.sections.iter_mut().rev().find(|s| s.0 == section) {
                            s.2 = Some(since);
                        }
                    }
                    _ => {
                        p.unit.duration = since;
                        p.unit.unblocked = list();
                        p.finished = true;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn register(&mut self, v: &Value, at: Position, diags: &mut Diagnostics) {
        let Some(index) = v.get("index").and_then(Value::as_u64) else {
            diags.report(Severity::Warning, "cargo.unit", at, "`unit-registered` without an `index`; skipped");
            return;
        };
        if self.by_index.contains_key(&index) {
            diags.report(
                Severity::Warning,
                "cargo.duplicate-unit",
                at,
                format!("unit {index} is registered again; the first is kept"),
            );
            return;
        }
        let package = v.get("package_id").and_then(Value::as_str).unwrap_or_default();
        let (name, version) = package_name(package);
        let kind = v.pointer("/target/kind").and_then(Value::as_str).unwrap_or_default();
        let target_name = v.pointer("/target/name").and_then(Value::as_str).unwrap_or_default();
        let mode = v.get("mode").and_then(Value::as_str).unwrap_or_default();
        let features = v
            .get("features")
            .and_then(Value::as_array)
            .map_or_else(Vec::new, |a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect());
        self.by_index.insert(index, self.units.len());
        self.units.push(Pending {
            unit: Unit {
                index,
                name,
                version,
                mode: if mode == "run-custom-build" { mode.to_owned() } else { "todo".to_owned() },
                target: target_text(target_name, kind, mode),
                features,
                start: 0,
                duration: 0,
                rmeta: None,
                unblocked: Vec::new(),
                unblocked_rmeta: Vec::new(),
                sections: Vec::new(),
                position: at,
            },
            started: false,
            finished: false,
            sections: Vec::new(),
        });
    }

    /// The units that ran, and what was counted.
    pub fn finish(self, diags: &mut Diagnostics) -> CargoTimings {
        let ran: std::collections::HashSet<u64> =
            self.units.iter().filter(|p| p.started && p.finished).map(|p| p.unit.index).collect();
        let mut units = Vec::with_capacity(ran.len());
        for p in self.units {
            if p.started && !p.finished {
                diags.report(
                    Severity::Warning,
                    "cargo.unfinished",
                    p.unit.position,
                    format!(
                        "unit {} ({}) started and never finished: the log is cut short; left out",
                        p.unit.index, p.unit.name
                    ),
                );
            }
            if !(p.started && p.finished) {
                continue;
            }
            let mut unit = p.unit;
            unit.unblocked.retain(|i| ran.contains(i));
            unit.unblocked_rmeta.retain(|i| ran.contains(i));
            unit.sections = sections(&p.sections, unit.rmeta, unit.duration);
            units.push(unit);
        }
        units.sort_by_key(|u| u.start);
        let summary = Summary {
            fresh: Some(self.fresh),
            dirty: Some(self.dirty),
            total_units: Some(self.fresh + self.dirty),
            ..self.summary
        };
        CargoTimings { dialect: Dialect::BuildAnalysis, rmeta_time_field: false, units, summary, raw: Vec::new() }
    }
}

/// A unit's sections as cargo's page gives them: with named sections, an
/// implicit `frontend` up to the first, each ending where the next starts
/// when its end is missing; without, `frontend` up to the metadata and
/// `codegen` after it; nothing when neither is known.
fn sections(named: &[(String, Nanos, Option<Nanos>)], rmeta: Option<Nanos>, end: Nanos) -> Vec<Section> {
    if let Some(first) = named.first() {
        let mut out = vec![Section { name: "frontend".into(), start: 0, end: first.1 }];
        for (i, (name, start, stop)) in named.iter().enumerate() {
            let next = named.get(i + 1).map(|n| n.1);
            out.push(Section { name: name.to_lowercase(), start: *start, end: stop.or(next).unwrap_or(end) });
        }
        return out;
    }
    match rmeta {
        Some(r) => vec![
            Section { name: "frontend".into(), start: 0, end: r },
            Section { name: "codegen".into(), start: r, end },
        ],
        None => Vec::new(),
    }
}

/// The package's name and version from a package id spec
/// (`path+file:///w/alpha#0.1.0`, `registry+https://…#serde@1.0.200`).
fn package_name(spec: &str) -> (String, String) {
    let (url, fragment) = spec.rsplit_once('#').unwrap_or((spec, ""));
    match fragment.split_once('@') {
        Some((name, version)) => (name.to_owned(), version.to_owned()),
        None => {
            let last = url.trim_end_matches('/').rsplit('/').next().unwrap_or(url);
            (last.to_owned(), fragment.to_owned())
        }
    }
}

/// The target as cargo's page shows it, from the log's target and mode.
fn target_text(name: &str, kind: &str, mode: &str) -> String {
    let mut s = match kind {
        "lib" if matches!(mode, "build" | "check") => String::new(),
        "build-script" => " build-script".to_owned(),
        _ => format!(" {name} \"{kind}\""),
    };
    s.push_str(match mode {
        "test" => " (test)",
        "check" => " (check)",
        "doc" => " (doc)",
        "doctest" => " (doc test)",
        "docscrape" => " (doc scrape)",
        "run-custom-build" => " (run)",
        _ => "",
    });
    s
}

#[cfg(test)]
mod tests {
    use super::{package_name, target_text};

    #[test]
    fn package_ids_and_targets_read_as_cargo_names_them() {
        assert_eq!(package_name("path+file:///tmp/w/alpha#0.1.0"), ("alpha".into(), "0.1.0".into()));
        assert_eq!(
            package_name("registry+https://github.com/rust-lang/crates.io-index#serde@1.0.200"),
            ("serde".into(), "1.0.200".into())
        );
        assert_eq!(target_text("alpha", "lib", "build"), "");
        assert_eq!(target_text("build-script-build", "build-script", "run-custom-build"), " build-script (run)");
        assert_eq!(target_text("app", "bin", "build"), " app \"bin\"");
        assert_eq!(target_text("beta", "lib", "test"), " beta \"lib\" (test)");
    }
}
