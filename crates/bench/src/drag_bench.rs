//! Drag (issue 36) on big builds: the replay prepared, then the drag,
//! saving if halved and next pole of every path task and of the 100
//! longest others, on simulated distbuild builds of 10,000 and 100,000
//! nodes (`longpole-distbuild-sim`: 200 hosts). Target: ≤ 1 s at 100,000.
//!
//!     cargo run --release -p longpole-bench --bin drag-bench [NODES...]
//!
//! Prints a Markdown table: nodes, replayed tasks, path tasks, tasks
//! replayed for a drag (those without slack), then the median (and min–max)
//! of 5 runs of each step, in ms.

use longpole_core::analysis::drag::Drags;
use longpole_core::analysis::replay::Replay;
use longpole_core::ingest::read_bytes;
use longpole_core::model::TaskId;
use longpole_core::reconcile;
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
    println!("| nodes | replayed tasks | path tasks | replays needed | prepare, ms | drags, ms | total, ms |");
    println!("|---|---|---|---|---|---|---|");
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
        let model = &analysis.datasets[0].model;
        let all: Vec<TaskId> = (0..model.tasks().len() as u32).map(TaskId).collect();
        let total = Instant::now();
        let (prepare, replay) = time(|| Replay::of_run(model, &all));
        let (drags, levers) = time(|| Drags::new(&replay).levers(100));
        let whole = total.elapsed().as_secs_f64() * 1e3 / RUNS as f64;
        let d = Drags::new(&replay);
        let needed = levers.iter().filter(|l| l.slack == 0).count();
        println!("| {nodes} | {} | {} | {needed} | {prepare} | {drags} | {whole:.1} |", replay.len(), d.path().len());
    }
}
