//! The core's floors hold (ARCHITECTURE.md, "Floors"): every source file
//! is placed on a floor, and a file imports only from its own floor or the
//! ones below; a format's files never import another format's (a family
//! read together, ya's, is one folder); no two files import each other. The
//! imports are read from each non-test source file's `crate::`, `super::`
//! and `self::` paths outside comments, in `use` lines and inline in code
//! alike (its test modules left out). What does not hold yet is listed
//! in [`KNOWN`], each entry with the reason, and an entry that no longer
//! applies fails the test too, so the list only shrinks. The app's files
//! (the workspace's root crate) have no floors, but none of them import
//! each other either.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The floors, lowest first.
const FLOORS: &[&str] = &["ground", "model", "analysis", "compare", "layout", "output", "formats", "dispatch"];

/// Top-level modules and the floor each is on (a format's folder under
/// `formats/` is on the formats floor, with its format: [`format_of`]).
const MODULES: &[(&str, &str)] = &[
    ("byte_places", "ground"),
    ("chunk_list", "ground"),
    ("decompress", "ground"),
    ("diagnostics", "ground"),
    ("error", "ground"),
    ("hash", "ground"),
    ("intern", "ground"),
    ("join", "ground"),
    ("json_split", "ground"),
    ("lines", "ground"),
    ("memory_budget", "ground"),
    ("numbers", "ground"),
    ("recent_ids", "ground"),
    ("model", "model"),
    ("analysis", "analysis"),
    ("compare", "compare"),
    ("layout", "layout"),
    ("render", "output"),
    ("export", "output"),
    ("view", "output"),
    ("report", "output"),
    ("summary", "output"),
    ("run", "output"),
    ("dump", "output"),
    ("formats", "formats"),
    ("reconcile", "dispatch"),
    ("ingest", "dispatch"),
    ("lib", "dispatch"),
];

/// The folders whose `mod.rs` runs a group of inputs through the formats
/// (matching on the format): the dispatch floor.
const DISPATCH_MODS: &[&str] = &["reconcile", "report"];

/// Imports that do not hold yet: (importer, imported, why).
const KNOWN: &[(&str, &str, &str)] = &[];

/// Where a source file is: its floor and, for a format's file, the format.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Place {
    floor: usize,
    format: Option<String>,
}

/// The core's sources.
fn src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The app's sources (the workspace's root crate).
fn app_src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../src")
}

/// Every `.rs` file under `dir`, relative to `root`, `/`-separated.
fn sources(root: &Path, dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/"));
        }
    }
}

/// A test file: `tests.rs`, `*_tests.rs`, the shared test helpers.
fn is_test(file: &str) -> bool {
    let name = file.rsplit('/').next().unwrap_or(file);
    name == "tests.rs" || name.ends_with("_tests.rs") || name == "test_support.rs"
}

/// The format a file belongs to: the folder it is in under `formats/`
/// (`formats/mod.rs` and `formats/read_ahead.rs` are the formats' shared
/// interface, on the formats floor with no format).
fn format_of(file: &str) -> Option<String> {
    let parts: Vec<&str> = file.trim_end_matches(".rs").split('/').collect();
    (parts[0] == "formats" && parts.len() > 2).then(|| parts[1].to_owned())
}

fn place(file: &str) -> Place {
    let floor_named = |name: &str| FLOORS.iter().position(|f| *f == name).unwrap();
    if let Some(format) = format_of(file) {
        return Place { floor: floor_named("formats"), format: Some(format) };
    }
    let top = file.split(['/', '.']).next().unwrap();
    if DISPATCH_MODS.iter().any(|m| file == format!("{m}/mod.rs")) {
        return Place { floor: floor_named("dispatch"), format: None };
    }
    let floor = MODULES.iter().find(|(m, _)| *m == top).unwrap_or_else(|| panic!("{file}: no floor for `{top}`")).1;
    Place { floor: floor_named(floor), format: None }
}

/// `text` without its comments (line comments; block comments are not used).
fn code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let mut in_string = false;
        let mut prev = ' ';
        let mut cut = line.len();
        for (i, c) in line.char_indices() {
            if c == '"' && prev != '\\' {
                in_string = !in_string;
            }
            if !in_string && c == '/' && prev == '/' {
                cut = i - 1;
                break;
            }
            prev = c;
        }
        out.push_str(&line[..cut]);
        out.push('\n');
    }
    out
}

/// The module path of a file (`formats/evobench/mod.rs` → `formats::evobench`).
fn module_of(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file.trim_end_matches(".rs").split('/').map(str::to_owned).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// The source file a module path names (its longest prefix that is a file).
fn file_of(path: &[String], files: &BTreeSet<String>) -> Option<String> {
    (1..=path.len()).rev().find_map(|n| {
        let base = path[..n].join("/");
        [format!("{base}.rs"), format!("{base}/mod.rs")].into_iter().find(|f| files.contains(f))
    })
}

/// The paths a file's code names: `crate::a::b`, `super::c`, `self::d`,
/// in a `use` (each item of a `use …::{…}` group) or inline in code, made
/// absolute.
fn imports(file: &str, text: &str) -> Vec<Vec<String>> {
    let module = module_of(file);
    let code = code(text);
    let mut out = Vec::new();
    // `use` statements (a line starting with one), with their groups expanded.
    let mut at = 0;
    for line in code.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let t = line.trim_start();
        let t = ["pub(crate) ", "pub(super) ", "pub "].iter().find_map(|v| t.strip_prefix(v)).unwrap_or(t);
        let Some(rest) = t.strip_prefix("use ") else { continue };
        let from = start + (line.len() - rest.len());
        let Some(end) = code[from..].find(';') else { continue };
        let body: String = code[from..from + end].chars().filter(|c| !c.is_whitespace()).collect();
        expand("", &body, &mut |p| out.extend(absolute(&module, p)));
    }
    // Paths written inline, in expressions, types or `use` lines alike:
    // `crate::x::y`, `super::x::f()`, `self::x::T` anywhere.
    for keyword in ["crate::", "super::", "self::"] {
        for (at, _) in code.match_indices(keyword) {
            // Part of a longer name (`my_self::`, `$crate::` is fine) or of
            // a path already taken from its start (`super::super::`).
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let rest: String =
                code[at..].chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
            // `super::{a, b}`, `a::*`: a `use` group, expanded above.
            if rest.ends_with(':') {
                continue;
            }
            out.extend(absolute(&module, &rest));
        }
    }
    out
}

/// Calls `each` with every path of a `use` body (`a::{b, c::{d}}`).
fn expand(prefix: &str, body: &str, each: &mut dyn FnMut(&str)) {
    let Some(open) = body.find('{') else {
        each(&format!("{prefix}{body}"));
        return;
    };
    let close = body.rfind('}').filter(|&c| c > open).unwrap_or(body.len());
    let (head, inner) = (&body[..open], &body[open + 1..close]);
    let (mut depth, mut from) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                expand(&format!("{prefix}{head}"), &inner[from..i], each);
                from = i + 1;
            }
            _ => {}
        }
    }
    if from < inner.len() {
        expand(&format!("{prefix}{head}"), &inner[from..], each);
    }
}

/// `path` (as written in module `module`) from the crate root, if it is a
/// path into this crate.
fn absolute(module: &[String], path: &str) -> Option<Vec<String>> {
    let mut parts = path.split("::").filter(|p| !p.is_empty()).map(str::to_owned);
    let mut base: Vec<String> = match parts.next()?.as_str() {
        "crate" => Vec::new(),
        "self" => module.to_vec(),
        "super" => module[..module.len().checked_sub(1)?].to_vec(),
        _ => return None,
    };
    for p in parts {
        match p.as_str() {
            "super" => {
                base.pop();
            }
            "self" | "*" => {}
            _ => base.push(p),
        }
    }
    Some(base)
}

/// Every core file's imports of other files: importer → imported files.
fn import_graph() -> BTreeMap<String, BTreeSet<String>> {
    import_graph_of(&src())
}

/// The imports between the files of the crate whose sources are `root`.
fn import_graph_of(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    graph_of(&texts_of(root))
}

/// The text of every source file under `root`, by its path from `root`.
fn texts_of(root: &Path) -> BTreeMap<String, String> {
    let mut files = Vec::new();
    sources(root, root, &mut files);
    files.into_iter().map(|f| (f.clone(), std::fs::read_to_string(root.join(&f)).unwrap())).collect()
}

/// The imports between the files of `texts` (path → source text).
fn graph_of(texts: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let all: BTreeSet<String> = texts.keys().cloned().collect();
    let mut graph = BTreeMap::new();
    for (file, text) in texts.iter().filter(|(f, _)| !is_test(f)) {
        let text = without_tests(text);
        let imported: BTreeSet<String> = imports(file, &text)
            .iter()
            .filter_map(|p| file_of(p, &all))
            .filter(|f| f != file && !is_test(f) && f != "lib.rs")
            .collect();
        graph.insert(file.clone(), imported);
    }
    graph
}

/// `text` without its test modules, which are not part of the file: each
/// runs from `#[cfg(test)] mod tests {` to the `}` that closes it, alone on
/// its line at the start (as rustfmt writes it); code after it is kept.
fn without_tests(text: &str) -> String {
    const START: &str = "#[cfg(test)]\nmod tests {";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(START) {
        out.push_str(&rest[..start]);
        rest = rest[start..].find("\n}\n").map_or("", |end| &rest[start + end + 3..]);
    }
    out.push_str(rest);
    out
}

/// What breaks the floors: (importer, imported, why).
fn breaks(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<(String, String, String)> {
    let mut out = BTreeSet::new();
    for (file, imported) in graph {
        let from = place(file);
        for target in imported {
            let to = place(target);
            let why = if to.floor > from.floor {
                Some(format!("{} imports {}", FLOORS[from.floor], FLOORS[to.floor]))
            } else {
                match (&from.format, &to.format) {
                    (Some(a), Some(b)) if a != b => Some(format!("format {a} imports format {b}")),
                    _ => None,
                }
            };
            let both_ways = graph.get(target).is_some_and(|t| t.contains(file));
            for why in why.into_iter().chain(both_ways.then(|| "they import each other".to_owned())) {
                out.insert((file.clone(), target.clone(), why));
            }
        }
    }
    out
}

#[test]
fn every_import_keeps_to_the_floors() {
    let graph = import_graph();
    assert!(graph.len() > 100, "the sources were read: {}", graph.len());
    let found = breaks(&graph);
    let known: BTreeSet<(String, String)> = KNOWN.iter().map(|(a, b, _)| ((*a).to_owned(), (*b).to_owned())).collect();
    let new: Vec<String> = found
        .iter()
        .filter(|(a, b, _)| !known.contains(&(a.clone(), b.clone())))
        .map(|(a, b, why)| format!("{a} → {b}: {why}"))
        .collect();
    assert!(new.is_empty(), "imports that break the floors:\n{}", new.join("\n"));
    let found_pairs: BTreeSet<(String, String)> = found.iter().map(|(a, b, _)| (a.clone(), b.clone())).collect();
    let stale: Vec<String> =
        known.iter().filter(|k| !found_pairs.contains(*k)).map(|(a, b)| format!("{a} → {b}")).collect();
    assert!(stale.is_empty(), "known exceptions that no longer apply (take them out of KNOWN):\n{}", stale.join("\n"));
}

/// The check itself: a wrong import is caught (a reader reaching up to the
/// dispatch, two formats that are not read together, two files that import
/// each other), and a right one is not.
#[test]
fn a_wrong_import_is_caught() {
    let mut graph = import_graph();
    let baseline = breaks(&graph);
    let mut add = |from: &str, to: &str| {
        graph.get_mut(from).unwrap().insert(to.to_owned());
    };
    add("formats/ninja_log/report.rs", "reconcile/mod.rs");
    add("formats/evobench/log.rs", "formats/ghc_eventlog/mod.rs");
    add("numbers.rs", "intern.rs");
    add("intern.rs", "numbers.rs");
    add("layout/timeline.rs", "numbers.rs");
    let added: Vec<(String, String, String)> = breaks(&graph).difference(&baseline).cloned().collect();
    let s = |a: &str, b: &str, why: &str| (a.to_owned(), b.to_owned(), why.to_owned());
    assert_eq!(
        added,
        [
            s("formats/evobench/log.rs", "formats/ghc_eventlog/mod.rs", "format evobench imports format ghc_eventlog"),
            s("formats/ninja_log/report.rs", "reconcile/mod.rs", "formats imports dispatch"),
            s("intern.rs", "numbers.rs", "they import each other"),
            s("numbers.rs", "intern.rs", "they import each other"),
        ]
    );
}

/// An import written inline, not in a `use`, counts as one: two files
/// calling each other through `super::` and `self::` paths in their code
/// are caught, and a name that only ends in `self` is not a path.
#[test]
fn an_inline_cycle_is_caught() {
    let mut texts = texts_of(&src());
    let baseline = breaks(&graph_of(&texts));
    let mut plant = |file: &str, code: &str| {
        let text = texts.get_mut(file).unwrap();
        *text = format!("{code}\n{text}");
    };
    plant("layout/flame.rs", "fn planted() -> usize { super::graph::planted() + 1 }");
    plant("layout/graph.rs", "fn planted() -> usize { let n = self::super::flame::planted(); n }");
    plant("layout/mod.rs", "fn planted(r: &self::timeline::Row) -> bool { r.is_empty() }");
    plant("layout/timeline.rs", "fn planted() -> u8 { let my_self = 1; super::planted_too(my_self) }");
    plant("numbers.rs", "fn planted(my_self: u8) -> u8 { my_self::intern::x(my_self) }");
    let added: Vec<(String, String, String)> = breaks(&graph_of(&texts)).difference(&baseline).cloned().collect();
    let s = |a: &str, b: &str| (a.to_owned(), b.to_owned(), "they import each other".to_owned());
    assert_eq!(
        added,
        [
            s("layout/flame.rs", "layout/graph.rs"),
            s("layout/graph.rs", "layout/flame.rs"),
            s("layout/mod.rs", "layout/timeline.rs"),
            s("layout/timeline.rs", "layout/mod.rs"),
        ]
    );
}

/// The app has no floors, but no two of its files import each other
/// either (the worker, its warm-up and its second workers share
/// `worker_io.rs` and `finished.rs`; the page's screens share
/// `memory_limit.rs`).
#[test]
fn no_two_app_files_import_each_other() {
    let graph = import_graph_of(&app_src());
    assert!(graph.len() > 30, "the app's sources were read: {}", graph.len());
    let both: Vec<String> = graph
        .iter()
        .flat_map(|(a, imported)| imported.iter().map(move |b| (a, b)))
        .filter(|(a, b)| graph.get(*b).is_some_and(|t| t.contains(*a)))
        .map(|(a, b)| format!("{a} ↔ {b}"))
        .collect();
    assert!(both.is_empty(), "app files that import each other:\n{}", both.join("\n"));
}
