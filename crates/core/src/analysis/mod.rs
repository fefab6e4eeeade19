//! Analyses of a model: they read the [`crate::model::Model`] and nothing
//! of any format's own structures.

pub mod critical_path;
pub mod detour;
pub mod drag;
pub mod graph;
pub mod no_path;
pub mod replay;
pub mod replay_change;
pub mod replay_order;
pub mod slack;
pub mod task_key;
pub mod task_totals;
pub mod top;
