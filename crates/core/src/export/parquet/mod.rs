//! Fleet tables: every run as rows of three Parquet tables (`runs`,
//! `tasks`, `critical_path`) that DuckDB, Spark and Trino read, partitioned
//! by the run's date (`TABLE/dt=YYYY-MM-DD/part-RUN_ID.parquet`), so that
//! exporting a run again replaces its files. `docs/fleet.md` documents the
//! schema. The CLI writes the files (`longpole export --to parquet`); the
//! app's worker zips them ([`zip`]).

pub mod date;
pub mod run_id;
pub mod schema;
pub mod tables;
#[cfg(feature = "export")]
mod write;
#[cfg(feature = "export")]
pub mod zip;

pub use run_id::RunIdHasher;
pub use tables::Files;

#[cfg(feature = "export")]
use crate::run::Analysis;
#[cfg(feature = "export")]
use parquet::errors::ParquetError;

/// The tables' schema version, in every `runs` row; a change of a column
/// (added, renamed, retyped) is a new version.
pub const SCHEMA_VERSION: i32 = 1;

/// The tables' names, in the order [`Files::named`] gives them.
pub const TABLES: [&str; 3] = ["runs", "tasks", "critical_path"];

/// Every run of `analysis` as Parquet files. The inputs' hash `id` is the first
/// run's id; a further run read from the same inputs (rare: several logs
/// given with one graph) is `id-N`. `source` names the inputs.
#[cfg(feature = "export")]
pub fn analysis_files(analysis: &Analysis, id: &str, source: &str) -> Result<Vec<Files>, ParquetError> {
    analysis
        .datasets
        .iter()
        .enumerate()
        .map(|(n, d)| {
            let run_id = if n == 0 { id.to_owned() } else { format!("{id}-{n}") };
            tables::run_files(analysis, d, &run_id, source)
        })
        .collect()
}

impl Files {
    /// The three files with their paths under the export's folder:
    /// `TABLE/dt=…/part-RUN_ID.parquet`.
    pub fn named(&self) -> [(String, &[u8]); 3] {
        let dt = date::partition(self.started_at);
        let path = |table: &str| format!("{table}/{dt}/part-{}.parquet", self.run_id);
        [
            (path(TABLES[0]), self.runs.as_slice()),
            (path(TABLES[1]), self.tasks.as_slice()),
            (path(TABLES[2]), self.critical_path.as_slice()),
        ]
    }
}
