//! Remote cache use per action, as EngFlow's bazel_invocation_analyzer
//! reads it (`LocalActionsDataProvider`): each `action processing` slice
//! with the events on its thread that lie within it. An action checked
//! the cache when one of them is a `remote action cache check`; it hit
//! when, not run remotely (`remote action execution`), it downloaded
//! outputs (`remote output download`, or `Remote.download`). An action
//! that neither checked the cache nor ran locally or remotely is internal
//! when its mnemonic is one of Bazel's own (workspace status, symlinks).

use crate::formats::chrome_trace::bazel::BazelRun;
use crate::model::{Model, Nanos, TaskId};
use serde::{Deserialize, Serialize};

/// Mnemonics of Bazel's internal actions (EngFlow's list).
const INTERNAL: [&str; 3] = ["BazelWorkspaceStatusAction", "ExecutableSymlink", "Symlink"];
/// Actions listed in a finding, at most (EngFlow's default).
pub const LISTED: usize = 5;
/// Actions without a cache check shorter than this are not listed, ns (EngFlow's 5 s).
pub const NO_CACHE_LISTED_FROM: Nanos = 5_000_000_000;

/// What an event within an action says of it.
#[derive(Clone, Copy, PartialEq)]
enum Sign {
    CacheCheck,
    Download,
    Local,
    Remote,
}

/// The sign of a task of category `kind` named `uid`.
fn sign(kind: &str, uid: &str) -> Option<Sign> {
    match (kind, uid) {
        ("remote action cache check", _) => Some(Sign::CacheCheck),
        ("remote output download", _) | ("general information", "Remote.download") => Some(Sign::Download),
        ("local action execution", _) | ("general information", "subprocess.run") => Some(Sign::Local),
        ("remote action execution", _) => Some(Sign::Remote),
        _ => None,
    }
}

/// Cache misses and actions that skip the cache.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Caching {
    /// Actions that checked the cache.
    pub checked: u64,
    /// Of them, actions that missed it.
    pub misses: u64,
    /// The misses that took longest without their cache check: (task id,
    /// time ns), longest first, at most [`LISTED`].
    pub longest_misses: Vec<(u32, Nanos)>,
    /// Actions, not internal, that did not check the cache.
    pub unchecked: u64,
    /// Those of them of [`NO_CACHE_LISTED_FROM`] or more: (task id, time
    /// ns), longest first, at most [`LISTED`].
    pub longest_unchecked: Vec<(u32, Nanos)>,
}

/// The `LISTED` longest of `items`, longest first (ties by task id).
fn longest(mut items: Vec<(u32, Nanos)>) -> Vec<(u32, Nanos)> {
    items.sort_by_key(|&(t, d)| (std::cmp::Reverse(d), t));
    items.truncate(LISTED);
    items
}

/// Each action's cache use.
pub fn caching(m: &Model, run: &BazelRun) -> Caching {
    // The signs on each lane: (start, end, sign), by start.
    let mut by_lane: Vec<Vec<(Nanos, Nanos, Sign)>> = vec![Vec::new(); m.lanes().len()];
    for (i, t) in m.tasks().iter().enumerate() {
        let kind = m.kinds()[t.kind.index()].name.as_str();
        if let (Some(sg), Some(s), Some(e)) = (sign(kind, m.uid(TaskId(i as u32))), t.start.get(), t.end.get()) {
            by_lane[t.lane.index()].push((s, e, sg));
        }
    }
    for l in &mut by_lane {
        l.sort_by_key(|&(s, e, _)| (s, e));
    }
    let mut out = Caching::default();
    let (mut misses, mut unchecked) = (Vec::new(), Vec::new());
    for a in &run.actions {
        let t = m.task(a.task);
        let (Some(start), Some(end)) = (t.start.get(), t.end.get()) else { continue };
        let on_lane = &by_lane[t.lane.index()];
        let from = on_lane.partition_point(|&(s, ..)| s < start);
        let within: Vec<(Nanos, Nanos, Sign)> =
            on_lane[from..].iter().take_while(|&&(s, ..)| s <= end).filter(|&&(_, e, _)| e <= end).copied().collect();
        let has = |x: Sign| within.iter().any(|w| w.2 == x);
        let d = end.saturating_sub(start);
        if has(Sign::CacheCheck) {
            out.checked += 1;
            if has(Sign::Remote) || !has(Sign::Download) {
                out.misses += 1;
                let check: Nanos = within.iter().filter(|w| w.2 == Sign::CacheCheck).map(|w| w.1 - w.0).sum();
                misses.push((a.task.0, d.saturating_sub(check)));
            }
        } else if has(Sign::Local) || has(Sign::Remote) || !a.mnemonic.as_deref().is_some_and(|n| INTERNAL.contains(&n))
        {
            out.unchecked += 1;
            if d >= NO_CACHE_LISTED_FROM {
                unchecked.push((a.task.0, d));
            }
        }
    }
    out.longest_misses = longest(misses);
    out.longest_unchecked = longest(unchecked);
    out
}
