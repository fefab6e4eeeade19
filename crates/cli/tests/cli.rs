//! The CLI end to end, on corpus files.

use assert_cmd::Command;
use std::path::PathBuf;

fn corpus(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus").join(rel)
}

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
    assert_eq!(
        v["critical_path"]["tasks"][2],
        serde_json::json!({"kind": "copy", "uid": "A", "consumer": "C", "host": "host1", "from_host": "host1", "start_ms": 3720, "end_ms": 3725})
    );
    assert_eq!(
        v["critical_path"]["tasks"][0],
        serde_json::json!({"kind": "prepare", "type": "repository:$(SOURCE_ROOT)", "host": "host1", "start_ms": 1000, "end_ms": 1500})
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
