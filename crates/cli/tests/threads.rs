//! The CLI's output does not depend on its thread count: every sample of
//! every format, the samples read together as one analysis, and a
//! simulated distbuild log and a Chrome trace big enough for their lines
//! and events to be read ahead on other threads, give the same JSON report
//! on 1 thread as on 4.

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

#[test]
fn one_thread_and_four_give_the_same_report_for_a_log_read_ahead() {
    use longpole_distbuild_sim::{graph, simulate, write_graph_json, Config};
    let dir = std::env::temp_dir().join(format!("longpole-threads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = Config { nodes: 4_000, hosts: 40, ..Default::default() };
    let nodes = graph(&cfg);
    let (log, graph_json) = (dir.join("build.log"), dir.join("graph.json"));
    let mut text = Vec::new();
    simulate(&cfg, &nodes, &mut text).unwrap();
    // A bad line late in the log: its diagnostic names the same line either way.
    text.extend_from_slice(b"12x started A host1\n");
    assert!(text.len() > 3 << 20, "several chunks of lines read ahead: {} bytes", text.len());
    std::fs::write(&log, &text).unwrap();
    write_graph_json(&nodes, &mut std::fs::File::create(&graph_json).unwrap()).unwrap();
    let files = [log, graph_json];
    let one = analyze(&files, 1);
    assert!(one.contains("distbuild.bad-time"), "the bad line is reported");
    assert_eq!(one, analyze(&files, 4));
    assert_eq!(analyze(&files[..1], 1), analyze(&files[..1], 4), "the log alone");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn one_thread_and_four_give_the_same_report_for_a_trace_read_ahead() {
    let path = std::env::temp_dir().join(format!("longpole-threads-{}.json", std::process::id()));
    let mut text = String::from("{\"traceEvents\":[\n");
    for i in 0..40_000u64 {
        let (tid, depth) = (i % 4, i % 5);
        text.push_str(&format!(
            "{{\"ph\":\"X\",\"name\":\"f{}\",\"cat\":\"c\",\"ts\":{},\"dur\":{},\"pid\":1,\"tid\":{tid},\"args\":{{\"i\":{}}}}},\n",
            i % 97,
            i / 5 * 100 + depth * 10,
            100 - depth * 20,
            i % 13
        ));
    }
    // A bad event late in the trace: its diagnostic names the same line either way.
    text.push_str("{\"ph\":\"X\",\"ts\":1e300}]}\n");
    assert!(text.len() > 3 << 20, "several chunks of events read ahead: {} bytes", text.len());
    std::fs::write(&path, &text).unwrap();
    let one = analyze(std::slice::from_ref(&path), 1);
    assert!(one.contains("chrome.time-range"), "the bad event is reported");
    assert_eq!(one, analyze(std::slice::from_ref(&path), 4));
    std::fs::remove_file(&path).unwrap();
}
