//! A Bazel profile for the page: Bazel's own critical path, each
//! component on the action it names, with Bazel's total, is the critical
//! path; the same steps with the time waited between them are the
//! blocking chain ([`crate::formats::chrome_trace::bazel::analysis::paths`]); its [`BazelView`]
//! is the summary and the suggestions.

use crate::formats::chrome_trace::bazel::analysis::paths;
use crate::formats::chrome_trace::bazel::analysis::suggest::{suggestions, Suggestion};
use crate::formats::chrome_trace::bazel::analysis::summary::{summary, BazelSummary};
use crate::formats::chrome_trace::bazel::BazelRun;
use crate::layout::timeline::TimelineIndex;
use crate::model::Model;
use crate::view::{path_view, RunView, Series};
use serde::{Deserialize, Serialize};

/// A Bazel profile's summary for the page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BazelView {
    /// The summary (its `running` series emptied: see [`BazelView::running`]).
    pub summary: BazelSummary,
    /// Actions running at once, thinned for drawing.
    pub running: Option<Series>,
    /// The suggestions, most telling first.
    pub suggestions: Vec<Suggestion>,
    /// Critical path components whose action was not found.
    pub unmatched: u64,
    /// `otherData`.
    pub metadata: Vec<(String, String)>,
}

/// Its floats (shares, averages) are finite: equality is total.
impl Eq for BazelView {}

impl BazelView {
    /// The view of a Bazel profile.
    pub fn of(model: &Model, run: &BazelRun) -> BazelView {
        let mut s = summary(model, run);
        let running = Series::of("actions running", &std::mem::take(&mut s.running));
        BazelView {
            suggestions: suggestions(model, &s),
            summary: s,
            running,
            unmatched: run.path.iter().filter(|p| p.action.is_none()).count() as u64,
            metadata: run.metadata.clone(),
        }
    }
}

impl RunView {
    /// Puts Bazel's critical path in place of the paths over the model's
    /// dependencies (a profile without one keeps them).
    pub(crate) fn with_bazel_path(&mut self, model: &Model, run: &BazelRun, index: &TimelineIndex) {
        let Some(p) = paths(model, run) else { return };
        self.critical_path = path_view(model, index, &p.critical, None);
        self.blocking_chain = path_view(model, index, &p.blocking, Some(&p.gaps));
        self.differences.clear();
    }
}
