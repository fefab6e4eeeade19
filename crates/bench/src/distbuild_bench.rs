//! `distbuild-bench`: parse + reconcile + both critical paths (+ ya's
//! statistics) on simulated distbuild logs, native, one thread, with the
//! peak memory of each run measured in its own process.
//!
//! ```text
//! cargo run --release -p longpole-bench -- [SIZE_MB...]      # default: 10 100 1000
//! ```
//!
//! Logs are simulated once into `target/bench-data/` (1 MB here = 10^6 bytes)
//! and reused. Each size is measured `RUNS` times (`longpole_bench::RUNS`), each in a fresh process,
//! and the fastest run is reported (the machine's noise only ever adds
//! time). Prints a Markdown table for docs/numbers.md: the throughput column is
//! parse + reconcile + both critical paths; ya's statistics are extra.

use longpole_bench::{data_dir, ingest_file, peak_rss, Bench};
use longpole_core::analysis::critical_path::{blocking_chain, ya_path};
use longpole_core::formats::ya::stat::ya_stat;
use longpole_core::layout::timeline::TimelineIndex;
use longpole_core::reconcile;
use longpole_core::view::RunView;
use longpole_distbuild_sim::{graph, simulate, Config};
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Bytes of simulated log per build node (measured on the simulator's output).
const BYTES_PER_NODE: f64 = 1_224.0;

fn data_file(mb: u64) -> std::io::Result<PathBuf> {
    let path = data_dir()?.join(format!("distbuild-{mb}mb.log"));
    if !path.exists() {
        let nodes = ((mb as f64 * 1e6) / BYTES_PER_NODE) as usize;
        let cfg = Config { nodes, hosts: 200, slots_per_host: 8, seed: mb, ..Config::default() };
        eprintln!("simulating {nodes} nodes into {}", path.display());
        let graph_nodes = graph(&cfg);
        simulate(&cfg, &graph_nodes, &mut BufWriter::with_capacity(1 << 20, File::create(&path)?))?;
    }
    Ok(path)
}

/// One measurement, in this process: prints a tab-separated result line.
fn measure(path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let t0 = Instant::now();
    let (input, bytes) = ingest_file(path)?;
    let t_parse = t0.elapsed();
    let analysis = reconcile(vec![input]);
    let t_model = t0.elapsed();
    let model = &analysis.datasets[0].model;
    let (ya, _) = ya_path(model);
    let t_ya = t0.elapsed();
    let (chain, _) = blocking_chain(model);
    let t_chain = t0.elapsed();
    let stat = ya_stat(model);
    let t_stat = t0.elapsed();
    let index = TimelineIndex::new(model);
    let _view = RunView::of_ya(model, analysis.datasets[0].format, &index);
    let t_view = t0.elapsed();
    let tasks = model.tasks().len();
    println!(
        "{bytes}\t{tasks}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
        t_parse.as_secs_f64(),
        (t_model - t_parse).as_secs_f64(),
        (t_ya - t_model).as_secs_f64(),
        (t_chain - t_ya).as_secs_f64(),
        (t_stat - t_chain).as_secs_f64(),
        t_stat.as_secs_f64(),
        peak_rss().unwrap_or(0),
        ya.tasks.len() + chain.tasks.len(),
        stat.longest.len(),
        (t_view - t_stat).as_secs_f64(),
    );
    Ok(())
}

fn row(f: &[f64]) -> String {
    let [bytes, tasks, parse, model, ya, chain, stat, _total, rss, _, _, views] = f[..12] else { return String::new() };
    let ms = |s: f64| format!("{:.0} ms", s * 1000.0);
    let paths = parse + model + ya + chain;
    format!(
        "| {:.0} MB | {:.2} M | {} | {} | {} | {} | {:.0} MB/s ({}) | {} | {} | {:.0} MB |",
        bytes / 1e6,
        tasks / 1e6,
        ms(parse),
        ms(model),
        ms(ya),
        ms(chain),
        bytes / 1e6 / paths,
        ms(paths),
        ms(stat),
        ms(views),
        rss / 1e6
    )
}

fn main() -> ExitCode {
    Bench {
        name: "distbuild-bench",
        default_sizes: &[10, 100, 1000],
        header: "| log | tasks | parse + reconcile | model | ya's path | blocking chain | throughput (parse → paths) | ya's statistics | app's views | peak memory |",
        fields: 12,
        key: 7,
        input: &|mb| Ok(data_file(mb)?),
        measure: &measure,
        row: &row,
    }
    .main()
}
