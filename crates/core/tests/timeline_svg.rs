//! The timeline's standalone SVG: well-formed XML, deterministic, and every
//! name from the log escaped.

use longpole_core::ingest::read_bytes;
use longpole_core::layout::timeline::{TimelineIndex, Viewport};
use longpole_core::render::timeline_svg::timeline_svg;
use longpole_core::view::RunView;
use std::path::PathBuf;

mod support;

fn svg_of(log: &[u8], graph: Option<&[u8]>) -> String {
    let mut inputs = vec![read_bytes("build.log", log, 4096).unwrap()];
    if let Some(g) = graph {
        inputs.push(read_bytes("graph.json", g, 4096).unwrap());
    }
    let analysis = longpole_core::reconcile(inputs);
    let d = &analysis.datasets[0];
    let index = TimelineIndex::new(&d.model);
    let view = RunView::of_ya(&d.model, d.format, &index);
    let (start, end) = view.window.unwrap();
    let viewport = Viewport { start, end, width: 800.0 };
    let rows = index.bars(&d.model, viewport, 0..view.lanes.len());
    timeline_svg(&view, &rows, viewport, &view.critical_path, "build.log")
}

#[test]
fn example_chart_is_well_formed_and_stable() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let log = support::bytes("distbuild/example.log");
    let graph = std::fs::read(root.join("tests/fixtures/corpus-distbuild-graph.json")).unwrap();
    let svg = svg_of(&log, Some(&graph));
    roxmltree::Document::parse(&svg).expect("well-formed XML");
    assert_eq!(svg, svg_of(&log, Some(&graph)));
    insta::assert_snapshot!(svg);
}

#[test]
fn hostile_names_are_text() {
    let log = b"1000 prepare_start  7\n1100 resources_prepared  7\n1200 deploy <script>alert(1)</script> 7 1\n1300 started <script>alert(1)</script> \"><img_onerror=alert(2)>\n1400 finished <script>alert(1)</script> \"><img_onerror=alert(2)> OK 1\n";
    let svg = svg_of(log, None);
    let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
    assert!(doc.descendants().all(|n| !matches!(n.tag_name().name(), "script" | "img")));
    assert!(svg.contains("&quot;&gt;&lt;img_onerror=alert(2)&gt;"));
}
