//! A flame graph as folded stacks, for inferno and Brendan Gregg's FlameGraph.
//!
//! Folded stacks repeat each stack's whole path on its line, so they can be
//! many times the size of the run they come from (a trace whose stacks grow
//! a thousand frames deep: 512 MB of them for 10 MB of trace). They are
//! written as they are made ([`write_folded`]), and their size can be known
//! before ([`folded_len`]).

use crate::model::flame::FlameGraph;
use std::io::{self, Write};

/// The lines of the folded stacks of measure `m`: each node with a value of
/// its own (groupings only appear as frames), with that value, in tree order.
fn lines(graph: &FlameGraph, m: usize) -> impl Iterator<Item = (usize, u64)> + '_ {
    graph
        .nodes
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, n)| !n.grouping)
        .filter_map(move |(id, n)| Some((id, n.self_time.get(m).copied().flatten()?)))
}

/// Writes a frame's name as a folded-stack frame: `;` separates frames and
/// a line ends with ` count`, so `;` becomes `,` and line breaks become
/// spaces (the same length).
fn write_frame(out: &mut impl Write, name: &str) -> io::Result<()> {
    let mut rest = name;
    while let Some(at) = rest.find([';', '\n', '\r']) {
        out.write_all(&rest.as_bytes()[..at])?;
        out.write_all(if rest.as_bytes()[at] == b';' { b"," } else { b" " })?;
        rest = &rest[at + 1..];
    }
    out.write_all(rest.as_bytes())
}

/// Writes measure `m` of a flame graph as folded stacks
/// (`thread;main|main;main|fib 1234`) to `out`, a line at a time.
pub fn write_folded(graph: &FlameGraph, m: usize, out: &mut impl Write) -> io::Result<()> {
    for (id, count) in lines(graph, m) {
        for (i, name) in graph.frames(id as u32).into_iter().enumerate() {
            if i > 0 {
                out.write_all(b";")?;
            }
            write_frame(out, name)?;
        }
        writeln!(out, " {count}")?;
    }
    Ok(())
}

/// The bytes [`write_folded`] writes, found without writing them.
pub fn folded_len(graph: &FlameGraph, m: usize) -> u64 {
    // Each node's stack text, `a;b;c`, measured once from its parent's.
    let mut path = vec![0u64; graph.nodes.len()];
    for (id, n) in graph.nodes.iter().enumerate().skip(1) {
        let own = n.name.len() as u64;
        path[id] = match n.parent {
            Some(p) if p != 0 && (p as usize) < id => path[p as usize] + 1 + own,
            Some(p) if p != 0 => {
                let frames = graph.frames(id as u32);
                frames.iter().map(|f| f.len() as u64).sum::<u64>() + frames.len() as u64 - 1
            }
            _ => own,
        };
    }
    lines(graph, m).map(|(id, count)| path[id] + 2 + count.to_string().len() as u64).sum()
}

/// Measure `m` of a flame graph as folded stacks, in memory ([`write_folded`]).
pub fn folded(graph: &FlameGraph, m: usize) -> String {
    let mut out = Vec::new();
    // Sized once when memory allows; a list that cannot be sized grows as written.
    let _ = out.try_reserve_exact(usize::try_from(folded_len(graph, m)).unwrap_or(0));
    // Writing to memory cannot fail; the frames are text, so the bytes are.
    let _ = write_folded(graph, m, &mut out);
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::chrome_trace::trace_stacks::{flame, Call, Edge, ThreadStacks};

    #[test]
    fn folded_stacks_are_as_long_as_measured_and_escape_separators() {
        let x = |name, ts, dur| Call { edge: Edge::Complete(dur), ts, name: Some(name), args: None };
        let calls = [x("main", 0.0, 10.0), x("a;b", 1.0, 4.0), x("line\nbreak", 2.0, 1.0), x("c", 6.0, 2.0)];
        let stacks = ThreadStacks::from_calls(&calls);
        let g = flame(&[("thread".to_owned(), &stacks)]);
        let text = folded(&g, 0);
        assert_eq!(
            text,
            "thread 0\nthread;main 4000\nthread;main;a,b 3000\nthread;main;a,b;line break 1000\nthread;main;c 2000\n"
        );
        assert_eq!(folded_len(&g, 0), text.len() as u64);
    }
}
