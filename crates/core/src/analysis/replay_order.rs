//! The order a replay plays a run's tasks in: each after what it waits
//! for, the run's own order (by start) wherever that allows.
//!
//! A transfer made for a task waits, besides its own dependencies, for
//! what that task waits for other than its transfers (see
//! [`crate::analysis::replay`]). The order keeps that without listing each
//! of those waits once per transfer: one gate per receiving task stands
//! between its other dependencies and its transfers.

use crate::model::{Model, Nanos, TaskId};

/// Not a node.
const NONE: u32 = u32::MAX;

/// Each task's dependencies as indices of the run's tasks: those of task
/// `i` are `deps[start[i]..start[i + 1]]`, in the model's order.
#[derive(Clone, Debug, Default)]
pub struct IndexDeps {
    start: Vec<u32>,
    deps: Vec<u32>,
}

impl IndexDeps {
    /// The dependencies of `by_start`'s tasks (sorted by start, `pos` each
    /// model task's index there, or `u32::MAX` outside), read from `model`
    /// once: the model's tasks lie in another order, and each look-up
    /// there is a cache miss on a big build.
    pub fn of(model: &Model, by_start: &[(Nanos, TaskId)], pos: &[u32]) -> IndexDeps {
        let mut start = Vec::with_capacity(by_start.len() + 1);
        start.push(0);
        let mut deps = Vec::new();
        for &(_, id) in by_start {
            deps.extend(model.deps(id).iter().map(|d| pos[d.index()]).filter(|&d| d != NONE));
            start.push(deps.len() as u32);
        }
        IndexDeps { start, deps }
    }

    /// Task `i`'s dependencies.
    pub fn of_task(&self, i: usize) -> &[u32] {
        &self.deps[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

/// The indices of the run's tasks (sorted by start, with their
/// dependencies `deps`) in an order where a task comes after what it
/// waits for. `receiver[i]`: for a transfer, the index of the task it was
/// made for (`u32::MAX`: none). Kahn's algorithm, taking the earliest start
/// that is ready (a gate just before its receiver's first transfer); tasks
/// on a cycle go in start order when nothing else is ready.
pub fn topological(deps: &IndexDeps, receiver: &[u32]) -> Vec<u32> {
    let n = receiver.len();
    // Gates: one per receiving task, nodes n.. in order of first transfer.
    let mut gate_of = vec![NONE; n];
    let mut gate_rank: Vec<u64> = Vec::new();
    let mut gate_task: Vec<u32> = Vec::new();
    for (i, &r) in receiver.iter().enumerate() {
        if r != NONE && gate_of[r as usize] == NONE {
            gate_of[r as usize] = (n + gate_task.len()) as u32;
            gate_rank.push(2 * i as u64);
            gate_task.push(r);
        }
    }
    let nodes = n + gate_task.len();
    // What each node waits for: a task its dependencies (a receiver's
    // transfers excepted) and, for a transfer, its receiver's gate; a gate
    // what its receiver waits for other than its transfers.
    let is_own_transfer = |i: usize, d: u32| receiver.get(d as usize) == Some(&(i as u32));
    let task_deps = |i: usize| deps.of_task(i).iter().copied().filter(move |&d| d as usize != i);
    let mut edges: Vec<(u32, u32)> = Vec::with_capacity(deps.deps.len() + n);
    let mut waiting = vec![0u32; nodes];
    for (node, w) in waiting.iter_mut().enumerate() {
        let before = edges.len();
        if node < n {
            edges.extend(task_deps(node).map(|d| (d, node as u32)));
            if let Some(&r) = receiver.get(node).filter(|&&r| r != NONE) {
                edges.push((gate_of[r as usize], node as u32));
            }
        } else {
            let r = gate_task[node - n] as usize;
            edges.extend(task_deps(r).filter(|&d| !is_own_transfer(r, d)).map(|d| (d, node as u32)));
        }
        *w = (edges.len() - before) as u32;
    }
    let mut dependants_start = vec![0u32; nodes + 1];
    edges.iter().for_each(|&(d, _)| dependants_start[d as usize + 1] += 1);
    for i in 0..nodes {
        dependants_start[i + 1] += dependants_start[i];
    }
    let mut fill = dependants_start.clone();
    let mut dependants = vec![0u32; edges.len()];
    for &(d, node) in &edges {
        dependants[fill[d as usize] as usize] = node;
        fill[d as usize] += 1;
    }
    drop(edges);
    // Nodes by rank: rank 2i + 1 is task i, rank 2i the gate whose first
    // transfer is task i, if there is one.
    let mut gate_before = vec![NONE; n];
    gate_rank.iter().enumerate().for_each(|(g, &r)| gate_before[(r / 2) as usize] = (n + g) as u32);
    let node_at = |r: usize| if r % 2 == 1 { (r / 2) as u32 } else { gate_before[r / 2] };
    let rank = |node: u32| if (node as usize) < n { 2 * u64::from(node) + 1 } else { gate_rank[node as usize - n] };
    // The ready nodes are those the scan has yet to reach, of which it
    // stops at the first, and those that became ready after it passed
    // them, in a heap: these rank before anything the scan reaches, so the
    // heap goes first. A run is nearly in order, so the heap stays small.
    let mut late: std::collections::BinaryHeap<std::cmp::Reverse<(u64, u32)>> = Default::default();
    let mut scan = 0usize;
    let mut done = vec![false; nodes];
    let mut order = Vec::with_capacity(n);
    let (mut placed, mut next_unplaced) = (0usize, 0usize);
    while placed < nodes {
        let node = match late.pop() {
            Some(std::cmp::Reverse((_, i))) => i,
            None => {
                while scan < 2 * n && {
                    let q = node_at(scan);
                    q == NONE || done[q as usize] || waiting[q as usize] != 0
                } {
                    scan += 1;
                }
                if scan < 2 * n {
                    node_at(scan)
                } else {
                    // Only cycles are left: the earliest unplaced task (or gate) goes next.
                    while done[next_unplaced] {
                        next_unplaced += 1;
                    }
                    next_unplaced as u32
                }
            }
        };
        if done[node as usize] {
            continue;
        }
        done[node as usize] = true;
        placed += 1;
        if (node as usize) < n {
            order.push(node);
        }
        let range = dependants_start[node as usize] as usize..dependants_start[node as usize + 1] as usize;
        for &q in &dependants[range] {
            let w = &mut waiting[q as usize];
            *w = w.saturating_sub(1);
            if *w == 0 && !done[q as usize] && rank(q) < scan as u64 {
                late.push(std::cmp::Reverse((rank(q), q)));
            }
        }
    }
    order
}

#[cfg(test)]
mod tests;
