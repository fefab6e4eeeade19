//! A differential flame graph for the compare screen: side B's flame graph
//! (its frames' widths from B), each frame matched with side A's frame of
//! the same path, carrying both its totals and both its self times, so
//! that the page colours a frame by the change of its total and of its
//! self time, not of self time alone (inferno#295). Frames narrower than
//! [`MIN_WIDTH`] of the whole are left out and counted. There is one per
//! measure ([`diff_flames`]: real, cpu and sys time…), for the page to pick
//! from as the run's flame graph does.

use crate::hash::FastMap;
use crate::model::flame::{FlameGraph, Unit};
use serde::{Deserialize, Serialize};

/// The narrowest frame drawn, as a share of the whole.
pub const MIN_WIDTH: f64 = 1.0 / 4000.0;
/// The most frames sent.
pub const MAX_FRAMES: usize = 20_000;

/// The differential flame graph of one measure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiffFlame {
    /// The measure's title (`real time`).
    pub measure: String,
    /// Its short name (`real_ns`), as the run's flame graph names it.
    pub name: String,
    /// Its unit.
    pub unit: Unit,
    /// The frames drawn, the root first, parents before children.
    pub frames: Vec<DiffFrame>,
    /// The deepest frame's depth (the root's is 0).
    pub depth: u32,
    /// B's frames not drawn (too narrow, or past [`MAX_FRAMES`]).
    pub left_out: usize,
    /// A's frames whose path B does not have.
    pub only_a: usize,
}

/// One frame of B, with A's frame of the same path.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiffFrame {
    /// Its label.
    pub name: String,
    /// Its path, as its format names it.
    pub path: String,
    /// Its depth (the root's is 0).
    pub depth: u32,
    /// Its left edge, as a share of the whole.
    pub x: f64,
    /// Its width, as a share of the whole (B's total over B's root's).
    pub width: f64,
    /// Its total in B.
    pub b_total: u64,
    /// Its self time in B.
    pub b_self: u64,
    /// Its total in A; `None` where A has no frame of its path.
    pub a_total: Option<u64>,
    /// Its self time in A.
    pub a_self: Option<u64>,
}

/// The differential flame graphs of every measure of `a` (before) and
/// `b` (after) that B has time in, in the measures' order.
pub fn diff_flames(a: &FlameGraph, b: &FlameGraph) -> Vec<DiffFlame> {
    (0..b.measures.len()).filter_map(|m| diff_flame(a, b, m)).collect()
}

/// The differential flame graph of measure `m` of `a` (before) and `b`
/// (after); `None` when B has no time in that measure, or A's measure `m`
/// is another (two formats' flame graphs).
pub fn diff_flame(a: &FlameGraph, b: &FlameGraph, m: usize) -> Option<DiffFlame> {
    let measure = b.measures.get(m).filter(|bm| a.measures.get(m).is_some_and(|am| am.name == bm.name))?;
    let whole = b.nodes.get(0)?.total[m].filter(|&t| t > 0)? as f64;
    let paths_a: FastMap<String, u32> = (0..a.nodes.len() as u32).map(|id| (a.path_of(id), id)).collect();
    let mut in_b = 0usize;
    let mut frames = Vec::new();
    let (mut left_out, mut depth) = (0usize, 0u32);
    // Depth first, parents before children, without recursion (stacks can
    // be thousands deep).
    let mut stack: Vec<(u32, u32, f64)> = vec![(0, 0, 0.0)];
    while let Some((id, d, x)) = stack.pop() {
        let node = &b.nodes[id as usize];
        let total = node.total[m].unwrap_or(0);
        let width = total as f64 / whole;
        if d > 0 && (width < MIN_WIDTH || frames.len() >= MAX_FRAMES) {
            left_out += 1;
            continue;
        }
        let path = b.path_of(id);
        let a_node = paths_a.get(&path).map(|&i| &a.nodes[i as usize]);
        in_b += usize::from(a_node.is_some());
        depth = depth.max(d);
        frames.push(DiffFrame {
            name: node.name.clone(),
            path,
            depth: d,
            x,
            width,
            b_total: total,
            b_self: node.self_time[m].unwrap_or(0),
            a_total: a_node.map(|n| n.total[m].unwrap_or(0)),
            a_self: a_node.map(|n| n.self_time[m].unwrap_or(0)),
        });
        let mut next = x;
        let children: Vec<(u32, u32, f64)> = node
            .children
            .iter()
            .map(|&c| {
                let at = next;
                next += b.nodes[c as usize].total[m].unwrap_or(0) as f64 / whole;
                (c, d + 1, at)
            })
            .collect();
        stack.extend(children.into_iter().rev());
    }
    // Frames left out were not looked up: A's paths that B has are then
    // counted over every frame of B.
    let in_b_all = if left_out == 0 {
        in_b
    } else {
        (0..b.nodes.len() as u32).filter(|&id| paths_a.contains_key(&b.path_of(id))).count()
    };
    Some(DiffFlame {
        measure: measure.title.clone(),
        name: measure.name.clone(),
        unit: measure.unit,
        frames,
        depth,
        left_out,
        only_a: a.nodes.len().saturating_sub(in_b_all),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::flame::{FlameNode, Measure, MEASURES};

    /// A flame graph of `(name, parent, total)`, the root first.
    fn graph(nodes: &[(&str, Option<u32>, u64)]) -> FlameGraph {
        graph2(&nodes.iter().map(|&(n, p, t)| (n, p, t, None)).collect::<Vec<_>>())
    }

    /// A flame graph of `(name, parent, real total, cpu total)`: a second
    /// measure where some node has a cpu time.
    fn graph2(nodes: &[(&str, Option<u32>, u64, Option<u64>)]) -> FlameGraph {
        let real = Measure { title: "real time".into(), name: "real_ns".into(), unit: Unit::Nanos };
        let cpu = Measure { title: "cpu time".into(), name: "cpu_us".into(), unit: Unit::Micros };
        let two = nodes.iter().any(|n| n.3.is_some());
        let mut g = FlameGraph {
            nodes: Default::default(),
            warnings: Vec::new(),
            measures: if two { vec![real, cpu] } else { vec![real] },
        };
        for &(name, parent, total, cpu) in nodes {
            let mut t = [None; MEASURES];
            t[0] = Some(total);
            t[1] = cpu;
            g.nodes.push(FlameNode {
                name: name.into(),
                path: String::new(),
                parent,
                children: Vec::new(),
                grouping: false,
                total: t,
                self_time: [None; MEASURES],
            });
        }
        for i in 1..g.nodes.len() {
            let p = g.nodes[i].parent.unwrap() as usize;
            g.nodes[p].children.push(i as u32);
        }
        g.fill(0);
        g
    }

    /// A frame as the test reads it: name, depth, x, width, B's and A's totals.
    type Shown<'a> = (&'a str, u32, f64, f64, u64, Option<u64>);

    /// The frames of `d` as the tests read them.
    fn shown(d: &DiffFlame) -> Vec<Shown<'_>> {
        d.frames.iter().map(|f| (f.name.as_str(), f.depth, f.x, f.width, f.b_total, f.a_total)).collect()
    }

    /// A: main 100 (f 60, g 40). B: main 150 (f 120, h 30). By hand: B's
    /// root is 150 wide; f takes 0.8 from 0, h 0.2 from 0.8; f was 60 (its
    /// self 60 → 120); h is new; g is only in A.
    #[test]
    fn b_s_widths_with_a_s_times_by_path() {
        let a = graph(&[("all", None, 0), ("main", Some(0), 100), ("f", Some(1), 60), ("g", Some(1), 40)]);
        let b = graph(&[("all", None, 0), ("main", Some(0), 150), ("f", Some(1), 120), ("h", Some(1), 30)]);
        let d = diff_flame(&a, &b, 0).unwrap();
        assert_eq!(
            shown(&d),
            [
                ("all", 0, 0.0, 1.0, 150, Some(100)),
                ("main", 1, 0.0, 1.0, 150, Some(100)),
                ("f", 2, 0.0, 0.8, 120, Some(60)),
                ("h", 2, 0.8, 0.2, 30, None),
            ]
        );
        assert_eq!((d.frames[2].b_self, d.frames[2].a_self, d.frames[1].b_self), (120, Some(60), 0));
        assert_eq!((d.depth, d.left_out, d.only_a), (2, 0, 1));
        assert!(diff_flame(&a, &b, 1).is_none(), "no second measure");
    }

    /// The same runs with a cpu time too: each measure's graph has its own
    /// widths and times. By hand, cpu: A main 50 (f 50), B main 40 (f 10,
    /// h 30): f takes 0.25 of B's 40 from 0, h 0.75 from 0.25; f was 50.
    #[test]
    fn each_measure_has_its_own_graph() {
        let a = graph2(&[
            ("all", None, 0, Some(0)),
            ("main", Some(0), 100, Some(50)),
            ("f", Some(1), 60, Some(50)),
            ("g", Some(1), 40, Some(0)),
        ]);
        let b = graph2(&[
            ("all", None, 0, Some(0)),
            ("main", Some(0), 150, Some(40)),
            ("f", Some(1), 120, Some(10)),
            ("h", Some(1), 30, Some(30)),
        ]);
        let all = diff_flames(&a, &b);
        let names: Vec<(&str, &str, Unit)> =
            all.iter().map(|d| (d.name.as_str(), d.measure.as_str(), d.unit)).collect();
        assert_eq!(names, [("real_ns", "real time", Unit::Nanos), ("cpu_us", "cpu time", Unit::Micros)]);
        assert_eq!(all[0], diff_flame(&a, &b, 0).unwrap());
        assert_eq!(
            shown(&all[1]),
            [
                ("all", 0, 0.0, 1.0, 40, Some(50)),
                ("main", 1, 0.0, 1.0, 40, Some(50)),
                ("f", 2, 0.0, 0.25, 10, Some(50)),
                ("h", 2, 0.25, 0.75, 30, None),
            ]
        );
        // A flame graph of another format's measures is not compared.
        let only_real = graph(&[("all", None, 0), ("main", Some(0), 100)]);
        assert!(diff_flame(&only_real, &b, 1).is_none());
        let mut other = a.clone();
        other.measures[1].name = "operator_ns".into();
        assert_eq!(diff_flames(&other, &b).len(), 1);
    }
}
