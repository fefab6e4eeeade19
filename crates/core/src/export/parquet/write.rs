//! A table's rows as one Parquet file in memory: Snappy-compressed, one
//! row group.

use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::Schema;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use std::sync::Arc;

/// The Parquet file of `columns` under `schema`.
pub fn parquet_file(schema: Arc<Schema>, columns: Vec<ArrayRef>) -> Result<Vec<u8>, ParquetError> {
    let batch = RecordBatch::try_new(schema.clone(), columns)?;
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_created_by(format!("longpole {}", env!("CARGO_PKG_VERSION")))
        .build();
    let mut writer = ArrowWriter::try_new(Vec::new(), schema, Some(props))?;
    writer.write(&batch)?;
    writer.into_inner()
}
