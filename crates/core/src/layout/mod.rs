//! Layout: pure geometry of the views, from the model and its analyses.

pub mod flame;
pub mod graph;
pub mod graph_camera;
pub mod graph_view;
mod lane_rows;
pub mod slots;
pub mod timeline;
