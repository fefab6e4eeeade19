//! A table's rows as one Parquet file in memory: Snappy-compressed, one
//! row group.

use arrow_array::RecordBatch;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;

/// The Parquet file of `batch`.
pub fn parquet_file(batch: &RecordBatch) -> Result<Vec<u8>, ParquetError> {
    let schema = batch.schema();
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_created_by(format!("longpole {}", env!("CARGO_PKG_VERSION")))
        .build();
    let mut writer = ArrowWriter::try_new(Vec::new(), schema, Some(props))?;
    writer.write(batch)?;
    writer.into_inner()
}
