//! A Bazel profile's paths for the page: Bazel's own critical path, each
//! component on the action it names, with Bazel's total, is the critical
//! path; the same steps with the time waited between them are the
//! blocking chain ([`crate::analysis::bazel::paths`]).

use super::{path_view, RunView};
use crate::analysis::bazel::paths;
use crate::layout::timeline::TimelineIndex;
use crate::model::Model;
use crate::reconcile::bazel::BazelRun;

impl RunView {
    /// Puts Bazel's critical path in place of the paths over the model's
    /// dependencies (a profile without one keeps them).
    pub(super) fn with_bazel_path(&mut self, model: &Model, run: &BazelRun, index: &TimelineIndex) {
        let Some(p) = paths(model, run) else { return };
        self.critical_path = path_view(model, index, &p.critical, None);
        self.blocking_chain = path_view(model, index, &p.blocking, Some(&p.gaps));
        self.differences.clear();
    }
}
