//! Where the wall time's change went, between one run of each side.
//!
//! A run's wall time is its blocking chain's durations plus the waiting on
//! it (before its first task and between its steps), exactly. So the
//! change is, exactly:
//!
//! - **shared path**: Σ over keys on both paths of (B's time − A's);
//! - **path changes**: Σ of the time of keys only on B's path − Σ of keys
//!   only on A's;
//! - **waiting**: B's waiting − A's.
//!
//! Each key's part of the first two is its effect on the wall time.
//!
//! **What-if.** B's tasks replayed in B's order with A's durations: each
//! starts as long after the last of what it waited for as it did in B (or
//! as long after the run's start, without dependencies), and takes A's
//! time per task of its key when A has the key, its own otherwise. Lanes
//! are not replayed: a task never waits for a free slot it did not wait
//! for in B.

use super::digest::Digest;
use crate::hash::FastMap;
use crate::model::Nanos;

/// The change split in three, and each key's effect on the wall time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Split {
    /// Longer or shorter tasks on the shared path, ns.
    pub shared_path: Nanos,
    /// Keys that entered or left the path, ns.
    pub path_changes: Nanos,
    /// The change in waiting, ns.
    pub waiting: Nanos,
    /// Each key on either path: its part of the first two, ns.
    pub effects: FastMap<String, Nanos>,
}

/// The change from `a` to `b`, split.
pub fn split(a: &Digest, b: &Digest) -> Split {
    let (pa, pb) = (a.path_time(), b.path_time());
    let mut s = Split { waiting: b.waiting - a.waiting, ..Split::default() };
    for (k, &tb) in &pb {
        match pa.get(k) {
            Some(&ta) => {
                s.shared_path += tb - ta;
                s.effects.insert((*k).to_owned(), tb - ta);
            }
            None => {
                s.path_changes += tb;
                s.effects.insert((*k).to_owned(), tb);
            }
        }
    }
    for (k, &ta) in &pa {
        if !pb.contains_key(k) {
            s.path_changes -= ta;
            s.effects.insert((*k).to_owned(), -ta);
        }
    }
    s
}

/// The wall time of `b` replayed with the durations `a` gives per task of a
/// key (where the key's tasks ended the same way in both: executed, cached).
pub fn what_if(b: &Digest, a: &Digest) -> Nanos {
    // A's time per task of each of B's keys, where A ran the key's tasks
    // the same way (a cache hit in one run is no duration for the other).
    let per_task: Vec<Option<Nanos>> = b
        .keyed_groups()
        .map(|(_, k, gb)| {
            let ga = a.group(k)?;
            (ga.count > 0 && ga.outcomes.same_mix(&gb.outcomes)).then(|| ga.total / Nanos::from(ga.count))
        })
        .collect();
    let mut ends: Vec<Nanos> = Vec::with_capacity(b.replay.len());
    for t in &b.replay {
        // Replay order is B's start order: what a task waited for ended
        // before it started, so it is already replayed (a dependency that
        // started later, against the rule, counts from the run's start).
        let deps = &b.replay_deps[t.deps.0 as usize..t.deps.1 as usize];
        let ready = deps.iter().filter_map(|&d| ends.get(d as usize).copied()).max().unwrap_or(0);
        ends.push(ready + t.delay + per_task[t.key as usize].unwrap_or(t.duration));
    }
    ends.into_iter().max().unwrap_or(0)
}

/// The two paths aligned: pairs of step indices (A's, B's), a step only on
/// one path paired with `None`; the longest common subsequence of keys.
pub fn align(da: &Digest, db: &Digest) -> Vec<(Option<usize>, Option<usize>)> {
    let a: Vec<&str> = da.path.iter().map(|s| da.key(s.key)).collect();
    let b: Vec<&str> = db.path.iter().map(|s| db.key(s.key)).collect();
    let (n, m) = (a.len(), b.len());
    // Paths are short; a very long pair is aligned by membership alone.
    if n.saturating_mul(m) > 16_000_000 {
        let in_b: FastMap<&str, usize> = b.iter().enumerate().map(|(i, s)| (*s, i)).collect();
        let in_a: FastMap<&str, usize> = a.iter().enumerate().map(|(i, s)| (*s, i)).collect();
        let mut out: Vec<_> = a.iter().enumerate().map(|(i, s)| (Some(i), in_b.get(s).copied())).collect();
        out.extend(b.iter().enumerate().filter(|(_, s)| !in_a.contains_key(*s)).map(|(j, _)| (None, Some(j))));
        return out;
    }
    let mut len = vec![0u32; (n + 1) * (m + 1)];
    let at = |i: usize, j: usize| i * (m + 1) + j;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            len[at(i, j)] =
                if a[i] == b[j] { len[at(i + 1, j + 1)] + 1 } else { len[at(i + 1, j)].max(len[at(i, j + 1)]) };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::with_capacity(n.max(m)));
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            out.push((Some(i), Some(j)));
            i += 1;
            j += 1;
        } else if j == m || (i < n && len[at(i + 1, j)] >= len[at(i, j + 1)]) {
            out.push((Some(i), None));
            i += 1;
        } else {
            out.push((None, Some(j)));
            j += 1;
        }
    }
    out
}
