//! The model's dependencies as a petgraph graph: [`Deps`] implements
//! petgraph's visitor traits over the model's own adjacency lists, so
//! petgraph's algorithms run on it without a copy of the edges.

use crate::model::{Model, TaskId};
use petgraph::visit::{GraphBase, GraphRef, IntoNeighbors, IntoNodeIdentifiers, NodeCount, NodeIndexable};

/// The dependency graph of a model: an edge from each task to each task it waited for.
#[derive(Clone, Copy)]
pub struct Deps<'a>(pub &'a Model);

impl GraphBase for Deps<'_> {
    type NodeId = TaskId;
    type EdgeId = (TaskId, usize);
}

impl GraphRef for Deps<'_> {}

impl<'a> IntoNeighbors for Deps<'a> {
    type Neighbors = std::iter::Copied<std::slice::Iter<'a, TaskId>>;

    fn neighbors(self, a: TaskId) -> Self::Neighbors {
        self.0.deps(a).iter().copied()
    }
}

impl IntoNodeIdentifiers for Deps<'_> {
    type NodeIdentifiers = std::iter::Map<std::ops::Range<u32>, fn(u32) -> TaskId>;

    fn node_identifiers(self) -> Self::NodeIdentifiers {
        (0..self.0.tasks().len() as u32).map(TaskId)
    }
}

impl NodeIndexable for Deps<'_> {
    fn node_bound(&self) -> usize {
        self.0.tasks().len()
    }

    fn to_index(&self, a: TaskId) -> usize {
        a.index()
    }

    fn from_index(&self, i: usize) -> TaskId {
        TaskId(i as u32)
    }
}

impl NodeCount for Deps<'_> {
    fn node_count(&self) -> usize {
        self.0.tasks().len()
    }
}

/// Every dependency cycle: each strongly connected set of more than one
/// task, or a task that waits for itself (petgraph's Tarjan SCC).
///
/// The components are visited in place ([`petgraph::algo::TarjanScc`]), so
/// an acyclic graph of millions of tasks allocates nothing per task beyond
/// the search's own state.
pub fn cycles(model: &Model) -> Vec<Vec<TaskId>> {
    let mut found = Vec::new();
    if model.edge_count() == 0 {
        // No edge, no cycle (a GHC eventlog's millions of runs have none).
        return found;
    }
    petgraph::algo::TarjanScc::new().run(Deps(model), |c| {
        if c.len() > 1 || c.first().is_some_and(|&t| model.deps(t).contains(&t)) {
            found.push(c.to_vec());
        }
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ModelBuilder, Role, Task};

    #[test]
    fn finds_cycles_with_petgraph() {
        let mut b = ModelBuilder::new();
        let (lane, kind) = (b.lane("h"), b.kind("K", None));
        let ids: Vec<TaskId> = (0..4)
            .map(|i| {
                let uid = b.sym(&format!("t{i}"));
                b.task(Task::new(uid, kind, Role::Work, lane, Some(0), Some(1)))
            })
            .collect();
        b.depends(ids[0], ids[1]);
        b.depends(ids[1], ids[2]);
        b.depends(ids[2], ids[0]);
        b.depends(ids[3], ids[0]);
        let model = b.build();
        let mut found = cycles(&model);
        found.iter_mut().for_each(|c| c.sort());
        assert_eq!(found, vec![vec![ids[0], ids[1], ids[2]]]);
    }
}
