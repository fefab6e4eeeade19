//! The CLI's output does not depend on its thread count: every sample of
//! every format, and the samples read together as one analysis, give the
//! same JSON report on 1 thread as on 4.

use assert_cmd::Command;
use std::path::PathBuf;

fn samples() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
}

fn analyze(files: &[PathBuf], threads: usize) -> String {
    let out = Command::cargo_bin("longpole")
        .unwrap()
        .arg("analyze")
        .args(files)
        .args(["--format", "json", "--threads", &threads.to_string()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{files:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn one_thread_and_four_give_the_same_report_for_each_sample() {
    for file in samples() {
        let one = analyze(std::slice::from_ref(&file), 1);
        assert!(one.len() > 100, "{file:?} gave a report");
        assert_eq!(one, analyze(std::slice::from_ref(&file), 4), "{file:?}");
    }
}

#[test]
fn one_thread_and_four_give_the_same_report_for_files_read_together() {
    let files = samples();
    let one = analyze(&files, 1);
    assert!(one.contains("simulated-build.graph.json.gz") && one.contains("starrocks-profile1.txt"));
    assert_eq!(one, analyze(&files, 4));
}
