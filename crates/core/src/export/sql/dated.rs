//! The fleet tables' last column in SQL: `dt`, the run's day, as DuckDB
//! reads it from the Parquet files' partition folder (`dt=YYYY-MM-DD`).

use arrow_array::{Date32Array, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema};
use std::sync::Arc;

/// `batch` with a last column `dt` of `day` (days since 1970).
pub fn with_day(batch: &RecordBatch, day: Option<i32>) -> Result<RecordBatch, ArrowError> {
    let mut fields: Vec<Field> = batch.schema().fields().iter().map(|f| f.as_ref().clone()).collect();
    fields.push(Field::new("dt", DataType::Date32, true));
    let mut columns = batch.columns().to_vec();
    columns.push(Arc::new(Date32Array::from(vec![day; batch.num_rows()])));
    RecordBatch::try_new(Arc::new(Schema::new(fields)), columns)
}
