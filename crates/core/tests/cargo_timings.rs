//! Cargo's timings through the whole pipeline, on the fixtures of
//! `fixtures/cargo/` (see its README): every dialect read by content, the
//! same at every chunk size; the report checked against what cargo wrote
//! (its units, durations, summary) and the path against the hand-made
//! pages' known chain; the build-analysis log against its own events; and
//! damaged inputs never panic, whatever the chunking.

use longpole_core::formats::cargo_timings::reconcile::CargoRun;
use longpole_core::formats::cargo_timings::{CargoTimings, Dialect};
use longpole_core::ingest::read_bytes;
use longpole_core::report::{analysis_json, analysis_text};
use proptest::prelude::*;
use serde_json::Value;
use std::path::PathBuf;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cargo").join(name)).unwrap()
}

/// The report (text and JSON) of `bytes`, checked the same at chunk sizes 1, 7 and 4096.
fn reports(bytes: &[u8]) -> (String, Value) {
    let run = |chunk: usize| {
        let analysis = longpole_core::reconcile(vec![read_bytes("unknown", bytes, chunk).unwrap()]);
        (analysis_text(&analysis), analysis_json(&analysis))
    };
    let whole = run(usize::MAX);
    for chunk in [1, 7, 4096] {
        assert_eq!(run(chunk), whole, "at chunk size {chunk}");
    }
    whole
}

/// The JSON array `const NAME = [...];` of a page, read on its own.
fn array(page: &str, name: &str) -> Vec<Value> {
    let key = format!("const {name} = ");
    let at = page.find(&key).unwrap() + key.len();
    let end = at + page[at..].find("];").unwrap() + 1;
    serde_json::from_str(&page[at..end]).unwrap()
}

#[test]
fn every_dialect_is_told_by_content() {
    for (name, dialect, rmeta_time) in [
        ("chain-timings.html", Dialect::HtmlUnblocked, false),
        ("unblocked-rmeta-time.html", Dialect::HtmlUnblocked, true),
        ("unlocked-rmeta-time.html", Dialect::HtmlUnlocked, true),
        ("chain-build-analysis.jsonl", Dialect::BuildAnalysis, false),
    ] {
        let input = read_bytes("unknown", &fixture(name), 4096).unwrap();
        assert_eq!(input.info.format.name(), "cargo-timings", "{name}");
        assert!(input.info.diagnostics.kept().is_empty(), "{name}: {:?}", input.info.diagnostics.kept());
        let t = input.parsed.into_read::<CargoTimings>().unwrap();
        assert_eq!((t.dialect, t.rmeta_time_field), (dialect, rmeta_time), "{name}");
        assert_eq!(t.raw, fixture(name), "{name} is kept byte for byte");
    }
}

#[test]
fn a_real_page_reads_as_cargo_wrote_it() {
    let bytes = fixture("chain-timings.html");
    let page = String::from_utf8(bytes.clone()).unwrap();
    let (text, v) = reports(&bytes);
    let d = &v;
    let units = array(&page, "UNIT_DATA");
    assert_eq!(d["cargo"]["units"].as_u64().unwrap(), units.len() as u64);
    let last = array(&page, "CONCURRENCY_DATA").last().unwrap()["t"].as_f64().unwrap();
    assert!((d["wall_ms"].as_f64().unwrap() - last * 1000.0).abs() < 0.001);
    for step in d["critical_path"]["tasks"].as_array().unwrap() {
        let u = units.iter().find(|u| u["i"] == step["unit_index"]).unwrap();
        assert!((step["duration_ms"].as_f64().unwrap() - u["duration"].as_f64().unwrap() * 1000.0).abs() < 0.001);
        assert!((step["start_ms"].as_f64().unwrap() - u["start"].as_f64().unwrap() * 1000.0).abs() < 0.001);
    }
    // Every unit on the path after the first is in its predecessor's lists.
    let path = d["critical_path"]["tasks"].as_array().unwrap();
    for w in path.windows(2) {
        let before = units.iter().find(|u| u["i"] == w[0]["unit_index"]).unwrap();
        let list = if w[1]["made_ready_by"] == "metadata" { "unblocked_rmeta_units" } else { "unblocked_units" };
        assert!(before[list].as_array().unwrap().contains(&w[1]["unit_index"]), "{w:?}");
    }
    assert!(text.contains("Critical path:"), "{text}");
}

#[test]
fn the_hand_made_pages_give_their_known_pipelined_chain() {
    for name in ["unlocked-rmeta-time.html", "unblocked-rmeta-time.html"] {
        let (_, v) = reports(&fixture(name));
        let d = &v;
        let path = d["critical_path"]["tasks"].as_array().unwrap();
        let steps: Vec<(&str, &str, f64)> = path
            .iter()
            .map(|s| {
                (
                    s["package"].as_str().unwrap(),
                    s["made_ready_by"].as_str().unwrap_or("-"),
                    s["ready_ms"].as_f64().unwrap_or(-1.0),
                )
            })
            .collect();
        // alpha 0.1+0.4 metadata -> beta at 0.52; beta 0.52+0.5 -> gamma at 1.05; gamma ends 1.85 -> app.
        assert_eq!(
            steps,
            vec![
                ("alpha", "-", -1.0),
                ("beta", "metadata", 500.0),
                ("gamma", "metadata", 1020.0),
                ("app", "end", 1850.0)
            ],
            "{name}"
        );
        assert_eq!(d["critical_path"]["total_ms"], 2400, "{name}: 0.1 s to 2.5 s");
        assert_eq!(d["cargo"]["fresh_listed"], 1, "{name}");
        assert_eq!(d["cargo"]["fresh"], 1, "{name}");
        assert_eq!(d["wall_ms"], 2550, "{name}: the page's last concurrency record");
    }
}

#[test]
fn the_build_analysis_log_reads_as_its_events_say() {
    let bytes = fixture("chain-build-analysis.jsonl");
    let (_, v) = reports(&bytes);
    let d = &v;
    let events: Vec<Value> =
        bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()).map(|l| serde_json::from_slice(l).unwrap()).collect();
    let at = |reason: &str, index: &Value| -> f64 {
        events.iter().find(|e| e["reason"] == reason && &e["index"] == index).unwrap()["elapsed"].as_f64().unwrap()
    };
    let started = events.iter().filter(|e| e["reason"] == "unit-started").count() as u64;
    assert_eq!(d["cargo"]["units"].as_u64().unwrap(), started);
    for step in d["critical_path"]["tasks"].as_array().unwrap() {
        let i = &step["unit_index"];
        let ms = (at("unit-finished", i) - at("unit-started", i)) * 1000.0;
        assert!((step["duration_ms"].as_f64().unwrap() - ms).abs() < 0.001, "{step}");
    }
    let last = events
        .iter()
        .filter(|e| e["reason"] == "unit-finished")
        .map(|e| e["elapsed"].as_f64().unwrap())
        .fold(0.0, f64::max);
    assert!((d["wall_ms"].as_f64().unwrap() - last * 1000.0).abs() < 0.001);
}

#[test]
fn a_run_s_slots_never_overlap_and_keys_name_crate_target_and_mode() {
    let input = read_bytes("unknown", &fixture("chain-timings.html"), 4096).unwrap();
    let analysis = longpole_core::reconcile(vec![input]);
    let d = &analysis.datasets[0];
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
    let keys = d.kind.compare_keys(m);
    assert!(
        keys.contains(&"beta build-script (run)".to_owned()) && keys.contains(&"app app \"bin\"".to_owned()),
        "{keys:?}"
    );
    assert!(d.detail::<CargoRun>().is_some());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn damaged_inputs_never_panic_and_chunking_does_not_matter(
        which in 0usize..4,
        cut in any::<prop::sample::Index>(),
        swaps in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..6),
        chunk in 1usize..64,
    ) {
        let name = ["chain-timings.html", "unlocked-rmeta-time.html", "unblocked-rmeta-time.html", "chain-build-analysis.jsonl"][which];
        let mut bytes = fixture(name);
        for (at, b) in swaps {
            let i = at.index(bytes.len());
            bytes[i] = b;
        }
        bytes.truncate(cut.index(bytes.len() + 1));
        let run = |chunk: usize| {
            read_bytes("unknown", &bytes, chunk).map(|input| {
                let analysis = longpole_core::reconcile(vec![input]);
                (analysis_text(&analysis), analysis_json(&analysis))
            }).map_err(|e| e.to_string())
        };
        prop_assert_eq!(run(chunk), run(usize::MAX));
    }
}
