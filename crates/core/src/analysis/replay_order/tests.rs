//! The order against a plain Kahn's algorithm that looks at every node
//! each step: on random runs with transfers and cycles, the same order.

use super::{topological, IndexDeps, NONE};
use proptest::prelude::*;

/// The order as its definition says it, slowly: each step, of the nodes
/// whose waits are all placed, the one of least rank; when none is, the
/// first unplaced node by number (tasks, then gates by first transfer).
fn plain(deps: &IndexDeps, receiver: &[u32]) -> Vec<u32> {
    let n = receiver.len();
    let mut gates: Vec<(u32, usize)> = Vec::new(); // (receiver, first transfer)
    for (i, &r) in receiver.iter().enumerate() {
        if r != NONE && !gates.iter().any(|&(g, _)| g == r) {
            gates.push((r, i));
        }
    }
    let gate_of = |r: u32| n + gates.iter().position(|&(g, _)| g == r).unwrap();
    let own = |i: usize| deps.of_task(i).iter().map(|&d| d as usize).filter(move |&d| d != i);
    let waits = |node: usize| -> Vec<usize> {
        if node < n {
            let mut w: Vec<usize> = own(node).collect();
            if receiver[node] != NONE {
                w.push(gate_of(receiver[node]));
            }
            w
        } else {
            let r = gates[node - n].0 as usize;
            own(r).filter(|&d| receiver[d] != r as u32).collect()
        }
    };
    let rank = |node: usize| if node < n { 2 * node + 1 } else { 2 * gates[node - n].1 };
    let nodes = n + gates.len();
    let mut done = vec![false; nodes];
    // How many of a node's waits are placed; a wait listed twice counts twice.
    let mut met = vec![0usize; nodes];
    let mut order = Vec::new();
    for _ in 0..nodes {
        let ready = (0..nodes).filter(|&q| !done[q] && met[q] >= waits(q).len()).min_by_key(|&q| rank(q));
        let node = ready.unwrap_or_else(|| (0..nodes).find(|&q| !done[q]).unwrap());
        done[node] = true;
        if node < n {
            order.push(node as u32);
        }
        for q in 0..nodes {
            met[q] += waits(q).iter().filter(|&&d| d == node).count();
        }
    }
    order
}

proptest! {
    #[test]
    fn the_order_is_kahn_s_by_least_rank(
        n in 1usize..40,
        edges in proptest::collection::vec((0usize..40, 0usize..40, 0u8..10), 0..120),
        transfers in proptest::collection::vec((0usize..40, 0usize..40), 0..10),
    ) {
        // Mostly forward edges (a run nearly in order), some backward ones (cycles).
        let mut lists = vec![Vec::new(); n];
        for &(a, b, back) in &edges {
            let (a, b) = (a % n, b % n);
            let (from, to) = if back == 0 || a == b { (a, b) } else { (a.min(b), a.max(b)) };
            lists[to].push(from as u32);
        }
        let mut receiver = vec![NONE; n];
        for &(t, r) in &transfers {
            let (t, r) = (t % n, r % n);
            if t != r {
                receiver[t] = r as u32;
                lists[r].push(t as u32);
            }
        }
        let mut deps = IndexDeps { start: vec![0], deps: Vec::new() };
        for l in &lists {
            deps.deps.extend(l);
            deps.start.push(deps.deps.len() as u32);
        }
        prop_assert_eq!(topological(&deps, &receiver), plain(&deps, &receiver));
    }
}
