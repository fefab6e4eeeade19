//! StarRocks query profiles of the corpus through the whole pipeline: read
//! by content, written back byte for byte, the same at every chunk size,
//! the spec's reference figures, the report (text and JSON) snapshotted,
//! and no diagnostic left unexplained.

use longpole_core::formats::{FormatId, Parsed};
use longpole_core::ingest::read_bytes;
use longpole_core::reconcile::Detail;
use longpole_core::report::{analysis_json, analysis_text};
use longpole_core::Input;
use std::path::PathBuf;

const FILES: [&str; 4] = [
    "starrocks-3.5.2-profile1.txt",
    "starrocks-3.5.2-profile2.txt",
    "starrocks-3.5.2-profile4.txt",
    "starrocks-3.5.2-test_profile.txt",
];

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/starrocks-profile").join(name))
        .unwrap()
}

fn read(name: &str, chunk: usize) -> Input {
    read_bytes("unknown", &corpus(name), chunk).unwrap()
}

#[test]
fn every_corpus_profile_is_recognised_and_written_back_byte_for_byte() {
    for name in FILES {
        let input = read(name, 4096);
        assert_eq!(input.info.format, FormatId::StarRocks, "{name}");
        assert_eq!(input.parsed.write_back().unwrap(), corpus(name), "{name}");
    }
}

/// The text report and the JSON, the same at every chunk size.
fn reports(name: &str) -> (String, String) {
    let run = |chunk: usize| {
        let analysis = longpole_core::reconcile(vec![read(name, chunk)]);
        (analysis_text(&analysis), serde_json::to_string_pretty(&analysis_json(&analysis)).unwrap())
    };
    let whole = run(usize::MAX);
    for chunk in [1, 7, 4096] {
        assert_eq!(run(chunk), whole, "{name} at chunk size {chunk}");
    }
    whole
}

#[test]
fn reports_of_every_profile() {
    for name in FILES {
        let (text, json) = reports(name);
        let stem = name.trim_start_matches("starrocks-3.5.2-").trim_end_matches(".txt");
        insta::assert_snapshot!(format!("{stem}_text"), text);
        insta::assert_snapshot!(format!("{stem}_json"), json);
    }
}

#[test]
fn the_trees_are_the_same_at_every_chunk_size() {
    for name in FILES {
        let Parsed::StarRocks(whole) = read(name, usize::MAX).parsed else { panic!() };
        for chunk in [1, 7, 4096] {
            let Parsed::StarRocks(p) = read(name, chunk).parsed else { panic!() };
            assert_eq!(p, whole, "{name} at {chunk}");
        }
    }
}

fn run_of(name: &str) -> longpole_core::reconcile::Analysis {
    longpole_core::reconcile(vec![read(name, 4096)])
}

#[test]
fn the_spec_reference_figures() {
    // profile1: 3 fragments, 12 pipelines, 27 operators, Total 9m41s, 352 `__MAX_OF_` lines.
    let analysis = run_of("starrocks-3.5.2-profile1.txt");
    let Detail::StarRocks(run) = &analysis.datasets[0].detail else { panic!() };
    assert_eq!((run.fragments.len(), run.pipelines().count(), run.operator_count()), (3, 12, 27));
    assert_eq!(run.total, Some(581_000_000_000));
    assert_eq!(run.state.as_deref(), Some("Finished"));
    let Parsed::StarRocks(p) = read("starrocks-3.5.2-profile1.txt", 4096).parsed else { panic!() };
    let mut max_of = 0;
    let mut count = |c: &longpole_core::formats::starrocks_profile::Counter| {
        c.walk(&mut |c| max_of += usize::from(c.name.starts_with("__MAX_OF_")))
    };
    fn each(
        n: &longpole_core::formats::starrocks_profile::Node,
        f: &mut impl FnMut(&longpole_core::formats::starrocks_profile::Counter),
    ) {
        n.counters().for_each(&mut *f);
        n.children().for_each(|c| each(c, f));
    }
    each(p.root.as_ref().unwrap(), &mut count);
    assert_eq!(max_of, 352);
    // profile2: 11ms, a schema scan; profile4: still running, 3m9s; test_profile: 1h30m.
    let figures = |name: &str| {
        let analysis = run_of(name);
        let Detail::StarRocks(run) = &analysis.datasets[0].detail else { panic!() };
        (run.state.clone().unwrap(), run.total.unwrap())
    };
    assert_eq!(figures("starrocks-3.5.2-profile2.txt"), ("Finished".to_owned(), 11_000_000));
    assert_eq!(figures("starrocks-3.5.2-profile4.txt"), ("Running".to_owned(), 189_000_000_000));
    assert_eq!(figures("starrocks-3.5.2-test_profile.txt"), ("Finished".to_owned(), 5_400_000_000_000));
}

#[test]
fn every_diagnostic_is_explained() {
    let codes = |name: &str| -> Vec<(String, Option<u64>)> {
        let analysis = run_of(name);
        analysis.inputs[0]
            .diagnostics
            .kept()
            .iter()
            .map(|d| {
                let line = match d.position {
                    longpole_core::diagnostics::Position::Line(n) => Some(n),
                    _ => None,
                };
                (d.code.to_string(), line)
            })
            .collect()
    };
    assert_eq!(codes("starrocks-3.5.2-profile1.txt"), []);
    assert_eq!(codes("starrocks-3.5.2-profile2.txt"), []);
    // A profile of a running query says so.
    assert_eq!(codes("starrocks-3.5.2-profile4.txt"), [("starrocks.unfinished".to_owned(), Some(8))]);
    // test_profile prints `PendingTime: 0ns` above `InputEmptyTime: 1h30m` in
    // both pipelines (its ScheduleTime took the 1h30m instead).
    assert_eq!(
        codes("starrocks-3.5.2-test_profile.txt"),
        [("starrocks.mismatch".to_owned(), Some(79)), ("starrocks.mismatch".to_owned(), Some(272))]
    );
}

#[test]
fn the_plan_is_one_operator_graph_through_the_exchanges() {
    let analysis = run_of("starrocks-3.5.2-profile1.txt");
    let model = &analysis.datasets[0].model;
    // A linear plan: every operator but the scan waits for exactly one.
    assert_eq!(model.edge_count(), 26);
    let (path, _) = longpole_core::analysis::critical_path::ya_path(model);
    assert_eq!(path.tasks.len(), 27);
    assert_eq!(model.label(path.tasks[0]), "CONNECTOR_SCAN (plan_node_id=0)");
    assert_eq!(model.label(*path.tasks.last().unwrap()), "RESULT_SINK (plan_node_id=-1)");
}
