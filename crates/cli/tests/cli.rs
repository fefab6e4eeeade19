//! The CLI end to end, on corpus files.

use assert_cmd::Command;
use std::path::PathBuf;
use support::data as corpus;

#[path = "../../core/tests/support/mod.rs"]
mod support;

#[test]
fn analyze_prints_the_format_counts_and_diagnostics() {
    let out =
        Command::cargo_bin("longpole").unwrap().arg("analyze").arg(corpus("distbuild/edge.log")).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("edge.log: distbuild execution log, 332 bytes, 13 lines, 13 events, 4 diagnostics\n"),
        "{text}"
    );
    assert!(text.contains("  line 3: warning [distbuild.no-prepare-start]"), "{text}");
    assert!(
        text.contains(
            "distbuild run from edge.log: 5 tasks (3 work, 0 transfer, 2 setup) on 2 lanes, 3 edges, wall 4730 ms"
        ),
        "{text}"
    );
}

#[test]
fn analyze_json_has_the_summary() {
    let out = Command::cargo_bin("longpole")
        .unwrap()
        .args(["analyze", "--format", "json"])
        .arg(corpus("distbuild/example.log"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["inputs"][0]["format"], "distbuild");
    assert_eq!(v["inputs"][0]["lines"], 23);
    assert_eq!(v["tasks"], serde_json::json!({"run": 3, "copy": 2, "prepare": 4}));
    assert_eq!(v["wall_ms"], 4730);
}

#[test]
fn an_unrecognised_file_fails_with_a_message_naming_it() {
    let path = std::env::temp_dir().join(format!("longpole-cli-random-{}.bin", std::process::id()));
    let bytes: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8).collect();
    std::fs::write(&path, bytes).unwrap();
    let out = Command::cargo_bin("longpole").unwrap().arg("analyze").arg(&path).output().unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("not a format longpole reads; no reader recognises its first bytes"), "{err}");
}

#[test]
fn analyze_json_follows_the_distbuild_contract() {
    let graph = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../core/tests/fixtures/corpus-distbuild-graph.json");
    let out = Command::cargo_bin("longpole")
        .unwrap()
        .args(["analyze", "--format", "json"])
        .arg(corpus("distbuild/example.log"))
        .arg("--graph")
        .arg(&graph)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["format"], "distbuild");
    assert_eq!(v["wall_ms"], 4730);
    assert_eq!(v["tasks"], serde_json::json!({"run": 3, "copy": 2, "prepare": 4}));
    assert_eq!(v["critical_path"]["total_ms"], 3505);
    let path: Vec<&str> =
        v["critical_path"]["tasks"].as_array().unwrap().iter().map(|t| t["kind"].as_str().unwrap()).collect();
    assert_eq!(path, ["prepare", "run", "copy", "run"]);
    // Each task's drag (what removing it would save) is the replay's,
    // tested in crates/core/tests/replay.rs; here, the tasks as ya
    // describes them.
    let task = |i: usize| {
        let mut t = v["critical_path"]["tasks"][i].clone();
        assert!(t.as_object_mut().unwrap().remove("drag_ms").is_some());
        t
    };
    assert_eq!(
        task(2),
        serde_json::json!({"name": "copy(host1 -> host1) result of A", "lane": "host1", "duration_ms": 5, "kind": "copy", "uid": "A", "consumer": "C", "host": "host1", "from_host": "host1", "start_ms": 3720, "end_ms": 3725})
    );
    assert_eq!(
        task(0),
        serde_json::json!({"name": "[prepare:repository:$(SOURCE_ROOT)] host1", "lane": "host1", "duration_ms": 500, "kind": "prepare", "type": "repository:$(SOURCE_ROOT)", "host": "host1", "start_ms": 1000, "end_ms": 1500})
    );
    let chain: Vec<&str> = v["blocking_chain"]["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["uid"].as_str().unwrap_or("prepare"))
        .collect();
    assert_eq!(chain, ["prepare", "B", "B", "C"], "the blocking chain runs through B and its 1000 ms copy");
    assert_eq!(v["diagnostics"], serde_json::json!([]));
}

#[test]
fn analyze_text_prints_yas_report() {
    let out =
        Command::cargo_bin("longpole").unwrap().arg("analyze").arg(corpus("distbuild/example.log")).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\nCritical path:\n"), "{text}");
    assert!(text.contains("Time from start: 4730 ms, time elapsed by graph 3505 ms, time diff 1225 ms.\n"), "{text}");
    assert!(text.contains("\nTotal tasks times:\n"), "{text}");
}

#[test]
fn rewrite_gives_back_an_eventlog_byte_for_byte() {
    let dir = std::env::temp_dir().join(format!("longpole-rewrite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["ghc-9.2-events.eventlog", "testlog-part.eventlog", "stop.hT.eventlog"] {
        let out = dir.join(name);
        let run = Command::cargo_bin("longpole")
            .unwrap()
            .args(["rewrite", corpus(&format!("ghc-eventlog/{name}")).to_str().unwrap(), "-o", out.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        assert!(
            std::fs::read(&out).unwrap() == std::fs::read(corpus(&format!("ghc-eventlog/{name}"))).unwrap(),
            "{name}"
        );
    }
    let run = Command::cargo_bin("longpole")
        .unwrap()
        .args(["rewrite", corpus("distbuild/edge.log").to_str().unwrap(), "-o", dir.join("x").to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("cannot write a distbuild execution log"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn dump_ghc_events_show_matches_the_reference() {
    let name = "ghc-eventlog/hello-ghc-8.6.5.eventlog";
    let out =
        Command::cargo_bin("longpole").unwrap().args(["dump", "--ghc-events-show"]).arg(corpus(name)).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout == std::fs::read(corpus(&format!("{name}.reference"))).unwrap());
}

#[test]
fn analyze_json_counts_an_eventlog_s_events_by_type() {
    let out = Command::cargo_bin("longpole")
        .unwrap()
        .args(["analyze", "--format", "json"])
        .arg(corpus("ghc-eventlog/testlog-part.eventlog"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ghc"]["events"], 718);
    let by_type = v["ghc"]["events_by_type"].as_object().unwrap();
    assert_eq!(by_type.values().map(|n| n.as_u64().unwrap()).sum::<u64>(), 718);
    assert_eq!(v["diagnostics"][0]["code"], "ghc-eventlog.truncated");
}

#[test]
fn analyze_json_follows_the_evobench_contract() {
    let out = Command::cargo_bin("longpole")
        .unwrap()
        .args(["analyze", "--format", "json"])
        .arg(corpus("evobench/generated-current-format/evobench.log.zstd"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["format"], "evobench");
    assert_eq!(v["evobench"]["runs"], 1);
    let paths = v["evobench"]["paths"].as_array().unwrap();
    assert_eq!(paths.len(), 574);
    assert_eq!(
        paths[1],
        serde_json::json!({"mode": "probe", "path": "fib|fib", "count": 535900000, "real_ns": {
            "sum": 1607150500000u64, "mean": 2999, "stdev": 8743, "median": 1392, "p90": 3495, "p99": 37416}})
    );
    let kv = paths.iter().find(|p| p["path"] == "A:thread > main|main > sum_of_fibs|all > sum_of_fibs n=0").unwrap();
    assert_eq!(kv["mode"], "A");
    assert_eq!(kv["real_ns"], serde_json::Value::Null);
}

/// `analyze A... --group-b B...` is `compare A... --vs B...`: the same
/// output, byte for byte, in text and JSON; with several runs a side each
/// path has its group means and Welch's p (the values themselves are
/// checked against the evaluator's sums and a closed-form p in
/// `crates/core/tests/compare_corpus.rs`).
#[test]
fn analyze_group_b_is_compare_of_the_two_groups() {
    let (old, current) =
        (corpus("evobench/bench-v1-sum_of_fibs.log"), corpus("evobench/generated-current-format/evobench.log.zstd"));
    let run = |args: &[&str], a: &[&PathBuf], flag: &str, b: &[&PathBuf]| {
        let out = Command::cargo_bin("longpole").unwrap().args(args).args(a).arg(flag).args(b).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        out.stdout
    };
    let (a, b) = ([&old, &old, &current], [&current, &current, &old]);
    for format in ["text", "json"] {
        let alias = run(&["analyze", "--format", format], &a, "--group-b", &b);
        assert_eq!(alias, run(&["compare", "--format", format], &a, "--vs", &b), "{format}");
        if format == "json" {
            let v: serde_json::Value = serde_json::from_slice(&alias).unwrap();
            assert_eq!(v["runs"]["a"].as_array().unwrap().len(), 3);
            let tested = v["tasks"].as_array().unwrap().iter().filter(|t| t["welch_p"].is_f64()).count();
            assert!(tested > 0, "{v}");
        }
    }
    // --graph belongs to one run's analysis, not to a comparison.
    let out = Command::cargo_bin("longpole")
        .unwrap()
        .arg("analyze")
        .arg(&old)
        .args(["--graph", "graph.json", "--group-b"])
        .arg(&current)
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn export_writes_folded_stacks_csv_and_a_workbook() {
    let dir = std::env::temp_dir().join(format!("longpole-cli-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = corpus("evobench/bench-v1-sum_of_fibs.log");
    for (what, file) in [("folded", "out.folded"), ("csv", "out.csv"), ("xlsx", "out.xlsx")] {
        let out = Command::cargo_bin("longpole")
            .unwrap()
            .args(["export", "--to", what, "-o"])
            .arg(dir.join(file))
            .arg(&log)
            .output()
            .unwrap();
        assert!(out.status.success(), "{what}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let folded = std::fs::read_to_string(dir.join("out.folded")).unwrap();
    assert!(folded.starts_with("thread "), "{folded}");
    assert!(folded.contains("\nthread;main|main;sum_of_fibs n=0;main|sum_of_fibs 12895\n"), "{folded}");
    let csv = std::fs::read_to_string(dir.join("out.csv")).unwrap();
    assert!(csv.starts_with("kind,mode,path,count,sum,mean,stdev,median,p0,p1,"));
    assert_eq!(csv.lines().count(), 1 + 4 * 492);
    assert_eq!(&std::fs::read(dir.join("out.xlsx")).unwrap()[..2], b"PK");
    let err = Command::cargo_bin("longpole")
        .unwrap()
        .args(["export", "--to", "csv", "-o"])
        .arg(dir.join("x.csv"))
        .arg(corpus("distbuild/edge.log"))
        .output()
        .unwrap();
    assert!(!err.status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn export_writes_every_run_to_chrome_speedscope_folded_svg_and_html() {
    let dir = std::env::temp_dir().join(format!("longpole-cli-export-all-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = corpus("distbuild/edge.log");
    for to in ["chrome", "speedscope", "folded", "svg", "html"] {
        let out = Command::cargo_bin("longpole")
            .unwrap()
            .args(["export", "--to", to, "-o"])
            .arg(dir.join(format!("out.{to}")))
            .arg(&log)
            .output()
            .unwrap();
        assert!(out.status.success(), "{to}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let chrome: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("out.chrome")).unwrap()).unwrap();
    let events = chrome["traceEvents"].as_array().unwrap();
    assert_eq!(events.iter().find(|e| e["ph"] == "M").unwrap()["args"]["name"], "Critical Path");
    assert!(events.iter().any(|e| e["ph"] == "X"));
    let speedscope: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("out.speedscope")).unwrap()).unwrap();
    assert!(!speedscope["profiles"].as_array().unwrap().is_empty());
    assert!(std::fs::read_to_string(dir.join("out.svg")).unwrap().starts_with("<svg"));
    let html = std::fs::read_to_string(dir.join("out.html")).unwrap();
    assert!(html.starts_with("<!doctype html>") && html.contains("<svg") && !html.contains("<script"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn analyze_json_follows_the_starrocks_contract() {
    let out = Command::cargo_bin("longpole")
        .unwrap()
        .args(["analyze", "--format", "json"])
        .arg(corpus("starrocks-profile/starrocks-3.5.2-profile1.txt"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["format"], "starrocks");
    let s = &v["starrocks"];
    assert_eq!(s["query_id"], "c025364c-a999-11f0-a663-f62b9654e895");
    assert_eq!(s["state"], "Finished");
    assert_eq!(s["total_ms"], 581000);
    assert_eq!(
        (s["fragments"].as_u64(), s["pipelines"].as_u64(), s["operators"].as_u64()),
        (Some(3), Some(12), Some(27))
    );
    // The critical path runs over the 8 plan nodes, the scan first.
    assert_eq!(v["critical_path"]["tasks"].as_array().unwrap().len(), 8);
    assert_eq!(v["critical_path"]["tasks"][0]["uid"], "CONNECTOR_SCAN (plan_node_id=0)");
    assert!(v["diagnostics"].as_array().unwrap().is_empty());
    assert_eq!(v["starrocks_pipelines"].as_array().unwrap().len(), 12);
    // The plan nodes, largest first, as read by hand from the profile: the
    // scan's Σ __MAX_OF_OperatorTotalTime is 737.143 + 855.674 + 26.742 +
    // 8.970 us (lines 1056, 1004, 1024, 1361), its __MAX_OF_ScanTime 9m41s
    // (line 1244); the exchange 3's NetworkTime 656.350us (line 1582).
    let nodes = s["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 8);
    let top = &nodes[0];
    assert_eq!((top["plan_node_id"].as_i64(), top["name"].as_str()), (Some(0), Some("CONNECTOR_SCAN")));
    assert_eq!(
        (top["total_ns"].as_i64(), top["cpu_ns"].as_i64(), top["scan_ns"].as_i64()),
        (Some(581_001_628_529), Some(1_628_529), Some(581_000_000_000))
    );
    assert!(top["network_ns"].is_null());
    // Of QueryCumulativeOperatorTime 9m41s (line 64).
    assert!((top["percent"].as_f64().unwrap() - 100.0).abs() < 0.001);
    let second = &nodes[1];
    assert_eq!((second["plan_node_id"].as_i64(), second["name"].as_str()), (Some(3), Some("EXCHANGE_SOURCE")));
    assert_eq!((second["network_ns"].as_i64(), second["scan_ns"].as_i64()), (Some(656_350), None));
    let totals: Vec<i64> = nodes.iter().map(|n| n["total_ns"].as_i64().unwrap()).collect();
    assert!(totals.windows(2).all(|w| w[0] >= w[1]), "{totals:?}");
    assert_eq!(v["starrocks_hints"][1]["kind"], "remote-io");
}

#[test]
fn analyze_text_prints_the_analyze_profile_layout() {
    let out = Command::cargo_bin("longpole")
        .unwrap()
        .args(["analyze", "--format", "text"])
        .arg(corpus("starrocks-profile/starrocks-3.5.2-profile1.txt"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let at = |needle: &str| text.find(needle).unwrap_or_else(|| panic!("no {needle:?} in\n{text}"));
    // Summary, then the top nodes, then the fragments' trees, in this order.
    let order = [
        at("Summary\n"),
        at("Top Most Time-consuming Nodes:\n        1. CONNECTOR_SCAN (plan_node_id=0): 9m41s (100.00%) [red]"),
        at("Fragment 0\n"),
        at("Fragment 2\n"),
        at("TotalTime: 9m41s (100.00%) [CPUTime: 1.628ms, ScanTime: 9m41s] [red]"),
    ];
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    at("read 23.757 GB from remote storage");
}

#[test]
fn a_running_profile_reads_with_a_diagnostic_and_text_gives_hints() {
    let out = Command::cargo_bin("longpole")
        .unwrap()
        .arg("analyze")
        .arg(corpus("starrocks-profile/starrocks-3.5.2-profile4.txt"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("line 8: info [starrocks.unfinished]"), "{text}");
    assert!(text.contains("Where the pipelines' time went"), "{text}");
    assert!(text.contains("cannot hand on its output most of the time"), "{text}");
}

#[test]
fn rewrite_gives_back_a_starrocks_profile_byte_for_byte() {
    let dir = std::env::temp_dir().join(format!("longpole-starrocks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("back.txt");
    let input = corpus("starrocks-profile/starrocks-3.5.2-profile1.txt");
    let out = Command::cargo_bin("longpole").unwrap().arg("rewrite").arg(&input).arg("-o").arg(&path).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(&input).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `whatif` on the distbuild example with its build graph, against times
/// worked out by hand from the log: A (2 s) ran before C was placed, and
/// C's copies (B's result, 1 s) started only then, so A made 2 s twice as
/// fast brings C 1 s earlier; C itself halved saves its 500 ms.
#[test]
fn whatif_replays_the_distbuild_example_as_worked_out_by_hand() {
    let graph = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../core/tests/fixtures/corpus-distbuild-graph.json");
    let whatif = |faster: &str| {
        let out = Command::cargo_bin("longpole")
            .unwrap()
            .args(["whatif", "--format", "json", "--faster", faster])
            .arg(corpus("distbuild/example.log"))
            .arg(&graph)
            .output()
            .unwrap();
        (out.status.success(), serde_json::from_slice::<serde_json::Value>(&out.stdout).ok(), out.stderr)
    };
    let (ok, v, _) = whatif("a.cpp=0.5");
    let v = v.filter(|_| ok).unwrap();
    assert_eq!(
        (v["wall_ms"].as_f64(), v["what_if_wall_ms"].as_f64(), v["saved_ms"].as_f64()),
        (Some(4730.0), Some(3730.0), Some(1000.0))
    );
    let path: Vec<(&str, f64, f64)> = v["critical_path"]["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["name"].as_str().unwrap(), t["start_ms"].as_f64().unwrap(), t["end_ms"].as_f64().unwrap()))
        .collect();
    assert_eq!(
        path,
        [
            ("[prepare:repository:$(SOURCE_ROOT)] host1", 1000.0, 1500.0),
            ("a.cpp", 1700.0, 2700.0),
            ("copy(host2 -> host1) result of B", 2720.0, 3720.0),
            ("prog", 3730.0, 4730.0),
        ]
    );
    let (ok, v, _) = whatif("prog=0.5");
    assert!(ok);
    assert_eq!(v.unwrap()["saved_ms"].as_f64(), Some(500.0));
    // An ambiguous key lists its candidates and fails.
    let (ok, _, err) = whatif("copy=0.5");
    let err = String::from_utf8(err).unwrap();
    assert!(!ok && err.contains("result of A") && err.contains("result of B"), "{err}");
}

#[test]
fn whatif_says_why_a_log_without_dependencies_cannot_be_replayed() {
    let out = Command::cargo_bin("longpole")
        .unwrap()
        .args(["whatif", "--faster", "x=0.5"])
        .arg(corpus("ninja-log/kati-v5.ninja_log"))
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!out.status.success() && err.contains("no run here records dependencies"), "{err}");
}

#[test]
fn a_rolling_spark_event_log_folder_is_one_input_read_in_file_order() {
    let dir =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../core/tests/fixtures/spark/eventlog_v2_local-1795825148987");
    let reference: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.parent().unwrap().join("eventlog_v2_local-1795825148987.reference")).unwrap(),
    )
    .unwrap();
    let out = Command::cargo_bin("longpole").unwrap().args(["analyze", "--format", "json"]).arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["format"], "spark");
    assert_eq!(v["wall_ms"], reference["wall_ms"]);
    assert_eq!(v["spark"]["task_attempts"], reference["tasks"]);
    // A folder that is not a rolling log holds no events files: said so.
    let empty = std::env::temp_dir().join(format!("eventlog_v2_empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let out = Command::cargo_bin("longpole").unwrap().arg("analyze").arg(&empty).output().unwrap();
    std::fs::remove_dir_all(&empty).unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("events_N_"), "{}", String::from_utf8_lossy(&out.stderr));
}
