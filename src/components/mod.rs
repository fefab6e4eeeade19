//! The page's components: each turns state into HTML and user input into
//! actions or callbacks; none computes anything the core could.

mod app;
mod bazel_summary;
mod breakdown;
mod compare_flame;
mod compare_headline;
mod compare_paths;
mod compare_pick;
mod compare_screen;
mod compare_timelines;
mod data_table;
mod dep_graph;
mod details;
mod diagnostics_list;
mod error_panel;
mod flame_graph;
mod header;
mod heap_chart;
mod help;
mod landing;
mod levers_list;
mod load_chart;
mod measure_pick;
mod path_list;
mod pipeline_chart;
mod query_track;
mod reading;
mod remote_table;
mod run_facts;
mod run_view;
mod shell_notice;
mod sql_tab;
mod summary_view;
mod tables;
mod timeline;
mod what_if_panel;

pub use app::App;
