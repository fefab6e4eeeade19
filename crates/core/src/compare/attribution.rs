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
//! **What-if.** B's run replayed ([`crate::analysis::replay`]) with A's
//! durations: B's tasks of a key take, one to one in order of start, the
//! durations of A's tasks of that key, where A ran the key's tasks the same
//! way (a cache hit in one run is no duration for the other); a task
//! without a counterpart keeps its own. Never an average. Lanes are not
//! replayed: a task never waits for a free slot it did not wait for in B.

use super::digest::Digest;
use crate::analysis::replay_change::Player;
use crate::hash::FastMap;
use crate::join::Join;
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

/// A's duration for each of `b`'s replayed tasks, where it has one: B's
/// tasks of a key take, one to one in order of start, the durations of A's
/// tasks of that key, where A ran the key's tasks the same way. `b_in_a`:
/// each of B's keys' id in A (`matching::by_structure`).
pub fn a_durations(b: &Digest, a: &Digest, b_in_a: &[Option<u32>], join: Join<'_>) -> Vec<Option<Nanos>> {
    let (rb, ra) = (&b.replay, &a.replay);
    // A's side on one thread, B's on the other.
    let (mut a_by_key, mut order, mut counterpart) = (Vec::new(), Vec::new(), Vec::new());
    join(
        &mut || {
            // A's durations of each of its keys, in order of start.
            let a_starts = ra.starts(&ra.ends(ra.durations()), ra.durations());
            // (start, position, duration): ties in start go in the replay's order, on both sides.
            a_by_key = vec![Vec::new(); a.groups.len()];
            for p in 0..ra.len() {
                a_by_key[a.replay_keys[p] as usize].push((a_starts[p], p, ra.duration(p)));
            }
            a_by_key.iter_mut().for_each(|v: &mut Vec<(Nanos, usize, Nanos)>| v.sort_unstable());
        },
        &mut || {
            // A's key of each of B's keys, where both ran its tasks the same way.
            counterpart = b
                .keyed_groups()
                .map(|(id, _, gb)| {
                    b_in_a[id as usize].filter(|&i| a.groups[i as usize].outcomes.same_mix(&gb.outcomes))
                })
                .collect();
            let b_starts = rb.starts(&rb.ends(rb.durations()), rb.durations());
            order = (0..rb.len()).map(|p| (b.replay_keys[p], b_starts[p], p)).collect();
            order.sort_unstable();
        },
    );
    let mut matched = vec![None; rb.len()];
    let mut nth = 0;
    for (i, &(key, _, p)) in order.iter().enumerate() {
        nth = if i > 0 && order[i - 1].0 == key { nth + 1 } else { 0 };
        matched[p] = counterpart[key as usize].and_then(|k| a_by_key[k as usize].get(nth)).map(|&(_, _, d)| d);
    }
    matched
}

/// The wall time of `b` replayed with `a`'s durations (`matched`, from
/// [`a_durations`]), task by task.
pub fn what_if(b: &Digest, matched: &[Option<Nanos>]) -> Nanos {
    let rb = &b.replay;
    let durations: Vec<Nanos> = rb.durations().iter().zip(matched).map(|(&d, m)| m.unwrap_or(d)).collect();
    rb.wall(&rb.ends(&durations))
}

/// What `b` would save if the tasks of each of `keys` (B's key ids) went
/// back to A's durations (`matched`), one key at a time: B's wall time
/// less its replay with only that key's tasks changed, ns, in the order of
/// `keys`.
pub fn savings_if_back(b: &Digest, matched: &[Option<Nanos>], keys: &[u32]) -> Vec<Nanos> {
    let rb = &b.replay;
    let mut slot: FastMap<u32, usize> = FastMap::default();
    keys.iter().enumerate().for_each(|(i, &k)| {
        slot.insert(k, i);
    });
    let mut positions: Vec<Vec<usize>> = vec![Vec::new(); keys.len()];
    for p in 0..rb.len() {
        if let Some(&i) = slot.get(&b.replay_keys[p]) {
            positions[i].push(p);
        }
    }
    let base = rb.ends(rb.durations());
    let wall = rb.wall(&base);
    let mut player = Player::new(rb, &base);
    positions
        .iter()
        .map(|ps| {
            let changes: Vec<(usize, Nanos)> = ps.iter().map(|&p| (p, matched[p].unwrap_or(rb.duration(p)))).collect();
            wall - player.play_all(&changes)
        })
        .collect()
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
