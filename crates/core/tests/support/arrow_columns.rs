//! A record batch's columns as plain vectors, for the tests that read the
//! fleet and SQL tables back (`fleet_tables.rs`, `sql_tables.rs`).

use arrow_array::{Array, Int64Array, RecordBatch, StringArray};

/// Column `name`, BIGINT, with its NULLs.
pub fn ints(b: &RecordBatch, name: &str) -> Vec<Option<i64>> {
    let a = b.column_by_name(name).unwrap().as_any().downcast_ref::<Int64Array>().unwrap();
    (0..a.len()).map(|i| a.is_valid(i).then(|| a.value(i))).collect()
}

/// Column `name`, text.
pub fn texts(b: &RecordBatch, name: &str) -> Vec<String> {
    let a = b.column_by_name(name).unwrap().as_any().downcast_ref::<StringArray>().unwrap();
    (0..a.len()).map(|i| a.value(i).to_owned()).collect()
}
