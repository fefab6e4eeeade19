//! Record batches as one Arrow IPC stream, the form DuckDB-wasm inserts
//! (`insertArrowFromIPCStream`).

use arrow_array::RecordBatch;
use arrow_ipc::writer::StreamWriter;
use arrow_schema::{ArrowError, Schema};

/// The IPC stream of `batches`, all of `schema`.
pub fn stream(schema: &Schema, batches: &[RecordBatch]) -> Result<Vec<u8>, ArrowError> {
    let mut writer = StreamWriter::try_new(Vec::new(), schema)?;
    for b in batches {
        writer.write(b)?;
    }
    writer.into_inner()
}
