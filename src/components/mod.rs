//! The page's components: each turns state into HTML and user input into
//! actions or callbacks; none computes anything the core could.

mod app;
mod diagnostics_list;
mod error_panel;
mod header;
mod help;
mod landing;
mod reading;
mod summary_view;

pub use app::App;
