//! ya's `--stat` report and longpole's JSON for the corpus logs and a
//! simulated build, snapshotted; each read at several chunk sizes.

use longpole_core::ingest::read_bytes;
use longpole_core::report::{analysis_json, analysis_text};
use longpole_distbuild_sim::{graph, simulate, write_graph_json, Config};
use support::{check_format, named, text_and_json, File};

mod support;

/// A log and the graph of the corpus logs, read under the names a build gives them.
fn build(log: Vec<u8>, graph: Vec<u8>) -> [File; 2] {
    [named("build.log", log), named("graph.json", graph)]
}

fn fixture_graph() -> Vec<u8> {
    std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/corpus-distbuild-graph.json"))
        .unwrap()
}

#[test]
fn example_log_report() {
    let files = build(support::bytes("distbuild/example.log"), fixture_graph());
    check_format!(files, text_and_json => "example_text", "example_json");
}

#[test]
fn edge_log_report() {
    let files = build(support::bytes("distbuild/edge.log"), fixture_graph());
    check_format!(files, text_and_json => "edge_text", "edge_json");
}

#[test]
fn simulated_build_report() {
    let cfg = Config { nodes: 400, hosts: 8, seed: 7, ..Config::default() };
    let nodes = graph(&cfg);
    let (mut log, mut graph_json) = (Vec::new(), Vec::new());
    simulate(&cfg, &nodes, &mut log).unwrap();
    write_graph_json(&nodes, &mut graph_json).unwrap();
    let text = |analysis: &_| vec![analysis_text(analysis)];
    check_format!(build(log, graph_json), 7, text => "simulated_text");
}

#[test]
fn a_dependency_cycle_is_a_diagnostic_and_the_path_is_still_computed() {
    let log = b"1000 prepare_start  7\n1100 resources_prepared  7\n1200 deploy A 7 1\n1300 started A h1\n1400 finished A h1 OK 1\n1500 started B h1\n1700 finished B h1 OK 1\n";
    let graph = br#"{"graph": [{"uid": "A", "deps": ["B"], "kv": {"p": "CC"}}, {"uid": "B", "deps": ["A"], "kv": {"p": "LD"}}]}"#;
    let inputs = vec![read_bytes("c.log", log, 5).unwrap(), read_bytes("graph.json", graph, 5).unwrap()];
    let analysis = longpole_core::reconcile(inputs);
    let d = &analysis.inputs[0].diagnostics;
    assert_eq!(d.count_of("graph.cycle"), 1);
    assert!(d.kept().iter().any(|d| d.message.starts_with("dependency cycle through 2 tasks (")));
    let json = analysis_json(&analysis);
    assert_eq!(
        json["critical_path"]["total_ms"], 400,
        "B (200 ms) after A (100 ms) after the prepare task (100 ms), the closing edge cut"
    );
    assert!(analysis_text(&analysis).contains("(a dependency cycle was cut to compute it: "));
}
