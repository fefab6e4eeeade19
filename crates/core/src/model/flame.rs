//! A flame graph: a tree of named frames, each with up to [`MEASURES`]
//! measures (an evobench run's four timing kinds, a StarRocks operator's
//! time), its total and its self time (the total less its children's,
//! clamped at 0 with a warning). Formats build one; the layout, the SVG
//! renderer, the folded-stack export and the app draw any of them.

use serde::{Deserialize, Serialize};

/// Most measures a flame graph carries.
pub const MEASURES: usize = 4;

/// What a measure's numbers are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Unit {
    /// Nanoseconds.
    Nanos,
    /// Microseconds.
    Micros,
    /// A count.
    Count,
}

impl Unit {
    /// A value as people read it: a duration for times, a grouped count.
    pub fn show(self, v: u64) -> String {
        let ns = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        match self {
            Unit::Nanos => crate::numbers::duration_label(ns(v)),
            Unit::Micros => crate::numbers::duration_label(ns(v.saturating_mul(1000))),
            Unit::Count => crate::numbers::group(v),
        }
    }
}

/// One measure of a flame graph.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Measure {
    /// Its title (`real time`, `operator time`).
    pub title: String,
    /// A short name for files and test hooks (`real_ns`).
    pub name: String,
    /// Its unit.
    pub unit: Unit,
}

/// One frame of the flame graph.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlameNode {
    /// Its label (`thread`, `main|fib`, `sum_of_fibs n=27`); the root is `all`.
    pub name: String,
    /// Its path as its format names it (evobench's `A:` path); empty for
    /// the root, and where the path is the names from the root joined by
    /// `;` ([`FlameGraph::path_of`] gives either).
    pub path: String,
    /// Its parent (`None` for the root, node 0).
    pub parent: Option<u32>,
    /// Its children, in path order.
    pub children: Vec<u32>,
    /// A grouping with no value of its own (an evobench KeyValue
    /// pseudo-scope): its totals are its children's.
    pub grouping: bool,
    /// Total per measure (for evobench, [`crate::formats::evobench::TimingKind::index`]):
    /// the sum of its own costs (children's totals for the root and groupings);
    /// `None` where it has no value of that measure.
    pub total: [Option<u64>; MEASURES],
    /// Self per measure: total less the children's totals, at least 0
    /// (0 for the root and groupings).
    pub self_time: [Option<u64>; MEASURES],
}

/// A run's flame graph: every node, the root first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlameGraph {
    /// The nodes; node 0 is the root `all`.
    pub nodes: crate::chunk_list::ChunkList<FlameNode>,
    /// Where children's totals exceeded their parent's (self clamped to 0).
    pub warnings: Vec<String>,
    /// The measures, by index (at most [`MEASURES`]).
    pub measures: Vec<Measure>,
}

impl FlameGraph {
    /// Fills the totals of the root and of groupings, and every self time,
    /// children first.
    pub(crate) fn fill(&mut self, id: u32) {
        // Children first, without recursion: a trace's stacks can be
        // thousands deep, more than a browser worker's call stack holds.
        let mut stack: Vec<(u32, usize)> = vec![(id, 0)];
        while let Some((node, next)) = stack.last_mut() {
            if let Some(&c) = self.nodes[*node as usize].children.get(*next) {
                *next += 1;
                stack.push((c, 0));
            } else {
                let node = *node;
                stack.pop();
                self.fill_one(node);
            }
        }
    }

    /// Fills node `id` once its children are filled.
    fn fill_one(&mut self, id: u32) {
        let mut below = [None::<u64>; MEASURES];
        for &c in &self.nodes[id as usize].children {
            for (k, b) in below.iter_mut().enumerate() {
                if let Some(t) = self.nodes[c as usize].total[k] {
                    *b = Some(b.unwrap_or(0).saturating_add(t));
                }
            }
        }
        let n = &mut self.nodes[id as usize];
        if n.grouping || n.parent.is_none() {
            n.total = below;
            n.self_time = below.map(|b| b.map(|_| 0));
            return;
        }
        let mut over = Vec::new();
        for (i, below) in below.iter().enumerate().take(self.measures.len()) {
            n.self_time[i] = n.total[i].map(|t| {
                let children = below.unwrap_or(0);
                if children > t {
                    over.push((i, children, t));
                }
                t.saturating_sub(children)
            });
        }
        for (i, children, t) in over {
            self.warnings.push(format!(
                "{}: children's {} ({children}) exceeds the frame's own ({t}); self counted as 0",
                self.path_of(id),
                self.measures[i].title
            ));
        }
    }

    /// Node `id`'s path: as its format named it, else its names from the
    /// root (left out) joined by `;`.
    pub fn path_of(&self, id: u32) -> String {
        let Some(n) = self.nodes.get(id as usize) else { return String::new() };
        if !n.path.is_empty() || n.parent.is_none() {
            return n.path.clone();
        }
        let mut names = Vec::new();
        let mut at = Some(id);
        while let Some(node) = at.and_then(|i| self.nodes.get(i as usize)).filter(|node| node.parent.is_some()) {
            names.push(node.name.as_str());
            at = node.parent;
        }
        names.reverse();
        names.join(";")
    }

    /// The hottest path for measure `m`: from the root, each time the child
    /// with the largest total (the first on ties), down to a leaf.
    pub fn hottest_path(&self, m: usize) -> Vec<u32> {
        self.hottest_path_from(m, 0)
    }

    /// The hottest path for measure `m` from node `from` down (`from` first).
    pub fn hottest_path_from(&self, m: usize, from: u32) -> Vec<u32> {
        if from as usize >= self.nodes.len() {
            return Vec::new();
        }
        let mut path = vec![from];
        let mut at = from as usize;
        while let Some(&next) = self.nodes[at].children.iter().reduce(|best, c| {
            let total = |n: &u32| self.nodes[*n as usize].total.get(m).copied().flatten().unwrap_or(0);
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
