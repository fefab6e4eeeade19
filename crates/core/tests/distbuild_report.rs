//! ya's `--stat` report and longpole's JSON for the corpus logs and a
//! simulated build, snapshotted; each read at several chunk sizes.

use longpole_core::ingest::read_bytes;
use longpole_core::report::{analysis_json, analysis_text};
use longpole_distbuild_sim::{graph, simulate, write_graph_json, Config};
use std::path::PathBuf;

fn corpus(rel: &str) -> Vec<u8> {
    std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus").join(rel)).unwrap()
}

fn fixture_graph() -> Vec<u8> {
    std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/corpus-distbuild-graph.json")).unwrap()
}

/// The text report and the JSON of a log and its graph, the same at every chunk size.
fn reports(log: &[u8], graph: &[u8]) -> (String, String) {
    let run = |chunk: usize| {
        let inputs =
            vec![read_bytes("build.log", log, chunk).unwrap(), read_bytes("graph.json", graph, chunk).unwrap()];
        let analysis = longpole_core::reconcile(inputs);
        (analysis_text(&analysis), serde_json::to_string_pretty(&analysis_json(&analysis)).unwrap())
    };
    let whole = run(usize::MAX);
    for chunk in [7, 4096] {
        assert_eq!(run(chunk), whole, "chunk size {chunk}");
    }
    whole
}

#[test]
fn example_log_report() {
    let (text, json) = reports(&corpus("distbuild/example.log"), &fixture_graph());
    insta::assert_snapshot!("example_text", text);
    insta::assert_snapshot!("example_json", json);
}

#[test]
fn edge_log_report() {
    let (text, json) = reports(&corpus("distbuild/edge.log"), &fixture_graph());
    insta::assert_snapshot!("edge_text", text);
    insta::assert_snapshot!("edge_json", json);
}

#[test]
fn simulated_build_report() {
    let cfg = Config { nodes: 400, hosts: 8, seed: 7, ..Config::default() };
    let nodes = graph(&cfg);
    let (mut log, mut graph_json) = (Vec::new(), Vec::new());
    simulate(&cfg, &nodes, &mut log).unwrap();
    write_graph_json(&nodes, &mut graph_json).unwrap();
    let (text, _) = reports(&log, &graph_json);
    insta::assert_snapshot!("simulated_text", text);
}
