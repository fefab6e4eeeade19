//! A comparison of two sides' runs as the app shows it ([`CompareView`]):
//! the wall time's change and its three parts, the what-if, the two paths
//! aligned, and every key's change as a [`Table`] (sorted, searched and
//! exported as CSV and JSON like every table of a run), with the noise
//! settings that made it. Made once in the worker from the same
//! [`Comparison`] that `longpole compare` prints.

use crate::compare::result::{Comparison, TaskChange};
use crate::report::compare::{dur, percent, signed};
use crate::view::table::{number, text, Cell, Row, Table, Unit};
use serde::{Deserialize, Serialize};

/// What the compare screen shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareView {
    /// Side A's runs, by name.
    pub runs_a: Vec<String>,
    /// Side B's runs, by name.
    pub runs_b: Vec<String>,
    /// The run of A whose path and wall time are shown.
    pub representative_a: String,
    /// The run of B whose path and wall time are shown.
    pub representative_b: String,
    /// A's wall time, ms.
    pub wall_a_ms: f64,
    /// B's wall time, ms.
    pub wall_b_ms: f64,
    /// `b − a`, ms.
    pub wall_delta_ms: f64,
    /// The change's three parts, in order (shared path, path changes,
    /// waiting); they add up to [`CompareView::wall_delta_ms`].
    pub parts: Vec<Part>,
    /// B's graph replayed with A's durations: its wall time, ms.
    pub what_if_wall_ms: f64,
    /// How much of the change the durations alone explain, ms.
    pub explained_ms: f64,
    /// Steps on A's path.
    pub path_a_len: usize,
    /// Steps on B's path.
    pub path_b_len: usize,
    /// The two paths aligned, first step first.
    pub path: Vec<PathStep>,
    /// Every key's change, ranked by its effect on the wall time (or its
    /// first rows only, [`CompareView::with_rows`]).
    pub table: Table,
    /// The keys of the whole table: more than [`CompareView::table`] holds
    /// when it holds only its first rows.
    pub rows_total: usize,
    /// Keys in both sides.
    pub matched: usize,
    /// Of those, keys matched by their neighbours.
    pub matched_by_structure: usize,
    /// Keys only in A.
    pub only_a: usize,
    /// Keys only in B.
    pub only_b: usize,
    /// Total time of the matched keys in A and in B, ms.
    pub matched_totals_ms: (f64, f64),
    /// Several runs a side: changes were tested (else only thresholds).
    pub tests: bool,
    /// The absolute threshold, ms.
    pub min_delta_ms: f64,
    /// The relative threshold (0.05 is 5 %).
    pub min_relative: f64,
    /// The run-wide speed factor, B over A.
    pub speed_factor: f64,
    /// The factor was divided out before the tests.
    pub speed_factor_applied: bool,
    /// What the reader should know before trusting the result.
    pub warnings: Vec<String>,
}

/// One part of the wall time's change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Part {
    /// Its id: `shared`, `changes` or `waiting`.
    pub id: String,
    /// What it is, in words.
    pub label: String,
    /// Its size, ms.
    pub ms: f64,
}

/// Which path a step is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OnPath {
    /// A's only.
    A,
    /// B's only.
    B,
    /// Both.
    Both,
}

/// One step of the aligned paths.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PathStep {
    /// The key.
    pub key: String,
    /// Whose path it is on.
    pub on: OnPath,
    /// Its time on A's path, ms.
    pub a_ms: Option<f64>,
    /// Its time on B's path, ms.
    pub b_ms: Option<f64>,
    /// `b − a`, ms.
    pub delta_ms: f64,
    /// Its slack fell to zero.
    pub newly_critical: bool,
}

/// The table's columns; with several runs a side, [`TEST_COLUMNS`] follow.
const COLUMNS: &[&str] = &["#", "key", "status", "path", "A", "B", "Δ", "Δ %", "on wall", "saved if back"];
/// The tests' columns.
const TEST_COLUMNS: &[&str] = &["p", "q", "test", "Welch p", "Δ % 95% CI", "MDE", "verdict"];

/// A duration in ms (sorted by its value; empty when missing).
fn ms_cell(ms: Option<f64>, show: fn(f64) -> String) -> Cell {
    match ms {
        Some(v) => Cell { show: show(v), raw: Some(v.to_string()), num: Some(v), unit: Some(Unit::Ms) },
        None => text(""),
    }
}

/// An optional number, shown by `show`.
fn opt_number(v: Option<f64>, show: impl Fn(f64) -> String) -> Cell {
    v.map_or_else(|| text(""), |v| number(show(v), v))
}

/// A key's status as read: a status change names both outcomes.
fn status(t: &TaskChange) -> String {
    match (t.status, &t.a_outcome, &t.b_outcome) {
        ("status-changed", Some(a), Some(b)) => format!("{a} → {b}"),
        (s, ..) => s.to_owned(),
    }
}

/// A key's row.
fn row(t: &TaskChange, tests: bool) -> Row {
    let key = match &t.b_key {
        Some(b) => format!("{} (in B: {b})", t.key),
        None => t.key.clone(),
    };
    let path = format!("{}{}", t.on_path, if t.newly_critical { " · newly critical" } else { "" });
    let mut cells = vec![
        t.rank.map_or_else(|| text(""), |r| number(r.to_string(), f64::from(r))),
        text(&key),
        text(&status(t)),
        text(&path),
        ms_cell(t.a_ms, dur),
        ms_cell(t.b_ms, dur),
        ms_cell(Some(t.delta_ms), signed),
        opt_number(t.relative, |r| percent(Some(r))),
        ms_cell(Some(t.wall_effect_ms), signed),
        ms_cell(t.saving_if_back_ms, signed),
    ];
    if tests {
        let x = t.tests();
        cells.extend([
            opt_number(x.p, |p| format!("{p:.3}")),
            opt_number(x.q, |q| format!("{q:.3}")),
            text(x.test.unwrap_or("")),
            opt_number(x.welch_p, |p| format!("{p:.3}")),
            x.relative_ci.map_or_else(
                || text(""),
                |[lo, hi]| Cell {
                    show: format!("{} … {}", percent(Some(lo)), percent(Some(hi))),
                    raw: Some(format!("{lo} {hi}")),
                    ..number(String::new(), lo)
                },
            ),
            ms_cell(x.mde_ms, dur),
            text(x.verdict.unwrap_or("")),
        ]);
    }
    Row::new(cells, &format!("{key} {}", status(t)))
}

/// The table of every key's change in `c`, its first `n` rows.
fn table_of(c: &Comparison, n: usize) -> Table {
    let tests = c.noise.mode == "tests";
    let mut headers = COLUMNS.to_vec();
    if tests {
        headers.extend_from_slice(TEST_COLUMNS);
    }
    let rows = c.tasks.iter().take(n).map(|t| row(t, tests)).collect();
    Table::new("compare-tasks", "Keys by effect on the wall time", &headers, rows)
}

impl CompareView {
    /// The view of `c`, with every key's row.
    pub fn of(c: &Comparison) -> CompareView {
        CompareView::with_rows(c, usize::MAX)
    }

    /// The table of every key's change in `c` ([`CompareView::table`] whole).
    pub fn table(c: &Comparison) -> Table {
        table_of(c, usize::MAX)
    }

    /// The view of `c` with the table's first `n` rows only: a page shows
    /// the rest on demand (a comparison of big builds has a row per key,
    /// hundreds of thousands).
    pub fn with_rows(c: &Comparison, n: usize) -> CompareView {
        let tests = c.noise.mode == "tests";
        let at = &c.attribution;
        let part = |id: &str, label: &str, ms: f64| Part { id: id.to_owned(), label: label.to_owned(), ms };
        CompareView {
            runs_a: c.runs.a.clone(),
            runs_b: c.runs.b.clone(),
            representative_a: c.runs.representative_a.clone(),
            representative_b: c.runs.representative_b.clone(),
            wall_a_ms: c.wall_ms.a,
            wall_b_ms: c.wall_ms.b,
            wall_delta_ms: c.wall_ms.delta,
            parts: vec![
                part("shared", "longer or shorter tasks on the path both share", at.shared_path_ms),
                part("changes", "tasks that entered or left the path", at.path_changes_ms),
                part("waiting", "waiting (idle gaps, queueing) on the path", at.waiting_ms),
            ],
            what_if_wall_ms: at.what_if_wall_ms,
            explained_ms: at.explained_by_durations_ms,
            path_a_len: c.critical_path.a.len(),
            path_b_len: c.critical_path.b.len(),
            path: c
                .critical_path
                .aligned
                .iter()
                .map(|s| PathStep {
                    key: s.key.clone(),
                    on: match s.on {
                        "a" => OnPath::A,
                        "b" => OnPath::B,
                        _ => OnPath::Both,
                    },
                    a_ms: s.a_ms,
                    b_ms: s.b_ms,
                    delta_ms: s.delta_ms,
                    newly_critical: s.newly_critical,
                })
                .collect(),
            table: table_of(c, n),
            rows_total: c.tasks.len(),
            matched: c.matched,
            matched_by_structure: c.matched_by_structure,
            only_a: c.only_a,
            only_b: c.only_b,
            matched_totals_ms: (c.matched_totals_ms.a, c.matched_totals_ms.b),
            tests,
            min_delta_ms: c.noise.min_delta_ms,
            min_relative: c.noise.min_relative,
            speed_factor: c.noise.speed_factor,
            speed_factor_applied: c.noise.speed_factor_applied,
            warnings: c.warnings.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::{compare, Options};
    use crate::ingest::read_bytes;
    use crate::report::compare::{keys_of, runs_of};

    /// A: x.o 0–100 ms, y.o 0–300. B: x.o the same, w.o 0–120 (new), y.o
    /// 0–600. No dependencies: each path is y.o, the task that ended last.
    /// By hand: wall 300 → 600, +300 all on the shared path; y.o ranks
    /// first (+300, +100 %), w.o second (only in B, no wall effect), x.o
    /// is within noise and unranked.
    #[test]
    fn two_ninja_builds_show_their_change_by_hand() {
        let a = b"# ninja log v5\n0\t100\t0\tx.o\t1\n0\t300\t0\ty.o\t2\n";
        let b = b"# ninja log v5\n0\t100\t0\tx.o\t1\n0\t120\t0\tw.o\t3\n0\t600\t0\ty.o\t2\n";
        let a = crate::reconcile(vec![read_bytes("a.ninja_log", a, usize::MAX).unwrap()]);
        let b = crate::reconcile(vec![read_bytes("b.ninja_log", b, usize::MAX).unwrap()]);
        let (ka, kb) = (keys_of(&a), keys_of(&b));
        let (ra, rb) = (runs_of(&a, &ka, &|_| None).unwrap(), runs_of(&b, &kb, &|_| None).unwrap());
        let v = CompareView::of(&compare(&ra, &rb, &Options::default()).unwrap());
        assert_eq!((v.wall_a_ms, v.wall_b_ms, v.wall_delta_ms), (300.0, 600.0, 300.0));
        let parts: Vec<(&str, f64)> = v.parts.iter().map(|p| (p.id.as_str(), p.ms)).collect();
        assert_eq!(parts, [("shared", 300.0), ("changes", 0.0), ("waiting", 0.0)]);
        assert_eq!((v.what_if_wall_ms, v.explained_ms), (300.0, 300.0));
        assert_eq!(v.path.len(), 1);
        assert_eq!((v.path[0].key.as_str(), v.path[0].on, v.path[0].delta_ms), ("y.o", OnPath::Both, 300.0));
        assert_eq!((v.matched, v.only_a, v.only_b, v.tests), (2, 0, 1, false));
        let shown: Vec<Vec<&str>> =
            v.table.rows.iter().map(|r| r.cells.iter().map(|c| c.show.as_str()).collect()).collect();
        assert_eq!(
            shown,
            [
                vec!["1", "y.o", "changed", "both", "300 ms", "600 ms", "+300 ms", "+100.0%", "+300 ms", "+300 ms"],
                vec!["2", "w.o", "only-b", "none", "", "120 ms", "+120 ms", "", "0", ""],
                vec!["", "x.o", "within-noise", "none", "100 ms", "100 ms", "0", "+0.0%", "0", ""],
            ]
        );
        assert_eq!(v.table.headers.len(), COLUMNS.len());
        assert_eq!(v.table.rows[0].cells[6].raw(), "300", "exported in ms");
    }
}
