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

use super::{Format, FormatId, FormatReader, Parsed, ReadCounts, Sniff, SniffInput};
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::error::FormatError;
use crate::hash::FastMap;
use crate::intern::Interner;
use crate::json_split::{JsonSplitter, Piece};
use crate::model::TaskMeta;
use serde::Deserialize;
use std::borrow::Cow;
use std::sync::Arc;

/// One node of the build graph. Strings are ids of [`BuildGraph::str`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphNode {
    /// Its uid.
    pub uid: u32,
    /// The uids it depends on, in order.
    pub deps: Box<[u32]>,
    /// `kv.p`: the short type (CC, LD, TS...).
    pub kind: Option<u32>,
    /// `kv.pc`: the type's colour name.
    pub color: Option<u32>,
    /// ya's one-line description of the node (its `format_paths`).
    pub description: Box<str>,
    /// Index of its `node-type`, `kv.run_test_node`, `tags` and `platform`
    /// in [`BuildGraph::metas`] (nodes that say the same share one).
    pub meta: u32,
}

/// A build graph, held compactly: strings once, node descriptions, and the
/// few distinct metadata combinations shared.
#[derive(Clone, Debug, Default)]
pub struct BuildGraph {
    /// The nodes, in file order.
    pub nodes: Vec<GraphNode>,
    /// The keys of the other top-level members, in file order.
    pub members: Vec<String>,
    /// Distinct node metadata.
    pub metas: Vec<Arc<TaskMeta>>,
    strings: Interner,
    /// Node index by uid string id (`u32::MAX`: not a node).
    index: Vec<u32>,
    meta_of: FastMap<TaskMeta, u32>,
    /// The metadata of the node read last.
    last_meta: u32,
}

impl BuildGraph {
    /// The node with `uid`.
    pub fn node(&self, uid: &str) -> Option<&GraphNode> {
        self.node_by_id(self.strings.get(uid)?)
    }

    /// The id of string `s` in the graph (a uid, a dependency, a type), if
    /// the graph has it.
    pub fn str_id(&self, s: &str) -> Option<u32> {
        self.strings.get(s)
    }

    /// Number of distinct strings: every string id is below it.
    pub fn str_count(&self) -> usize {
        self.strings.len()
    }

    /// The node whose uid is string `id`.
    pub fn node_by_id(&self, id: u32) -> Option<&GraphNode> {
        self.index.get(id as usize).filter(|&&i| i != u32::MAX).map(|&i| &self.nodes[i as usize])
    }

    /// A string of the graph.
    pub fn str(&self, id: u32) -> &str {
        self.strings.name(id)
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
        FormatId::YaGraph
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
        Box::new(YaGraphReader { splitter: JsonSplitter::new(&["graph"]).skip_members(), graph: BuildGraph::default() })
    }
}

struct YaGraphReader {
    splitter: JsonSplitter,
    graph: BuildGraph,
}

impl YaGraphReader {
    fn piece(graph: &mut BuildGraph, diags: &mut Diagnostics, piece: Piece<'_>) {
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
                let uid = graph.strings.intern(&uid.0);
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
                let deps: Box<[u32]> = node.deps.iter().map(|d| graph.strings.intern(&d.0)).collect();
                let kind = node.kv.p.as_ref().map(|p| graph.strings.intern(&p.0));
                let color = node.kv.pc.as_ref().map(|c| graph.strings.intern(&c.0));
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
                graph.nodes.push(GraphNode { uid, deps, kind, color, description: description.into_boxed_str(), meta });
            }
        }
    }
}

impl FormatReader for YaGraphReader {
    fn feed(&mut self, chunk: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError> {
        let graph = &mut self.graph;
        self.splitter.feed(chunk, &mut |p| Self::piece(graph, diags, p)).map_err(|e| {
            FormatError::new(TITLE, Position::Byte(e.offset), "expected the end of the JSON document", &[e.byte])
        })
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
        Ok(Parsed::YaGraph(self.graph))
    }

    fn counts(&self) -> ReadCounts {
        ReadCounts { lines: self.splitter.line(), events: self.graph.nodes.len() as u64 }
    }
}

/// ya's `format_paths`: the one-line description of a node from its paths.
fn describe<S: AsRef<str>>(inputs: &[S], outputs: &[S], kv: &Kv<'_>) -> String {
    let inputs: Vec<&str> = inputs.iter().map(AsRef::as_ref).collect();
    let outputs: Vec<&str> = outputs.iter().map(AsRef::as_ref).collect();
    let p = kv.p.as_ref().map_or("", |p| &*p.0);
    let selected: Vec<&str> = if p == "CC" || p == "AS" {
        let sources: Vec<&str> = inputs.iter().copied().filter(|i| is_source(i)).collect();
        if inputs.len() == 1 {
            vec![inputs[0]]
        } else if sources.len() == 1 {
            sources
        } else if !sources.is_empty() {
            let naked = outputs.first().filter(|_| outputs.len() == 1).map(|o| {
                let (stem, _) = splitext(o);
                stem.chars().skip(10).collect::<String>()
            });
            match naked.and_then(|n| sources.iter().find(|s| s.contains(n.as_str())).copied()) {
                Some(s) => vec![s],
                None => vec![sources[sources.len() - 1]],
            }
        } else {
            inputs.last().copied().into_iter().collect()
        }
    } else if p == "AR" || p == "LD" {
        outputs.clone()
    } else if let (true, Some(path)) = (is_test_shorthand(p), kv.path.as_ref()) {
        return join_paths(&[&*path.0]);
    } else if kv.show_out.is_some() {
        outputs.clone()
    } else if inputs.len() == 1 && !inputs[0].ends_with(".py") {
        inputs.clone()
    } else if outputs.len() == 1 {
        outputs.clone()
    } else if common_prefix_len(&inputs) > common_prefix_len(&outputs) {
        inputs.clone()
    } else {
        outputs.clone()
    };
    join_paths(&selected)
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

fn common_prefix_len(paths: &[&str]) -> usize {
    match paths {
        [] => 0,
        [only] => only.chars().count(),
        _ => {
            let mut prefix = paths[0];
            for p in &paths[1..] {
                prefix = common_prefix(prefix, p);
            }
            prefix.chars().count()
        }
    }
}

/// ya's `join_paths`: one path, or `prefix{first, last}`, or `prefix{first ... last}`.
fn join_paths(paths: &[&str]) -> String {
    match paths {
        [] => "UNKNOWN".to_owned(),
        [only] => (*only).to_owned(),
        [first, .., last] => {
            let prefix = common_prefix(first, last);
            let delim = if paths.len() == 2 { ", " } else { " ... " };
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

    #[test]
    fn splitext_is_pythons() {
        assert_eq!(splitext("a/b.cpp.o"), ("a/b.cpp", ".o"));
        assert_eq!(splitext("a/.hidden"), ("a/.hidden", ""));
        assert_eq!(splitext("a.d/file"), ("a.d/file", ""));
    }
}
