//! A folder of fleet tables (`longpole export --to parquet` output) as SQL
//! tables: every Parquet file under `runs/`, `tasks/` and `critical_path/`
//! read back with arrow-rs, its rows followed by `dt` from its partition
//! folder (`dt=YYYY-MM-DD`, or NULL for Hive's default partition), as
//! DuckDB's `hive_partitioning` reads them, one IPC stream per table. The
//! page's DuckDB-wasm has no Parquet reader of its own (its extension is
//! fetched from the internet, which the page never does).

use super::{dated::with_day, ipc, SqlTable};
use crate::export::parquet::TABLES;
use arrow_schema::SchemaRef;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

/// Why a folder's file could not be read.
#[derive(Debug)]
pub struct FolderError {
    /// The file, by its path in the folder.
    pub path: String,
    /// What went wrong.
    pub message: String,
}

impl std::fmt::Display for FolderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// The table a path is part of (its first folder named as one of
/// [`TABLES`]) and its partition's day (days since 1970; `None` for no date).
fn place(path: &str) -> Option<(&'static str, Option<i32>)> {
    let parts: Vec<&str> = path.split('/').collect();
    let at = parts.iter().position(|p| TABLES.contains(p))?;
    let table = TABLES.iter().find(|t| **t == parts[at])?;
    let day = parts[at + 1..].iter().find_map(|p| p.strip_prefix("dt=")).and_then(days);
    Some((table, day))
}

/// Days since 1970-01-01 of `YYYY-MM-DD` (proleptic Gregorian).
fn days(date: &str) -> Option<i32> {
    let mut it = date.splitn(3, '-').map(str::parse::<i64>);
    let (y, m, d) = (it.next()?.ok()?, it.next()?.ok()?, it.next()?.ok()?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    // Howard Hinnant's days_from_civil.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    i32::try_from(era * 146_097 + doe - 719_468).ok()
}

/// The SQL tables of the Parquet `files` (each its path in the folder and
/// its bytes); files outside the three tables' folders are left out.
pub fn folder_tables(files: &[(String, Vec<u8>)]) -> Result<Vec<SqlTable>, FolderError> {
    let mut out = Vec::new();
    for table in TABLES {
        let mut schema: Option<SchemaRef> = None;
        let mut batches = Vec::new();
        for (path, bytes) in files {
            let Some((t, day)) = place(path) else { continue };
            if t != table || !path.ends_with(".parquet") {
                continue;
            }
            let fail = |e: &dyn std::fmt::Display| FolderError { path: path.clone(), message: e.to_string() };
            let reader = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::copy_from_slice(bytes))
                .and_then(|b| b.build())
                .map_err(|e| fail(&e))?;
            for batch in reader {
                let dated = with_day(&batch.map_err(|e| fail(&e))?, day).map_err(|e| fail(&e))?;
                match &schema {
                    Some(s) if *s != dated.schema() => {
                        return Err(fail(&format!("its columns differ from the other files of {table}")));
                    }
                    Some(_) => {}
                    None => schema = Some(dated.schema()),
                }
                batches.push(dated);
            }
        }
        if let Some(schema) = schema {
            let ipc = ipc::stream(&schema, &batches)
                .map_err(|e| FolderError { path: table.to_owned(), message: e.to_string() })?;
            out.push(SqlTable { name: table.to_owned(), ipc });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_names_its_table_and_day() {
        assert_eq!(place("fleet/tasks/dt=1970-01-02/part-a.parquet"), Some(("tasks", Some(1))));
        assert_eq!(place("runs/dt=2000-03-01/x.parquet"), Some(("runs", Some(11_017))));
        assert_eq!(place("critical_path/dt=__HIVE_DEFAULT_PARTITION__/x.parquet"), Some(("critical_path", None)));
        assert_eq!(place("other/x.parquet"), None);
        // `date -u -d 2024-11-19 +%s` / 86400
        assert_eq!(days("2024-11-19"), Some(20_046));
        assert_eq!(days("2024-13-01"), None);
    }
}
