//! A table of a run's view as Arrow rows: its columns named as SQL
//! identifiers (with the unit the export writes them in: `total_pause_ms`),
//! typed from what the cells export (whole numbers as BIGINT, other
//! numbers as DOUBLE, the rest as text, an unknown value as NULL), led by
//! the run's id and followed by the task a row selects.

use crate::view::table::{Table, Unit};
use arrow_array::{ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{ArrowError, DataType, Field, Schema};
use std::sync::Arc;

/// `name` as a plain SQL identifier: lower-case, every run of other
/// characters one `_`, never empty nor starting with a digit.
pub fn identifier(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    while out.ends_with('_') {
        out.pop();
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert_str(0, "c_");
    }
    out
}

/// What a column holds.
enum Kind {
    Whole,
    Real,
    Text,
}

/// A column's values as exported: `None` for an empty cell.
fn values(table: &Table, col: usize) -> Vec<Option<&str>> {
    table.rows.iter().map(|r| r.cells.get(col).map(|c| c.raw()).filter(|v| !v.is_empty())).collect()
}

/// The kind of a column whose cells export `values`: numbers only if every
/// cell sorts as one.
fn kind(table: &Table, col: usize, values: &[Option<&str>]) -> Kind {
    let numeric = table.rows.iter().all(|r| r.cells.get(col).is_none_or(|c| c.is_num() || c.raw().is_empty()));
    if !numeric || values.iter().flatten().any(|v| v.parse::<f64>().is_err()) {
        Kind::Text
    } else if values.iter().flatten().all(|v| v.parse::<i64>().is_ok()) {
        Kind::Whole
    } else {
        Kind::Real
    }
}

/// The column names of `table`: its headers as identifiers, with their
/// unit where `numeric`, each once (`name_2` for a second `name`).
fn names(table: &Table, numeric: &[bool]) -> Vec<String> {
    let mut taken = vec!["run_id".to_owned(), "task_id".to_owned()];
    table
        .headers
        .iter()
        .enumerate()
        .map(|(col, header)| {
            let mut base = identifier(header);
            match table.unit(col).filter(|_| numeric.get(col).copied().unwrap_or(false)) {
                Some(Unit::Ms) if !base.ends_with("_ms") => base.push_str("_ms"),
                Some(Unit::Bytes) if !base.ends_with("bytes") => base.push_str("_bytes"),
                _ => {}
            }
            let mut name = base.clone();
            let mut n = 1;
            while taken.contains(&name) {
                n += 1;
                name = format!("{base}_{n}");
            }
            taken.push(name.clone());
            name
        })
        .collect()
}

/// `table`'s rows for the run `run_id`.
pub fn batch(table: &Table, run_id: &str) -> Result<RecordBatch, ArrowError> {
    let n = table.rows.len();
    let mut fields = vec![Field::new("run_id", DataType::Utf8, false)];
    let mut columns: Vec<ArrayRef> = vec![Arc::new(StringArray::from_iter_values(std::iter::repeat_n(run_id, n)))];
    let typed: Vec<(Vec<Option<&str>>, Kind)> = (0..table.headers.len())
        .map(|col| {
            let values = values(table, col);
            let kind = kind(table, col, &values);
            (values, kind)
        })
        .collect();
    let numeric: Vec<bool> = typed.iter().map(|(_, k)| !matches!(k, Kind::Text)).collect();
    for ((values, kind), name) in typed.into_iter().zip(names(table, &numeric)) {
        let (data_type, column): (DataType, ArrayRef) = match kind {
            Kind::Whole => (
                DataType::Int64,
                Arc::new(values.iter().map(|v| v.and_then(|v| v.parse::<i64>().ok())).collect::<Int64Array>()),
            ),
            Kind::Real => (
                DataType::Float64,
                Arc::new(values.iter().map(|v| v.and_then(|v| v.parse::<f64>().ok())).collect::<Float64Array>()),
            ),
            Kind::Text => (DataType::Utf8, Arc::new(values.iter().copied().collect::<StringArray>())),
        };
        fields.push(Field::new(name, data_type, true));
        columns.push(column);
    }
    fields.push(Field::new("task_id", DataType::Int64, true));
    columns.push(Arc::new(table.rows.iter().map(|r| r.task.map(i64::from)).collect::<Int64Array>()));
    RecordBatch::try_new(Arc::new(Schema::new(fields)), columns)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::table::{bytes, count, span, text, time, Row};
    use arrow_array::Array;

    #[test]
    fn names_are_identifiers_with_their_unit() {
        assert_eq!(identifier("Total pause"), "total_pause");
        assert_eq!(identifier("critical-path"), "critical_path");
        assert_eq!(identifier("ghc-eventlog"), "ghc_eventlog");
        assert_eq!(identifier("%  of wall!"), "of_wall");
        assert_eq!(identifier("2nd"), "c_2nd");
        assert_eq!(identifier("…"), "c_");
    }

    #[test]
    fn columns_are_typed_by_what_their_cells_export() {
        let mut row = Row::new(vec![text("a"), span(1_500_000), count(3), bytes(None), time(None, 0)], "a");
        row.task = Some(7);
        let rows = vec![row, Row::new(vec![text("b"), span(2_000_000), count(4), bytes(Some(10)), text("x")], "b")];
        let t = Table::new("t", "T", &["name", "total", "n", "size", "run"], rows);
        let b = batch(&t, "r1").unwrap();
        let schema = b.schema();
        let got: Vec<(&str, &DataType)> = schema.fields().iter().map(|f| (f.name().as_str(), f.data_type())).collect();
        assert_eq!(
            got,
            [
                ("run_id", &DataType::Utf8),
                ("name", &DataType::Utf8),
                ("total_ms", &DataType::Float64),
                ("n", &DataType::Int64),
                ("size_bytes", &DataType::Int64),
                ("run", &DataType::Utf8),
                ("task_id", &DataType::Int64),
            ]
        );
        let total = b.column(2).as_any().downcast_ref::<Float64Array>().unwrap();
        assert_eq!((total.value(0), total.value(1)), (1.5, 2.0));
        assert!(b.column(4).is_null(0), "an unknown size is NULL, not 0");
        let task = b.column(6).as_any().downcast_ref::<Int64Array>().unwrap();
        assert_eq!((task.value(0), task.is_null(1)), (7, true));
    }
}
