//! Where each Bazel action ran, for a comparison: from the spans Bazel's
//! spawn runners record inside an action's `action processing` slice, on
//! its thread (the categories are `ProfilerTask` descriptions):
//!
//! - `remote action execution` (`execute remotely`): run on a remote executor;
//! - `local action execution` (named by the mnemonic), or the spans of a
//!   local spawn (`subprocess.run`, a worker's execution): run locally;
//! - `remote action cache check` (`check cache hit`) with neither: the
//!   result came from the remote (or disk) cache.
//!
//! An action with both a remote and a local execution fell back from one
//! to the other: it ran locally, and was retried. Two executions that do
//! not nest are a retry too. Spans nested in an execution span (Bazel
//! records `send Execute request` inside `execute remotely` in some
//! versions) are not counted again.

use super::BazelRun;
use crate::compare::execution::{Execution, Place};
use crate::model::{Model, Nanos};

/// Categories of a remote execution.
const REMOTE: [&str; 1] = ["remote action execution"];
/// Categories of a local execution.
const LOCAL: [&str; 3] = ["local action execution", "local execution in worker", "local process spawn"];
/// The `general information` span of a local spawn (as EngFlow's analyzer counts it).
const LOCAL_SPAN: &str = "subprocess.run";
/// The category of a remote cache lookup.
const CACHE_CHECK: &str = "remote action cache check";

/// What one span says of the action around it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sign {
    Remote,
    Local,
    CacheCheck,
}

/// Each task's [`Execution`] (known for actions only), or `None` when no
/// action of the profile records where it ran.
pub fn executions(m: &Model, run: &BazelRun) -> Option<Vec<Execution>> {
    let sign_of_kind: Vec<Option<Sign>> = m
        .kinds()
        .iter()
        .map(|k| match k.name.as_str() {
            n if REMOTE.contains(&n) => Some(Sign::Remote),
            n if LOCAL.contains(&n) => Some(Sign::Local),
            CACHE_CHECK => Some(Sign::CacheCheck),
            _ => None,
        })
        .collect();
    // The spans that say something, by lane, in order of start.
    let mut by_lane: Vec<Vec<(Nanos, Nanos, Sign)>> = vec![Vec::new(); m.lanes().len()];
    for (i, t) in m.tasks().iter().enumerate() {
        let sign = sign_of_kind[t.kind.index()]
            .or_else(|| (m.uid(crate::model::TaskId(i as u32)) == LOCAL_SPAN).then_some(Sign::Local));
        if let (Some(sign), Some(s), Some(e)) = (sign, t.start.get(), t.end.get()) {
            by_lane[t.lane.index()].push((s, e, sign));
        }
    }
    if by_lane.iter().all(Vec::is_empty) {
        return None;
    }
    for spans in &mut by_lane {
        spans.sort_by_key(|&(s, e, _)| (s, std::cmp::Reverse(e)));
    }
    let mut out = vec![Execution::default(); m.tasks().len()];
    for action in &run.actions {
        let t = m.task(action.task);
        let (Some(start), Some(end)) = (t.start.get(), t.end.get()) else { continue };
        let spans = &by_lane[t.lane.index()];
        let from = spans.partition_point(|&(s, ..)| s < start);
        let (mut remote, mut local, mut checked) = (0u32, 0u32, false);
        // The end of the last execution counted: one inside it is the same one.
        let mut open_until = Nanos::MIN;
        for &(s, e, sign) in spans[from..].iter().take_while(|&&(s, ..)| s <= end).filter(|&&(_, e, _)| e <= end) {
            match sign {
                Sign::CacheCheck => checked = true,
                _ if s < open_until => {}
                Sign::Remote => (remote, open_until) = (remote + 1, e),
                Sign::Local => (local, open_until) = (local + 1, e),
            }
        }
        out[action.task.index()] = Execution {
            place: match (remote, local) {
                (_, 1..) => Place::Local,
                (1.., 0) => Place::Remote,
                (0, 0) => Place::Unknown,
            },
            retried: remote + local > 1,
            cache_hit: checked && remote + local == 0,
        };
    }
    out.iter().any(Execution::is_known).then_some(out)
}
