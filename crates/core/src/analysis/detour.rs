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
    /// Each position's longest way on to the run's end: `NONE` (it ends
    /// there), a position, or `GATE | x` (through receiving task x's gate).
    tail_next: Vec<u32>,
    /// Each receiving task's transfer with the longest way on.
    gate_next: Vec<u32>,
    /// Each receiving task's shared dependency that ended last.
    gate_head: Vec<u32>,
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
        let mut tree = Sweep::new(path);
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
        let gate_next = gate_tail.iter().map(|&(_, t)| t).collect();
        Detours { best: tree.answers(), tail_next, gate_next, gate_head }
    }

    /// The last end of the longest chain that avoids the `i`-th path task
    /// (`None`: every chain goes through it).
    pub fn longest_without(&self, i: usize) -> Option<Nanos> {
        self.best[i].0
    }

    /// The positions of that chain, first first.
    pub fn chain(&self, replay: &Replay, ends: &[Nanos], i: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let on = |q: u32, out: &mut Vec<usize>| {
            out.push(q as usize);
            self.tail_from(q, out);
        };
        match self.best[i].1 {
            Via::Nothing => {}
            Via::Step(d, q) => {
                out = replay.path_from(d as usize, ends);
                on(q, &mut out);
            }
            Via::IntoGate(d, x) => {
                out = replay.path_from(d as usize, ends);
                on(self.gate_next[x as usize], &mut out);
            }
            Via::OutOfGate(x, t) => {
                out = replay.path_from(self.gate_head[x as usize] as usize, ends);
                on(t, &mut out);
            }
            Via::From(s) => on(s, &mut out),
            Via::To(u) => out = replay.path_from(u as usize, ends),
        }
        out
    }

    /// Appends the longest way on from position `q` to the run's end.
    fn tail_from(&self, mut q: u32, out: &mut Vec<usize>) {
        loop {
            q = match self.tail_next[q as usize] {
                NONE => return,
                g if g & GATE != 0 => self.gate_next[(g & !GATE) as usize],
                v => v,
            };
            out.push(q as usize);
        }
    }
}

/// The largest offer over each path task: a segment tree over the path's
/// indices, each node holding the largest offer that covers it whole.
struct Sweep<'p> {
    path: &'p [usize],
    size: usize,
    nodes: Vec<(Option<Nanos>, Via)>,
}

impl<'p> Sweep<'p> {
    /// No offers yet, over `path` (positions, increasing).
    fn new(path: &'p [usize]) -> Sweep<'p> {
        let size = path.len().next_power_of_two().max(1);
        Sweep { path, size, nodes: vec![(None, Via::Nothing); 2 * size] }
    }

    /// A chain ending at `value` that avoids the path tasks strictly
    /// between positions `lo` and `hi`.
    fn offer(&mut self, lo: i64, hi: i64, value: Nanos, via: Via) {
        let a = self.path.partition_point(|&p| p as i64 <= lo);
        let b = self.path.partition_point(|&p| (p as i64) < hi);
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
        (0..self.path.len())
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
