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
use crate::json_split::{JsonSplitter, Piece};
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::Arc;

/// One node of the build graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphNode {
    /// Its uid.
    pub uid: Arc<str>,
    /// The uids it depends on, in order.
    pub deps: Vec<Arc<str>>,
    /// `kv.p`: the short type (CC, LD, TS...).
    pub kind: Option<String>,
    /// `kv.pc`: the type's colour name.
    pub color: Option<String>,
    /// `kv.run_test_node`: the node runs a test.
    pub is_test: bool,
    /// `node-type` (`test`, `download`...).
    pub node_type: Option<String>,
    /// ya's one-line description of the node (its `format_paths`).
    pub description: Arc<str>,
    /// `tags`.
    pub tags: Vec<String>,
    /// `platform`.
    pub platform: Option<String>,
}

/// A build graph.
#[derive(Clone, Debug, Default)]
pub struct BuildGraph {
    /// The nodes, in file order.
    pub nodes: Vec<GraphNode>,
    /// The keys of the other top-level members, in file order.
    pub members: Vec<String>,
    index: FastMap<Arc<str>, usize>,
}

impl BuildGraph {
    /// The node with `uid`.
    pub fn node(&self, uid: &str) -> Option<&GraphNode> {
        self.index.get(uid).map(|&i| &self.nodes[i])
    }
}

#[derive(Deserialize)]
struct RawNode {
    uid: Option<String>,
    #[serde(default)]
    deps: Vec<String>,
    #[serde(default)]
    inputs: Vec<String>,
    #[serde(default)]
    outputs: Vec<String>,
    #[serde(default)]
    kv: HashMap<String, serde_json::Value>,
    #[serde(rename = "node-type")]
    node_type: Option<String>,
    #[serde(default)]
    tags: Vec<String>,
    platform: Option<String>,
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
        Box::new(YaGraphReader {
            splitter: JsonSplitter::new(&["graph"]).skip_members(),
            graph: BuildGraph::default(),
            lines: 1,
        })
    }
}

struct YaGraphReader {
    splitter: JsonSplitter,
    graph: BuildGraph,
    lines: u64,
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
                let uid: Arc<str> = Arc::from(uid);
                if graph.index.contains_key(&uid) {
                    diags.report(
                        Severity::Warning,
                        "ya-graph.duplicate-uid",
                        at,
                        format!("uid {uid} appears twice; the first node is used"),
                    );
                    return;
                }
                let text = |k: &str| node.kv.get(k).and_then(|v| v.as_str()).map(str::to_owned);
                let is_test = node.kv.get("run_test_node").is_some_and(|v| v.as_bool().unwrap_or(false));
                let description = describe(&node.inputs, &node.outputs, &node.kv);
                graph.index.insert(uid.clone(), graph.nodes.len());
                graph.nodes.push(GraphNode {
                    uid,
                    deps: node.deps.into_iter().map(Arc::from).collect(),
                    kind: text("p"),
                    color: text("pc"),
                    is_test,
                    node_type: node.node_type,
                    description: Arc::from(description),
                    tags: node.tags,
                    platform: node.platform,
                });
            }
        }
    }
}

impl FormatReader for YaGraphReader {
    fn feed(&mut self, chunk: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError> {
        self.lines += memchr::memchr_iter(b'\n', chunk).count() as u64;
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
        ReadCounts { lines: self.lines, events: self.graph.nodes.len() as u64 }
    }
}

/// ya's `format_paths`: the one-line description of a node from its paths.
pub fn describe(inputs: &[String], outputs: &[String], kv: &HashMap<String, serde_json::Value>) -> String {
    let p = kv.get("p").and_then(|v| v.as_str()).unwrap_or("");
    let selected: Vec<&String> = if p == "CC" || p == "AS" {
        let sources: Vec<&String> = inputs.iter().filter(|i| is_source(i)).collect();
        if inputs.len() == 1 {
            vec![&inputs[0]]
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
            inputs.last().into_iter().collect()
        }
    } else if p == "AR" || p == "LD" {
        outputs.iter().collect()
    } else if is_test_shorthand(p) && kv.get("path").and_then(|v| v.as_str()).is_some() {
        return join_paths(&[kv.get("path").and_then(|v| v.as_str()).unwrap_or_default()]);
    } else if kv.contains_key("show_out") {
        outputs.iter().collect()
    } else if inputs.len() == 1 && !inputs[0].ends_with(".py") {
        inputs.iter().collect()
    } else if outputs.len() == 1 {
        outputs.iter().collect()
    } else if common_prefix_len(inputs) > common_prefix_len(outputs) {
        inputs.iter().collect()
    } else {
        outputs.iter().collect()
    };
    let selected: Vec<&str> = selected.iter().map(|s| s.as_str()).collect();
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

fn common_prefix_len(paths: &[String]) -> usize {
    match paths {
        [] => 0,
        [only] => only.chars().count(),
        _ => {
            let mut prefix = paths[0].as_str();
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

    fn kv(p: &str) -> HashMap<String, serde_json::Value> {
        HashMap::from([("p".to_owned(), serde_json::Value::String(p.to_owned()))])
    }

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| (*x).to_owned()).collect()
    }

    #[test]
    fn describes_nodes_as_ya_does() {
        assert_eq!(describe(&s(&["a.cpp"]), &s(&["a.o"]), &kv("CC")), "a.cpp");
        assert_eq!(describe(&s(&["a.o", "b.o"]), &s(&["prog"]), &kv("LD")), "prog");
        assert_eq!(describe(&s(&["x/a.h", "x/a.cpp", "x/b.h"]), &s(&["x/a.o"]), &kv("CC")), "x/a.cpp");
        assert_eq!(describe(&s(&["d/a.proto"]), &s(&["d/a.pb.cc", "d/a.pb.h"]), &kv("PB")), "d/a.proto");
        assert_eq!(describe(&[], &s(&["o/x.a", "o/y.a"]), &kv("AR")), "o/{x.a, y.a}");
        assert_eq!(describe(&[], &s(&["o/x", "o/y", "o/z"]), &kv("AR")), "o/{x ... z}");
        assert_eq!(describe(&[], &[], &kv("AR")), "UNKNOWN");
    }

    #[test]
    fn splitext_is_pythons() {
        assert_eq!(splitext("a/b.cpp.o"), ("a/b.cpp", ".o"));
        assert_eq!(splitext("a/.hidden"), ("a/.hidden", ""));
        assert_eq!(splitext("a.d/file"), ("a.d/file", ""));
    }
}
