//! A simulated local build as ya's evlog, zstd-compressed, with its build
//! graph: every node becomes a run task on its thread with ya's millisecond
//! times, the graph's edges join them, and ya's report is made of it.

use longpole_core::ingest::read_bytes;
use longpole_core::model::{Role, TaskId, NANOS_PER_MS};
use longpole_core::report::{analysis_json, analysis_text};
use longpole_distbuild_sim::{graph, simulate, write_evlog, write_graph_json, Config};

#[test]
fn a_compressed_evlog_with_its_graph_gives_a_local_build() {
    let cfg = Config { nodes: 300, hosts: 4, seed: 3, ..Config::default() };
    let nodes = graph(&cfg);
    let truth = simulate(&cfg, &nodes, &mut std::io::sink()).unwrap();
    let (mut evlog, mut graph_json) = (Vec::new(), Vec::new());
    write_evlog(&nodes, &truth, &mut evlog).unwrap();
    write_graph_json(&nodes, &mut graph_json).unwrap();
    let zst = ruzstd::encoding::compress_to_vec(&evlog[..], ruzstd::encoding::CompressionLevel::Fastest);

    let mut whole = None;
    for chunk in [7, 4096, usize::MAX] {
        let inputs = vec![
            read_bytes("build.evlog.zst", &zst, chunk).unwrap(),
            read_bytes("graph.json", &graph_json, chunk).unwrap(),
        ];
        assert_eq!(inputs[0].info.format, longpole_core::formats::ya::evlog::ID);
        let analysis = longpole_core::reconcile(inputs);
        let model = &analysis.datasets[0].model;
        let runs: Vec<TaskId> =
            (0..model.tasks().len() as u32).map(TaskId).filter(|&t| model.task(t).role == Role::Work).collect();
        assert_eq!(runs.len(), nodes.len());
        for (&id, run) in runs.iter().zip(&truth.runs) {
            let t = model.task(id);
            assert_eq!(model.uid(id), run.uid);
            assert_eq!(
                t.start.get(),
                Some(((run.start as f64 / 1000.0) * 1000.0) as i64 * NANOS_PER_MS),
                "ya's int(seconds * 1000)"
            );
            assert_eq!(model.lanes()[t.lane.index()].name, run.host);
            let want_deps = nodes.iter().find(|n| n.uid == model.uid(id)).unwrap().deps.len();
            assert_eq!(model.deps(id).len(), want_deps, "{} has its graph deps", model.uid(id));
        }
        let json = analysis_json(&analysis);
        assert_eq!(json["format"], "ya-evlog");
        assert!(!json["critical_path"]["tasks"].as_array().unwrap().is_empty());
        let text = analysis_text(&analysis);
        assert!(text.contains("\nCritical path:\n"));
        if let Some(w) = &whole {
            assert_eq!(&text, w, "chunk size {chunk}");
        }
        whole = Some(text);
    }
}
