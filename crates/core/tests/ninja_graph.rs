//! A `.ninja_log` read with its `build.ninja` and `.ninja_deps`: every
//! figure checked against values worked out by hand, in any input order
//! and at every chunk size; then real CMake and Meson builds' files
//! (`fixtures/ninja/`, made by `ninja -j2`), their reports snapshotted.

use longpole_core::formats::ninja_log::deps_log::write;
use longpole_core::ingest::read_bytes;
use longpole_core::report::{analysis_json, analysis_text};
use longpole_core::Input;
use serde_json::Value;
use std::path::PathBuf;

const MANIFEST: &str = "\
rule cc
  command = cc -c $in -o $out
rule gen
  command = python3 $in > $out
rule link
  command = ld $in -o $out
build gen/v.h: gen gen.py
build stamp: phony gen/v.h
build a.o: cc a.c || stamp
build b.o: cc b.c
build c.o: cc c.c
build app: link a.o b.o c.o
build unused.o: cc u.c
";

/// Two builds: a full one (with an output no edge makes), then a rebuild
/// of `app` alone (its end steps back in time).
const LOG: &str = "# ninja log v5
0\t50\t0\tb.o\tb1
0\t100\t0\tgen/v.h\tb2
100\t130\t0\ta.o\tb3
150\t160\t0\tstray.o\tb4
100\t180\t0\tc.o\tb5
185\t200\t0\tapp\tb6
0\t10\t0\tapp\tb6
";

fn deps() -> Vec<u8> {
    write(4, &["c.o", "c.c", "gen/v.h", "/usr/include/stdio.h"], &[(0, &[1, 2, 3])])
}

fn inputs(files: &[(&str, &[u8])], chunk: usize) -> Vec<Input> {
    files.iter().map(|(n, b)| read_bytes(n, b, chunk).unwrap()).collect()
}

fn json(files: &[(&str, &[u8])], chunk: usize) -> Value {
    analysis_json(&longpole_core::reconcile(inputs(files, chunk)))
}

/// The report of each run: the first at the top, the others under `datasets`.
fn runs(v: &Value) -> Vec<&Value> {
    std::iter::once(v).chain(v["datasets"].as_array().into_iter().flatten()).collect()
}

fn outputs(steps: &Value) -> Vec<String> {
    steps.as_array().unwrap().iter().map(|s| s["output"].as_str().unwrap().to_owned()).collect()
}

#[test]
fn the_path_follows_the_graph_and_the_deps_log() {
    let deps = deps();
    let files: [(&str, &[u8]); 3] =
        [(".ninja_log", LOG.as_bytes()), ("build.ninja", MANIFEST.as_bytes()), (".ninja_deps", &deps)];
    let whole = json(&files, usize::MAX);
    for chunk in [1, 7, 4096] {
        assert_eq!(json(&files, chunk), whole, "chunk size {chunk}");
    }
    let reordered = json(&[files[2], files[1], files[0]], 4096);
    assert_eq!(reordered["critical_path"], whole["critical_path"]);
    assert_eq!(reordered["datasets"], whole["datasets"]);
    let runs = runs(&whole);
    assert_eq!(runs.len(), 2, "one run per build");
    let full = runs[0];
    // gen/v.h (100) -> c.o (80, waits for the header through the deps log) -> app (15).
    assert_eq!(outputs(&full["critical_path"]["steps"]), ["gen/v.h", "c.o", "app"]);
    assert_eq!(full["critical_path"]["total_ms"], 195.0);
    // app ended last; of its inputs c.o ended last (5 ms before app began), c.o's is gen/v.h.
    let chain = &full["blocking_chain"]["steps"];
    assert_eq!(outputs(chain), ["gen/v.h", "c.o", "app"]);
    let gaps: Vec<f64> = chain.as_array().unwrap().iter().map(|s| s["idle_before_ms"].as_f64().unwrap()).collect();
    assert_eq!(gaps, [0.0, 0.0, 5.0]);
    // Weighted time, by hand: 0–50 gen and b.o share (25 each), 50–100 gen
    // alone, 100–130 a.o and c.o share, 130–150 c.o alone, 150–160 c.o and
    // stray.o share, 160–180 c.o alone, 185–200 app alone.
    let ext: Vec<(String, f64)> = full["weighted_by_extension"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["extension"].as_str().unwrap().to_owned(), e["weighted_ms"].as_f64().unwrap()))
        .collect();
    assert_eq!(ext, [(".o".into(), 105.0), (".h".into(), 75.0), ("(no extension found)".into(), 15.0)]);
    let n = &full["ninja"];
    assert_eq!((n["edges_ran"].as_u64(), n["manifest_edges"].as_u64()), (Some(6), Some(6)));
    // app waits for a, b, c; a for gen (through the phony stamp); c for gen (deps log).
    assert_eq!((n["dependencies"].as_u64(), n["from_deps_log"].as_u64()), (Some(5), Some(1)));
    assert_eq!((n["unmatched_outputs"].as_u64(), n["rebuild"].as_bool()), (Some(1), Some(false)));
    let log_diags = &whole["diagnostics"];
    assert!(log_diags.to_string().contains("no edge of the manifest builds `stray.o`"), "{log_diags}");
    assert!(log_diags.to_string().contains("\"line\":5"), "{log_diags}");
    // The rebuild ran app alone: its path is app.
    let rebuild = runs[1];
    assert_eq!(outputs(&rebuild["critical_path"]["steps"]), ["app"]);
    assert_eq!((rebuild["ninja"]["build"].as_u64(), rebuild["ninja"]["rebuild"].as_bool()), (Some(2), Some(true)));
}

#[test]
fn without_the_deps_log_order_only_inputs_still_count() {
    let files: [(&str, &[u8]); 2] = [(".ninja_log", LOG.as_bytes()), ("build.ninja", MANIFEST.as_bytes())];
    let v = json(&files, 4096);
    let full = &v;
    // gen/v.h (100) -> a.o (30, order-only through the phony) -> app (15).
    assert_eq!(outputs(&full["critical_path"]["steps"]), ["gen/v.h", "a.o", "app"]);
    assert_eq!(full["critical_path"]["total_ms"], 145.0);
}

#[test]
fn a_missing_include_is_named() {
    let manifest =
        format!("include CMakeFiles/rules.ninja\n{}", MANIFEST.replace("rule cc\n  command = cc -c $in -o $out\n", ""));
    let v = json(&[(".ninja_log", LOG.as_bytes()), ("build.ninja", manifest.as_bytes())], 4096);
    let diags = v["diagnostics"].to_string();
    assert!(diags.contains("`CMakeFiles/rules.ninja` is included here but was not given"), "{diags}");
    assert!(diags.contains("unknown build rule 'cc'"), "{diags}");
}

#[test]
fn without_a_manifest_that_makes_its_outputs_no_path_is_claimed() {
    let deps = deps();
    let alone = json(&[(".ninja_log", LOG.as_bytes()), (".ninja_deps", &deps)], 4096);
    assert!(alone["no_path_reason"].as_str().unwrap().contains("not what it waited for"), "{alone}");
    assert!(alone["diagnostics"].to_string().contains("ninja-deps.alone"));
    let other = "rule r\n  command = x\nbuild elsewhere.o: r x.c\n";
    let unrelated = json(&[(".ninja_log", LOG.as_bytes()), ("build.ninja", other.as_bytes())], 4096);
    for run in runs(&unrelated) {
        assert!(run["no_path_reason"].as_str().unwrap().starts_with("No output of this build"), "{run}");
        assert!(run["critical_path"].is_null());
    }
}

#[test]
fn a_phony_cycle_ends_and_self_dependencies_are_dropped() {
    let manifest =
        "rule r\n  command = x\nbuild p: phony q a.o\nbuild q: phony p\nbuild a.o: r a.c\nbuild b.o: r b.c || p b.o\n";
    let log = "# ninja log v5\n0\t10\t0\ta.o\th1\n10\t30\t0\tb.o\th2\n";
    let v = json(&[(".ninja_log", log.as_bytes()), ("build.ninja", manifest.as_bytes())], 4096);
    assert_eq!(outputs(&v["critical_path"]["steps"]), ["a.o", "b.o"]);
    assert_eq!(v["ninja"]["dependencies"].as_u64(), Some(1));
}

fn fixture(dir: &str) -> Vec<(String, Vec<u8>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ninja").join(dir);
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

fn real_report(dir: &str) -> String {
    let files = fixture(dir);
    let run = |chunk: usize| {
        let inputs = files.iter().map(|(n, b)| read_bytes(n, b, chunk).unwrap()).collect();
        let analysis = longpole_core::reconcile(inputs);
        format!("{}\n{}", analysis_text(&analysis), serde_json::to_string_pretty(&analysis_json(&analysis)).unwrap())
    };
    let whole = run(usize::MAX);
    for chunk in [1, 7, 4096] {
        assert_eq!(run(chunk), whole, "{dir} at chunk size {chunk}");
    }
    whole
}

/// The real build's path ends at the edge its log shows finishing last, and
/// holds the generated header's edge (`ninja_real.rs` in the CLI's tests
/// checks each step against `ninja -t query` when it makes these files).
fn check_real(dir: &str, header: &str) {
    let files = fixture(dir);
    let inputs = files.iter().map(|(n, b)| read_bytes(n, b, 4096).unwrap()).collect();
    let v = analysis_json(&longpole_core::reconcile(inputs));
    let log = String::from_utf8(files.iter().find(|(n, _)| n == ".ninja_log").unwrap().1.clone()).unwrap();
    let last =
        log.lines().skip(1).map(|l| l.split('\t').collect::<Vec<_>>()).max_by_key(|f| f[1].parse::<i64>().unwrap());
    let steps = outputs(&v["critical_path"]["steps"]);
    assert_eq!(steps.last().unwrap().split(", ").next(), last.map(|f| f[3]));
    assert!(steps.iter().any(|s| s.split(", ").next() == Some(header)), "{steps:?}");
}

#[test]
fn real_cmake_build() {
    check_real("cmake-chain", "gen/config.h");
    insta::assert_snapshot!("ninja_cmake_chain", real_report("cmake-chain"));
}

#[test]
fn real_meson_build() {
    check_real("meson-chain", "config.h");
    insta::assert_snapshot!("ninja_meson_chain", real_report("meson-chain"));
}

mod hostile {
    //! The real build's files with bytes changed and cut short: never a
    //! panic, and the same report at any chunk size.

    use super::*;
    use proptest::prelude::*;

    fn report(files: &[(String, Vec<u8>)], chunk: usize) -> String {
        let inputs: Vec<Input> = files.iter().filter_map(|(n, b)| read_bytes(n, b, chunk).ok()).collect();
        let analysis = longpole_core::reconcile(inputs);
        format!("{}{}", analysis_text(&analysis), analysis_json(&analysis))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn changed_and_cut_files_never_panic(
            which in 0usize..4,
            flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..12),
            cut in any::<prop::sample::Index>(),
            chunk in 1usize..64,
        ) {
            let mut files = fixture("cmake-chain");
            let bytes = &mut files[which].1;
            for (at, b) in &flips {
                let i = at.index(bytes.len());
                bytes[i] = *b;
            }
            let keep = cut.index(bytes.len() + 1);
            bytes.truncate(keep.max(bytes.len() / 2));
            prop_assert_eq!(report(&files, chunk), report(&files, usize::MAX));
        }
    }
}
