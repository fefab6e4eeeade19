//! For each task of a replayed run's path, the longest chain of the run
//! that avoids it: what the run would take if that task took no time.
//!
//! The replay's ends are longest chains (a task ends its gap and duration
//! after the last end of what it waits for). A chain that avoids path
//! task `p` either ends before `p` in the replay's order, starts after
//! it, or steps over it: from a position before `p` to one after. So with
//! each position's longest chain to it (its end) and from it to the run's
//! end (its tail, worked out backwards once), every step over `p` gives a
//! chain's length, and one sweep gives them for every path task at once.
//! Shortening `p` by `δ` then saves `min(δ, wall − longest chain without
//! p)`: exactly what a full replay gives, at the cost of one.
//!
//! A transfer made for a task waits for that task's other dependencies
//! through one gate per receiving task (see [`crate::analysis::replay`]),
//! so that the steps stay as many as the run's edges.

use super::replay::Replay;
use crate::model::Nanos;

/// Not a position.
const NONE: u32 = u32::MAX;
/// Marks a tail's next step as a receiving task's gate.
const GATE: u32 = 1 << 31;

/// How a chain that avoids a path task goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Via {
    /// No chain.
    Nothing,
    /// Through the step from the first position to the second.
    Step(u32, u32),
    /// From a position into the gate of a receiving task.
    IntoGate(u32, u32),
    /// From the gate of a receiving task to one of its transfers.
    OutOfGate(u32, u32),
    /// From a position that waits for nothing.
    From(u32),
    /// Ending at a position.
    To(u32),
}

/// The longest chain avoiding each task of a replayed run's path.
#[derive(Debug)]
pub struct Detours {
    /// For each path task (by its index on the path): the last end of the
    /// longest chain avoiding it (ns, `None`: no chain), and how it goes.
    best: Vec<(Option<Nanos>, Via)>,
    /// Each receiving task's transfer with the longest way on.
    gate_next: Vec<u32>,
    /// Each receiving task's shared dependency that ended last.
    gate_head: Vec<u32>,
    /// Each position's first off the path on the longest chain to it.
    off_before: Vec<u32>,
    /// Each position's first off the path on it and its way on.
    off_after: Vec<u32>,
}

impl Detours {
    /// The detours of `replay` played with its own durations (ends
    /// `ends`) around each task of its path `path` (first first).
    pub fn new(replay: &Replay, ends: &[Nanos], path: &[usize]) -> Detours {
        let n = replay.len();
        let w = |q: usize| replay.gap(q) + replay.duration(q);
        // Tails, backwards: a position's is final once everything after it is done.
        let mut tail = vec![0 as Nanos; n];
        let mut tail_next = vec![NONE; n];
        let mut gate_tail: Vec<(Nanos, u32)> = vec![(Nanos::MIN, NONE); n];
        let mut left = vec![0u32; n];
        let mut first_transfer = vec![NONE; n];
        for q in 0..n {
            if let Some(x) = replay.receiver(q) {
                left[x] += 1;
                first_transfer[x] = first_transfer[x].min(q as u32);
            }
        }
        for q in (0..n).rev() {
            let on = w(q) + tail[q];
            for &d in replay.own_deps(q) {
                if on > tail[d as usize] {
                    tail[d as usize] = on;
                    tail_next[d as usize] = q as u32;
                }
            }
            if let Some(x) = replay.receiver(q) {
                if on > gate_tail[x].0 {
                    gate_tail[x] = (on, q as u32);
                }
                left[x] -= 1;
                if left[x] == 0 {
                    for &d in replay.shared(x) {
                        if gate_tail[x].0 > tail[d as usize] {
                            tail[d as usize] = gate_tail[x].0;
                            tail_next[d as usize] = GATE | x as u32;
                        }
                    }
                }
            }
        }
        let gate_head: Vec<u32> = (0..n)
            .map(|x| replay.shared(x).iter().copied().max_by_key(|&d| (ends[d as usize], std::cmp::Reverse(d))))
            .map(|d| d.unwrap_or(NONE))
            .collect();
        // Every chain, on the path tasks it avoids: those strictly between two positions.
        let mut tree = Sweep::new(path, n);
        for q in 0..n {
            let after = w(q) + tail[q];
            if replay.waits_for(q).next().is_none() {
                tree.offer(-1, q as i64, ends[q] + tail[q], Via::From(q as u32));
            }
            for &d in replay.own_deps(q) {
                tree.offer(i64::from(d), q as i64, ends[d as usize] + after, Via::Step(d, q as u32));
            }
            tree.offer(q as i64, n as i64, ends[q], Via::To(q as u32));
            if let Some(x) = replay.receiver(q) {
                let h = gate_head[x];
                if h != NONE {
                    let ft = i64::from(first_transfer[x]);
                    tree.offer(ft - 1, q as i64, ends[h as usize] + after, Via::OutOfGate(x as u32, q as u32));
                }
            }
            if first_transfer[q] != NONE && gate_tail[q].1 != NONE {
                for &d in replay.shared(q) {
                    let value = ends[d as usize] + gate_tail[q].0;
                    tree.offer(i64::from(d), i64::from(first_transfer[q]), value, Via::IntoGate(d, q as u32));
                }
            }
        }
        let gate_next: Vec<u32> = gate_tail.iter().map(|&(_, t)| t).collect();
        let mut on_path = vec![false; n];
        path.iter().for_each(|&p| on_path[p] = true);
        let off_before = off_path_before(replay, ends, &on_path);
        let off_after = off_path_after(&tail_next, &gate_next, &on_path);
        Detours { best: tree.answers(), gate_next, gate_head, off_before, off_after }
    }

    /// The last end of the longest chain that avoids the `i`-th path task
    /// (`None`: every chain goes through it).
    pub fn longest_without(&self, i: usize) -> Option<Nanos> {
        self.best[i].0
    }

    /// The first position of that chain, first first, that is not on the
    /// path (`None`: it has none, or there is no chain).
    pub fn first_off_path(&self, i: usize) -> Option<usize> {
        let (before, after) = match self.best[i].1 {
            Via::Nothing => (NONE, NONE),
            Via::Step(d, q) => (d, q),
            Via::IntoGate(d, x) => (d, self.gate_next[x as usize]),
            Via::OutOfGate(x, t) => (self.gate_head[x as usize], t),
            Via::From(s) => (NONE, s),
            Via::To(u) => (u, NONE),
        };
        let first = |off: &[u32], q: u32| (q != NONE).then(|| off[q as usize]).filter(|&o| o != NONE);
        first(&self.off_before, before).or_else(|| first(&self.off_after, after)).map(|q| q as usize)
    }
}

/// For each position: the first position off `path` on the longest chain
/// to it (as [`Replay::path_from`] walks it), first first; `NONE` if all of
/// it is on the path.
fn off_path_before(replay: &Replay, ends: &[Nanos], on_path: &[bool]) -> Vec<u32> {
    let mut off = vec![NONE; replay.len()];
    for q in 0..replay.len() {
        let came = replay.waits_for(q).max_by_key(|&d| (ends[d as usize], std::cmp::Reverse(d)));
        let earlier = came.map_or(NONE, |d| off[d as usize]);
        off[q] = if earlier != NONE || on_path[q] { earlier } else { q as u32 };
    }
    off
}

/// For each position: the first position off the path of it and its
/// longest way on to the run's end (`tail_next`, through gates by
/// `gate_next`); `NONE` if all of it is on the path. Every step on goes to
/// a later position.
fn off_path_after(tail_next: &[u32], gate_next: &[u32], on_path: &[bool]) -> Vec<u32> {
    let mut off = vec![NONE; tail_next.len()];
    for q in (0..tail_next.len()).rev() {
        off[q] = if !on_path[q] {
            q as u32
        } else {
            match tail_next[q] {
                NONE => NONE,
                g if g & GATE != 0 => match gate_next[(g & !GATE) as usize] {
                    NONE => NONE,
                    t => off[t as usize],
                },
                v => off[v as usize],
            }
        };
    }
    off
}

/// The largest offer over each path task: a segment tree over the path's
/// indices, each node holding the largest offer that covers it whole.
struct Sweep {
    /// For each position `q` of the replay (and its length): how many path
    /// tasks come before it.
    before: Vec<u32>,
    size: usize,
    nodes: Vec<(Option<Nanos>, Via)>,
}

impl Sweep {
    /// No offers yet, over `path` (positions, increasing) of a replay of `n` positions.
    fn new(path: &[usize], n: usize) -> Sweep {
        let mut before = vec![0u32; n + 1];
        path.iter().for_each(|&p| before[p + 1] += 1);
        (1..=n).for_each(|q| before[q] += before[q - 1]);
        let size = path.len().next_power_of_two().max(1);
        Sweep { before, size, nodes: vec![(None, Via::Nothing); 2 * size] }
    }

    /// A chain ending at `value` that avoids the path tasks strictly
    /// between positions `lo` (from −1) and `hi` (up to the replay's length).
    fn offer(&mut self, lo: i64, hi: i64, value: Nanos, via: Via) {
        let (a, b) = (self.before[(lo + 1) as usize] as usize, self.before[hi as usize] as usize);
        let (mut a, mut b) = (a + self.size, b + self.size);
        let take = |node: &mut (Option<Nanos>, Via)| {
            if node.0.is_none_or(|v| value > v) {
                *node = (Some(value), via);
            }
        };
        while a < b {
            if a & 1 == 1 {
                take(&mut self.nodes[a]);
                a += 1;
            }
            if b & 1 == 1 {
                b -= 1;
                take(&mut self.nodes[b]);
            }
            a /= 2;
            b /= 2;
        }
    }

    /// Each path task's largest offer.
    fn answers(&self) -> Vec<(Option<Nanos>, Via)> {
        (0..self.before.last().copied().unwrap_or(0) as usize)
            .map(|i| {
                let mut at = i + self.size;
                let mut best = self.nodes[at];
                while at > 1 {
                    at /= 2;
                    let node = self.nodes[at];
                    if node.0 > best.0 {
                        best = node;
                    }
                }
                best
            })
            .collect()
    }
}
