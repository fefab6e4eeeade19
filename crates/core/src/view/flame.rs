//! What the page draws of a flame graph from one root: the frames laid out
//! with what their boxes and tooltips say, the measures, the breadcrumb and
//! the warnings. A Chrome trace's flame graph can hold hundreds of
//! thousands of nodes (80 MB as JSON for a 100 MB trace), so the worker
//! keeps the graph and sends only this.

use crate::layout::flame::{layout, FlameBox};
use crate::model::flame::{FlameGraph, Measure, MEASURES};
use serde::{Deserialize, Serialize};

/// Warnings sent with a layout; the rest are counted.
pub const WARNINGS_SHOWN: usize = 50;

/// Frames named in a frame's path, the innermost last: stacks can be
/// thousands deep, and a whole path per frame would be quadratic.
pub const PATH_FRAMES: usize = 12;

/// One frame laid out, with what the page shows of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlameFrame {
    /// Where it goes.
    pub place: FlameBox,
    /// Its name.
    pub name: String,
    /// Its names from the root, `;`-separated; only the last
    /// [`PATH_FRAMES`], after `…;`, when the stack is deeper.
    pub path: String,
    /// A grouping rather than a frame of the producer's.
    pub grouping: bool,
    /// Its total for the measure.
    pub total: Option<u64>,
    /// Its own time for the measure.
    pub self_time: Option<u64>,
}

/// A flame graph laid out from one root for one measure.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FlameLayout {
    /// The graph's measures, by index.
    pub measures: Vec<Measure>,
    /// The names from the root of the graph to the chosen root.
    pub crumbs: Vec<String>,
    /// The chosen root's total for the measure.
    pub root_total: Option<u64>,
    /// The frames under the root, itself first.
    pub frames: Vec<FlameFrame>,
    /// The first [`WARNINGS_SHOWN`] warnings of the graph.
    pub warnings: Vec<String>,
    /// How many warnings the graph has in all.
    pub warning_count: usize,
}

/// The names from the root to `id`, `;`-separated, the last [`PATH_FRAMES`] only.
fn short_path(graph: &FlameGraph, id: u32) -> String {
    let mut names = Vec::with_capacity(PATH_FRAMES);
    let mut at = Some(id);
    while let Some(i) = at.filter(|&i| i != 0) {
        if names.len() == PATH_FRAMES {
            names.push("…");
            break;
        }
        let Some(n) = graph.nodes.get(i as usize) else { break };
        names.push(n.name.as_str());
        at = n.parent;
    }
    names.reverse();
    names.join(";")
}

impl FlameLayout {
    /// Lays out `graph` from `root` for measure `m`.
    pub fn of(graph: &FlameGraph, m: usize, root: u32) -> FlameLayout {
        let value = |v: &[Option<u64>; MEASURES]| v.get(m).copied().flatten();
        let frames = layout(graph, m, root)
            .into_iter()
            .map(|place| {
                let n = &graph.nodes[place.node as usize];
                FlameFrame {
                    name: n.name.clone(),
                    path: short_path(graph, place.node),
                    grouping: n.grouping,
                    total: value(&n.total),
                    self_time: value(&n.self_time),
                    place,
                }
            })
            .collect();
        FlameLayout {
            measures: graph.measures.clone(),
            crumbs: graph.frames(root).into_iter().map(str::to_owned).collect(),
            root_total: graph.nodes.get(root as usize).and_then(|n| value(&n.total)),
            frames,
            warnings: graph.warnings.iter().take(WARNINGS_SHOWN).cloned().collect(),
            warning_count: graph.warnings.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::chrome_trace::trace_stacks::{flame, Call, Edge, ThreadStacks};

    #[test]
    fn frames_carry_their_names_paths_and_values_and_the_crumbs_lead_to_the_root() {
        let x = |name, ts, dur| Call { edge: Edge::Complete(dur), ts, name: Some(name), args: None };
        let calls = [x("main", 0.0, 10.0), x("a", 1.0, 4.0), x("b", 2.0, 1.0)];
        let stacks = ThreadStacks::from_calls(&calls);
        let g = flame(&[("t".to_owned(), &stacks)]);
        let a = g.nodes.iter().position(|n| n.name == "a").unwrap() as u32;
        let l = FlameLayout::of(&g, 0, a);
        assert_eq!(l.crumbs, ["t", "main", "a"]);
        assert_eq!(l.root_total, Some(4_000));
        let names: Vec<(&str, &str, Option<u64>, Option<u64>)> =
            l.frames.iter().map(|f| (f.name.as_str(), f.path.as_str(), f.total, f.self_time)).collect();
        assert_eq!(names, [("a", "t;main;a", Some(4_000), Some(3_000)), ("b", "t;main;a;b", Some(1_000), Some(1_000))]);
        assert_eq!(l.frames[0].place.width, 1.0);
        assert_eq!(l.measures, g.measures);
    }
    #[test]
    fn a_deep_frame_s_path_names_only_its_innermost_frames() {
        let names: Vec<String> = (0..40).map(|i| format!("f{i}")).collect();
        let calls: Vec<Call<'_>> = names
            .iter()
            .enumerate()
            .map(|(i, n)| Call { edge: Edge::Complete(100.0 - i as f64), ts: i as f64, name: Some(n), args: None })
            .collect();
        let stacks = ThreadStacks::from_calls(&calls);
        let g = flame(&[("t".to_owned(), &stacks)]);
        let l = FlameLayout::of(&g, 0, 0);
        let deepest = l.frames.iter().max_by_key(|f| f.place.depth).unwrap();
        assert_eq!(deepest.name, "f39");
        let expected: Vec<String> = (28..40).map(|i| format!("f{i}")).collect();
        assert_eq!(deepest.path, format!("…;{}", expected.join(";")));
    }
}
