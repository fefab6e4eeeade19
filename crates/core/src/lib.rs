//! longpole's core: execution logs in, models, analyses, layouts and SVG out.
//!
//! The stages flow one way: [`formats`] read bytes (after [`decompress`],
//! driven by [`ingest`]) → [`reconcile`] joins inputs into a [`model`] →
//! analyses → layout → render. This crate knows nothing of browsers,
//! files or terminals: bytes come in as slices, results go out as values.
//! Nothing here panics on input; problems are [`diagnostics`], and only
//! "this is not (or no longer) this format" is an [`Error`].

#![deny(missing_docs)]

pub mod analysis;
pub mod byte_places;
pub mod chunk_list;
pub mod compare;
pub mod decompress;
pub mod diagnostics;
pub mod dump;
pub mod error;
pub mod export;
pub mod formats;
pub mod hash;
pub mod ingest;
pub mod intern;
pub mod join;
pub mod json_split;
pub mod layout;
pub mod lines;
pub mod memory_budget;
pub mod model;
pub mod numbers;
pub mod recent_ids;
pub mod reconcile;
pub mod render;
pub mod report;
pub mod run;
pub mod summary;
pub mod view;

#[cfg(test)]
mod test_support;

pub use error::Error;
pub use ingest::{Ingest, Input, InputInfo};
pub use reconcile::{reconcile, Analysis};
pub use summary::Summary;
