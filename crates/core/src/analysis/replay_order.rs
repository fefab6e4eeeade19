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

/// The positions of `by_start` (tasks sorted by start, `pos` each model
/// task's index there, or `u32::MAX` outside) in an order where a task
/// comes after what it waits for. `receiver[i]`: for a transfer, the index
/// of the task it was made for (`u32::MAX`: none). Kahn's algorithm, taking
/// the earliest start that is ready (a gate just before its receiver's
/// first transfer); tasks on a cycle go in start order when nothing else
/// is ready.
pub fn topological(model: &Model, by_start: &[(Nanos, TaskId)], pos: &[u32], receiver: &[u32]) -> Vec<u32> {
    let n = by_start.len();
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
    let task_deps = |i: usize| {
        model.deps(by_start[i].1).iter().map(|d| pos[d.index()]).filter(move |&d| d != NONE && d as usize != i)
    };
    let waits = |node: usize, out: &mut Vec<u32>| {
        out.clear();
        if node < n {
            out.extend(task_deps(node));
            if let Some(&r) = receiver.get(node).filter(|&&r| r != NONE) {
                out.push(gate_of[r as usize]);
            }
        } else {
            let r = gate_task[node - n] as usize;
            out.extend(task_deps(r).filter(|&d| !is_own_transfer(r, d)));
        }
    };
    let mut buf = Vec::new();
    let mut waiting = vec![0u32; nodes];
    let mut dependants_start = vec![0u32; nodes + 1];
    for (node, w) in waiting.iter_mut().enumerate() {
        waits(node, &mut buf);
        *w = buf.len() as u32;
        for &d in &buf {
            dependants_start[d as usize + 1] += 1;
        }
    }
    for i in 0..nodes {
        dependants_start[i + 1] += dependants_start[i];
    }
    let mut fill = dependants_start.clone();
    let mut dependants = vec![0u32; dependants_start[nodes] as usize];
    for node in 0..nodes {
        waits(node, &mut buf);
        for &d in &buf {
            dependants[fill[d as usize] as usize] = node as u32;
            fill[d as usize] += 1;
        }
    }
    let rank = |node: u32| if (node as usize) < n { 2 * u64::from(node) + 1 } else { gate_rank[node as usize - n] };
    let mut ready: std::collections::BinaryHeap<std::cmp::Reverse<(u64, u32)>> =
        (0..nodes as u32).filter(|&i| waiting[i as usize] == 0).map(|i| std::cmp::Reverse((rank(i), i))).collect();
    let mut done = vec![false; nodes];
    let mut order = Vec::with_capacity(n);
    let (mut placed, mut next_unplaced) = (0usize, 0usize);
    while placed < nodes {
        let node = match ready.pop() {
            Some(std::cmp::Reverse((_, i))) => i,
            None => {
                // Only cycles are left: the earliest unplaced task (or gate) goes next.
                while done[next_unplaced] {
                    next_unplaced += 1;
                }
                next_unplaced as u32
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
            if *w == 0 && !done[q as usize] {
                ready.push(std::cmp::Reverse((rank(q), q)));
            }
        }
    }
    order
}
