//! GHC eventlogs of the corpus through the whole pipeline: the report (text
//! and JSON) snapshotted and the same at every chunk size, the model's
//! capability lanes, thread and GC spans checked against the events.

use longpole_core::formats::ghc_eventlog::decode::{decode, Event};
use longpole_core::formats::ghc_eventlog::view::GhcView;
use longpole_core::formats::ghc_eventlog::GhcRun;
use longpole_core::ingest::{read_bytes, read_bytes_keeping_source};
use longpole_core::layout::timeline::TimelineIndex;
use support::{check_format, file, text_and_json};

mod support;

#[test]
fn stop_ht_report() {
    check_format!([file("ghc-eventlog/stop.hT.eventlog")], text_and_json => "stop_ht_text", "stop_ht_json");
}

#[test]
fn testlog_report() {
    check_format!([file("ghc-eventlog/testlog.eventlog")], text_and_json => "testlog_text", "testlog_json");
}

#[test]
fn ghc_9_2_report() {
    check_format!([file("ghc-eventlog/ghc-9.2-events.eventlog")], text_and_json => "ghc_9_2_text", "ghc_9_2_json");
}

#[test]
fn every_run_and_every_gc_becomes_one_span_on_its_capability() {
    for name in ["stop.hT.eventlog", "testlog.eventlog", "ghc-9.2-events.eventlog", "sleep.hd.eventlog"] {
        let bytes = support::bytes(&format!("ghc-eventlog/{name}"));
        let input = read_bytes_keeping_source(name, &bytes, 4096).unwrap();
        let Some(read) = input.parsed.read::<longpole_core::formats::ghc_eventlog::ReadEventlog>() else {
            panic!("{name}")
        };
        let log = read.source.as_ref().expect("the events, kept");
        let (mut runs, mut gcs) = (0, 0);
        for e in &log.events {
            match decode(log, e).event {
                Event::RunThread { .. } => runs += 1,
                Event::StartGc => gcs += 1,
                _ => {}
            }
        }
        let analysis = longpole_core::reconcile(vec![read_bytes(name, &bytes, 4096).unwrap()]);
        let d = &analysis.datasets[0];
        let Some(run) = d.detail::<GhcRun>() else { panic!("{name}") };
        let m = &d.model;
        let kind = |k: &str| m.tasks().iter().filter(|t| m.kinds()[t.kind.index()].name == k).count();
        assert_eq!(kind("thread"), runs, "{name}: thread spans");
        assert_eq!(kind("GC"), gcs, "{name}: GC spans");
        assert!(m.tasks().iter().all(|t| t.duration().is_some_and(|d| d >= 0)), "{name}");
        assert!(m.lanes()[0].name.starts_with("cap "), "{name}");
        assert_eq!(run.events as usize, log.events.len());
        // Spans of one capability never overlap within a kind.
        let index = TimelineIndex::new(m);
        let view = analysis.view(d, &index);
        let ghc: GhcView = view.part().unwrap().unwrap();
        assert!(ghc.threads.is_empty() && ghc.marks.is_empty(), "{name}: threads and marks go as tables");
        let threads = &GhcView::of(run).threads;
        assert_eq!(threads.iter().map(|t| t.runs).sum::<u64>() as usize, runs, "{name}");
        let all = ghc.gc.iter().find(|r| r.generation == "all").unwrap();
        assert!(all.count > 0 && all.max <= all.total, "{name}");
        assert!(view.critical_path.steps.is_empty() && !view.longest.is_empty());
    }
}

#[test]
fn the_parallel_log_has_one_lane_per_capability() {
    let analysis =
        longpole_core::reconcile(
            vec![read_bytes("t", &support::bytes("ghc-eventlog/testlog.eventlog"), 4096).unwrap()],
        );
    let lanes: Vec<&str> = analysis.datasets[0].model.lanes().iter().map(|l| l.name.as_str()).collect();
    insta::assert_snapshot!("testlog_lanes", lanes.join("\n"));
}

#[test]
fn user_messages_become_marks_and_start_stop_pairs_become_spans() {
    let analysis =
        longpole_core::reconcile(
            vec![read_bytes("s", &support::bytes("ghc-eventlog/stop.hT.eventlog"), 4096).unwrap()],
        );
    let d = &analysis.datasets[0];
    let Some(run) = d.detail::<GhcRun>() else { panic!() };
    assert_eq!(run.marks.len(), 7);
    let m = &d.model;
    let texts: Vec<String> = m
        .tasks()
        .iter()
        .filter(|t| matches!(m.kinds()[t.kind.index()].name.as_str(), "user span" | "marker" | "message"))
        .map(|t| format!("{} {} {:?}", m.kinds()[t.kind.index()].name, m.str(t.uid), t.duration()))
        .collect();
    insta::assert_snapshot!("stop_ht_marks", texts.join("\n"));
}

/// Bytes after the end marker are named, with how many there are and where
/// they start, at every chunk size, and kept when the file is rewritten.
#[test]
fn bytes_after_the_end_marker_are_reported_and_kept() {
    let mut bytes = support::bytes("ghc-eventlog/ghc-9.2-events.eventlog");
    let end = bytes.len() as u64;
    bytes.extend_from_slice(b"\x00trailing junk, 27 bytes..\n");
    let messages = |input: &longpole_core::Input| -> Vec<String> {
        let d = input.info.diagnostics.kept().iter().filter(|d| d.code == "ghc-eventlog.after-end");
        d.map(|d| format!("{} {}", d.position, d.message)).collect()
    };
    let expected = format!(
        "byte {end} 27 bytes follow the end marker (starting \"\\x00trailing junk, \"): not events, so not read; rewriting the file keeps them"
    );
    for chunk in [1, 7, 4096, bytes.len()] {
        let input = read_bytes("t.eventlog", &bytes, chunk).unwrap();
        assert_eq!(messages(&input), std::slice::from_ref(&expected), "chunk size {chunk}");
    }
    let kept = read_bytes_keeping_source("t.eventlog", &bytes, 4096).unwrap();
    assert_eq!(messages(&kept), [expected]);
    assert_eq!(kept.parsed.write_back().as_deref(), Some(&bytes[..]));
    let clean = read_bytes("t.eventlog", &support::bytes("ghc-eventlog/ghc-9.2-events.eventlog"), 4096).unwrap();
    assert!(messages(&clean).is_empty());
}
