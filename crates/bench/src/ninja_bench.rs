//! A Chromium-sized ninja build read with its build graph: a generated
//! `build.ninja` (rules, then a `subninja` per target, as GN writes them)
//! of 100,000 edges by default, its `.ninja_log` and `.ninja_deps`, read,
//! matched and pathed natively.
//!
//!     cargo run --release -p longpole-bench --bin ninja-bench [--write DIR] [EDGES...]
//!
//! `--write DIR` also writes the files of the first size there (the
//! subninjas under `DIR/obj/`), for the browser:
//! `node tests/e2e/measure-big-file.mjs $(find DIR -type f)`.
//!
//! The build: targets of 500 compiles each; every target's compiles wait
//! (order-only, through a phony stamp) for a generated header, read 20 of
//! 2,000 shared headers (in the deps log) and are archived; the archives
//! are linked in groups, the groups into one binary. The log is a schedule
//! of that graph on 64 slots with durations from a fixed pseudo-random
//! sequence. Prints a Markdown table: edges, input sizes, then the median
//! (and min–max) of 5 runs of each step, in ms.

use longpole_core::analysis::critical_path::{blocking_chain, ya_path};
use longpole_core::formats::ninja_log::deps_log::write;
use longpole_core::ingest::read_bytes;
use longpole_core::reconcile;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt::Write as _;
use std::time::Instant;

/// Runs of each step.
const RUNS: usize = 5;
/// Compiles per target.
const PER_TARGET: usize = 500;
/// Targets linked per group.
const PER_GROUP: usize = 20;
/// Shared headers, and those each compile reads.
const HEADERS: usize = 2_000;
const READS: usize = 20;
/// Edges run at once.
const SLOTS: usize = 64;

/// A fixed pseudo-random sequence (an LCG), so every run builds the same files.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % below
    }
}

/// One edge of the generated build: its outputs and the edges it waits for.
struct Edge {
    out: String,
    deps: Vec<usize>,
    ms: i64,
}

/// The files of a build of about `edges` edges: (name, bytes), root manifest first.
fn files(edges: usize) -> Vec<(String, Vec<u8>)> {
    let mut rng = Lcg(42);
    let targets = (edges / (PER_TARGET + 2)).max(1);
    let mut all: Vec<Edge> = Vec::with_capacity(edges);
    let mut root = String::from("ninja_required_version = 1.7.2\n\nrule cc\n  command = clang++ -MMD -MF $out.d -c $in -o $out\n  deps = gcc\n  depfile = $out.d\nrule alink\n  command = ar rcs $out $in\nrule link\n  command = clang++ $in -o $out\n  pool = link_pool\nrule action\n  command = python3 $script $out\npool link_pool\n  depth = 4\n\n");
    let mut subninjas: Vec<(String, Vec<u8>)> = Vec::new();
    let mut archives = Vec::new();
    for t in 0..targets {
        let mut text = format!("# target t{t}\ntarget_out_dir = obj/t{t}\n");
        let gen = all.len();
        all.push(Edge { out: format!("gen/t{t}/api.h"), deps: vec![], ms: 200 + rng.next(3_000) as i64 });
        let _ = writeln!(text, "build gen/t{t}/api.h: action ../../tools/gen.py\n  script = ../../tools/gen.py");
        let _ = writeln!(text, "build obj/t{t}/inputs.stamp: phony gen/t{t}/api.h");
        let first = all.len();
        for i in 0..PER_TARGET {
            let out = format!("obj/t{t}/f{i}.o");
            let _ = writeln!(text, "build $target_out_dir/f{i}.o: cc ../../src/t{t}/f{i}.cc || obj/t{t}/inputs.stamp");
            all.push(Edge { out, deps: vec![gen], ms: 50 + rng.next(1_500) as i64 });
        }
        let objects: Vec<String> = (0..PER_TARGET).map(|i| format!("$target_out_dir/f{i}.o")).collect();
        let _ = writeln!(text, "build obj/t{t}/libt{t}.a: alink {}", objects.join(" "));
        archives.push(all.len());
        all.push(Edge {
            out: format!("obj/t{t}/libt{t}.a"),
            deps: (first..first + PER_TARGET).collect(),
            ms: 100 + rng.next(400) as i64,
        });
        root.push_str(&format!("subninja obj/t{t}.ninja\n"));
        subninjas.push((format!("obj/t{t}.ninja"), text.into_bytes()));
    }
    let mut groups = Vec::new();
    for (g, chunk) in archives.chunks(PER_GROUP).enumerate() {
        let ins: Vec<String> = chunk.iter().map(|&a| all[a].out.clone()).collect();
        let _ = writeln!(root, "build lib/g{g}.so: link {}", ins.join(" "));
        groups.push(all.len());
        all.push(Edge { out: format!("lib/g{g}.so"), deps: chunk.to_vec(), ms: 2_000 + rng.next(8_000) as i64 });
    }
    let ins: Vec<String> = groups.iter().map(|&g| all[g].out.clone()).collect();
    let _ = writeln!(root, "build chrome: link {}\nbuild all: phony chrome\ndefault all", ins.join(" "));
    all.push(Edge { out: "chrome".into(), deps: groups.clone(), ms: 20_000 });
    // The schedule: edges in order (dependencies come first) on the slot free soonest.
    let mut slots: BinaryHeap<Reverse<i64>> = (0..SLOTS).map(|_| Reverse(0)).collect();
    let mut times: Vec<(i64, i64)> = Vec::with_capacity(all.len());
    for e in &all {
        let ready = e.deps.iter().map(|&d| times[d].1).max().unwrap_or(0);
        let Reverse(free) = slots.pop().expect("SLOTS > 0");
        let start = ready.max(free);
        times.push((start, start + e.ms));
        slots.push(Reverse(start + e.ms));
    }
    let mut order: Vec<usize> = (0..all.len()).collect();
    order.sort_by_key(|&i| (times[i].1, i));
    let mut log = String::from("# ninja log v5\n");
    for i in order {
        let _ = writeln!(log, "{}\t{}\t0\t{}\t{:016x}", times[i].0, times[i].1, all[i].out, i as u64 * 2_654_435_761);
    }
    // The deps log: headers first, then each compile's output and its reads.
    let mut paths: Vec<String> = (0..HEADERS).map(|h| format!("../../src/include/h{h}.h")).collect();
    let mut deps: Vec<(u32, Vec<u32>)> = Vec::new();
    for e in &all {
        if e.out.ends_with(".o") {
            let id = paths.len() as u32;
            paths.push(e.out.clone());
            let gen_id = paths.len() as u32;
            paths.push(all[e.deps[0]].out.clone());
            let mut reads: Vec<u32> = (0..READS).map(|_| rng.next(HEADERS as u64) as u32).collect();
            reads.push(gen_id);
            deps.push((id, reads));
        }
    }
    let path_refs: Vec<&str> = paths.iter().map(String::as_str).collect();
    let dep_refs: Vec<(u32, &[u32])> = deps.iter().map(|(o, v)| (*o, v.as_slice())).collect();
    let mut out = vec![("build.ninja".to_owned(), root.into_bytes())];
    out.extend(subninjas);
    out.push((".ninja_log".into(), log.into_bytes()));
    out.push((".ninja_deps".into(), write(4, &path_refs, &dep_refs)));
    out
}

/// Median and range over [`RUNS`] runs of the time `f` takes on what
/// `setup` (not timed) makes, ms; and `f`'s last result.
fn time<S, T>(mut setup: impl FnMut() -> S, mut f: impl FnMut(S) -> T) -> (f64, String, T) {
    let mut ms = Vec::with_capacity(RUNS);
    let mut last = None;
    for _ in 0..RUNS {
        let input = setup();
        let t = Instant::now();
        last = Some(f(input));
        ms.push(t.elapsed().as_secs_f64() * 1e3);
    }
    ms.sort_by(f64::total_cmp);
    let shown = format!("{:.0} ({:.0}–{:.0})", ms[RUNS / 2], ms[0], ms[RUNS - 1]);
    (ms[RUNS / 2], shown, last.expect("RUNS > 0"))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let write_to = args.iter().position(|a| a == "--write").and_then(|i| args.get(i + 1)).map(std::path::PathBuf::from);
    let sizes: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![100_000] } else { sizes };
    if let (Some(dir), Some(&edges)) = (&write_to, sizes.first()) {
        for (name, bytes) in files(edges) {
            let path = dir.join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).expect("the directory to write to can be made");
            }
            std::fs::write(&path, bytes).expect("the files can be written");
        }
    }
    println!(
        "| edges | manifest files | manifest MB | log MB | deps MB | read, ms | match + graph, ms | paths, ms | total, ms | path edges |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for edges in sizes {
        let files = files(edges);
        let mb = |f: &dyn Fn(&str) -> bool| {
            files.iter().filter(|(n, _)| f(n)).map(|(_, b)| b.len()).sum::<usize>() as f64 / 1e6
        };
        let manifests = files.iter().filter(|(n, _)| n.ends_with(".ninja")).count();
        let read_all = || {
            files.iter().map(|(n, b)| read_bytes(n, b, 1 << 20).expect("the generated files read")).collect::<Vec<_>>()
        };
        let (read_ms, read, _) = time(|| (), |()| read_all());
        let (match_ms, matched, analysis) = time(read_all, reconcile);
        let model = &analysis.datasets[0].model;
        let (path_ms, paths, path) = time(|| (), |()| (ya_path(model).0, blocking_chain(model)).0);
        println!(
            "| {} | {manifests} | {:.1} | {:.1} | {:.1} | {read} | {matched} | {paths} | {:.0} | {} |",
            model.tasks().len(),
            mb(&|n| n.ends_with(".ninja")),
            mb(&|n| n == ".ninja_log"),
            mb(&|n| n == ".ninja_deps"),
            read_ms + match_ms + path_ms,
            path.tasks.len()
        );
    }
}
