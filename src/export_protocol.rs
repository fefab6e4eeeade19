//! The messages between the page and its export worker
//! ([`crate::export_worker`]), which writes the fleet tables of the loaded
//! run. Like the analysis worker's ([`crate::protocol`]) they are JSON text,
//! files going beside a request as `File` objects and the zip coming back
//! in a [`FILE_MESSAGE`] of its own; they are separate types so that the
//! analysis worker, which never exports Parquet, links none of this.
//!
//! [`FILE_MESSAGE`]: crate::protocol::FILE_MESSAGE

use crate::protocol::{Progress, RunId, Source};
use serde::{Deserialize, Serialize};

/// Page → export worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum ExportRequest {
    /// Read the run's inputs again and write its fleet tables as one zip:
    /// the files sent beside this message, or else `urls` fetched again.
    Parquet {
        /// The run whose tables these are (the page's run id).
        run: RunId,
        /// The inputs a link named, absolute; empty when files come beside.
        urls: Vec<Source>,
        /// The most WebAssembly memory the export may need, bytes; `None`
        /// for [`longpole_core::memory_budget::WASM_LIMIT`] (tests lower it).
        #[serde(default)]
        memory_limit: Option<u64>,
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
        let r = ExportRequest::Parquet { run: 2, urls: sources, memory_limit: Some(1 << 20) };
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<ExportRequest>(&json).unwrap(), r);
        // Without a limit the field may be left out, as the page's other requests allow.
        let bare = r#"{"type":"Parquet","run":3,"urls":[]}"#;
        assert_eq!(
            serde_json::from_str::<ExportRequest>(bare).unwrap(),
            ExportRequest::Parquet { run: 3, urls: Vec::new(), memory_limit: None }
        );
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
