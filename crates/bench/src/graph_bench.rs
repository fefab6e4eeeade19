//! The Graph tab's work on big builds: laying the dependency graph out
//! around the critical path, choosing the opening view, and writing the
//! drawing (the SVG a browser then draws), on simulated distbuild builds of
//! 10,000 and 100,000 nodes (`longpole-distbuild-sim`: 200 hosts, up to 6
//! dependencies per node, 10% cache hits).
//!
//!     cargo run --release -p longpole-bench --bin graph-bench [NODES...]
//!
//! Prints a Markdown table: tasks, laid-out nodes and edges, then the median
//! (and min–max) of 5 runs of each step, in ms; then what one view draws
//! (the page draws only that: `graph_view`) at the opening camera and with
//! everything fitted, in a 1000 × 700 px viewport.

use longpole_core::analysis::critical_path::ya_path;
use longpole_core::ingest::read_bytes;
use longpole_core::layout::graph::{layout, GraphOptions};
use longpole_core::layout::graph_camera::Camera;
use longpole_core::layout::graph_view::graph_view;
use longpole_core::layout::timeline::TimelineIndex;
use longpole_core::reconcile;
use longpole_core::render::graph_svg::graph_svg;
use longpole_distbuild_sim::{graph, simulate, write_graph_json, Config};
use std::time::Instant;

/// Runs of each step.
const RUNS: usize = 5;

/// Median and range of `f`'s time over [`RUNS`] runs, ms, and its last result.
fn time<T>(mut f: impl FnMut() -> T) -> (String, T) {
    let mut ms = Vec::with_capacity(RUNS);
    let mut last = None;
    for _ in 0..RUNS {
        let t = Instant::now();
        last = Some(f());
        ms.push(t.elapsed().as_secs_f64() * 1e3);
    }
    ms.sort_by(f64::total_cmp);
    let shown = format!("{:.1} ({:.1}–{:.1})", ms[RUNS / 2], ms[0], ms[RUNS - 1]);
    (shown, last.expect("RUNS > 0"))
}

fn main() {
    let sizes: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![10_000, 100_000] } else { sizes };
    let mut views = Vec::new();
    println!(
        "| nodes | tasks | laid-out nodes | laid-out edges | layout, ms | opening camera, ms | whole SVG, ms | SVG size |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for nodes in sizes {
        let cfg = Config { nodes, hosts: 200, ..Config::default() };
        let g = graph(&cfg);
        let (mut log, mut graph_json) = (Vec::new(), Vec::new());
        write_graph_json(&g, &mut graph_json).expect("writing to memory");
        simulate(&cfg, &g, &mut log).expect("writing to memory");
        let inputs = vec![
            read_bytes("build.log", &log, 1 << 20).expect("the simulated log reads"),
            read_bytes("build.graph.json", &graph_json, 1 << 20).expect("the simulated graph reads"),
        ];
        let analysis = reconcile(inputs);
        let d = &analysis.datasets[0];
        let (path, _) = ya_path(&d.model);
        let view = analysis.view(d, &TimelineIndex::new(&d.model));
        let (layout_ms, drawn) = time(|| layout(&d.model, &path.tasks, &GraphOptions::default()));
        let (camera_ms, _) = time(|| Camera::opening(&drawn, 1000.0, 700.0));
        let (svg_ms, svg) = time(|| graph_svg(&view, &drawn, "bench"));
        for (name, camera) in
            [("opening", Camera::opening(&drawn, 1000.0, 700.0)), ("fit", Camera::everything(&drawn, 1000.0, 700.0))]
        {
            let (ms, v) = time(|| graph_view(&drawn, camera, 1000.0, 700.0));
            views.push(format!(
                "| {nodes} | {name} | {} | {} | {} | {} | {ms} |",
                v.nodes.len(),
                v.blocks.iter().map(|b| b.count).sum::<usize>(),
                v.edges,
                if v.labels { "yes" } else { "no" }
            ));
        }
        println!(
            "| {nodes} | {} | {} | {} | {layout_ms} | {camera_ms} | {svg_ms} | {:.1} MB |",
            d.model.tasks().len(),
            drawn.nodes.len(),
            drawn.edges.len(),
            svg.len() as f64 / 1e6
        );
    }
    println!();
    println!("| nodes | view | nodes as elements | nodes as blocks | edges drawn | labels | choosing them, ms |");
    println!("|---|---|---|---|---|---|---|");
    for row in views {
        println!("{row}");
    }
}
