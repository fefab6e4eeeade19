//! The dependency graph's layout on the bundled simulated build: folded
//! around the path, every path step drawn, dependencies on the left.

use longpole_core::ingest::read_bytes;
use longpole_core::layout::graph::{layout, GraphOptions};
use longpole_core::layout::timeline::TimelineIndex;
use longpole_core::model::TaskId;
use longpole_core::render::graph_svg::graph_svg;
use longpole_core::view::RunView;
use std::path::PathBuf;

#[test]
fn the_sample_build_folds_around_its_path() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    let log = std::fs::read(root.join("simulated-build.log.gz")).unwrap();
    let graph = std::fs::read(root.join("simulated-build.graph.json.gz")).unwrap();
    let inputs =
        vec![read_bytes("b.log.gz", &log, 1 << 16).unwrap(), read_bytes("g.json.gz", &graph, 1 << 16).unwrap()];
    let analysis = longpole_core::reconcile(inputs);
    let d = &analysis.datasets[0];
    let view = RunView::of_ya(&d.model, d.format, &TimelineIndex::new(&d.model));
    let path: Vec<TaskId> = view.critical_path.steps.iter().map(|s| TaskId(s.id)).collect();
    let t = std::time::Instant::now();
    let g = layout(&d.model, &path, &GraphOptions::default());
    assert!(t.elapsed().as_secs() < 5, "layout took {:?}", t.elapsed());
    assert!(g.hidden > 0);
    assert_eq!(g.nodes.iter().filter(|n| n.on_path).count(), path.len());
    // Between tasks (not folded groups, which may wait for each other), dependencies sit left.
    for e in g.edges.iter().filter(|e| g.nodes[e.from as usize].task.is_some() && g.nodes[e.to as usize].task.is_some())
    {
        assert!(g.nodes[e.from as usize].x > g.nodes[e.to as usize].x);
    }
    let json = serde_json::to_string(&g).unwrap();
    let back: longpole_core::layout::graph::GraphLayout = serde_json::from_str(&json).unwrap();
    assert_eq!(back, g);
    let svg = graph_svg(&view, &g, "sample");
    roxmltree::Document::parse(&svg).expect("well-formed");
}
