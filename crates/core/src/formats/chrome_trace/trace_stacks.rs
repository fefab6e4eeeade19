//! Call stacks of one thread of a trace, computed exactly as speedscope
//! imports the Trace Event Format, and the flame graph they make.
//!
//! From begin / end / complete events ([`ThreadStacks::from_calls`]):
//! timestamps are rebased on the thread's smallest; a complete event
//! becomes a begin and an end (complete events with equal `ts` ordered
//! longer first); begins and ends go into two queues, each stably sorted by
//! `ts`. The earlier front is taken; on a tie the begin goes first only if
//! its key equals the end's (a zero-length call). Before an end is taken,
//! an end of the same `ts` whose key (then, failing that, whose name)
//! matches the top of the stack is swapped to the front (for a complete
//! event on top: its own end). An end (`E`) with an empty stack, or whose
//! name differs from the top's, does nothing; one whose name matches but
//! whose arguments differ closes the top anyway. Frames still open at the
//! end close at the last time seen. A frame's key is its name (`(unnamed)`
//! when absent or empty) followed by a space and its arguments as
//! `JSON.stringify` writes them, when present.
//!
//! Where speedscope departs from the file, this does not: a complete event
//! lasts exactly its `dur`. Its end closes it wherever it is in the stack;
//! the frames opened inside it that outlast it (slices that overlap their
//! parent without nesting, such as Bazel's remote-execution spans) are
//! closed with it and opened again at once one level up, so the flame graph
//! puts the rest of their time under the parent's parent. Their spans keep
//! their own start and end; [`ThreadStacks::overlapping`] counts them.
//! Begin / end pairs are matched as speedscope matches them.
//!
//! From samples ([`ThreadStacks::from_samples`]): each sample weighs the
//! time to the next one (the last nothing).
//!
//! The result is speedscope's call tree in time order: every time the
//! stack changes, a sample of the stack before the change with the time it
//! lasted (an empty stack too).

use crate::hash::{FastMap, FastSet};
use crate::model::flame::{FlameGraph, FlameNode, Measure, Unit, MEASURES};
use std::borrow::Cow;
use std::collections::VecDeque;

/// What a call event is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Edge {
    /// A begin (`B`).
    Begin,
    /// An end (`E`).
    End,
    /// A complete event (`X`) with its duration, µs.
    Complete(f64),
}

/// One call event of a thread.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Call<'a> {
    /// Begin, end or complete.
    pub edge: Edge,
    /// Its time, µs.
    pub ts: f64,
    /// Its name as written (absent and empty differ).
    pub name: Option<&'a str>,
    /// Its arguments as `JSON.stringify` writes them, when present.
    pub args: Option<&'a str>,
}

impl Call<'_> {
    /// The name shown: `(unnamed)` when absent or empty.
    pub fn shown_name(&self) -> &str {
        self.name.filter(|n| !n.is_empty()).unwrap_or("(unnamed)")
    }

    /// speedscope's frame key.
    pub fn key(&self) -> String {
        match self.args {
            Some(a) => format!("{} {a}", self.shown_name()),
            None => self.shown_name().to_owned(),
        }
    }
}

/// A frame: what a stack is made of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StackFrameName {
    /// speedscope's key (name and arguments).
    pub key: String,
    /// The name alone.
    pub name: String,
}

/// A node of the call tree in time order (each entry into a frame).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// Index of its frame.
    pub frame: u32,
    /// Its parent node; `None` at the top.
    pub parent: Option<u32>,
}

/// A call matched from begin to end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Span {
    /// Index of the call that opened it.
    pub begin: usize,
    /// Index of the call that closed it (`None`: still open at the end).
    pub end: Option<usize>,
    /// When it closed, µs.
    pub end_ts: f64,
}

/// One thread's stacks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ThreadStacks {
    /// Frames, by key.
    pub frames: Vec<StackFrameName>,
    /// The call tree's nodes.
    pub nodes: Vec<Node>,
    /// (stack's top node or `None` for an empty stack, weight µs), in time order.
    pub samples: Vec<(Option<u32>, f64)>,
    /// The calls matched (from events only), in the order they were opened.
    pub spans: Vec<Span>,
    /// Slices that outlasted a complete event they started inside (the
    /// flame graph moves the rest of their time one level up).
    pub overlapping: u64,
}

/// speedscope's profile builder: a stack of open nodes and the time of the last change.
struct Builder {
    stacks: ThreadStacks,
    frame_ids: FastMap<String, u32>,
    open: Vec<u32>,
    last: f64,
    total: f64,
}

impl Builder {
    fn new() -> Self {
        Builder {
            stacks: ThreadStacks::default(),
            frame_ids: FastMap::default(),
            open: Vec::new(),
            last: 0.0,
            total: 0.0,
        }
    }

    /// The frame of `key`, made on first use.
    fn frame(&mut self, key: String, name: &str) -> u32 {
        if let Some(&id) = self.frame_ids.get(&key) {
            return id;
        }
        let id = self.new_frame(key.clone(), name);
        self.frame_ids.insert(key, id);
        id
    }

    /// A frame no other has the key of.
    fn new_frame(&mut self, key: String, name: &str) -> u32 {
        let id = self.stacks.frames.len() as u32;
        self.stacks.frames.push(StackFrameName { key, name: name.to_owned() });
        id
    }

    /// The time up to `value` goes to the current stack.
    fn advance(&mut self, value: f64) {
        let delta = value - self.last;
        if delta > 0.0 {
            self.stacks.samples.push((self.open.last().copied(), delta));
        }
        self.last = value;
        self.total = self.total.max(value);
    }

    fn enter(&mut self, frame: u32, value: f64) {
        self.advance(value);
        let node = self.stacks.nodes.len() as u32;
        self.stacks.nodes.push(Node { frame, parent: self.open.last().copied() });
        self.open.push(node);
    }

    fn leave(&mut self, value: f64) {
        self.advance(value);
        self.open.pop();
    }
}

/// A key's text cut at its first space, borrowed from the call where it
/// can be: equal texts, equal parts (a name with a space can make the same
/// text as a shorter name with arguments), without writing the text.
type KeyParts<'a> = (&'a str, Option<Cow<'a, str>>);

fn key_parts<'a>(c: &Call<'a>) -> KeyParts<'a> {
    let name = c.name.filter(|n| !n.is_empty()).unwrap_or("(unnamed)");
    match name.split_once(' ') {
        None => (name, c.args.map(Cow::Borrowed)),
        Some((head, rest)) => {
            let tail = match c.args {
                None => Cow::Borrowed(rest),
                Some(a) => Cow::Owned(format!("{rest} {a}")),
            };
            (head, Some(tail))
        }
    }
}

/// Each call's key as an index into the distinct keys (equal texts, equal
/// indices), and how many keys there are.
fn key_ids(calls: &[Call<'_>]) -> (Vec<u32>, usize) {
    let mut by_parts: FastMap<KeyParts<'_>, u32> = FastMap::default();
    let mut ids = Vec::with_capacity(calls.len());
    for c in calls {
        let next = by_parts.len() as u32;
        ids.push(*by_parts.entry(key_parts(c)).or_insert(next));
    }
    (ids, by_parts.len())
}

/// An entry of the begin or end queue: the call's index and its rebased time.
#[derive(Clone, Copy)]
struct Queued {
    call: usize,
    ts: f64,
}

impl ThreadStacks {
    /// The stacks of one thread's begin, end and complete events, in file order.
    pub fn from_calls(calls: &[Call<'_>]) -> ThreadStacks {
        let first = calls.iter().map(|c| c.ts).fold(f64::INFINITY, f64::min);
        let (keys, distinct) = key_ids(calls);
        // Each key's frame, once a call of it has begun.
        let mut frame_of_key: Vec<Option<u32>> = vec![None; distinct];
        let mut begins: Vec<Queued> = Vec::new();
        let mut ends: Vec<Queued> = Vec::new();
        let mut completes: Vec<(usize, f64)> = Vec::new();
        for (i, c) in calls.iter().enumerate() {
            let ts = c.ts - first;
            match c.edge {
                Edge::Begin => begins.push(Queued { call: i, ts }),
                Edge::End => ends.push(Queued { call: i, ts }),
                Edge::Complete(dur) => completes.push((i, dur)),
            }
        }
        let rebased = |i: usize| calls[i].ts - first;
        completes.sort_by(|a, b| rebased(a.0).total_cmp(&rebased(b.0)).then(b.1.total_cmp(&a.1)));
        for &(i, dur) in &completes {
            begins.push(Queued { call: i, ts: rebased(i) });
            ends.push(Queued { call: i, ts: rebased(i) + dur });
        }
        begins.sort_by(|a, b| a.ts.total_cmp(&b.ts));
        ends.sort_by(|a, b| a.ts.total_cmp(&b.ts));
        let (mut begins, mut ends) = (VecDeque::from(begins), VecDeque::from(ends));

        let mut b = Builder::new();
        // The calls open, innermost last: (call, span, frame).
        let mut stack: Vec<(usize, usize, u32)> = Vec::new();
        // The calls counted in `overlapping` already.
        let mut moved: FastSet<usize> = FastSet::default();
        let complete = |i: usize| matches!(calls[i].edge, Edge::Complete(_));
        loop {
            let take_begin = match (begins.front(), ends.front()) {
                (None, None) => break,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (Some(bf), Some(ef)) => bf.ts < ef.ts || (bf.ts == ef.ts && keys[bf.call] == keys[ef.call]),
            };
            if take_begin {
                let Some(q) = begins.pop_front() else { break };
                let key = keys[q.call] as usize;
                let c = &calls[q.call];
                let frame = match frame_of_key[key] {
                    Some(f) => f,
                    None => *frame_of_key[key].insert(b.new_frame(c.key(), c.shown_name())),
                };
                b.enter(frame, q.ts);
                stack.push((q.call, b.stacks.spans.len(), frame));
                let span = match c.edge {
                    Edge::Complete(dur) => Span { begin: q.call, end: Some(q.call), end_ts: c.ts + dur },
                    _ => Span { begin: q.call, end: None, end_ts: f64::NAN },
                };
                b.stacks.spans.push(span);
                continue;
            }
            // The end at the front closes the innermost call unless another
            // end at the same time does so more exactly (a complete event's
            // own end; by key, then by name).
            let front_closes = |top: usize| {
                if complete(top) {
                    ends[0].call == top
                } else {
                    keys[ends[0].call] == keys[top]
                }
            };
            if let Some(&(top, ..)) = stack.last().filter(|&&(top, ..)| !front_closes(top)) {
                let front = ends[0].ts;
                let same_time = |q: &Queued| q.ts <= front;
                let own = |q: &Queued| if complete(top) { q.call == top } else { keys[q.call] == keys[top] };
                let by_key = ends.iter().skip(1).take_while(|q| same_time(q)).position(own);
                let named = |q: &Queued| calls[q.call].name == calls[top].name;
                let front_named = named(&ends[0]);
                let by_name = || {
                    if front_named || complete(top) {
                        None
                    } else {
                        ends.iter().skip(1).take_while(|q| same_time(q)).position(named)
                    }
                };
                if let Some(i) = by_key.or_else(by_name) {
                    ends.swap(0, i + 1);
                }
            }
            let Some(e) = ends.pop_front() else { break };
            if complete(e.call) {
                // Closed where it is; `None`: an end of its name closed it already.
                let Some(at) = stack.iter().rposition(|&(c, ..)| c == e.call) else { continue };
                let outlast: Vec<(usize, usize, u32)> = stack.drain(at + 1..).collect();
                for _ in 0..=outlast.len() {
                    b.leave(e.ts);
                }
                stack.pop();
                for &(c, span, frame) in &outlast {
                    if moved.insert(c) {
                        b.stacks.overlapping += 1;
                    }
                    b.enter(frame, e.ts);
                    stack.push((c, span, frame));
                }
                continue;
            }
            let Some(&(top, span, _)) = stack.last() else { continue };
            if calls[e.call].name != calls[top].name {
                continue;
            }
            stack.pop();
            b.leave(e.ts);
            if !complete(top) {
                b.stacks.spans[span] = Span { begin: top, end: Some(e.call), end_ts: calls[e.call].ts };
            }
        }
        while let Some((top, span, _)) = stack.pop() {
            let at = b.total;
            b.leave(at);
            if !complete(top) {
                b.stacks.spans[span].end_ts = at + first;
            }
        }
        b.stacks
    }

    /// The stacks of one thread's samples: (time µs, frames from the root).
    pub fn from_samples(samples: &[(f64, Vec<StackFrameName>)]) -> ThreadStacks {
        let mut b = Builder::new();
        // The last path appended: reused while the next sample shares it.
        let mut path: Vec<u32> = Vec::new();
        let mut children_last: FastMap<Option<u32>, u32> = FastMap::default();
        for (i, (ts, frames)) in samples.iter().enumerate() {
            let weight = samples.get(i + 1).map_or(0.0, |(next, _)| next - ts);
            if weight.is_nan() || weight <= 0.0 {
                continue;
            }
            let mut parent = None;
            path.clear();
            for f in frames {
                let frame = b.frame(f.key.clone(), &f.name);
                let node = match children_last.get(&parent) {
                    Some(&n) if b.stacks.nodes[n as usize].frame == frame => n,
                    _ => {
                        let n = b.stacks.nodes.len() as u32;
                        b.stacks.nodes.push(Node { frame, parent });
                        children_last.insert(parent, n);
                        n
                    }
                };
                path.push(node);
                parent = Some(node);
            }
            b.stacks.samples.push((parent, weight));
        }
        b.stacks
    }

    /// The frames of a node, from the root down, through `name`.
    pub fn path<'a>(&'a self, node: u32, name: impl Fn(&'a StackFrameName) -> &'a str) -> Vec<&'a str> {
        let mut out = Vec::new();
        let mut at = Some(node);
        while let Some(n) = at.and_then(|n| self.nodes.get(n as usize)) {
            out.push(name(&self.frames[n.frame as usize]));
            at = n.parent;
        }
        out.reverse();
        out
    }

    /// The stacks in time order as speedscope's tests list them: one line per
    /// change of the stack, its frames joined by `;` (through `name`), and
    /// the time it lasted, µs.
    pub fn lines<'a>(&'a self, name: impl Fn(&'a StackFrameName) -> &'a str + Copy) -> Vec<(String, f64)> {
        let mut out: Vec<(String, f64)> = Vec::new();
        let mut last: Option<Option<u32>> = None;
        for &(node, w) in &self.samples {
            match out.last_mut() {
                Some(l) if last == Some(node) => l.1 += w,
                _ => out.push((node.map_or(String::new(), |n| self.path(n, name).join(";")), w)),
            }
            last = Some(node);
        }
        out
    }
}

/// Children a flame node may have before they are found through a map
/// rather than by looking at each: most nodes have a few, and reading them
/// touches memory just written, where a map of every node is read at
/// random.
const FEW_CHILDREN: usize = 12;

/// The children of the flame graph being made, found by name id.
struct Children<'a> {
    /// Each distinct name's id (lanes and frames share them: a node's
    /// children are told apart by their text).
    ids: FastMap<&'a str, u32>,
    /// The name id of each node (the root's is never asked for).
    name_of: Vec<u32>,
    /// The children of the nodes that have more than [`FEW_CHILDREN`].
    many: FastMap<(u32, u32), u32>,
}

impl<'a> Children<'a> {
    /// The id of `name`, made on first use.
    fn id(&mut self, name: &'a str) -> u32 {
        let next = self.ids.len() as u32;
        *self.ids.entry(name).or_insert(next)
    }

    /// The child of `parent` named `name` (whose id is `id`), made on first use.
    fn get(&mut self, g: &mut FlameGraph, parent: u32, id: u32, name: &str) -> u32 {
        let kids = &g.nodes[parent as usize].children;
        let found = if kids.len() <= FEW_CHILDREN {
            kids.iter().copied().find(|&c| self.name_of[c as usize] == id)
        } else {
            self.many.get(&(parent, id)).copied()
        };
        if let Some(c) = found {
            return c;
        }
        let c = g.nodes.len() as u32;
        g.nodes.push(flame_node(name, Some(parent)));
        self.name_of.push(id);
        let kids = &mut g.nodes[parent as usize].children;
        kids.push(c);
        match kids.len() {
            n if n == FEW_CHILDREN + 1 => {
                let name_of = &self.name_of;
                self.many.extend(kids.iter().map(|&k| ((parent, name_of[k as usize]), k)));
            }
            n if n > FEW_CHILDREN + 1 => {
                self.many.insert((parent, id), c);
            }
            _ => {}
        }
        c
    }
}

/// A node of a trace's flame graph, without totals yet. Paths are left
/// empty: a node's is its names from the root (`FlameGraph::path_of`), and
/// stacks hundreds deep would make them quadratic in memory.
fn flame_node(name: &str, parent: Option<u32>) -> FlameNode {
    FlameNode {
        name: name.to_owned(),
        path: String::new(),
        parent,
        children: Vec::new(),
        grouping: false,
        total: [None; MEASURES],
        self_time: [None; MEASURES],
    }
}

/// The flame graph of several threads' stacks: under the root, one frame
/// per thread (`lane`), then the frames by name; equal stacks merge. One
/// measure, `time` in ns.
pub fn flame<'a>(threads: &'a [(String, &'a ThreadStacks)]) -> FlameGraph {
    let measure = Measure { title: "time".to_owned(), name: "time_ns".to_owned(), unit: Unit::Nanos };
    let mut g =
        FlameGraph { nodes: vec![flame_node("all", None)].into(), warnings: Vec::new(), measures: vec![measure] };
    let mut children = Children { ids: FastMap::default(), name_of: vec![u32::MAX], many: FastMap::default() };
    // Time spent with each flame node on top of the stack, by node id.
    let mut own: Vec<Option<u64>> = Vec::new();
    let mut chain = Vec::new();
    for (lane, stacks) in threads {
        let lane_id = children.id(lane);
        let frame_name: Vec<u32> = stacks.frames.iter().map(|f| children.id(&f.name)).collect();
        // Each node of the thread's call tree, as a flame node (made on first use).
        let mut placed: Vec<Option<u32>> = vec![None; stacks.nodes.len()];
        for &(top, w) in &stacks.samples {
            let Some(top) = top else { continue };
            let ns = (w * 1000.0).round().max(0.0) as u64;
            chain.clear();
            let mut at = Some(top);
            while let Some(n) = at.filter(|&n| placed[n as usize].is_none()) {
                chain.push(n);
                at = stacks.nodes[n as usize].parent;
            }
            let mut parent = match at {
                Some(n) => placed[n as usize].unwrap_or(0),
                None => children.get(&mut g, 0, lane_id, lane),
            };
            for &n in chain.iter().rev() {
                let frame = stacks.nodes[n as usize].frame as usize;
                parent = children.get(&mut g, parent, frame_name[frame], &stacks.frames[frame].name);
                placed[n as usize] = Some(parent);
            }
            // The sample's time goes to its top frame; totals are summed up
            // the tree once at the end (walking each sample's stack would be
            // quadratic in the depth).
            let f = placed[top as usize].unwrap_or(0) as usize;
            if own.len() <= f {
                own.resize(g.nodes.len(), None);
            }
            own[f] = Some(own[f].unwrap_or(0).saturating_add(ns));
        }
    }
    own.resize(g.nodes.len(), None);
    // A child's id is above its parent's: children first, the root left to `fill`.
    for f in (1..g.nodes.len()).rev() {
        g.nodes[f].total[0] = own[f];
        if let (Some(t), Some(p)) = (own[f], g.nodes[f].parent.filter(|&p| p != 0)) {
            own[p as usize] = Some(own[p as usize].unwrap_or(0).saturating_add(t));
        }
    }
    g.fill(0);
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x(name: &str, ts: f64, dur: f64) -> Call<'_> {
        Call { edge: Edge::Complete(dur), ts, name: Some(name), args: None }
    }

    fn lines(stacks: &ThreadStacks) -> Vec<(String, f64)> {
        stacks.lines(|f| f.name.as_str())
    }

    #[test]
    fn a_complete_event_lasts_its_dur_when_a_slice_outlasts_it() {
        // `execute` starts inside `queue` and ends after it (Bazel's remote spans).
        let calls = [x("action", 0.0, 30.0), x("queue", 1.0, 10.0), x("execute", 5.0, 15.0)];
        let stacks = ThreadStacks::from_calls(&calls);
        let ends: Vec<(usize, Option<usize>, f64)> = stacks.spans.iter().map(|s| (s.begin, s.end, s.end_ts)).collect();
        assert_eq!(ends, [(0, Some(0), 30.0), (1, Some(1), 11.0), (2, Some(2), 20.0)]);
        assert_eq!(stacks.overlapping, 1);
        // The rest of `execute` goes one level up once `queue` ends.
        let want = [
            ("action", 1.0),
            ("action;queue", 4.0),
            ("action;queue;execute", 6.0),
            ("action;execute", 9.0),
            ("action", 10.0),
        ];
        assert_eq!(lines(&stacks), want.map(|(s, w)| (s.to_owned(), w)));
    }

    #[test]
    fn begin_end_pairs_that_overlap_keep_speedscope_s_matching() {
        // The same shape as begins and ends: an end that is not the top's does nothing.
        let call = |edge, ts, name| Call { edge, ts, name: Some(name), args: None };
        let calls = [
            call(Edge::Begin, 0.0, "action"),
            call(Edge::Begin, 1.0, "queue"),
            call(Edge::Begin, 5.0, "execute"),
            call(Edge::End, 11.0, "queue"),
            call(Edge::End, 20.0, "execute"),
            call(Edge::End, 30.0, "action"),
        ];
        let stacks = ThreadStacks::from_calls(&calls);
        let ends: Vec<f64> = stacks.spans.iter().map(|s| s.end_ts).collect();
        // The ends of `queue` and `action` do nothing; both close at the last time taken.
        assert_eq!(ends, [20.0, 20.0, 20.0]);
        assert_eq!(stacks.overlapping, 0);
        let want = [("action", 1.0), ("action;queue", 4.0), ("action;queue;execute", 15.0)];
        assert_eq!(lines(&stacks), want.map(|(s, w)| (s.to_owned(), w)));
    }

    #[test]
    fn nested_complete_events_of_one_name_close_in_order() {
        // Equal starts and ends: each closes itself, nothing is moved.
        let calls = [x("a", 0.0, 10.0), x("a", 0.0, 10.0), x("a", 2.0, 3.0)];
        let stacks = ThreadStacks::from_calls(&calls);
        assert_eq!(stacks.overlapping, 0);
        assert_eq!(stacks.spans.iter().map(|s| s.end_ts).collect::<Vec<_>>(), [10.0, 10.0, 5.0]);
        let want = [("a;a", 2.0), ("a;a;a", 3.0), ("a;a", 5.0)];
        assert_eq!(lines(&stacks), want.map(|(s, w)| (s.to_owned(), w)));
    }

    #[test]
    fn calls_whose_keys_read_the_same_are_one_frame() {
        // `a b` and `a` with arguments `b` are both keyed `a b`, as are
        // `a b` with `c` and `a` with `b c`: speedscope keys frames by text.
        let call = |edge, ts, name, args| Call { edge, ts, name: Some(name), args };
        let calls = [
            call(Edge::Begin, 0.0, "a b", None),
            call(Edge::End, 1.0, "a b", None),
            call(Edge::Begin, 2.0, "a", Some("b")),
            call(Edge::End, 3.0, "a", None),
            call(Edge::Begin, 4.0, "a b", Some("c")),
            call(Edge::End, 5.0, "a b", None),
            call(Edge::Begin, 6.0, "a", Some("b c")),
            call(Edge::End, 7.0, "a", None),
        ];
        let stacks = ThreadStacks::from_calls(&calls);
        let frames: Vec<(&str, &str)> = stacks.frames.iter().map(|f| (f.key.as_str(), f.name.as_str())).collect();
        assert_eq!(frames, [("a b", "a b"), ("a b c", "a b")]);
        assert_eq!(stacks.nodes.iter().map(|n| n.frame).collect::<Vec<_>>(), [0, 0, 1, 1]);
    }

    #[test]
    fn a_stack_100_000_deep_makes_a_flame_graph_without_recursing() {
        // Deeper than any call stack holds frame by frame (a test thread has 2 MiB).
        let names: Vec<String> = (0..100_000).map(|i| format!("f{i}")).collect();
        let mut calls: Vec<Call<'_>> = names
            .iter()
            .enumerate()
            .map(|(i, n)| Call { edge: Edge::Begin, ts: i as f64, name: Some(n), args: None })
            .collect();
        calls.extend(names.iter().rev().map(|n| Call { edge: Edge::End, ts: 200_000.0, name: Some(n), args: None }));
        let stacks = ThreadStacks::from_calls(&calls);
        let threads = [("t".to_owned(), &stacks)];
        let g = flame(&threads);
        assert_eq!(g.nodes.len(), 100_002);
        assert_eq!(g.nodes[0].total[0], Some(200_000_000));
        assert_eq!(g.hottest_path(0).len(), 100_002);
    }

    /// Each stack's own time, ns, by its path of names from the lane
    /// (the reference: paths as text, no node ids).
    fn own_by_path(threads: &[(String, &ThreadStacks)]) -> std::collections::BTreeMap<String, u64> {
        let mut own = std::collections::BTreeMap::new();
        for (lane, stacks) in threads {
            for &(top, w) in &stacks.samples {
                let Some(top) = top else { continue };
                let path = format!("{lane};{}", stacks.path(top, |f| f.name.as_str()).join(";"));
                *own.entry(path).or_insert(0) += (w * 1000.0).round().max(0.0) as u64;
            }
        }
        own
    }

    proptest::proptest! {
        /// Whatever the calls, the flame graph's nodes are the distinct
        /// paths of names (siblings never share a name, however many there
        /// are), and each holds the time its stack was on top.
        #[test]
        fn flame_nodes_are_the_distinct_paths_with_their_own_time(
            threads in proptest::collection::vec(
                (0..3usize, proptest::collection::vec((0..40usize, 0..400u32, 0..120u32), 1..120)),
                1..4,
            ),
        ) {
            let names: Vec<String> = (0..40).map(|i| format!("n{i}")).collect();
            let calls: Vec<(String, Vec<Call<'_>>)> = threads
                .iter()
                .map(|(lane, cs)| {
                    let calls = cs.iter().map(|&(n, ts, dur)| x(&names[n], ts.into(), dur.into())).collect();
                    (format!("lane {lane}"), calls)
                })
                .collect();
            let stacks: Vec<ThreadStacks> = calls.iter().map(|(_, c)| ThreadStacks::from_calls(c)).collect();
            let named: Vec<(String, &ThreadStacks)> = calls.iter().map(|(l, _)| l.clone()).zip(&stacks).collect();
            let g = flame(&named);
            for n in &g.nodes {
                let mut kids: Vec<&str> = n.children.iter().map(|&c| g.nodes[c as usize].name.as_str()).collect();
                kids.sort_unstable();
                let before = kids.len();
                kids.dedup();
                proptest::prop_assert_eq!(before, kids.len(), "siblings share a name under {}", n.name);
            }
            let own = own_by_path(&named);
            let got: std::collections::BTreeMap<String, u64> = (1..g.nodes.len() as u32)
                .filter_map(|i| Some((g.path_of(i), g.nodes[i as usize].self_time[0].filter(|&t| t > 0)?)))
                .collect();
            let want: std::collections::BTreeMap<String, u64> = own.into_iter().filter(|&(_, t)| t > 0).collect();
            proptest::prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn flame_paths_are_the_names_from_the_root_without_being_stored() {
        let calls = [x("main", 0.0, 10.0), x("a", 1.0, 4.0), x("b", 2.0, 1.0), x("a", 6.0, 2.0)];
        let stacks = ThreadStacks::from_calls(&calls);
        let threads = [("Renderer / main".to_owned(), &stacks)];
        let g = flame(&threads);
        let b = g.nodes.iter().position(|n| n.name == "b").unwrap() as u32;
        assert_eq!(g.path_of(b), "Renderer / main;main;a;b");
        assert!(g.nodes.iter().all(|n| n.path.is_empty()));
        assert_eq!(g.path_of(0), "");
        // Both calls of `a` under `main` are one frame: 4 + 2 µs.
        let a = g.nodes.iter().position(|n| n.name == "a").unwrap();
        assert_eq!(g.nodes[a].total[0], Some(6_000));
        assert_eq!(g.nodes.iter().filter(|n| n.name == "a").count(), 1);
    }
}
