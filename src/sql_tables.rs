//! The SQL tab's tables, made by the analysis worker of the run it holds
//! ([`longpole_core::export::sql::sql_tables`], the rows
//! `longpole export --to parquet` writes): nothing is read again but the
//! inputs' bytes for the run's id (their SHA-256, as the CLI names a run,
//! through [`each_slice`]: a big file's slices come from a slice reader),
//! and no second analysis or export worker starts. Each table is posted as a file
//! (`TABLE.arrow`, an Arrow IPC stream), then [`Response::SqlTables`].

use crate::file_read::each_slice;
use crate::protocol::{Response, RunId};
use crate::worker_io::{memory_bytes, post, post_file, FEED, SLICE};
use longpole_answer::{Loaded, Session};
use longpole_core::export::parquet::RunIdHasher;
use longpole_core::export::sql::{sql_tables, ARROW_STREAM};
use longpole_core::memory_budget::{shell_quote, WASM_LIMIT};
use longpole_core::model::FormatId;
use longpole_core::reconcile::groups::folder_order;
use std::cell::RefCell;
use std::rc::Rc;
use web_sys::File;

/// Bytes the tables take per task at most, about (the `tasks` table's
/// columns and their text), for the check that they fit.
const TABLE_BYTES_PER_TASK: u64 = 400;

/// Makes run `run`'s SQL tables of `files`, its inputs, and posts them,
/// then how it ended.
pub async fn make(run: RunId, files: Vec<File>, session: Rc<RefCell<Session>>) {
    let made = match digest(&files).await {
        Ok(id) => match session.borrow().loaded.as_ref().filter(|l| l.run == run) {
            Some(loaded) => post_tables(loaded, &id),
            None => Err("another run was opened meanwhile".into()),
        },
        Err(message) => Err(message),
    };
    post(&Response::SqlTables { run, failed: made.err() });
}

/// The run's id: the SHA-256 of `files`' digests ([`RunIdHasher`]).
async fn digest(files: &[File]) -> Result<String, String> {
    let mut id = RunIdHasher::new();
    for file in files {
        let cannot = |e: String| format!("{}: cannot read the file again for the run's id: {e}", file.name());
        // In FEED pieces, for the reason the core is fed so.
        each_slice(file, SLICE, cannot, |bytes| {
            bytes.chunks(FEED).for_each(|c| id.update(c));
            Ok(())
        })
        .await?;
        id.end_input();
    }
    Ok(id.finish())
}

/// Posts the tables of `loaded` with run id `id`, or says why not. Their
/// `source` names the inputs in the order `longpole export FOLDER` reads
/// them ([`folder_order`]).
fn post_tables(loaded: &Loaded, id: &str) -> Result<(), String> {
    let analysis = &loaded.analysis;
    let keys: Vec<(&str, FormatId)> = analysis.inputs.iter().map(|i| (i.name.as_str(), i.format)).collect();
    let names: Vec<&str> = folder_order(&keys).into_iter().map(|i| keys[i].0).collect();
    let source = names.join(" + ");
    if analysis.datasets.is_empty() {
        return Err(format!("{source} holds no run: there are no tasks to query"));
    }
    let tasks: u64 = analysis.datasets.iter().map(|d| d.model.tasks().len() as u64).sum();
    if memory_bytes() + tasks * TABLE_BYTES_PER_TASK > WASM_LIMIT {
        let files = names.iter().map(|n| shell_quote(n)).collect::<Vec<_>>().join(" ");
        return Err(format!(
            "the SQL tables of {tasks} tasks would not fit beside the run in this tab's memory; export them \
             natively (longpole export {files} --to parquet --output fleet/) and add the folder here"
        ));
    }
    let tables = sql_tables(analysis, id, &source)
        .map_err(|e| format!("longpole could not make the SQL tables of {source}: {e}"))?;
    for t in &tables {
        post_file(loaded.run, &format!("{}.arrow", t.name), ARROW_STREAM, &t.ipc);
    }
    Ok(())
}
