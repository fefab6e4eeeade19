//! Custom hooks.

mod native_socket;
mod use_analysis_worker;
mod use_export_worker;
mod use_hash_view;
mod use_keys;
mod use_launch_queue;
mod use_link_load;
mod use_offline_shell;
mod use_open_ping;
mod use_sql_engine;
mod use_wheel;
mod worker_link;
mod worker_tables;

pub use use_analysis_worker::{use_analysis_worker, AnalysisWorker};
pub use use_export_worker::{use_export_worker, Delivered, ExportWorker, KeptInputs, Receiver};
pub use use_hash_view::{use_hash_view, HashView};
pub use use_keys::use_keys;
pub use use_launch_queue::use_launch_queue;
pub use use_link_load::use_link_load;
pub use use_offline_shell::use_offline_shell;
pub use use_open_ping::use_open_ping;
pub use use_sql_engine::{use_sql_engine, SqlEngine};
pub use use_wheel::use_wheel;
