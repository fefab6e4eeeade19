//! dbt's run artifacts: `target/run_results.json` (a run's results) and
//! `target/manifest.json` (the project's nodes), written by dbt-core.
//!
//! Both are one JSON object opening with `metadata`, whose
//! `dbt_schema_version` names the artifact and its version
//! (`https://schemas.getdbt.com/dbt/run-results/v6.json`); that is how each
//! is told, in either order. Read: run-results v4–v6, manifest v9–v12. A
//! result, abridged:
//!
//! ```json
//! {"status": "success", "thread_id": "Thread-2 (worker)", "execution_time": 0.55,
//!  "timing": [{"name": "compile", "started_at": "2026-11-27T19:59:52.177337Z", "completed_at": "…"},
//!             {"name": "execute", "started_at": "…", "completed_at": "…"}],
//!  "adapter_response": {"_message": "INSERT 4", "rows_affected": 4},
//!  "unique_id": "seed.shop.regions"}
//! ```
//!
//! - **Read**: from the results, `metadata` (version, invocation),
//!   `elapsed_time`, `args.threads` and `args.which`, and each result's id,
//!   status, thread, execution time, steps, adapter response, message and
//!   failures; from the manifest, each node's `unique_id`, `resource_type`
//!   and `depends_on.nodes`. The rest (SQL, columns, macros, docs) is
//!   passed over, the manifest's big members split member by member
//!   ([`crate::json_split`]), so memory holds one node at a time.
//! - **Model**: each step of `timing[]` is a task on its thread's lane,
//!   its kind the node's resource type (`compile` for compile steps); the
//!   execute step waits for the compile step. With the manifest, a node's
//!   first step waits for the last step of each node in its
//!   `depends_on.nodes` that ran, and in `dbt build` for the tests of the
//!   nodes upstream of it (`build_edges.rs`). The wall is the span of the
//!   steps, first start to last end; dbt's `elapsed_time` (start-up
//!   included) is shown beside it.
//! - **Path**: back from the step that finished last, through the
//!   dependency that finished last (the blocking chain); its total is its
//!   span. Results alone have no dependencies: no path is claimed.
//! - **Caveats**: only nodes in the results ran (a selection runs part of
//!   the DAG); skipped nodes have no timing and no task; a node listed
//!   twice is read once (`dbt.duplicate-id`); a cut document keeps what
//!   came before the cut (`dbt.truncated`).
//!
//! Files: `schema.rs` (the schema URLs), `time.rs` (the timestamps),
//! `artifacts.rs` (what is kept), `reader.rs`, `reconcile.rs` with
//! `build_edges.rs`, `with_manifest.rs` (pairing the files), `run.rs` (the
//! run and its figures), `report.rs`, `view.rs`, `run_kind.rs`.

pub mod artifacts;
pub mod build_edges;
pub mod reader;
pub mod reconcile;
pub mod report;
pub mod run;
mod run_kind;
pub mod schema;
pub mod time;
pub mod view;
pub mod with_manifest;

#[cfg(test)]
mod tests;

use super::{Format, FormatId, FormatReader, Sniff, SniffInput};

/// The format's id.
pub const ID: FormatId = FormatId::new("dbt", "dbt run artifacts");

/// The title errors name.
pub const TITLE: &str = "dbt run artifacts";

/// dbt's `run_results.json` and `manifest.json`.
pub struct DbtFormat;

impl Format for DbtFormat {
    fn id(&self) -> FormatId {
        ID
    }

    /// Yes when the head holds a dbt schema URL of a run's results or of a
    /// manifest (any version: an unsupported one is refused by the reader,
    /// saying so); need more while an object's first kilobyte is not in.
    fn sniff(&self, input: SniffInput<'_>) -> Sniff {
        let head = input.head;
        for artifact in [b"run-results/v".as_slice(), b"manifest/v".as_slice()] {
            let url = [schema::PREFIX.as_bytes(), artifact].concat();
            if memchr::memmem::find(head, &url).is_some() && memchr::memmem::find(head, b"dbt_schema_version").is_some()
            {
                return Sniff::Yes;
            }
        }
        let object = head.trim_ascii_start().first() == Some(&b'{');
        if object && !input.at_eof && head.len() < 1024 {
            Sniff::NeedMore
        } else {
            Sniff::No
        }
    }

    fn reader(&self) -> Box<dyn FormatReader> {
        Box::new(reader::DbtReader::new())
    }
}
