//! MonetDB MAL traces of the corpus through the whole pipeline:
//! mal_analytics' row counts, stethoscope's statements, the report (text and
//! JSON) snapshotted and the same at every chunk size, the dataflow and the
//! diagnostics with their lines.

use longpole_core::formats::monetdb_mal::reconcile::MalRun;
use longpole_core::formats::monetdb_mal::statement::statements;
use longpole_core::formats::Parsed;
use longpole_core::ingest::read_bytes;
use longpole_core::report::analysis_text;
use longpole_core::Input;
use support::{check_format, check_inputs, named, text_and_json, File};

mod support;

fn read(name: &str, chunk: usize) -> Input {
    read_bytes(name, &support::bytes(&format!("monetdb-mal/{name}")), chunk).unwrap()
}

/// mal_analytics' counts of traces read together, in the given order.
fn counts(names: &[&str]) -> [u64; 7] {
    let analysis = longpole_core::reconcile(names.iter().map(|n| read(n, 4096)).collect());
    assert_eq!(analysis.datasets.len(), 1);
    let Some(run) = analysis.datasets[0].detail::<MalRun>() else { panic!() };
    let c = run.counts;
    [c.executions, c.events, c.prerequisites, c.variables, c.event_variables, c.queries, c.initiations]
}

#[test]
fn counts_are_mal_analytics_table_sizes() {
    // tests/test_020_parser.py of mal_analytics.
    assert_eq!(counts(&["jan2019_sf10_10threads/Q01_variation001.json"]), [1, 1456, 2474, 865, 4831, 1, 1]);
    assert_eq!(counts(&["distributed/supervisor.json"]), [3, 116, 122, 88, 287, 1, 3]);
    // The same trace compressed.
    assert_eq!(counts(&["compressed/trace.json.gz"]), counts(&["compressed/trace.json.bz2"]));
    assert_eq!(counts(&["compressed/trace.json.gz"]), [1, 1456, 2474, 865, 4831, 1, 1]);
}

#[test]
fn a_distributed_query_is_one_picture_in_either_order() {
    let a = counts(&["distributed/supervisor.json", "distributed/worker1.json"]);
    let b = counts(&["distributed/worker1.json", "distributed/supervisor.json"]);
    assert_eq!(a, b);
    // The supervisor's remote.register_supervisor pairs with the worker's.
    let analysis = longpole_core::reconcile(vec![
        read("distributed/supervisor.json", 4096),
        read("distributed/worker1.json", 4096),
    ]);
    let Some(run) = analysis.datasets[0].detail::<MalRun>() else { panic!() };
    let remote: Vec<_> = run.initiations.iter().filter(|i| i.remote).collect();
    assert_eq!(remote.len(), 1);
    assert_eq!(run.executions[remote[0].parent as usize - 1].input, 0);
    assert_eq!(run.executions[remote[0].child as usize - 1].input, 1);
}

#[test]
fn statements_are_stethoscope_s() {
    for g in ["Jun2020", "Sep2022"] {
        let input = read(&format!("stethoscope/q01_{g}.json"), 7);
        let Parsed::MonetdbMal(trace) = &input.parsed else { panic!() };
        let mut out = String::new();
        statements(trace, &mut out);
        let reference =
            String::from_utf8(support::bytes(&format!("monetdb-mal/stethoscope/q01_{g}_statements.txt"))).unwrap();
        assert_eq!(out, reference, "{g}");
    }
}

/// Traces read together, each under its name in the corpus.
fn traces(names: &[&str]) -> Vec<File> {
    names.iter().map(|n| named(n, support::bytes(&format!("monetdb-mal/{n}")))).collect()
}

/// The text report of traces read together, checked by the harness.
fn report(names: &[&str]) -> String {
    check_inputs(&traces(names), 1, |analysis| analysis_text(analysis))
}

#[test]
fn q01_report() {
    check_format!(traces(&["jan2019_sf10_10threads/Q01_variation001.json"]), text_and_json => "q01_text", "q01_json");
}

#[test]
fn later_generations_reports() {
    let jun = report(&["stethoscope/q01_Jun2020.json"]);
    let sep = report(&["stethoscope/q01_Sep2022.json"]);
    let input = report(&["stethoscope/input.json"]);
    insta::assert_snapshot!("later_generations_text", format!("{jun}\n{sep}\n{input}"));
}

#[test]
fn distributed_and_small_traces_reports() {
    let dist = report(&["distributed/supervisor_original.json", "distributed/worker1.json"]);
    let example = report(&["example_query_20180621.json"]);
    let single = report(&["single_event_formatted.json", "example_heartbeat.json"]);
    insta::assert_snapshot!("distributed_and_small_text", format!("{dist}\n{example}\n{single}"));
}

#[test]
fn every_corpus_trace_is_recognised_and_written_back_byte_for_byte() {
    for name in [
        "example_query_20180621.json",
        "example_query_20180621_compressed.gz",
        "single_event_formatted.json",
        "example_heartbeat.json",
        "jan2019_sf10_10threads/Q01_variation001.json",
        "compressed/trace.json.bz2",
        "distributed/supervisor_original.json",
        "stethoscope/input.json",
        "stethoscope/q01_Sep2022.json",
    ] {
        let bytes = support::bytes(&format!("monetdb-mal/{name}"));
        let input = read_bytes("unknown", &bytes, 4096).unwrap();
        assert_eq!(input.info.format, longpole_core::formats::monetdb_mal::ID, "{name}");
        let back = input.parsed.write_back().unwrap();
        if !name.ends_with(".gz") && !name.ends_with(".bz2") {
            assert!(back == bytes, "{name} round trip");
        }
        assert!(input.info.diagnostics.kept().iter().all(|d| d.code != "mal.W001"), "{name}");
    }
}

#[test]
fn duplicate_done_events_are_reported_at_their_lines_and_left_out() {
    let analysis = longpole_core::reconcile(vec![read("example_query_20180621.json", 4096)]);
    let lines: Vec<String> = analysis.inputs[0]
        .diagnostics
        .kept()
        .iter()
        .filter(|d| d.code == "mal.duplicate-done")
        .map(|d| d.position.to_string())
        .collect();
    assert_eq!(lines, ["line 135", "line 150"]);
}

#[test]
fn damaged_objects_are_skipped_with_w001_and_the_rest_is_kept() {
    let q01 = String::from_utf8(support::bytes("monetdb-mal/stethoscope/q01_Jun2020.json")).unwrap();
    let lines: Vec<&str> = q01.lines().collect();
    let mut damaged = String::new();
    damaged.push_str(lines[0]);
    damaged.push('\n');
    damaged.push_str(&lines[1][..40]); // cut
    damaged.push('\n');
    damaged.push_str("{\"pc\": oops}\n");
    for l in &lines[2..] {
        damaged.push_str(l);
        damaged.push('\n');
    }
    let input = read_bytes("t.json", damaged.as_bytes(), 7).unwrap();
    let w: Vec<String> = input
        .info
        .diagnostics
        .kept()
        .iter()
        .filter(|d| d.code == "mal.W001")
        .map(|d| format!("{} {}", d.position, d.message))
        .collect();
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w[0].starts_with("line 2 W001 Ignoring object that contains errors"), "{w:?}");
    assert!(w[1].starts_with("line 3 "), "{w:?}");
    let Parsed::MonetdbMal(trace) = &input.parsed else { panic!() };
    assert_eq!(trace.events.len(), lines.len() - 1);
    assert_eq!(trace.rejected, 2);
}

#[test]
fn binary_data_is_not_a_trace() {
    let mut bytes = support::bytes("monetdb-mal/stethoscope/q01_Jun2020.json");
    bytes.truncate(2000);
    bytes.extend_from_slice(b"\0\x01\x02");
    let err = read_bytes("t.json", &bytes, 4096).unwrap_err().to_string();
    assert!(err.contains("MonetDB MAL trace") && err.contains("byte 2000"), "{err}");
}

#[test]
fn dataflow_edges_join_producers_to_consumers_within_an_execution() {
    let analysis = longpole_core::reconcile(vec![read("jan2019_sf10_10threads/Q01_variation001.json", 4096)]);
    let m = &analysis.datasets[0].model;
    assert!(m.edge_count() > 1000);
    for (i, t) in m.tasks().iter().enumerate() {
        for &d in m.deps(longpole_core::model::TaskId(i as u32)) {
            let dep = m.task(d);
            // A producer ends before its consumer starts.
            assert!(dep.end <= t.start, "{} waits for {}", m.uid(longpole_core::model::TaskId(i as u32)), m.uid(d));
        }
    }
}
