//! `longpole compare` end to end on corpus files, its text and JSON
//! snapshotted (the values behind them are checked against other tools in
//! `crates/core/tests/compare_corpus.rs`): the kati ninja log's build 2
//! against build 3, the two evobench logs, and Q01 traced by two MonetDB
//! versions.

use assert_cmd::Command;

#[path = "../../core/tests/support/mod.rs"]
mod support;

fn corpus(rel: &str) -> String {
    support::data(rel).to_string_lossy().into_owned()
}

/// `longpole compare A --vs B [extra]`'s stdout; it must succeed.
fn compare(a: &str, b: &str, extra: &[&str]) -> String {
    let out =
        Command::cargo_bin("longpole").unwrap().arg("compare").arg(a).arg("--vs").arg(b).args(extra).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn kati_build_2_against_build_3() {
    let log = corpus("ninja-log/kati-v5.ninja_log");
    let (a, b) = (format!("{log}#2"), format!("{log}#3"));
    insta::assert_snapshot!("kati_2_3_text", compare(&a, &b, &[]));
    let json = compare(&a, &b, &["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    // The shape the issue asks for.
    for field in ["wall_ms", "attribution", "critical_path", "tasks", "matched", "only_a", "only_b"] {
        assert!(v.get(field).is_some(), "{field}");
    }
    for field in ["shared_path_ms", "path_changes_ms", "waiting_ms"] {
        assert!(v["attribution"][field].is_number(), "{field}");
    }
    insta::assert_snapshot!("kati_2_3_json", json);
}

#[test]
fn thresholds_are_options() {
    let log = corpus("ninja-log/kati-v5.ninja_log");
    let (a, b) = (format!("{log}#2"), format!("{log}#3"));
    let json = compare(&a, &b, &["--format", "json", "--min-delta-ms", "300", "--min-relative", "20"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!((v["noise"]["min_delta_ms"].as_f64(), v["noise"]["min_relative"].as_f64()), (Some(300.0), Some(0.2)));
    for t in v["tasks"].as_array().unwrap() {
        if t["status"] == "changed" {
            let (d, r) = (t["delta_ms"].as_f64().unwrap(), t["relative"].as_f64().unwrap());
            assert!(d.abs() >= 300.0 && r.abs() >= 0.2, "{t}");
        }
    }
}

#[test]
fn a_run_past_the_file_s_runs_is_an_error_naming_it() {
    let log = corpus("ninja-log/kati-v5.ninja_log");
    let out =
        Command::cargo_bin("longpole").unwrap().args(["compare", &format!("{log}#9"), "--vs", &log]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("kati-v5.ninja_log holds 3 runs: there is no run 9"), "{err}");
}

#[test]
fn the_two_evobench_logs() {
    let a = corpus("evobench/bench-v1-sum_of_fibs.log");
    let b = corpus("evobench/generated-current-format/evobench.log.zstd");
    insta::assert_snapshot!("evobench_text", compare(&a, &b, &[]));
}

#[test]
fn q01_traced_by_two_monetdb_versions() {
    let a = corpus("monetdb-mal/stethoscope/q01_Jun2020.json");
    let b = corpus("monetdb-mal/stethoscope/q01_Sep2022.json");
    insta::assert_snapshot!("mal_q01_text", compare(&a, &b, &[]));
    insta::assert_snapshot!("mal_q01_json", compare(&a, &b, &["--format", "json"]));
}

#[test]
fn every_build_of_a_log_is_a_run_and_several_a_side_are_tested() {
    let log = corpus("ninja-log/kati-v5.ninja_log");
    let v: serde_json::Value = serde_json::from_str(&compare(&log, &log, &["--format", "json"])).unwrap();
    assert_eq!(v["runs"]["a"].as_array().unwrap().len(), 3);
    assert_eq!(v["noise"]["mode"], "tests");
    assert!(v["warnings"][0].as_str().unwrap().starts_with("fewer than 5 runs a side (3 and 3)"));
    // The same runs on both sides: nothing changed, every test says so.
    for t in v["tasks"].as_array().unwrap() {
        assert_eq!((t["status"].as_str(), t["delta_ms"].as_f64()), (Some("within-noise"), Some(0.0)), "{t}");
        assert!(t["q"].as_f64().is_none_or(|q| q == 1.0), "{t}");
    }
}
