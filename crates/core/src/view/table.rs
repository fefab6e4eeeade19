//! Tables as data: what a run's view says its tables are (title, columns,
//! rows, the task a row selects, what a search looks in), so that one
//! component draws every format's tables, sorts and searches them, and
//! exports them as CSV and JSON. Each cell carries what it shows, what an
//! export writes and how it sorts, made here by the functions below so that
//! every format shows a duration, a time or a count the same way.

use crate::model::Nanos;
use crate::numbers::{bytes as show_bytes, duration_label, group, ms};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// A table of a run's view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// Its id: the page's test hook and the export's file name.
    pub id: String,
    /// Its title.
    pub title: String,
    /// Column headers.
    pub headers: Vec<String>,
    /// Rows, in their natural order.
    pub rows: Vec<Row>,
    /// The column shown sorted at first, and whether descending; `None`
    /// shows the natural order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort: Option<(usize, bool)>,
}

impl Table {
    /// A table of `rows` under `headers`.
    pub fn new(id: &str, title: &str, headers: &[&str], rows: Vec<Row>) -> Table {
        Table { id: id.to_owned(), title: title.to_owned(), headers: columns(headers), rows, sort: None }
    }

    /// The unit column `col` is exported in (its cells' unit), if any.
    pub fn unit(&self, col: usize) -> Option<Unit> {
        self.rows.iter().find_map(|r| r.cells.get(col).and_then(|c| c.unit))
    }
}

/// The unit a cell's export is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// Milliseconds (durations and times; shown in the unit that suits them).
    Ms,
    /// Bytes (shown in KiB, MiB, GiB).
    Bytes,
}

impl Unit {
    /// How the unit is written.
    pub fn label(self) -> &'static str {
        match self {
            Unit::Ms => "ms",
            Unit::Bytes => "bytes",
        }
    }
}

/// One row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Its cells, one per header.
    pub cells: Vec<Cell>,
    /// The task a click selects, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<u32>,
    /// What the search looks in, lower-case.
    pub haystack: String,
}

impl Row {
    /// A row that selects no task; `haystack` is lower-cased.
    pub fn new(cells: Vec<Cell>, haystack: &str) -> Row {
        Row { cells, task: None, haystack: haystack.to_lowercase() }
    }
}

/// One cell: what it shows, what an export writes, how it sorts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    /// What the cell shows.
    pub show: String,
    /// What an export writes, when not what it shows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<String>,
    /// Its value, for a cell that sorts as a number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num: Option<f64>,
    /// The unit of its export, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<Unit>,
}

impl Cell {
    /// What an export writes.
    pub fn raw(&self) -> &str {
        self.raw.as_deref().unwrap_or(&self.show)
    }

    /// Whether it sorts as a number (and is aligned as one).
    pub fn is_num(&self) -> bool {
        self.num.is_some()
    }

    /// How two cells of a column sort: numbers by value, before text, and
    /// text case-insensitively.
    pub fn order(&self, other: &Cell) -> Ordering {
        match (self.num, other.num) {
            (Some(a), Some(b)) => a.partial_cmp(&b).unwrap_or(Ordering::Equal),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            // Lower-cased as it is compared: no text is made per comparison.
            (None, None) => {
                self.show.chars().flat_map(char::to_lowercase).cmp(other.show.chars().flat_map(char::to_lowercase))
            }
        }
    }
}

/// Column headers from their names.
pub fn columns(names: &[&str]) -> Vec<String> {
    names.iter().map(|h| (*h).to_owned()).collect()
}

/// A text cell.
pub fn text(s: &str) -> Cell {
    Cell { show: s.to_owned(), raw: None, num: None, unit: None }
}

/// A number shown as `show` (a signed change, a percentage).
pub fn number(show: String, v: f64) -> Cell {
    Cell { show, raw: Some(v.to_string()), num: Some(v), unit: None }
}

/// A time, shown from `origin` (the run's first time); exported in ms.
/// An unknown time shows a dash and sorts first.
pub fn time(ns: Option<Nanos>, origin: Nanos) -> Cell {
    match ns {
        Some(t) => Cell {
            show: format!("+{}", duration_label(t - origin)),
            raw: Some(ms(t)),
            num: Some(t as f64),
            unit: Some(Unit::Ms),
        },
        // f64::MIN, not -∞: the cell travels as JSON, which has no infinity.
        None => Cell { show: "–".into(), raw: Some(String::new()), num: Some(f64::MIN), unit: Some(Unit::Ms) },
    }
}

/// A duration; exported in ms.
pub fn span(ns: Nanos) -> Cell {
    Cell { show: duration_label(ns), raw: Some(ms(ns)), num: Some(ns as f64), unit: Some(Unit::Ms) }
}

/// A count, with thousands separators.
pub fn count(n: u64) -> Cell {
    Cell { show: group(n), raw: Some(n.to_string()), num: Some(n as f64), unit: None }
}

/// A size in bytes (`12.4 KiB`); empty when unknown.
pub fn bytes(b: Option<u64>) -> Cell {
    match b {
        Some(b) => Cell { show: show_bytes(b), raw: Some(b.to_string()), num: Some(b as f64), unit: Some(Unit::Bytes) },
        None => text(""),
    }
}

/// An optional duration; empty when unknown.
pub fn opt_span(ns: Option<Nanos>) -> Cell {
    ns.map_or_else(|| text(""), span)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_show_export_and_sort_as_their_kind() {
        assert_eq!((span(1_500_000).show.as_str(), span(1_500_000).raw()), ("1.5 ms", "1.5"));
        assert_eq!(count(12_345).show, "12,345");
        assert_eq!(time(Some(2_000_000_000), 1_000_000_000).show, "+1 s");
        assert_eq!(time(None, 0).raw(), "");
        assert_eq!(text("Ab").raw(), "Ab");
        assert_eq!(bytes(Some(12_697)).show, "12.4 KiB");
        assert_eq!(span(2).order(&span(10)), Ordering::Less);
        assert_eq!(time(None, 0).order(&time(Some(-5), 0)), Ordering::Less);
        assert_eq!(span(2).order(&text("")), Ordering::Less);
        assert_eq!(text("b").order(&text("A")), Ordering::Greater);
    }

    #[test]
    fn a_column_has_its_cells_unit_and_a_table_its_first_sort() {
        let rows = vec![
            Row::new(vec![text("a"), span(5), count(1), bytes(None)], ""),
            Row::new(vec![text("b"), time(Some(7), 0), count(2), bytes(Some(3))], ""),
        ];
        let t = Table { sort: Some((1, true)), ..Table::new("t", "T", &["name", "time", "n", "size"], rows) };
        assert_eq!((t.unit(0), t.unit(1), t.unit(2), t.unit(3)), (None, Some(Unit::Ms), None, Some(Unit::Bytes)));
        assert_eq!(t.sort, Some((1, true)));
    }

    #[test]
    fn a_table_travels_as_json_and_comes_back_the_same() {
        let t = Table::new("t", "T", &["a", "b"], vec![Row::new(vec![time(None, 0), text("x")], "X")]);
        let back: Table = serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
        assert_eq!(back, t);
    }
}
