//! longpole's web app: a Yew page that draws state, a Web Worker that
//! reads files in slices and runs the core, and an export worker started
//! only for the Parquet tables and the workbook ([`export_worker`], with the
//! `export` feature). The core (`longpole-core`) does
//! all the analysis; this crate only knows the browser.

#![deny(missing_docs)]

pub mod components;
pub mod download;
pub mod dropped;
pub mod embed;
pub mod export_protocol;
#[cfg(feature = "export")]
pub mod export_worker;
pub mod file_groups;
pub mod file_read;
pub mod finished;
pub mod format;
pub mod graph_worker;
pub mod hooks;
pub mod link;
pub mod link_files;
pub mod memory_limit;
pub mod offline;
pub use longpole_answer::protocol;
pub mod samples;
pub mod shared;
pub mod shown;
pub mod slice_feed;
pub mod sql_engine;
pub mod sql_state;
pub mod sql_tables;
pub mod state;
pub mod url_read;
pub mod warm_up;
pub mod worker;
pub mod worker_io;
