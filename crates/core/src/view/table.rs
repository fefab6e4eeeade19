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
    /// Rows, in their natural order (the order shown until a column is sorted).
    pub rows: Vec<Row>,
}

impl Table {
    /// A table of `rows` under `headers`.
    pub fn new(id: &str, title: &str, headers: &[&str], rows: Vec<Row>) -> Table {
        Table { id: id.to_owned(), title: title.to_owned(), headers: columns(headers), rows }
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
            (None, None) => self.show.to_lowercase().cmp(&other.show.to_lowercase()),
        }
    }
}

/// Column headers from their names.
pub fn columns(names: &[&str]) -> Vec<String> {
    names.iter().map(|h| (*h).to_owned()).collect()
}

/// A text cell.
pub fn text(s: &str) -> Cell {
    Cell { show: s.to_owned(), raw: None, num: None }
}

/// A number shown as `show` (a signed change, a percentage).
pub fn number(show: String, v: f64) -> Cell {
    Cell { show, raw: Some(v.to_string()), num: Some(v) }
}

/// A time, shown from `origin` (the run's first time); exported in ms.
/// An unknown time shows a dash and sorts first.
pub fn time(ns: Option<Nanos>, origin: Nanos) -> Cell {
    match ns {
        Some(t) => Cell { show: format!("+{}", duration_label(t - origin)), raw: Some(ms(t)), num: Some(t as f64) },
        // f64::MIN, not -∞: the cell travels as JSON, which has no infinity.
        None => Cell { show: "–".into(), raw: Some(String::new()), num: Some(f64::MIN) },
    }
}

/// A duration; exported in ms.
pub fn span(ns: Nanos) -> Cell {
    Cell { show: duration_label(ns), raw: Some(ms(ns)), num: Some(ns as f64) }
}

/// A count, with thousands separators.
pub fn count(n: u64) -> Cell {
    Cell { show: group(n), raw: Some(n.to_string()), num: Some(n as f64) }
}

/// A size in bytes (`12.4 KiB`); empty when unknown.
pub fn bytes(b: Option<u64>) -> Cell {
    match b {
        Some(b) => Cell { show: show_bytes(b), raw: Some(b.to_string()), num: Some(b as f64) },
        None => text(""),
    }
}

/// An optional duration; empty when unknown.
pub fn opt_span(ns: Option<Nanos>) -> Cell {
    ns.map_or_else(|| text(""), span)
}

/// An optional count; empty when unknown.
pub fn opt_count(n: Option<u64>) -> Cell {
    n.map_or_else(|| text(""), count)
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
    fn a_table_travels_as_json_and_comes_back_the_same() {
        let t = Table::new("t", "T", &["a", "b"], vec![Row::new(vec![time(None, 0), text("x")], "X")]);
        let back: Table = serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
        assert_eq!(back, t);
    }
}
