//! A run as flame graphs, one per timing kind, by the evaluator's rules:
//! the `A:` paths (threads added up, the process scope left out), each
//! node's total the sum of its spans, its self time the total less its
//! children's totals (a KeyValue pseudo-scope has no value of its own, so
//! its children's count for it), clamped at 0 with a warning when the
//! weighted children exceed the parent.

use super::table::{path_key, PathMode, Table};
use crate::formats::evobench::{Label, Log, TimingKind};
use crate::hash::FastMap;
use serde::{Deserialize, Serialize};

/// One frame of the flame graph.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlameNode {
    /// Its label (`thread`, `main|fib`, `sum_of_fibs n=27`); the root is `all`.
    pub name: String,
    /// Its `A:` path (empty for the root).
    pub path: String,
    /// Its parent (`None` for the root, node 0).
    pub parent: Option<u32>,
    /// Its children, in path order.
    pub children: Vec<u32>,
    /// A KeyValue pseudo-scope: its totals are its children's.
    pub key_value: bool,
    /// Total per kind ([`TimingKind::index`]): the sum of its spans' costs
    /// (children's totals for the root and KeyValues); `None` where the spans
    /// have no value of that kind.
    pub total: [Option<u64>; 4],
    /// Self per kind: total less the children's totals, at least 0
    /// (0 for the root and KeyValues).
    pub self_time: [Option<u64>; 4],
}

/// A run's flame graph: every node, the root first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlameGraph {
    /// The nodes; node 0 is the root `all`.
    pub nodes: Vec<FlameNode>,
    /// Where children's totals exceeded their parent's (self clamped to 0).
    pub warnings: Vec<String>,
}

impl FlameGraph {
    /// The flame graph of a run: `log`'s call tree with `table`'s sums.
    pub fn of(log: &Log, table: &Table) -> FlameGraph {
        let sums: FastMap<&str, [Option<u64>; 4]> = table
            .rows
            .iter()
            .filter(|r| r.mode == PathMode::A && !r.key_value)
            .map(|r| (r.path.as_str(), r.stats.each_ref().map(|s| s.as_ref().map(|s| s.sum))))
            .collect();
        let root = FlameNode {
            name: "all".to_owned(),
            path: String::new(),
            parent: None,
            children: Vec::new(),
            key_value: false,
            total: [None; 4],
            self_time: [None; 4],
        };
        let mut g = FlameGraph { nodes: vec![root], warnings: Vec::new() };
        let mut by_path: FastMap<String, u32> = FastMap::default();
        let mut of_node: Vec<Option<u32>> = vec![None; log.nodes.len()];
        // Parents come before their children in the call tree.
        for (i, n) in log.nodes.iter().enumerate() {
            if matches!(n.label, Label::Process(_)) {
                continue;
            }
            let parent = n.parent.and_then(|p| of_node[p as usize]).unwrap_or(0);
            let path = path_key(log, i as u32, PathMode::A);
            let id = match by_path.get(&path) {
                Some(&id) => id,
                None => {
                    let id = g.nodes.len() as u32;
                    let key_value = matches!(n.label, Label::KeyValue(..));
                    let total =
                        if key_value { [None; 4] } else { sums.get(path.as_str()).copied().unwrap_or([None; 4]) };
                    g.nodes.push(FlameNode {
                        name: log.label_text(i as u32, false),
                        path: path.clone(),
                        parent: Some(parent),
                        children: Vec::new(),
                        key_value,
                        total,
                        self_time: [None; 4],
                    });
                    g.nodes[parent as usize].children.push(id);
                    by_path.insert(path, id);
                    id
                }
            };
            of_node[i] = Some(id);
        }
        g.fill(0);
        g
    }

    /// Fills totals of the root and KeyValues and every self time, children first.
    fn fill(&mut self, id: u32) {
        let children = self.nodes[id as usize].children.clone();
        let mut below = [None::<u64>; 4];
        for &c in &children {
            self.fill(c);
            for (k, b) in below.iter_mut().enumerate() {
                if let Some(t) = self.nodes[c as usize].total[k] {
                    *b = Some(b.unwrap_or(0).saturating_add(t));
                }
            }
        }
        let n = &mut self.nodes[id as usize];
        if n.key_value || n.parent.is_none() {
            n.total = below;
            n.self_time = below.map(|b| b.map(|_| 0));
            return;
        }
        for k in TimingKind::ALL {
            let i = k.index();
            n.self_time[i] = n.total[i].map(|t| {
                let children = below[i].unwrap_or(0);
                if children > t {
                    self.warnings.push(format!(
                        "{}: children's {} ({children}) exceeds the scope's own ({t}); self counted as 0",
                        n.path,
                        k.title()
                    ));
                }
                t.saturating_sub(children)
            });
        }
    }

    /// The hottest path for `kind`: from the root, each time the child with
    /// the largest total (the first on ties), down to a leaf.
    pub fn hottest_path(&self, kind: TimingKind) -> Vec<u32> {
        self.hottest_path_from(kind, 0)
    }

    /// The hottest path for `kind` from node `from` down (`from` first).
    pub fn hottest_path_from(&self, kind: TimingKind, from: u32) -> Vec<u32> {
        if from as usize >= self.nodes.len() {
            return Vec::new();
        }
        let mut path = vec![from];
        let mut at = from as usize;
        while let Some(&next) = self.nodes[at].children.iter().reduce(|best, c| {
            let total = |n: &u32| self.nodes[*n as usize].total[kind.index()].unwrap_or(0);
            if total(c) > total(best) {
                c
            } else {
                best
            }
        }) {
            path.push(next);
            at = next as usize;
        }
        path
    }

    /// The frames from the top (the root left out) down to `id`.
    pub fn frames(&self, id: u32) -> Vec<&str> {
        let mut frames = Vec::new();
        let mut at = Some(id);
        while let Some(i) = at.filter(|&i| i != 0) {
            frames.push(self.nodes[i as usize].name.as_str());
            at = self.nodes[i as usize].parent;
        }
        frames.reverse();
        frames
    }
}
