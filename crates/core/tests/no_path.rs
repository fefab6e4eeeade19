//! No invented critical path: a run whose log records no dependencies (a
//! GHC eventlog, an evobench log, a `.ninja_log`, a Chrome trace without
//! flow events and without Bazel's critical path) claims none. Its JSON has
//! `critical_path` and `blocking_chain` null and a `no_path_reason`; its
//! view has no path steps. Runs with dependencies keep their paths.
//!
//! Whether a Chrome trace records dependencies is decided here by a plain
//! scan of its JSON (serde_json over the decompressed bytes): flow events
//! (`ph` of `s`, `t`, `f`) or `critical path component` events.

use longpole_core::ingest::read_bytes;
use longpole_core::layout::timeline::TimelineIndex;
use longpole_core::report::analysis_json;
use longpole_core::Analysis;
use serde_json::Value;
use std::path::{Path, PathBuf};

mod support;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn corpus(dir: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(support::data(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && !p.to_string_lossy().ends_with(".reference"))
        .collect();
    out.sort();
    out
}

fn analyse(path: &Path) -> Analysis {
    let bytes = std::fs::read(path).unwrap();
    let name = path.file_name().unwrap().to_string_lossy();
    longpole_core::reconcile(vec![read_bytes(&name, &bytes, 1 << 16).unwrap()])
}

/// Checks `path`'s JSON and view: without a path and saying why, or with one.
fn check(path: &Path, records_dependencies: bool) {
    let analysis = analyse(path);
    let json = analysis_json(&analysis);
    let d = &analysis.datasets[0];
    let view = analysis.view(d, &TimelineIndex::new(&d.model));
    let what = path.display();
    if records_dependencies {
        assert!(json["critical_path"]["tasks"].as_array().is_some_and(|t| !t.is_empty()), "{what}");
        assert!(json.get("no_path_reason").is_none(), "{what}");
        assert!(!view.without_paths() && !view.critical_path.steps.is_empty(), "{what}");
    } else {
        assert_eq!(json["critical_path"], Value::Null, "{what}");
        assert_eq!(json["blocking_chain"], Value::Null, "{what}");
        let reason = json["no_path_reason"].as_str().unwrap_or_else(|| panic!("{what}: no reason"));
        assert!(reason.contains("no dependencies"), "{what}: {reason}");
        assert!(view.without_paths(), "{what}");
        assert!(view.critical_path.steps.is_empty() && view.blocking_chain.steps.is_empty(), "{what}");
        assert!(view.no_path.as_ref().is_some_and(|n| n.headline().starts_with(reason)), "{what}");
    }
}

/// A plain (uncompressed) Chrome trace's dependencies, by a scan of its events.
fn chrome_records_dependencies(path: &Path) -> bool {
    let text = std::fs::read(path).unwrap();
    let v: Value = serde_json::from_slice(&text).unwrap();
    let events = v.get("traceEvents").unwrap_or(&v).as_array().cloned().unwrap_or_default();
    events.iter().any(|e| {
        matches!(e["ph"].as_str(), Some("s" | "t" | "f")) || e["cat"].as_str() == Some("critical path component")
    })
}

#[test]
fn logs_without_dependencies_claim_no_path() {
    let mut files = corpus("ghc-eventlog");
    files.extend(corpus("ninja-log"));
    files.push(support::data("evobench/bench-v1-sum_of_fibs.log"));
    files.push(support::data("evobench/generated-current-format/evobench.log.zstd"));
    files.push(root().join("samples/chrome-x_event_trace.json.gz"));
    for f in &files {
        check(f, false);
    }
}

#[test]
fn chrome_traces_claim_a_path_only_with_flows_or_bazel_components() {
    let mut files = corpus("chrome-trace/catapult");
    files.extend(corpus("chrome-trace/bazel"));
    let mut seen = (0, 0);
    for f in files.iter().filter(|f| f.extension().is_some_and(|e| e == "json")) {
        let deps = chrome_records_dependencies(f);
        if deps {
            seen.0 += 1;
        } else {
            seen.1 += 1;
        }
        check(f, deps);
    }
    assert!(seen.0 >= 1 && seen.1 >= 10, "{seen:?}");
}

#[test]
fn logs_with_dependencies_keep_their_paths() {
    for f in [
        "samples/distbuild-example.log",
        "samples/starrocks-profile1.txt",
        "samples/monetdb-tpch-q01.json.gz",
        "samples/bazel-tiny.json.gz",
    ] {
        check(&root().join(f), true);
    }
}

/// The busiest lane covers the most time, nested slices counted once: by
/// hand, thread 1 runs 0–10 µs (with 2–5 inside it) and 20–25 µs, 15 µs in
/// all; thread 2 runs 0–14 µs.
#[test]
fn the_busiest_lane_counts_nested_slices_once() {
    let trace = br#"{"traceEvents":[
        {"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"one"}},
        {"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"two"}},
        {"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":10},
        {"ph":"X","name":"b","pid":1,"tid":1,"ts":2,"dur":3},
        {"ph":"X","name":"c","pid":1,"tid":1,"ts":20,"dur":5},
        {"ph":"X","name":"d","pid":1,"tid":2,"ts":0,"dur":14}
    ]}"#;
    let analysis = longpole_core::reconcile(vec![read_bytes("t.json", trace, 7).unwrap()]);
    let json = analysis_json(&analysis);
    assert_eq!(json["critical_path"], Value::Null);
    assert_eq!(json["busiest_lane"]["busy_ms"], serde_json::json!(0.015));
    assert!(json["busiest_lane"]["name"].as_str().unwrap().ends_with("one"), "{}", json["busiest_lane"]);
}
