//! Recoverable problems found in the input: typed, positioned, counted.
//!
//! A reader never stops at a bad record: it records a [`Diagnostic`] and goes
//! on. Only "this is not (or no longer) this format" is an [`crate::Error`].
//! The collector keeps every count exact but stores at most
//! [`Diagnostics::KEEP_PER_CODE`] diagnostics of one code, so a file with a
//! million bad lines costs a few kilobytes, not a copy of the file.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

/// How bad a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; nothing was lost (an older dialect, a skipped optional field).
    Info,
    /// Something was dropped or guessed; results may be incomplete.
    Warning,
    /// Data that should be there is missing or broken; results are affected.
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// Where in an input a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "lowercase")]
pub enum Position {
    /// A 1-based line number in the (decompressed) text.
    Line(u64),
    /// A 0-based byte offset in the (decompressed) stream.
    Byte(u64),
    /// The problem concerns the input as a whole (found after reading it).
    Whole,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Position::Line(n) => write!(f, "line {n}"),
            Position::Byte(n) => write!(f, "byte {n}"),
            Position::Whole => f.write_str("whole input"),
        }
    }
}

/// One recoverable problem.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// How bad it is.
    pub severity: Severity,
    /// A stable, machine-readable code such as `distbuild.short-line`.
    pub code: Cow<'static, str>,
    /// Where it is.
    pub position: Position,
    /// What is wrong, in plain words, quoting the offending value.
    pub message: String,
}

impl Diagnostic {
    /// Builds a diagnostic.
    pub fn new(severity: Severity, code: &'static str, position: Position, message: impl Into<String>) -> Self {
        Diagnostic { severity, code: Cow::Borrowed(code), position, message: message.into() }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} [{}]: {}", self.position, self.severity, self.code, self.message)
    }
}

/// Exact count of one diagnostic code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeCount {
    /// The code.
    pub code: Cow<'static, str>,
    /// Its severity.
    pub severity: Severity,
    /// How many times it occurred.
    pub count: u64,
}

/// A bounded collector of diagnostics with exact counts.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Diagnostics {
    kept: Vec<Diagnostic>,
    counts: BTreeMap<Cow<'static, str>, (Severity, u64)>,
}

impl Diagnostics {
    /// How many diagnostics of one code are stored; the rest are only counted.
    pub const KEEP_PER_CODE: u64 = 100;

    /// An empty collector.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a diagnostic.
    pub fn push(&mut self, d: Diagnostic) {
        let entry = self.counts.entry(d.code.clone()).or_insert((d.severity, 0));
        entry.1 += 1;
        if entry.1 <= Self::KEEP_PER_CODE {
            self.kept.push(d);
        }
    }

    /// Adds everything `other` recorded, its counts included.
    pub fn absorb(&mut self, other: Diagnostics) {
        for d in other.kept {
            let entry = self.counts.entry(d.code.clone()).or_insert((d.severity, 0));
            if entry.1 < Self::KEEP_PER_CODE {
                self.kept.push(d);
            }
            entry.1 += 1;
        }
        for (code, (severity, n)) in other.counts {
            let kept = n.min(Self::KEEP_PER_CODE);
            let entry = self.counts.entry(code).or_insert((severity, 0));
            entry.1 += n - kept;
        }
    }

    /// Records a diagnostic built from its parts.
    pub fn report(&mut self, severity: Severity, code: &'static str, position: Position, message: impl Into<String>) {
        self.push(Diagnostic::new(severity, code, position, message));
    }

    /// The stored diagnostics, in the order they were found.
    pub fn kept(&self) -> &[Diagnostic] {
        &self.kept
    }

    /// Total number of diagnostics recorded, stored or not.
    pub fn total(&self) -> u64 {
        self.counts.values().map(|(_, n)| n).sum()
    }

    /// How many diagnostics of `code` were recorded.
    pub fn count_of(&self, code: &str) -> u64 {
        self.counts.get(code).map_or(0, |(_, n)| *n)
    }

    /// Exact counts per code, sorted by code.
    pub fn counts(&self) -> Vec<CodeCount> {
        self.counts
            .iter()
            .map(|(code, (severity, count))| CodeCount { code: code.clone(), severity: *severity, count: *count })
            .collect()
    }

    /// Total number of diagnostics at `severity`.
    pub fn total_at(&self, severity: Severity) -> u64 {
        self.counts.values().filter(|(s, _)| *s == severity).map(|(_, n)| n).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_a_bounded_number_per_code_but_counts_all() {
        let mut d = Diagnostics::new();
        for i in 0..1000 {
            d.report(Severity::Warning, "x.bad", Position::Line(i), "bad");
        }
        d.report(Severity::Error, "x.worse", Position::Byte(7), "worse");
        assert_eq!(d.total(), 1001);
        assert_eq!(d.count_of("x.bad"), 1000);
        assert_eq!(d.kept().len() as u64, Diagnostics::KEEP_PER_CODE + 1);
        assert_eq!(d.total_at(Severity::Error), 1);
        assert_eq!(d.kept().last().unwrap().to_string(), "byte 7: error [x.worse]: worse");
    }
}
