//! A flame graph as folded stacks, for inferno and Brendan Gregg's FlameGraph.

use crate::analysis::flame::FlameGraph;
use std::fmt::Write;

/// A frame as a folded-stack frame: `;` separates frames and a line ends
/// with ` count`, so `;` becomes `,` and line breaks become spaces.
fn frame(name: &str) -> String {
    name.replace(';', ",").replace(['\n', '\r'], " ")
}

/// Measure `m` of a flame graph as folded stacks (`thread;main|main;main|fib 1234`),
/// one line per node with a value of its own (groupings only appear as
/// frames), its self time as the count, in tree order.
pub fn folded(graph: &FlameGraph, m: usize) -> String {
    let mut out = String::new();
    for (id, n) in graph.nodes.iter().enumerate().skip(1) {
        if n.grouping {
            continue;
        }
        let Some(count) = n.self_time.get(m).copied().flatten() else { continue };
        let frames: Vec<String> = graph.frames(id as u32).into_iter().map(frame).collect();
        let _ = writeln!(out, "{} {count}", frames.join(";"));
    }
    out
}
