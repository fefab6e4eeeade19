//! The manifest reader against ninja's semantics (`manifest_parser_test.cc`
//! cases, their expected values worked out by hand), at every chunk size.

use super::eval::{evaluate, Graph, NO_EDGE};
use super::{Manifest, NinjaManifestFormat};
use crate::diagnostics::Diagnostics;
use crate::formats::{Format, Parsed, Sniff, SniffInput};
use crate::ingest::read_bytes;

fn read(name: &str, text: &str) -> (Manifest, Diagnostics) {
    let mut whole = None;
    for chunk in [1, 7, 4096, usize::MAX] {
        let input = read_bytes(name, text.as_bytes(), chunk).unwrap();
        let Parsed::NinjaManifest(m) = input.parsed else { panic!("{name} was not read as a manifest") };
        match &whole {
            None => whole = Some((*m, input.info.diagnostics)),
            Some((w, _)) => assert_eq!(w, &*m, "{name} at chunk size {chunk}"),
        }
    }
    whole.unwrap()
}

fn graph(files: &[(&str, &str)]) -> (Graph, Vec<Diagnostics>) {
    let read: Vec<(Manifest, Diagnostics)> = files.iter().map(|(n, t)| read(n, t)).collect();
    let refs: Vec<(&str, &Manifest)> = files.iter().zip(&read).map(|((n, _), (m, _))| (*n, m)).collect();
    let mut diags: Vec<Diagnostics> = read.iter().map(|(_, d)| d.clone()).collect();
    let g = evaluate(&refs, &mut diags);
    (g, diags)
}

/// Each edge as `rule: outs <- ins` with ninja's separators.
fn edges(g: &Graph) -> Vec<String> {
    g.edges
        .iter()
        .map(|e| {
            let names = |v: &[u32]| v.iter().map(|&n| g.nodes[n as usize].as_str()).collect::<Vec<_>>().join(" ");
            let (x, i, o) = (e.explicit_ins as usize, e.implicit_ins as usize, e.order_only as usize);
            let mut s = format!(
                "{}: {} | {} <- {}",
                g.rules[e.rule as usize],
                names(&e.outs[..e.explicit_outs as usize]),
                names(&e.outs[e.explicit_outs as usize..]),
                names(&e.ins[..x])
            );
            s.push_str(&format!(" | {} || {}", names(&e.ins[x..x + i]), names(&e.ins[x + i..x + i + o])));
            if let Some(p) = &e.pool {
                s.push_str(&format!(" pool={p}"));
            }
            s
        })
        .collect()
}

fn codes(d: &Diagnostics) -> Vec<String> {
    d.kept().iter().map(|d| d.code.to_string()).collect()
}

#[test]
fn variables_are_scoped_as_ninja_scopes_them() {
    let (g, d) = graph(&[(
        "build.ninja",
        "# a comment\n\
         dir = out\n\
         x = $dir/a\n\
         rule cc\n  command = cc $in -o $out\n  pool = $p\n\n\
         dir = late\n\
         build $x.o: cc src/$dir.c\n\
         \x20 dir = edge\n\
         \x20 p = link\n\
         build ${dir}/b.o: cc $x.c\n\
         \x20 x = ${dir}-inner\n\
         \x20 y = $x\n",
    )]);
    assert!(d[0].kept().is_empty(), "{:?}", d[0].kept());
    // The first build's own `dir` shadows the file's for its paths; `x`
    // was evaluated when bound (out/a); the rule's `pool = $p` sees the
    // build's `p`. The second build's bindings are evaluated in the
    // file's scope (`y` is not `late-inner`), its paths in its own.
    assert_eq!(
        edges(&g),
        ["cc: out/a.o |  <- src/edge.c |  || ", "cc: late/b.o |  <- late-inner.c |  || "]
            .iter()
            .zip([" pool=link", ""])
            .map(|(e, p)| format!("{e}{p}"))
            .collect::<Vec<_>>()
    );
}

#[test]
fn a_build_keeps_its_kinds_of_inputs_and_outputs() {
    let (g, _) = graph(&[(
        "build.ninja",
        "rule r\n  command = x\nbuild a b | c: r d ./e | f//g || h |@ v\nbuild all: phony a\ndefault all\n",
    )]);
    assert_eq!(edges(&g)[0], "r: a b | c <- d e | f/g || h");
    assert_eq!(g.edges[0].waits_for().len(), 4, "validations are not waited for");
    assert_eq!(edges(&g)[1], "phony: all |  <- a |  || ");
    assert!(g.is_phony(&g.edges[1]));
    assert_eq!(g.defaults, vec![g.node("all").unwrap()]);
    assert_eq!(g.producer[g.node("c").unwrap() as usize], 0);
    assert_eq!(g.producer[g.node("d").unwrap() as usize], NO_EDGE);
}

#[test]
fn escapes_and_continuations() {
    let (g, _) = graph(&[("build.ninja", "rule r\n  command = x\nbuild a$ b$:c $\n    d$$e: r $\n  in$ 1\n")]);
    assert_eq!(g.nodes, ["in 1", "a b:c", "d$e"]);
}

#[test]
fn include_shares_the_scope_and_subninja_has_its_own() {
    let (g, d) = graph(&[
        ("sub/child.ninja", "v = child\nrule r\n  command = sub\nbuild $v.o: r $top\n"),
        ("build.ninja", "top = root\ninclude CMakeFiles/rules.ninja\nbuild $v.x: cc $v\nsubninja sub/child.ninja\nbuild after-$v: cc\n"),
        ("rules.ninja", "v = inc\nrule cc\n  command = cc\n"),
    ]);
    assert!(d.iter().all(|d| d.kept().is_empty()), "{d:?}");
    // `v` from the include is the root's; the subninja's `v` and rule `r`
    // stay in it, while it sees the root's `top`.
    let want = ["cc: inc.x |  <- inc |  || ", "r: child.o |  <- root |  || ", "cc: after-inc |  <-  |  || "];
    assert_eq!(edges(&g), want);
    assert_eq!(g.read, [1, 2, 0]);
}

#[test]
fn what_ninja_refuses_is_a_diagnostic() {
    let (g, d) = graph(&[(
        "build.ninja",
        "rule cc\n  command = cc\nrule cc\n  command = again\nrule nocmd\n  depfile = x\n\
         build a: cc\nbuild a: cc b\nbuild c: nosuchrule\ndefault zz\n  stray = 1\nbuild d: cc $!\ninclude missing.ninja\n",
    )]);
    assert_eq!(
        codes(&d[0]),
        [
            "ninja-manifest.indent",
            "ninja-manifest.syntax",
            "ninja-manifest.rule",
            "ninja-manifest.rule",
            "ninja-manifest.dupbuild",
            "ninja-manifest.rule",
            "ninja-manifest.default"
        ]
    );
    assert_eq!(g.edges.len(), 1, "the second edge for `a` makes nothing else and is dropped");
    assert_eq!(g.missing.len(), 1);
    assert_eq!((g.missing[0].path.as_str(), g.missing[0].line), ("missing.ninja", 13));
    let syntax = &d[0].kept()[1];
    assert!(syntax.message.contains("bad $-escape"), "{}", syntax.message);
}

#[test]
fn a_manifest_is_recognised_by_content() {
    let sniff = |text: &str| NinjaManifestFormat.sniff(SniffInput { head: text.as_bytes(), at_eof: true, name: "x" });
    assert_eq!(sniff("# CMAKE generated file\n\n# more\ninclude CMakeFiles/rules.ninja\n"), Sniff::Yes);
    assert_eq!(sniff("# rules\nrule CUSTOM_COMMAND\n  command = $COMMAND\n"), Sniff::Yes);
    assert_eq!(sniff("ninja_required_version = 1.8.2\n"), Sniff::Yes);
    assert_eq!(sniff("a = 1\nb = 2\nbuild x: $\n  phony\n"), Sniff::Yes);
    assert_eq!(sniff("# ninja log v5\n1\t2\t3\tout\tabc\n"), Sniff::No);
    assert_eq!(sniff("{\"traceEvents\": []}\n"), Sniff::No);
    assert_eq!(sniff("a = 1\n"), Sniff::No);
    let cut = NinjaManifestFormat.sniff(SniffInput { head: b"# only comments\n", at_eof: false, name: "x" });
    assert_eq!(cut, Sniff::NeedMore);
    let zeros = NinjaManifestFormat.sniff(SniffInput { head: &[0; 100], at_eof: false, name: "x" });
    assert_eq!(zeros, Sniff::No);
}

#[test]
fn the_root_is_found_by_content_when_not_named_build_ninja() {
    let (g, d) = graph(&[
        ("rules.ninja", "rule cc\n  command = cc\n"),
        ("renamed-manifest", "include CMakeFiles/rules.ninja\nbuild a.o: cc a.c\n"),
    ]);
    assert_eq!(g.read, [1, 0]);
    assert_eq!(g.edges.len(), 1);
    assert!(d.iter().all(|d| d.kept().is_empty()), "{d:?}");
}

#[test]
fn includes_are_found_from_the_root_s_directory_first() {
    // GN writes a toolchain.ninja per toolchain: the names alone are ambiguous.
    let (g, d) = graph(&[
        ("out/Default/clang_x64/toolchain.ninja", "rule cc\n  command = host\nbuild host.o: cc a.c\n"),
        ("out/Default/toolchain.ninja", "rule cc\n  command = target\nbuild target.o: cc a.c\n"),
        ("out/Default/build.ninja", "subninja toolchain.ninja\nsubninja clang_x64/toolchain.ninja\n"),
    ]);
    assert!(d.iter().all(|d| d.kept().is_empty()), "{d:?}");
    assert_eq!(g.read, [2, 1, 0]);
    assert_eq!(g.nodes.iter().filter(|n| n.ends_with(".o")).count(), 2);
}
