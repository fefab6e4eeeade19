//! A few tasks' durations changed in a replayed run, played again
//! quickly: only what moves is played, and the run is put back afterwards,
//! so that thousands of changes (every drag of a big build, every key of a
//! comparison going back to its old times) cost what they move, not the
//! run's size each.
//!
//! The answers are those of [`Replay::ends`] with those durations changed,
//! exactly: what waits for a position that moved is played again in the
//! replay's order, and nothing else can move.

use super::replay::Replay;
use crate::model::Nanos;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A run's replay, ready to be played with one duration changed at a time.
#[derive(Debug)]
pub struct Player<'a> {
    replay: &'a Replay,
    /// The run's ends, as played with its own durations.
    base: &'a [Nanos],
    /// Positions by base end, latest first (the first on a tie first).
    by_end: Vec<u32>,
    /// `dependants[dep_start[d]..dep_start[d + 1]]`: who waits for `d` itself.
    dep_start: Vec<u32>,
    dependants: Vec<u32>,
    /// Receiving tasks whose transfers also wait for `d`, likewise.
    gate_start: Vec<u32>,
    gate_users: Vec<u32>,
    /// Each receiving task's transfers, likewise.
    transfer_start: Vec<u32>,
    transfers: Vec<u32>,
    /// The ends of the last play (the base where nothing moved).
    ends: Vec<Nanos>,
    /// Each position's duration in the play under way (its own outside one).
    durations: Vec<Nanos>,
    /// What the last play moved, with its base end.
    moved: Vec<u32>,
    queued: Vec<bool>,
    heap: BinaryHeap<Reverse<u32>>,
}

/// A CSR list: for each of `n` keys, the values of `pairs` (key, value).
fn grouped(n: usize, pairs: &[(u32, u32)]) -> (Vec<u32>, Vec<u32>) {
    let mut start = vec![0u32; n + 1];
    pairs.iter().for_each(|&(k, _)| start[k as usize + 1] += 1);
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut values = vec![0u32; pairs.len()];
    for &(k, v) in pairs {
        values[fill[k as usize] as usize] = v;
        fill[k as usize] += 1;
    }
    (start, values)
}

impl<'a> Player<'a> {
    /// The player of `replay`, whose run played with its own durations
    /// ended at `base`.
    pub fn new(replay: &'a Replay, base: &'a [Nanos]) -> Player<'a> {
        let n = replay.len();
        let mut own = Vec::new();
        let mut gate = Vec::new();
        let mut transfer = Vec::new();
        for q in 0..n {
            own.extend(replay.own_deps(q).iter().map(|&d| (d, q as u32)));
            if let Some(x) = replay.receiver(q) {
                transfer.push((x as u32, q as u32));
            }
            if replay.shared(q).first().is_some() {
                gate.extend(replay.shared(q).iter().map(|&d| (d, q as u32)));
            }
        }
        let (dep_start, dependants) = grouped(n, &own);
        let (gate_start, gate_users) = grouped(n, &gate);
        let (transfer_start, transfers) = grouped(n, &transfer);
        let mut by_end: Vec<u32> = (0..n as u32).collect();
        by_end.sort_unstable_by_key(|&p| (Reverse(base[p as usize]), p));
        Player {
            replay,
            base,
            by_end,
            dep_start,
            dependants,
            gate_start,
            gate_users,
            transfer_start,
            transfers,
            ends: base.to_vec(),
            durations: replay.durations().to_vec(),
            moved: Vec::new(),
            queued: vec![false; n],
            heap: BinaryHeap::new(),
        }
    }

    /// Queues what waits for `d`.
    fn queue_dependants(&mut self, d: usize) {
        let own = self.dep_start[d] as usize..self.dep_start[d + 1] as usize;
        let gates = self.gate_start[d] as usize..self.gate_start[d + 1] as usize;
        for i in own {
            let q = self.dependants[i];
            if !std::mem::replace(&mut self.queued[q as usize], true) {
                self.heap.push(Reverse(q));
            }
        }
        for i in gates {
            let x = self.gate_users[i] as usize;
            for j in self.transfer_start[x] as usize..self.transfer_start[x + 1] as usize {
                let q = self.transfers[j];
                if !std::mem::replace(&mut self.queued[q as usize], true) {
                    self.heap.push(Reverse(q));
                }
            }
        }
    }

    /// Position `q`'s end, what it waits for played.
    fn end_of(&self, q: usize, duration: Nanos) -> Nanos {
        let ready = self.replay.waits_for(q).map(|d| self.ends[d as usize]).max().unwrap_or(0);
        ready + self.replay.gap(q) + duration
    }

    /// Plays the run with position `p` taking `duration` (the last play put
    /// back first) and gives its wall time.
    pub fn play(&mut self, p: usize, duration: Nanos) -> Nanos {
        self.play_all(&[(p, duration)])
    }

    /// Plays the run with each position of `changes` taking its duration
    /// (the last play put back first) and gives its wall time.
    pub fn play_all(&mut self, changes: &[(usize, Nanos)]) -> Nanos {
        self.put_back();
        for &(p, duration) in changes {
            self.durations[p] = duration;
            if !std::mem::replace(&mut self.queued[p], true) {
                self.heap.push(Reverse(p as u32));
            }
        }
        // In the replay's order: what a position waits for is settled when
        // it is played.
        while let Some(Reverse(q)) = self.heap.pop() {
            let q = q as usize;
            self.queued[q] = false;
            let end = self.end_of(q, self.durations[q]);
            if end != self.ends[q] {
                self.ends[q] = end;
                self.moved.push(q as u32);
                self.queue_dependants(q);
            }
        }
        for &(p, _) in changes {
            self.durations[p] = self.replay.duration(p);
        }
        self.replay.wall(&[self.ends[self.last()]])
    }

    /// The position that ended last in the last play (the first on a tie).
    fn last(&self) -> usize {
        let unmoved = self.by_end.iter().map(|&p| p as usize).find(|&p| self.ends[p] == self.base[p]);
        let key = |p: usize| (self.ends[p], Reverse(p));
        self.moved.iter().map(|&p| p as usize).chain(unmoved).max_by_key(|&p| key(p)).unwrap_or(0)
    }

    /// The path of the last play, first position first.
    pub fn path(&self) -> Vec<usize> {
        if self.replay.is_empty() {
            return Vec::new();
        }
        self.replay.path_from(self.last(), &self.ends)
    }

    /// Puts the run back as it was.
    fn put_back(&mut self) {
        for &p in &self.moved {
            self.ends[p as usize] = self.base[p as usize];
        }
        self.moved.clear();
    }
}
