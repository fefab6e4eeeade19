//! `.ninja_log`s of the corpus through the whole pipeline: the report (text
//! and JSON) snapshotted and the same at every chunk size, builds laid one
//! after another on ninjatracing's slots, and the bytes written back.

use longpole_core::formats::ninja_log::reconcile::NinjaRun;
use longpole_core::ingest::read_bytes;
use longpole_core::report::{analysis_json, analysis_text};
use support::{check_inputs, file};

mod support;

/// The text report and the JSON of a log, as one text, checked by the harness.
fn reports(name: &str) -> String {
    check_inputs(&[file(&format!("ninja-log/{name}"))], 1, |analysis| {
        format!("{}\n{}", analysis_text(analysis), serde_json::to_string_pretty(&analysis_json(analysis)).unwrap())
    })
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
    let bytes = support::bytes("ninja-log/kati-v5.ninja_log");
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
