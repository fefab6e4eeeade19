//! ya's build graph (`graph.json`): the nodes of a `ya make` build with their
//! dependencies, commands and types.
//!
//! **Who writes it.** `ya make` (`ya make -G` prints it); distbuild runs it.
//! Spec: `shared/specs/distbuild-log.md`, "The build graph".
//!
//! **A record.** One element of the `graph` array:
//!
//! ```text
//! {"uid": "A", "deps": ["B"],                 // node id, what it needs
//!  "inputs": ["$(SOURCE_ROOT)/a.cpp"],        // paths, for its description
//!  "outputs": ["$(BUILD_ROOT)/a.o"],
//!  "cmds": [{"cmd_args": [...], "cwd": "...", "env": {}}],
//!  "kv": {"p": "CC", "pc": "green"},         // short type and its colour
//!  "node-type": "test", "tags": [], "platform": "...", ...}
//! ```
//!
//! **What is read.** `uid`, `deps`, `inputs`/`outputs` (for ya's
//! description of the node, as its `format_paths` builds it), `kv.p`,
//! `kv.pc`, `kv.run_test_node`, `node-type`, `tags` and `platform`.
//!
//! **What is not kept.** Commands, environments, `inputs` hashes, `conf` and
//! the rest: a graph of a million nodes is gigabytes of JSON, and longpole
//! never writes a graph back, so only what the analyses use is held (the
//! user's file stays as it was). The keys of the other top-level members
//! are kept, for the record.
//!
//! **Mapping.** The graph has no times: it joins a distbuild log or an evlog,
//! giving their run tasks names, types, colours and run → run edges.
//!
//! **Caveats.** The document is streamed: memory holds the nodes, not the
//! file. Graphs put `conf` first, and it can be long, so the sniffer decides
//! on the first key alone (`graph` or `conf`).

use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::error::FormatError;
use crate::formats::{Format, FormatId, FormatReader, Parsed, ReadCounts, Sniff, SniffInput};
use crate::hash::FastMap;
use crate::intern::Interner;
use crate::json_split::{JsonSplitter, Piece};
use crate::model::TaskMeta;
use crate::recent_ids::RecentIds;
use serde::Deserialize;
use std::borrow::Cow;
use std::sync::Arc;

/// This format's id: ya's build graph (`graph.json`).
pub const ID: FormatId = FormatId::new("ya-graph", "ya build graph");

/// No string: a node without `kv.p` or `kv.pc`.
const NONE: u32 = u32::MAX;

/// One node of the build graph. Strings are ids of [`BuildGraph::str`]; its
/// dependencies and description are held by the graph
/// ([`BuildGraph::deps`], [`BuildGraph::description`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphNode {
    /// Its uid.
    pub uid: u32,
    kind: u32,
    color: u32,
    /// Index of its `node-type`, `kv.run_test_node`, `tags` and `platform`
    /// in [`BuildGraph::metas`] (nodes that say the same share one).
    pub meta: u32,
    /// Its dependencies: `deps[deps.0..deps.1]` of the graph.
    deps: (u32, u32),
    /// Its description: `descriptions[description.0..description.1]`.
    description: (u32, u32),
}

/// The words of a [`GraphNode`] in [`GraphParts::nodes`].
const NODE_WORDS: usize = 8;

impl GraphNode {
    /// `kv.p`: the short type (CC, LD, TS...).
    pub fn kind(&self) -> Option<u32> {
        (self.kind != NONE).then_some(self.kind)
    }

    /// `kv.pc`: the type's colour name.
    pub fn color(&self) -> Option<u32> {
        (self.color != NONE).then_some(self.color)
    }

    fn words(&self) -> [u32; NODE_WORDS] {
        let GraphNode { uid, kind, color, meta, deps, description } = *self;
        [uid, kind, color, meta, deps.0, deps.1, description.0, description.1]
    }
}

/// A build graph, held compactly: strings once, every node's dependencies
/// in one list and descriptions in one text, and the few distinct metadata
/// combinations shared.
#[derive(Clone, Debug, Default)]
pub struct BuildGraph {
    /// The nodes, in file order.
    pub nodes: Vec<GraphNode>,
    /// The keys of the other top-level members, in file order.
    pub members: Vec<String>,
    /// Distinct node metadata.
    pub metas: Vec<Arc<TaskMeta>>,
    strings: Interner,
    /// Every node's dependencies (string ids), node after node.
    deps: Vec<u32>,
    /// Every node's description, node after node.
    descriptions: String,
    /// Node index by uid string id (`u32::MAX`: not a node).
    index: Vec<u32>,
    meta_of: FastMap<TaskMeta, u32>,
    /// The metadata of the node read last.
    last_meta: u32,
}

/// A [`BuildGraph`] as flat lists, to hand it to another thread (a worker)
/// as typed arrays; [`BuildGraph::from_parts`] checks and rebuilds it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GraphParts {
    /// The graph's strings, one after another.
    pub strings: String,
    /// Where each string ends in `strings`.
    pub string_ends: Vec<u32>,
    /// Eight words per node: uid, type, colour (`u32::MAX`: none), metadata,
    /// dependencies' start and end, description's start and end.
    pub nodes: Vec<u32>,
    /// Every node's dependencies.
    pub deps: Vec<u32>,
    /// Every node's description.
    pub descriptions: String,
    /// Distinct node metadata.
    pub metas: Vec<TaskMeta>,
    /// The keys of the other top-level members.
    pub members: Vec<String>,
}

impl BuildGraph {
    /// The node with `uid`.
    pub fn node(&self, uid: &str) -> Option<&GraphNode> {
        self.node_by_id(self.strings.get(uid)?)
    }

    /// Number of distinct strings: every string id is below it.
    pub fn str_count(&self) -> usize {
        self.strings.len()
    }

    /// Every string with its id, in the order of the ids (the order they lie in memory).
    pub fn strings(&self) -> impl Iterator<Item = (u32, &str)> {
        (0..self.strings.len() as u32).map(|id| (id, self.strings.name(id)))
    }

    /// The node whose uid is string `id`.
    pub fn node_by_id(&self, id: u32) -> Option<&GraphNode> {
        self.index.get(id as usize).filter(|&&i| i != u32::MAX).map(|&i| &self.nodes[i as usize])
    }

    /// A string of the graph.
    pub fn str(&self, id: u32) -> &str {
        self.strings.name(id)
    }

    /// The uids (string ids) `node` depends on, in order.
    pub fn deps(&self, node: &GraphNode) -> &[u32] {
        &self.deps[node.deps.0 as usize..node.deps.1 as usize]
    }

    /// ya's one-line description of `node` (its `format_paths`).
    pub fn description(&self, node: &GraphNode) -> &str {
        &self.descriptions[node.description.0 as usize..node.description.1 as usize]
    }

    /// A node's metadata.
    pub fn meta(&self, node: &GraphNode) -> &Arc<TaskMeta> {
        &self.metas[node.meta as usize]
    }

    fn meta_id(&mut self, meta: TaskMeta) -> u32 {
        if let Some(&id) = self.meta_of.get(&meta) {
            return id;
        }
        let id = self.metas.len() as u32;
        self.metas.push(Arc::new(meta.clone()));
        self.meta_of.insert(meta, id);
        id
    }

    /// The graph as flat lists (see [`GraphParts`]); `None` when its
    /// strings take 4 GiB or more.
    pub fn into_parts(self) -> Option<GraphParts> {
        let (strings, string_ends) = self.strings.into_parts()?;
        Some(GraphParts {
            strings,
            string_ends,
            nodes: self.nodes.iter().flat_map(GraphNode::words).collect(),
            deps: self.deps,
            descriptions: self.descriptions,
            metas: self.metas.iter().map(|m| TaskMeta::clone(m)).collect(),
            members: self.members,
        })
    }

    /// The graph of [`BuildGraph::into_parts`], checked: every id and range
    /// must be in bounds (the message says which is not).
    pub fn from_parts(parts: GraphParts) -> Result<BuildGraph, String> {
        let GraphParts { strings, string_ends, nodes, deps, descriptions, metas, members } = parts;
        let strings = Interner::from_parts(strings, string_ends).ok_or("the graph's string table is corrupt")?;
        let n_strings = strings.len();
        let is_str = |id: u32| (id as usize) < n_strings;
        if nodes.len() % NODE_WORDS != 0 {
            return Err(format!("{} node words is not a whole number of nodes", nodes.len()));
        }
        if !deps.iter().all(|&d| is_str(d)) {
            return Err("a dependency is not a string of the graph".into());
        }
        let mut graph = BuildGraph {
            members,
            metas: metas.into_iter().map(Arc::new).collect(),
            deps,
            descriptions,
            ..BuildGraph::default()
        };
        graph.nodes.reserve_exact(nodes.len() / NODE_WORDS);
        graph.index = vec![u32::MAX; n_strings];
        for (i, w) in nodes.chunks_exact(NODE_WORDS).enumerate() {
            let node = GraphNode {
                uid: w[0],
                kind: w[1],
                color: w[2],
                meta: w[3],
                deps: (w[4], w[5]),
                description: (w[6], w[7]),
            };
            let range_ok = |(a, b): (u32, u32), len: usize| a <= b && b as usize <= len;
            let ok = is_str(node.uid)
                && (node.kind == NONE || is_str(node.kind))
                && (node.color == NONE || is_str(node.color))
                && (node.meta as usize) < graph.metas.len()
                && range_ok(node.deps, graph.deps.len())
                && range_ok(node.description, graph.descriptions.len())
                && graph.descriptions.is_char_boundary(node.description.0 as usize)
                && graph.descriptions.is_char_boundary(node.description.1 as usize);
            if !ok {
                return Err(format!("graph node {i} points outside the graph"));
            }
            graph.index[node.uid as usize] = i as u32;
            graph.nodes.push(node);
        }
        graph.strings = strings;
        Ok(graph)
    }
}

/// A JSON string, borrowed from the input when it has no escapes.
struct Text<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

impl AsRef<str> for Text<'_> {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// The part of `kv` that is read.
#[derive(Deserialize, Default)]
struct Kv<'a> {
    #[serde(borrow)]
    p: Option<Text<'a>>,
    #[serde(borrow)]
    pc: Option<Text<'a>>,
    #[serde(default)]
    run_test_node: Option<serde_json::Value>,
    #[serde(borrow)]
    path: Option<Text<'a>>,
    show_out: Option<serde::de::IgnoredAny>,
}

#[derive(Deserialize)]
struct RawNode<'a> {
    #[serde(borrow)]
    uid: Option<Text<'a>>,
    #[serde(borrow, default)]
    deps: Vec<Text<'a>>,
    #[serde(borrow, default)]
    inputs: Vec<Text<'a>>,
    #[serde(borrow, default)]
    outputs: Vec<Text<'a>>,
    #[serde(borrow, default)]
    kv: Kv<'a>,
    #[serde(borrow, rename = "node-type")]
    node_type: Option<Text<'a>>,
    #[serde(borrow, default)]
    tags: Vec<Text<'a>>,
    #[serde(borrow)]
    platform: Option<Text<'a>>,
}

/// The build graph format.
pub struct YaGraphFormat;

const TITLE: &str = "ya build graph";

impl Format for YaGraphFormat {
    fn id(&self) -> FormatId {
        crate::formats::ya::graph::ID
    }

    /// Yes when the content is a JSON object whose first key is `graph` or `conf`.
    fn sniff(&self, input: SniffInput<'_>) -> Sniff {
        let text = input.head.trim_ascii_start();
        let Some(rest) = text.strip_prefix(b"{") else {
            return if text.is_empty() && !input.at_eof { Sniff::NeedMore } else { Sniff::No };
        };
        let rest = rest.trim_ascii_start();
        let Some(rest) = rest.strip_prefix(b"\"") else {
            return if rest.is_empty() && !input.at_eof { Sniff::NeedMore } else { Sniff::No };
        };
        match memchr::memchr(b'"', rest) {
            Some(end) if matches!(&rest[..end], b"graph" | b"conf") => Sniff::Yes,
            Some(_) => Sniff::No,
            None if input.at_eof || rest.len() > 64 => Sniff::No,
            None => Sniff::NeedMore,
        }
    }

    fn reader(&self) -> Box<dyn FormatReader> {
        Box::new(YaGraphReader {
            splitter: JsonSplitter::new(&["graph"]).skip_members(),
            graph: BuildGraph::default(),
            recent: RecentIds::default(),
        })
    }
    /// Measured in a tab (a 918 MB log with its 337 MB graph: 523 MB).
    fn tab_bytes_per_input_byte(&self) -> f64 {
        0.5
    }
}

struct YaGraphReader {
    splitter: JsonSplitter,
    graph: BuildGraph,
    /// The ids of the uids named last (a node's dependencies are mostly
    /// nodes just before it).
    recent: RecentIds,
}

impl YaGraphReader {
    fn piece(graph: &mut BuildGraph, recent: &mut RecentIds, diags: &mut Diagnostics, piece: Piece<'_>) {
        match piece {
            Piece::Member { key, .. } => {
                graph.members.push(key.to_owned());
            }
            Piece::Element { value, line, offset, .. } => {
                let at = Position::Line(line);
                let node: RawNode = match serde_json::from_slice(value) {
                    Ok(n) => n,
                    Err(e) => {
                        diags.report(
                            Severity::Warning,
                            "ya-graph.bad-node",
                            at,
                            format!("graph node at byte {offset} is not a node object ({e}); skipped"),
                        );
                        return;
                    }
                };
                let Some(uid) = node.uid else {
                    diags.report(
                        Severity::Warning,
                        "ya-graph.no-uid",
                        at,
                        format!("graph node at byte {offset} has no uid; skipped"),
                    );
                    return;
                };
                let strings = &mut graph.strings;
                let uid = recent.id(uid.0.as_bytes(), || (strings.intern(&uid.0), true));
                if graph.index.get(uid as usize).is_some_and(|&i| i != u32::MAX) {
                    diags.report(
                        Severity::Warning,
                        "ya-graph.duplicate-uid",
                        at,
                        format!("uid {} appears twice; the first node is used", graph.str(uid)),
                    );
                    return;
                }
                let description = describe(&node.inputs, &node.outputs, &node.kv);
                let fits = |held: usize, more: usize| held.checked_add(more).is_some_and(|n| n < NONE as usize);
                if !fits(graph.deps.len(), node.deps.len()) || !fits(graph.descriptions.len(), description.len()) {
                    diags.report(
                        Severity::Warning,
                        "ya-graph.too-big",
                        at,
                        format!(
                            "graph node {} does not fit: a graph holds at most 4 GiB of descriptions and 4 G dependencies; skipped",
                            graph.str(uid)
                        ),
                    );
                    return;
                }
                let deps_start = graph.deps.len() as u32;
                for d in &node.deps {
                    let strings = &mut graph.strings;
                    let id = recent.id(d.0.as_bytes(), || (strings.intern(&d.0), true));
                    graph.deps.push(id);
                }
                let desc_start = graph.descriptions.len() as u32;
                graph.descriptions.push_str(&description);
                let kind = node.kv.p.as_ref().map_or(NONE, |p| graph.strings.intern(&p.0));
                let color = node.kv.pc.as_ref().map_or(NONE, |c| graph.strings.intern(&c.0));
                let runs_test = node.kv.run_test_node.as_ref().is_some_and(|v| v.as_bool().unwrap_or(false));
                let meta = match graph.metas.get(graph.last_meta as usize) {
                    // Neighbouring nodes mostly say the same: no strings are made for them.
                    Some(last)
                        if last.node_type.as_deref() == node.node_type.as_ref().map(|t| &*t.0)
                            && last.runs_test == runs_test
                            && last.tags.iter().map(String::as_str).eq(node.tags.iter().map(|t| &*t.0))
                            && last.platform.as_deref() == node.platform.as_ref().map(|p| &*p.0) =>
                    {
                        graph.last_meta
                    }
                    _ => graph.meta_id(TaskMeta {
                        node_type: node.node_type.map(|t| t.0.into_owned()),
                        runs_test,
                        tags: node.tags.into_iter().map(|t| t.0.into_owned()).collect(),
                        platform: node.platform.map(|p| p.0.into_owned()),
                    }),
                };
                graph.last_meta = meta;
                let slot = uid as usize;
                if graph.index.len() <= slot {
                    graph.index.resize(slot + 1, u32::MAX);
                }
                graph.index[slot] = graph.nodes.len() as u32;
                let node = GraphNode {
                    uid,
                    kind,
                    color,
                    meta,
                    deps: (deps_start, graph.deps.len() as u32),
                    description: (desc_start, graph.descriptions.len() as u32),
                };
                graph.nodes.push(node);
            }
        }
    }
}

impl FormatReader for YaGraphReader {
    fn feed(&mut self, chunk: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError> {
        let (graph, recent) = (&mut self.graph, &mut self.recent);
        self.splitter.feed(chunk, &mut |p| Self::piece(graph, recent, diags, p)).map_err(|e| {
            FormatError::new(TITLE, Position::Byte(e.offset), "expected the end of the JSON document", &[e.byte])
        })
    }

    /// Sizes the graph's lists for the whole file from the nodes read so
    /// far (nodes are alike throughout; 3% to spare). Nothing while no node
    /// has been read (the `conf` member can come first).
    fn expect(&mut self, share_read: f64) {
        let g = &mut self.graph;
        if g.nodes.is_empty() {
            return;
        }
        let more = |n: usize| ((n as f64 / share_read * 1.03) as usize).saturating_sub(n);
        g.nodes.reserve_exact(more(g.nodes.len()));
        g.deps.reserve_exact(more(g.deps.len()));
        g.descriptions.reserve_exact(more(g.descriptions.len()));
        g.index.reserve_exact(more(g.index.len()));
        g.strings.reserve(more(g.strings.text_len()), more(g.strings.len()));
    }

    fn finish(self: Box<Self>, diags: &mut Diagnostics) -> Result<Parsed, FormatError> {
        if !self.splitter.is_done() {
            let at = self.splitter.pending().map_or(Position::Whole, |(_, line)| Position::Line(line));
            diags.report(
                Severity::Warning,
                "ya-graph.truncated",
                at,
                format!(
                    "the graph ends before its JSON document does; the {} complete nodes before the cut were read",
                    self.graph.nodes.len()
                ),
            );
        }
        Ok(Parsed::YaGraph(Box::new(self.graph)))
    }

    fn counts(&self) -> ReadCounts {
        ReadCounts { lines: self.splitter.line(), events: self.graph.nodes.len() as u64 }
    }
}

/// Paths chosen to describe a node: none, one, or the first and last of `n`.
#[derive(Clone, Copy)]
struct Chosen<'a> {
    first: &'a str,
    last: &'a str,
    n: usize,
}

impl<'a> Chosen<'a> {
    fn one(path: &'a str) -> Self {
        Chosen { first: path, last: path, n: 1 }
    }

    /// `path` if there is one, else none.
    fn maybe(path: Option<&'a str>) -> Self {
        path.map_or(Chosen { first: "", last: "", n: 0 }, Chosen::one)
    }

    fn all<S: AsRef<str>>(paths: &'a [S]) -> Self {
        let end = |p: Option<&'a S>| p.map_or("", AsRef::as_ref);
        Chosen { first: end(paths.first()), last: end(paths.last()), n: paths.len() }
    }
}

/// ya's `format_paths`: the one-line description of a node from its paths
/// (made without a list per node: a graph has a million of them).
fn describe<S: AsRef<str>>(inputs: &[S], outputs: &[S], kv: &Kv<'_>) -> String {
    let p = kv.p.as_ref().map_or("", |p| &*p.0);
    let chosen = if p == "CC" || p == "AS" {
        let sources = || inputs.iter().map(AsRef::as_ref).filter(|i| is_source(i));
        match (inputs, sources().count()) {
            ([only], _) => Chosen::one(only.as_ref()),
            (_, 1) => Chosen::maybe(sources().next()),
            (_, 0) => Chosen::maybe(inputs.last().map(AsRef::as_ref)),
            _ => {
                let naked = match outputs {
                    [only] => Some(splitext(only.as_ref()).0.chars().skip(10).collect::<String>()),
                    _ => None,
                };
                let named = naked.and_then(|n| sources().find(|s| s.contains(n.as_str())));
                Chosen::maybe(named.or_else(|| sources().last()))
            }
        }
    } else if p == "AR" || p == "LD" {
        Chosen::all(outputs)
    } else if let (true, Some(path)) = (is_test_shorthand(p), kv.path.as_ref()) {
        Chosen::one(&path.0)
    } else if kv.show_out.is_some() {
        Chosen::all(outputs)
    } else if inputs.len() == 1 && !inputs[0].as_ref().ends_with(".py") {
        Chosen::all(inputs)
    } else if outputs.len() == 1 {
        Chosen::all(outputs)
    } else if common_prefix_len(inputs) > common_prefix_len(outputs) {
        Chosen::all(inputs)
    } else {
        Chosen::all(outputs)
    };
    join_paths(chosen)
}

/// ya's test size shorthands (`TestSize.is_test_shorthand`).
fn is_test_shorthand(p: &str) -> bool {
    matches!(p, "TS" | "TM" | "TL")
}

fn is_source(path: &str) -> bool {
    let (_, ext) = splitext(path);
    matches!(ext.strip_prefix('.'), Some("c" | "C" | "cc" | "cxx" | "cpp" | "cu" | "yasm" | "asm"))
}

/// Python's `os.path.splitext`: (stem, ".ext"); a leading dot of the file name is not an extension.
fn splitext(path: &str) -> (&str, &str) {
    let name_start = path.rfind('/').map_or(0, |i| i + 1);
    let name = &path[name_start..];
    let leading_dots = name.len() - name.trim_start_matches('.').len();
    match name.rfind('.') {
        Some(dot) if dot >= leading_dots && dot > 0 => path.split_at(name_start + dot),
        _ => (path, ""),
    }
}

/// Python's `os.path.commonprefix` of the first and last path, in characters.
fn common_prefix<'a>(a: &'a str, b: &str) -> &'a str {
    let n: usize = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).map(|(x, _)| x.len_utf8()).sum();
    &a[..n]
}

fn common_prefix_len<S: AsRef<str>>(paths: &[S]) -> usize {
    match paths {
        [] => 0,
        [only] => only.as_ref().chars().count(),
        [first, rest @ ..] => {
            let mut prefix = first.as_ref();
            for p in rest {
                prefix = common_prefix(prefix, p.as_ref());
            }
            prefix.chars().count()
        }
    }
}

/// ya's `join_paths`: one path, or `prefix{first, last}`, or `prefix{first ... last}`.
fn join_paths(chosen: Chosen<'_>) -> String {
    let Chosen { first, last, n } = chosen;
    match n {
        0 => "UNKNOWN".to_owned(),
        1 => first.to_owned(),
        _ => {
            let prefix = common_prefix(first, last);
            let delim = if n == 2 { ", " } else { " ... " };
            format!("{prefix}{{{}{delim}{}}}", &first[prefix.len()..], &last[prefix.len()..])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kv(p: &str) -> Kv<'_> {
        Kv { p: Some(Text(Cow::Borrowed(p))), ..Kv::default() }
    }

    fn s<'a>(v: &[&'a str]) -> Vec<&'a str> {
        v.to_vec()
    }

    #[test]
    fn describes_nodes_as_ya_does() {
        assert_eq!(describe(&s(&["a.cpp"]), &s(&["a.o"]), &kv("CC")), "a.cpp");
        assert_eq!(describe(&s(&["a.o", "b.o"]), &s(&["prog"]), &kv("LD")), "prog");
        assert_eq!(describe(&s(&["x/a.h", "x/a.cpp", "x/b.h"]), &s(&["x/a.o"]), &kv("CC")), "x/a.cpp");
        assert_eq!(describe(&s(&["d/a.proto"]), &s(&["d/a.pb.cc", "d/a.pb.h"]), &kv("PB")), "d/a.proto");
        assert_eq!(describe(&[], &s(&["o/x.a", "o/y.a"]), &kv("AR")), "o/{x.a, y.a}");
        assert_eq!(describe(&[], &s(&["o/x", "o/y", "o/z"]), &kv("AR")), "o/{x ... z}");
        assert_eq!(describe::<&str>(&[], &[], &kv("AR")), "UNKNOWN");
    }

    /// The bundled sample graph, read.
    fn sample_graph() -> BuildGraph {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/simulated-build.graph.json.gz");
        let bytes = std::fs::read(path).unwrap();
        let mut ingest = crate::Ingest::new("graph.json.gz");
        ingest.feed(&bytes).unwrap();
        match ingest.finish().unwrap().parsed {
            Parsed::YaGraph(g) => *g,
            other => panic!("not a graph: {other:?}"),
        }
    }

    #[test]
    fn parts_give_back_the_same_graph() {
        let graph = sample_graph();
        assert!(graph.nodes.len() > 1000);
        let back = BuildGraph::from_parts(graph.clone().into_parts().unwrap()).unwrap();
        assert_eq!(back.nodes, graph.nodes);
        assert_eq!(back.members, graph.members);
        assert_eq!(back.metas, graph.metas);
        for n in &graph.nodes {
            let uid = graph.str(n.uid);
            let m = back.node(uid).unwrap();
            assert_eq!(back.description(m), graph.description(n));
            let deps =
                |g: &BuildGraph, x: &GraphNode| g.deps(x).iter().map(|&d| g.str(d).to_owned()).collect::<Vec<_>>();
            assert_eq!(deps(&back, m), deps(&graph, n));
            assert_eq!(m.kind().map(|k| back.str(k)), n.kind().map(|k| graph.str(k)));
        }
    }

    #[test]
    fn a_graph_of_known_size_is_held_without_doubling_slack() {
        // 18 MB of nodes: the reader is told its share after EXPECT_AFTER
        // bytes (21,000 nodes, held in room for 32,768), and sizes for 45,000.
        let node = |i: usize| {
            format!(
                r#"{{"uid":"u{i}","deps":["u{}"],"inputs":["$(SOURCE_ROOT)/dir/file{i}.cpp","{}"],"kv":{{"p":"CC","pc":"green"}}}}"#,
                i / 2,
                "x".repeat(300)
            )
        };
        let nodes: Vec<String> = (0..45_000).map(node).collect();
        let text = format!(r#"{{"graph":[{}]}}"#, nodes.join(","));
        assert!(text.len() as u64 > crate::ingest::EXPECT_AFTER);
        let read = |expect: bool| {
            let mut ingest = crate::Ingest::new("graph.json");
            if expect {
                ingest.expect_bytes(text.len() as u64);
            }
            text.as_bytes().chunks(1 << 20).for_each(|c| ingest.feed(c).unwrap());
            match ingest.finish().unwrap().parsed {
                Parsed::YaGraph(g) => *g,
                other => panic!("not a graph: {other:?}"),
            }
        };
        let (told, untold) = (read(true), read(false));
        assert_eq!(told.nodes, untold.nodes);
        assert_eq!(told.nodes.len(), 45_000);
        // Sized once, 3% over, against a doubling list's power of two.
        assert!(told.nodes.capacity() <= 47_000, "{}", told.nodes.capacity());
        assert_eq!(untold.nodes.capacity(), 65_536);
    }

    #[test]
    fn corrupt_parts_are_refused() {
        let parts = sample_graph().into_parts().unwrap();
        let mut p = parts.clone();
        p.deps[0] = u32::MAX - 1;
        assert!(BuildGraph::from_parts(p).is_err());
        let mut p = parts.clone();
        p.nodes[5] = u32::MAX;
        assert!(BuildGraph::from_parts(p).is_err());
        let mut p = parts.clone();
        p.nodes.pop();
        assert!(BuildGraph::from_parts(p).is_err());
        let mut p = parts.clone();
        p.string_ends[0] = u32::MAX;
        assert!(BuildGraph::from_parts(p).is_err());
        let mut p = parts;
        p.metas.clear();
        assert!(BuildGraph::from_parts(p).is_err());
    }

    #[test]
    fn splitext_is_pythons() {
        assert_eq!(splitext("a/b.cpp.o"), ("a/b.cpp", ".o"));
        assert_eq!(splitext("a/.hidden"), ("a/.hidden", ""));
        assert_eq!(splitext("a.d/file"), ("a.d/file", ""));
    }
}
