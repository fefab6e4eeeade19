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
    assert_eq!(v["datasets"][0]["tasks"], 9);
    assert_eq!(v["datasets"][0]["wall_ns"], 4_730_000_000i64);
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
