//! A run's tables for SQL: the three fleet tables (`runs`, `tasks`,
//! `critical_path`, from the very batches the Parquet files are written
//! from) and each table of the run's view (a GHC program's collections and
//! threads, a StarRocks plan's operators, a dbt run's nodes…), named
//! `FORMAT_TABLE` and led by the run's id, each as one Arrow IPC stream.
//! The fleet tables end with `dt`, the run's date, as DuckDB reads it from
//! the Parquet files' partition, so that the cookbook's queries run as
//! written.
//! The page's SQL tab hands them to DuckDB; `docs/sql.md` lists them.

mod dated;
#[cfg(feature = "export")]
pub mod fleet;
mod ipc;
mod view_batch;

use super::parquet::tables::{run_batches_of, Batches};
use crate::layout::timeline::TimelineIndex;
use crate::run::Analysis;
use arrow_array::RecordBatch;
use arrow_schema::{ArrowError, SchemaRef};

/// The media type of an Arrow IPC stream, as a table's file is posted.
pub const ARROW_STREAM: &str = "application/vnd.apache.arrow.stream";

/// One table: its SQL name and its rows as an Arrow IPC stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SqlTable {
    /// Its name, a plain SQL identifier (lower-case letters, digits, `_`).
    pub name: String,
    /// Its rows: an Arrow IPC stream (schema, then one batch per run).
    pub ipc: Vec<u8>,
}

/// Tables being gathered: a name, its schema and the batches of each run.
struct Gathered {
    name: String,
    schema: SchemaRef,
    batches: Vec<RecordBatch>,
}

/// Adds `batch` to the table `name`, or to a table of its own (`name_2`…)
/// if `name` is taken by rows of another shape.
fn gather(list: &mut Vec<Gathered>, name: &str, batch: RecordBatch) {
    let mut n = 1;
    loop {
        let candidate = if n == 1 { name.to_owned() } else { format!("{name}_{n}") };
        match list.iter_mut().find(|g| g.name == candidate) {
            Some(g) if g.schema == batch.schema() => return g.batches.push(batch),
            Some(_) => n += 1,
            None => {
                return list.push(Gathered { name: candidate, schema: batch.schema(), batches: vec![batch] });
            }
        }
    }
}

/// The SQL tables of every run of `analysis`. The inputs' hash `id` names
/// the first run, `id-N` a further one, as in the Parquet files; `source`
/// names the inputs.
pub fn sql_tables(analysis: &Analysis, id: &str, source: &str) -> Result<Vec<SqlTable>, ArrowError> {
    let mut list = Vec::new();
    let mut views = Vec::new();
    for (n, d) in analysis.datasets.iter().enumerate() {
        let run_id = if n == 0 { id.to_owned() } else { format!("{id}-{n}") };
        let view = analysis.view(d, &TimelineIndex::new(&d.model));
        let Batches { runs, tasks, critical_path, started_at, .. } = run_batches_of(d, &view, &run_id, source)?;
        // The day as DuckDB reads it from the Parquet files' partition.
        let day = started_at.map(|us| us.div_euclid(86_400_000_000) as i32);
        gather(&mut list, "runs", dated::with_day(&runs, day)?);
        gather(&mut list, "tasks", dated::with_day(&tasks, day)?);
        gather(&mut list, "critical_path", dated::with_day(&critical_path, day)?);
        let prefix = view_batch::identifier(d.format.name());
        for table in &view.tables {
            views.push((format!("{prefix}_{}", view_batch::identifier(&table.id)), view_batch::batch(table, &run_id)?));
        }
    }
    for (name, batch) in views {
        gather(&mut list, &name, batch);
    }
    list.into_iter().map(|g| Ok(SqlTable { ipc: ipc::stream(&g.schema, &g.batches)?, name: g.name })).collect()
}
