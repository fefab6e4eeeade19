//! `dbt build`'s extra edges: a node waits for the tests of the nodes
//! upstream of it, as dbt's scheduler adds them (a test waits for every
//! node it tests; a node that has all of them upstream waits for the test).
//! The edge goes to each such node that depends directly on one of the
//! test's nodes; the nodes further down wait through it.

use super::artifacts::Manifest;
use super::run::NodeInfo;
use crate::model::ModelBuilder;
use std::collections::HashMap;

/// Adds the edges to `b` and returns how many.
pub fn add(
    b: &mut ModelBuilder,
    nodes: &[NodeInfo],
    ran: &HashMap<&str, usize>,
    m: &Manifest,
    in_manifest: &HashMap<&str, usize>,
) -> u64 {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); m.nodes.len()];
    for (i, n) in m.nodes.iter().enumerate() {
        if n.resource_type == "test" {
            continue;
        }
        for d in &n.depends_on {
            if let Some(&p) = in_manifest.get(d.as_str()) {
                children[p].push(i);
            }
        }
    }
    let mut added = 0;
    for test in nodes.iter().filter(|n| n.resource_type == "test") {
        let (Some(last), Some(&ti)) = (test.last_task(), in_manifest.get(test.unique_id.as_str())) else { continue };
        let parents: Vec<usize> =
            m.nodes[ti].depends_on.iter().filter_map(|d| in_manifest.get(d.as_str()).copied()).collect();
        let mut waiters: Vec<usize> = parents.iter().flat_map(|&p| children[p].iter().copied()).collect();
        waiters.sort_unstable();
        waiters.dedup();
        for w in waiters {
            if parents.contains(&w) || !parents.iter().all(|&p| upstream(m, in_manifest, p, w)) {
                continue;
            }
            let Some(first) = ran.get(m.nodes[w].unique_id.as_str()).and_then(|&i| nodes[i].first_task()) else {
                continue;
            };
            b.depends(first, last);
            added += 1;
        }
    }
    added
}

/// Whether manifest node `p` is upstream of node `n` (through `depends_on`).
fn upstream(m: &Manifest, in_manifest: &HashMap<&str, usize>, p: usize, n: usize) -> bool {
    let mut seen = vec![false; m.nodes.len()];
    let mut stack = vec![n];
    while let Some(at) = stack.pop() {
        for d in &m.nodes[at].depends_on {
            let Some(&i) = in_manifest.get(d.as_str()) else { continue };
            if i == p {
                return true;
            }
            if !std::mem::replace(&mut seen[i], true) {
                stack.push(i);
            }
        }
    }
    false
}
