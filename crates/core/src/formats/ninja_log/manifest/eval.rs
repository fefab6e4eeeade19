//! Evaluating the manifest files given together into the build graph, as
//! ninja's `ManifestParser` does: variables looked up through the scopes
//! (a build's own bindings, then its file's, then the parents' of a
//! `subninja`), `include` read in the same scope, `subninja` in a child
//! scope (its rules too), paths canonicalised ([`canonical`]).
//!
//! A build's bindings are evaluated in the file's scope (not in each
//! other's), then shadow it for the build's paths; rule bindings (`$in`,
//! `$out`, the command) take no part in paths, except a rule's `pool`.
//! What ninja would refuse (an unknown rule, two edges making one output,
//! a `default` naming no node, a rule without `command`) is a diagnostic;
//! the edge or output is dropped as ninja's `-w dupbuild=warn` does.
//! Includes are found among the files given by name (the path as written,
//! or its last components, or only its file name when one file has it);
//! one not given is [`Graph::missing`].

use super::lexer::EvalString;
use super::statement::{Binding, Located, Statement};
use super::Manifest;
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::formats::ninja_log::canon::canonical;
use crate::hash::FastMap;

/// Includes and subninjas nested deeper than this are not read (the
/// reading recurses; real builds nest a few levels).
const MAX_DEPTH: usize = 200;

/// No edge (a node nothing builds: a source).
pub const NO_EDGE: u32 = u32::MAX;

/// One build edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    /// Index of its rule's name in [`Graph::rules`].
    pub rule: u32,
    /// Output nodes: explicit, then implicit.
    pub outs: Vec<u32>,
    /// How many of `outs` are explicit.
    pub explicit_outs: u32,
    /// Input nodes: explicit, implicit, order-only, then validations.
    pub ins: Vec<u32>,
    /// How many of `ins` are explicit.
    pub explicit_ins: u32,
    /// How many of `ins` are implicit.
    pub implicit_ins: u32,
    /// How many of `ins` are order-only.
    pub order_only: u32,
    /// Its pool, if it names one.
    pub pool: Option<String>,
    /// The manifest (index among the files given) and line it is on.
    pub file: u32,
    /// Its line.
    pub line: u64,
}

impl Edge {
    /// The inputs ninja waits for before running it: explicit, implicit
    /// and order-only (validations are not waited for).
    pub fn waits_for(&self) -> &[u32] {
        &self.ins[..(self.explicit_ins + self.implicit_ins + self.order_only) as usize]
    }
}

/// An include or subninja that names no file given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    /// The path as evaluated.
    pub path: String,
    /// The manifest (index among those given) that names it.
    pub file: usize,
    /// Its line there.
    pub line: u64,
}

/// The build graph of a manifest and its includes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Graph {
    /// Every node's canonical path.
    pub nodes: Vec<String>,
    index: FastMap<String, u32>,
    /// For each node, the edge that builds it ([`NO_EDGE`] for a source).
    pub producer: Vec<u32>,
    /// Every edge, in manifest order.
    pub edges: Vec<Edge>,
    /// Rule names (`phony` first).
    pub rules: Vec<String>,
    /// The `default` targets.
    pub defaults: Vec<u32>,
    /// Includes and subninjas not among the files given.
    pub missing: Vec<Missing>,
    /// The manifests (indices among those given) that were read, root first.
    pub read: Vec<usize>,
}

impl Graph {
    /// The node of a canonical path.
    pub fn node(&self, path: &str) -> Option<u32> {
        self.index.get(path).copied()
    }

    /// Whether an edge is `phony` (never run, never logged).
    pub fn is_phony(&self, e: &Edge) -> bool {
        e.rule == 0
    }

    fn intern(&mut self, path: String) -> u32 {
        if let Some(&n) = self.index.get(&path) {
            return n;
        }
        let n = self.nodes.len() as u32;
        self.nodes.push(path.clone());
        self.index.insert(path, n);
        self.producer.push(NO_EDGE);
        n
    }
}

/// A scope: its variables and rules, and the scope it is a child of.
#[derive(Default)]
struct Scope {
    vars: FastMap<String, String>,
    rules: FastMap<String, Rule>,
    parent: Option<usize>,
}

#[derive(Clone)]
struct Rule {
    id: u32,
    pool: Option<EvalString>,
}

struct Evaluator<'a> {
    files: &'a [(&'a str, &'a Manifest)],
    names: Vec<String>,
    /// The root manifest's directory, which includes are read from.
    dir: String,
    diags: &'a mut [Diagnostics],
    scopes: Vec<Scope>,
    graph: Graph,
    stack: Vec<usize>,
}

/// Evaluates the manifests `files` (name, content) given together: the
/// root is the one named `build.ninja`, else the first that no other
/// includes (by content: the name is only a hint); the others are read
/// where it includes them; `diags[i]` takes file `i`'s diagnostics.
pub fn evaluate(files: &[(&str, &Manifest)], diags: &mut [Diagnostics]) -> Graph {
    let names: Vec<String> = files.iter().map(|(n, _)| canonical(n)).collect();
    let root = root(files, &names);
    let dir = names.get(root).and_then(|n| n.rsplit_once('/')).map_or(String::new(), |(d, _)| d.to_owned());
    let scopes = vec![Scope::default()];
    let mut e = Evaluator { files, names, dir, diags, scopes, graph: Graph::default(), stack: Vec::new() };
    e.graph.rules.push("phony".into());
    e.scopes[0].rules.insert("phony".into(), Rule { id: 0, pool: None });
    if !files.is_empty() {
        e.file(root, 0);
    }
    for i in 0..files.len() {
        if !e.graph.read.contains(&i) {
            e.diags[i].report(
                Severity::Warning,
                "ninja-manifest.unused",
                Position::Whole,
                format!("no include or subninja of {} names this file: it is not read", files[root].0),
            );
        }
    }
    e.graph
}

/// The root among `files`: the one named `build.ninja`, else the first
/// that no include or subninja of another names (its path read without
/// variables), else the first.
fn root(files: &[(&str, &Manifest)], names: &[String]) -> usize {
    if let Some(i) = names.iter().position(|n| n.rsplit('/').next() == Some("build.ninja")) {
        return i;
    }
    let mut included = vec![false; files.len()];
    for (i, (_, m)) in files.iter().enumerate() {
        for located in &m.statements {
            if let Statement::Include(p) | Statement::Subninja(p) = &located.statement {
                match find_file(names, "", &p.evaluate(&mut |_| None)) {
                    Some(j) if j != i => included[j] = true,
                    _ => {}
                }
            }
        }
    }
    included.iter().position(|&inc| !inc).unwrap_or(0)
}

/// The includes and subninjas of `files` (evaluated as [`evaluate`] does)
/// that are not among them.
pub fn missing(files: &[(&str, &Manifest)]) -> Vec<String> {
    let mut diags: Vec<Diagnostics> = files.iter().map(|_| Diagnostics::default()).collect();
    evaluate(files, &mut diags).missing.into_iter().map(|m| m.path).collect()
}

/// The file among `names` (the files' canonical names) that an include of
/// `path` names: the one at `path` from the directory of the root, `dir`
/// (ninja's working directory), else at `path`, else the one whose name
/// ends with it, else the one file with its file name.
fn find_file(names: &[String], dir: &str, path: &str) -> Option<usize> {
    let want = canonical(path);
    let from_dir = if dir.is_empty() { want.clone() } else { canonical(&format!("{dir}/{path}")) };
    if let Some(i) = names.iter().position(|n| *n == from_dir).or_else(|| names.iter().position(|n| *n == want)) {
        return Some(i);
    }
    let base = |p: &str| p.rsplit('/').next().unwrap_or(p).to_owned();
    let b = base(&want);
    let suffix = format!("/{want}");
    let unique = |found: Vec<usize>| match found[..] {
        [i] => Some(i),
        _ => None,
    };
    unique((0..names.len()).filter(|&i| names[i].ends_with(&suffix)).collect())
        .or_else(|| unique((0..names.len()).filter(|&i| base(&names[i]) == b).collect()))
}

impl Evaluator<'_> {
    fn lookup<'s>(scopes: &'s [Scope], mut scope: usize, name: &str) -> Option<&'s str> {
        loop {
            if let Some(v) = scopes[scope].vars.get(name) {
                return Some(v);
            }
            scope = scopes[scope].parent?;
        }
    }

    fn rule(&self, mut scope: usize, name: &str) -> Option<Rule> {
        loop {
            if let Some(r) = self.scopes[scope].rules.get(name) {
                return Some(r.clone());
            }
            scope = self.scopes[scope].parent?;
        }
    }

    fn eval(&self, scope: usize, s: &EvalString) -> String {
        s.evaluate(&mut |v| Self::lookup(&self.scopes, scope, v))
    }

    fn warn(&mut self, file: usize, line: u64, code: &'static str, message: String) {
        self.diags[file].report(Severity::Warning, code, Position::Line(line), message);
    }

    fn file(&mut self, file: usize, scope: usize) {
        if self.stack.contains(&file) {
            return;
        }
        self.stack.push(file);
        if !self.graph.read.contains(&file) {
            self.graph.read.push(file);
        }
        let files = self.files;
        for located in &files[file].1.statements {
            self.statement(file, scope, located);
        }
        self.stack.pop();
    }

    fn statement(&mut self, file: usize, scope: usize, located: &Located) {
        let line = located.line;
        match &located.statement {
            Statement::Binding(Binding { name, value }) => {
                let v = self.eval(scope, value);
                self.scopes[scope].vars.insert(name.clone(), v);
            }
            Statement::Rule { name, bindings } => {
                if self.scopes[scope].rules.contains_key(name) {
                    return self.warn(file, line, "ninja-manifest.rule", format!("duplicate rule '{name}'; skipped"));
                }
                if !bindings.iter().any(|b| b.name == "command") {
                    self.warn(file, line, "ninja-manifest.rule", format!("rule '{name}': expected 'command =' line"));
                }
                let id = self.graph.rules.len() as u32;
                self.graph.rules.push(name.clone());
                let pool = bindings.iter().find(|b| b.name == "pool").map(|b| b.value.clone());
                self.scopes[scope].rules.insert(name.clone(), Rule { id, pool });
            }
            Statement::Pool { name, bindings } => {
                if !bindings.iter().any(|b| b.name == "depth") {
                    self.warn(file, line, "ninja-manifest.pool", format!("pool '{name}': expected 'depth =' line"));
                }
            }
            Statement::Build { rule, paths, bindings } => self.build(file, scope, line, rule, paths, bindings),
            Statement::Default(paths) => {
                for p in paths {
                    let path = canonical(&self.eval(scope, p));
                    match self.graph.node(&path) {
                        Some(n) => self.graph.defaults.push(n),
                        None => self.warn(file, line, "ninja-manifest.default", format!("unknown target '{path}'")),
                    }
                }
            }
            Statement::Include(p) | Statement::Subninja(p) => {
                let path = self.eval(scope, p);
                let Some(found) = find_file(&self.names, &self.dir, &path) else {
                    self.graph.missing.push(Missing { path, file, line });
                    return;
                };
                if self.stack.contains(&found) {
                    return self.warn(
                        file,
                        line,
                        "ninja-manifest.include",
                        format!("'{path}' includes itself; skipped"),
                    );
                }
                if self.stack.len() >= MAX_DEPTH {
                    let message = format!("'{path}' is nested {MAX_DEPTH} includes deep; skipped");
                    return self.warn(file, line, "ninja-manifest.include", message);
                }
                let inner = if matches!(located.statement, Statement::Subninja(_)) {
                    self.scopes.push(Scope { parent: Some(scope), ..Scope::default() });
                    self.scopes.len() - 1
                } else {
                    scope
                };
                self.file(found, inner);
            }
        }
    }

    fn build(
        &mut self,
        file: usize,
        scope: usize,
        line: u64,
        rule_name: &str,
        paths: &super::statement::BuildPaths,
        bindings: &[Binding],
    ) {
        let Some(rule) = self.rule(scope, rule_name) else {
            return self.warn(
                file,
                line,
                "ninja-manifest.rule",
                format!("unknown build rule '{rule_name}'; the edge is skipped"),
            );
        };
        let own: Vec<(String, String)> =
            bindings.iter().map(|b| (b.name.clone(), self.eval(scope, &b.value))).collect();
        let scopes = &self.scopes;
        let eval = |s: &EvalString| {
            canonical(&s.evaluate(&mut |v| {
                own.iter()
                    .rev()
                    .find(|(k, _)| k == v)
                    .map(|(_, x)| x.as_str())
                    .or_else(|| Self::lookup(scopes, scope, v))
            }))
        };
        let outs: Vec<String> = paths.outs.iter().map(eval).collect();
        let ins: Vec<String> = paths.ins.iter().map(eval).collect();
        let pool = own.iter().rev().find(|(k, _)| k == "pool").map(|(_, v)| v.clone()).or_else(|| {
            rule.pool.as_ref().map(|p| {
                p.evaluate(&mut |v| {
                    own.iter()
                        .rev()
                        .find(|(k, _)| k == v)
                        .map(|(_, x)| x.as_str())
                        .or_else(|| Self::lookup(scopes, scope, v))
                })
            })
        });
        let edge_id = self.graph.edges.len() as u32;
        let mut edge = Edge {
            rule: rule.id,
            outs: Vec::with_capacity(outs.len()),
            explicit_outs: 0,
            ins: ins.into_iter().map(|p| self.graph.intern(p)).collect(),
            explicit_ins: paths.explicit_ins as u32,
            implicit_ins: paths.implicit_ins as u32,
            order_only: paths.order_only as u32,
            pool: pool.filter(|p| !p.is_empty()),
            file: file as u32,
            line,
        };
        for (i, out) in outs.into_iter().enumerate() {
            let n = self.graph.intern(out);
            if self.graph.producer[n as usize] != NO_EDGE {
                let path = &self.graph.nodes[n as usize];
                self.warn(
                    file,
                    line,
                    "ninja-manifest.dupbuild",
                    format!("multiple rules generate {path}; kept with the first"),
                );
                continue;
            }
            self.graph.producer[n as usize] = edge_id;
            edge.outs.push(n);
            if i < paths.explicit_outs {
                edge.explicit_outs += 1;
            }
        }
        if !edge.outs.is_empty() {
            self.graph.edges.push(edge);
        }
    }
}
