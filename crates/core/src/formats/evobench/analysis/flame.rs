//! A run as flame graphs, one per timing kind, by the evaluator's rules:
//! the `A:` paths (threads added up, the process scope left out), each
//! node's total the sum of its spans, its self time the total less its
//! children's totals (a KeyValue pseudo-scope has no value of its own, so
//! its children's count for it), clamped at 0 with a warning when the
//! weighted children exceed the parent.

use super::table::{path_key, PathMode, Table};
use crate::formats::evobench::{Label, Log, TimingKind};
use crate::hash::FastMap;
use crate::model::flame::{FlameGraph, FlameNode, Measure};

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
            grouping: false,
            total: [None; 4],
            self_time: [None; 4],
        };
        let measures = TimingKind::ALL
            .iter()
            .map(|k| Measure { title: k.title().to_owned(), name: k.name().to_owned(), unit: k.unit() })
            .collect();
        let mut g = FlameGraph { nodes: vec![root].into(), warnings: Vec::new(), measures };
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
                        grouping: key_value,
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
}
