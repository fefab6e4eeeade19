//! `.ninja_log`s of the corpus through the whole pipeline: the report (text
//! and JSON) snapshotted and the same at every chunk size, builds laid one
//! after another on ninjatracing's slots, and the bytes written back.

use longpole_core::formats::ninja_log::reconcile::NinjaRun;
use longpole_core::ingest::read_bytes;
use longpole_core::report::{analysis_json, analysis_text};
use std::path::PathBuf;

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/ninja-log").join(name))
        .unwrap()
}

fn reports(name: &str) -> String {
    let bytes = corpus(name);
    let run = |chunk: usize| {
        let analysis = longpole_core::reconcile(vec![read_bytes(name, &bytes, chunk).unwrap()]);
        format!("{}\n{}", analysis_text(&analysis), serde_json::to_string_pretty(&analysis_json(&analysis)).unwrap())
    };
    let whole = run(usize::MAX);
    for chunk in [1, 7, 4096] {
        assert_eq!(run(chunk), whole, "{name} at chunk size {chunk}");
    }
    whole
}

#[test]
fn corpus_reports() {
    let all: Vec<String> = ["kati-v5.ninja_log", "cpu-rasterizer-v7-windows.ninja_log", "nexuscore-v6.ninja_log"]
        .iter()
        .map(|n| reports(n))
        .collect();
    insta::assert_snapshot!("ninja_reports", all.join("\n\n"));
}

#[test]
fn builds_follow_one_another_and_slots_never_overlap() {
    let bytes = corpus("kati-v5.ninja_log");
    let input = read_bytes("kati", &bytes, 4096).unwrap();
    assert!(input.parsed.write_back().unwrap() == bytes);
    let analysis = longpole_core::reconcile(vec![input]);
    let d = &analysis.datasets[0];
    let Some(run) = d.detail::<NinjaRun>() else { panic!() };
    for w in run.builds.windows(2) {
        assert!(w[1].start >= w[0].start + w[0].wall, "{:?}", run.builds);
    }
    let m = &d.model;
    for lane in 0..m.lanes().len() {
        let mut spans: Vec<(i64, i64)> = m
            .tasks()
            .iter()
            .filter(|t| t.lane.index() == lane)
            .map(|t| (t.start.get().unwrap(), t.end.get().unwrap()))
            .collect();
        spans.sort_unstable();
        assert!(spans.windows(2).all(|w| w[0].1 <= w[1].0), "slot {lane} overlaps");
    }
}
