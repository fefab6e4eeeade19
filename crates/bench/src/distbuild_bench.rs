//! `distbuild-bench`: parse + reconcile + both critical paths (+ ya's
//! statistics) on simulated distbuild logs, native, one thread, with the
//! peak memory of each run measured in its own process.
//!
//! ```text
//! cargo run --release -p longpole-bench -- [SIZE_MB...]      # default: 10 100 1000
//! ```
//!
//! Logs are simulated once into `target/bench-data/` (1 MB here = 10^6 bytes)
//! and reused. Each size is measured `RUNS` times, each in a fresh process,
//! and the fastest run is reported (the machine's noise only ever adds
//! time). Prints a Markdown table for the README: the throughput column is
//! parse + reconcile + both critical paths; ya's statistics are extra.

use longpole_core::analysis::critical_path::{blocking_chain, ya_path};
use longpole_core::analysis::ya_stat::ya_stat;
use longpole_core::layout::timeline::TimelineIndex;
use longpole_core::view::RunView;
use longpole_core::{reconcile, Ingest};
use longpole_distbuild_sim::{graph, simulate, Config};
use std::fs::File;
use std::io::{BufWriter, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

/// Bytes of simulated log per build node (measured on the simulator's output).
const BYTES_PER_NODE: f64 = 1_224.0;
/// Measurements per size.
const RUNS: usize = 3;

fn data_file(mb: u64) -> std::io::Result<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/bench-data");
    std::fs::create_dir_all(&dir)?;
    let path = dir.join(format!("distbuild-{mb}mb.log"));
    if !path.exists() {
        let nodes = ((mb as f64 * 1e6) / BYTES_PER_NODE) as usize;
        let cfg = Config { nodes, hosts: 200, slots_per_host: 8, seed: mb, ..Config::default() };
        eprintln!("simulating {nodes} nodes into {}", path.display());
        let graph_nodes = graph(&cfg);
        simulate(&cfg, &graph_nodes, &mut BufWriter::with_capacity(1 << 20, File::create(&path)?))?;
    }
    Ok(path)
}

/// Peak resident memory of this process, from /proc (Linux), in bytes.
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kb| kb * 1024)
}

/// One measurement, in this process: prints a tab-separated result line.
fn measure(path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let t0 = Instant::now();
    let mut file = File::open(path)?;
    let mut ingest = Ingest::new("bench.log");
    let mut buf = vec![0u8; 4 << 20];
    let mut bytes = 0u64;
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        bytes += n as u64;
        ingest.feed(&buf[..n])?;
    }
    let input = ingest.finish()?;
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

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--measure") {
        return match args.get(1).map(|p| measure(Path::new(p))) {
            Some(Ok(())) => ExitCode::SUCCESS,
            Some(Err(e)) => {
                eprintln!("distbuild-bench: {e}");
                ExitCode::FAILURE
            }
            None => ExitCode::FAILURE,
        };
    }
    let sizes: Vec<u64> =
        if args.is_empty() { vec![10, 100, 1000] } else { args.iter().filter_map(|a| a.parse().ok()).collect() };
    println!("| log | tasks | parse + reconcile | model | ya's path | blocking chain | throughput (parse → paths) | ya's statistics | app's views | peak memory |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for mb in sizes {
        let path = match data_file(mb) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("distbuild-bench: cannot simulate {mb} MB: {e}");
                return ExitCode::FAILURE;
            }
        };
        let exe = std::env::current_exe().expect("the running executable");
        let mut best: Option<Vec<f64>> = None;
        for _ in 0..RUNS {
            let out = match Command::new(&exe).arg("--measure").arg(&path).output() {
                Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).into_owned(),
                Ok(o) => {
                    eprintln!("distbuild-bench: {}", String::from_utf8_lossy(&o.stderr));
                    return ExitCode::FAILURE;
                }
                Err(e) => {
                    eprintln!("distbuild-bench: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let f: Vec<f64> = out.trim().split('\t').filter_map(|x| x.parse().ok()).collect();
            if f.len() < 12 {
                eprintln!("distbuild-bench: unexpected output {out:?}");
                return ExitCode::FAILURE;
            }
            if best.as_ref().is_none_or(|b| f[7] < b[7]) {
                best = Some(f);
            }
        }
        let Some(f) = best else { return ExitCode::FAILURE };
        let [bytes, tasks, parse, model, ya, chain, stat, total, rss, _, _, views] = f[..] else {
            return ExitCode::FAILURE;
        };
        let ms = |s: f64| format!("{:.0} ms", s * 1000.0);
        let paths = parse + model + ya + chain;
        println!(
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
        );
        let _ = total;
    }
    ExitCode::SUCCESS
}
