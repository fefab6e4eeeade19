//! The messages between the page and its export worker
//! ([`crate::export_worker`]), which writes the files whose writers are
//! heavy: the fleet tables of the loaded run, and evobench's workbook.
//! Like the analysis worker's ([`crate::protocol`]) they are JSON text,
//! files going beside a request as `File` objects and the made file coming
//! back in a [`FILE_MESSAGE`] of its own.
//!
//! [`FILE_MESSAGE`]: crate::protocol::FILE_MESSAGE

use crate::protocol::{Progress, RunId, Source};
use serde::{Deserialize, Serialize};

/// A file the export worker writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ExportFile {
    /// The fleet tables (docs/fleet.md): one zip of Parquet files, as
    /// `longpole export --to parquet` writes them.
    #[default]
    FleetTables,
    /// evobench's workbook: one sheet per timing kind, as `longpole export
    /// --to xlsx` writes it.
    Workbook,
    /// The run's SQL tables (docs/sql.md): the fleet tables and the view's
    /// own, each posted as an Arrow IPC stream for the page's SQL tab.
    SqlTables,
}

impl ExportFile {
    /// What the file is, for the page's progress line.
    pub fn label(self) -> &'static str {
        match self {
            ExportFile::FleetTables => "the Parquet tables",
            ExportFile::Workbook => "the workbook",
            ExportFile::SqlTables => "the SQL tables",
        }
    }
}

/// Page → export worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum ExportRequest {
    /// Read the run's inputs again and write `file`: the files sent beside
    /// this message, or else `urls` fetched again.
    Write {
        /// The run whose file this is (the page's run id).
        run: RunId,
        /// The file to write.
        #[serde(default)]
        file: ExportFile,
        /// The inputs a link named, absolute; empty when files come beside.
        urls: Vec<Source>,
        /// The most WebAssembly memory the export may need, bytes; `None`
        /// for [`longpole_core::memory_budget::WASM_LIMIT`] (tests lower it).
        #[serde(default)]
        memory_limit: Option<u64>,
    },
    /// Read a folder of fleet tables (the Parquet files sent beside this
    /// message, `paths` their paths in the folder, in the same order) into
    /// SQL tables, posted as [`ExportFile::SqlTables`] are.
    Folder {
        /// The run the page shows (the answers name it).
        run: RunId,
        /// The files' paths in the folder.
        paths: Vec<String>,
    },
}

/// Export worker → page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum ExportResponse {
    /// The worker has started and listens.
    Ready,
    /// Reading the inputs moved on.
    Progress(Progress),
    /// The tables are being written (the reading is done).
    Writing {
        /// The run.
        run: RunId,
    },
    /// The zip was posted (its bytes went in a file message before this).
    Done {
        /// The run.
        run: RunId,
    },
    /// The run cannot be exported (it holds no run, or is too big for a
    /// tab): why, and how to export it natively.
    Refused {
        /// The run.
        run: RunId,
        /// Why, with the native command.
        message: String,
    },
    /// An input could not be read, or the tables not written.
    Failed {
        /// The run.
        run: RunId,
        /// What went wrong, naming the file, the position and the bytes.
        message: String,
    },
}

impl ExportResponse {
    /// Encodes for `postMessage`; a message that cannot be encoded becomes
    /// a [`ExportResponse::Failed`] saying so, built as a JSON value (whose
    /// text form cannot fail).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            let message = format!("longpole's export worker could not encode its message: {e}; please report this");
            serde_json::json!({ "type": "Failed", "run": self.run().unwrap_or(0), "message": message }).to_string()
        })
    }

    /// The run the message belongs to; none for [`ExportResponse::Ready`].
    pub fn run(&self) -> Option<RunId> {
        match self {
            ExportResponse::Ready => None,
            ExportResponse::Progress(p) => Some(p.run),
            ExportResponse::Writing { run }
            | ExportResponse::Done { run }
            | ExportResponse::Refused { run, .. }
            | ExportResponse::Failed { run, .. } => Some(*run),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_messages_round_trip_through_json() {
        let sources =
            vec![Source { url: "https://ci.example/a.log".into(), sha256: Some("ab".repeat(32)), token: None }];
        let r = ExportRequest::Write { run: 2, file: ExportFile::Workbook, urls: sources, memory_limit: Some(1 << 20) };
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<ExportRequest>(&json).unwrap(), r);
        // Without a limit or a file the fields may be left out: the fleet tables, no limit.
        let bare = r#"{"type":"Write","run":3,"urls":[]}"#;
        assert_eq!(
            serde_json::from_str::<ExportRequest>(bare).unwrap(),
            ExportRequest::Write { run: 3, file: ExportFile::FleetTables, urls: Vec::new(), memory_limit: None }
        );
        let folder = ExportRequest::Folder { run: 6, paths: vec!["tasks/dt=2024-11-19/part-a.parquet".into()] };
        assert_eq!(serde_json::from_str::<ExportRequest>(&serde_json::to_string(&folder).unwrap()).unwrap(), folder);
        for m in [
            ExportResponse::Ready,
            ExportResponse::Writing { run: 4 },
            ExportResponse::Done { run: 4 },
            ExportResponse::Refused { run: 4, message: "a.log holds no run".into() },
            ExportResponse::Failed { run: 5, message: "a.log: line 3".into() },
        ] {
            assert_eq!(serde_json::from_str::<ExportResponse>(&m.to_json()).unwrap(), m);
        }
        assert_eq!(ExportResponse::Failed { run: 5, message: String::new() }.run(), Some(5));
        assert_eq!(ExportResponse::Ready.run(), None);
    }
}
