//! What the page shows of a Chrome trace beyond the timeline and the paths
//! over its flows: the flame graph of its stacks, Bazel's own critical
//! path, events by phase and the counter series available.

use crate::view::TaskRow;
use serde::{Deserialize, Serialize};

/// A Chrome trace's own view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChromeView {
    /// Bazel's own critical path, in Bazel's order: each component's
    /// action, or the component where none was found.
    pub bazel_critical_path: Vec<TaskRow>,
    /// Events per phase as written.
    pub by_phase: Vec<(String, u64)>,
    /// Counter series: (name, process, points).
    pub counters: Vec<(String, String, u64)>,
    /// Dependencies made from flows.
    pub flows: u64,
    /// A Bazel profile's summary and suggestions.
    pub bazel: Option<super::bazel::view::BazelView>,
}
