//! `distbuild-sim`: writes a simulated distributed build as a distbuild
//! execution log and its graph.json, for tests, benchmarks and samples.

use longpole_distbuild_sim::{graph, simulate, write_graph_json, Config};
use std::fs::File;
use std::io::BufWriter;
use std::process::ExitCode;

const USAGE: &str = "usage: distbuild-sim [--nodes N] [--hosts N] [--slots N] [--seed N] [--shuffle-ms N] [--no-extract] --log OUT.log [--graph OUT.json]";

fn main() -> ExitCode {
    let mut cfg = Config::default();
    let (mut log, mut graph_out) = (None, None);
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        let num = || value.parse::<u64>().map_err(|_| format!("{} needs a number, not {value:?}", args[i]));
        let r: Result<usize, String> = match args[i].as_str() {
            "--nodes" => num().map(|n| cfg.nodes = n as usize).map(|_| 2),
            "--hosts" => num().map(|n| cfg.hosts = n as usize).map(|_| 2),
            "--slots" => num().map(|n| cfg.slots_per_host = n as usize).map(|_| 2),
            "--seed" => num().map(|n| cfg.seed = n).map(|_| 2),
            "--shuffle-ms" => num().map(|n| cfg.shuffle_ms = n as i64).map(|_| 2),
            "--no-extract" => {
                cfg.extract_events = false;
                Ok(1)
            }
            "--log" => {
                log = Some(value.clone());
                Ok(2)
            }
            "--graph" => {
                graph_out = Some(value.clone());
                Ok(2)
            }
            other => Err(format!("unknown argument {other}")),
        };
        match r {
            Ok(step) => i += step,
            Err(e) => {
                eprintln!("distbuild-sim: {e}\n{USAGE}");
                return ExitCode::FAILURE;
            }
        }
    }
    let Some(log) = log else {
        eprintln!("{USAGE}");
        return ExitCode::FAILURE;
    };
    let nodes = graph(&cfg);
    let run = || -> std::io::Result<()> {
        let truth = simulate(&cfg, &nodes, &mut BufWriter::with_capacity(1 << 20, File::create(&log)?))?;
        if let Some(g) = &graph_out {
            write_graph_json(&nodes, &mut BufWriter::new(File::create(g)?))?;
        }
        eprintln!(
            "distbuild-sim: {} nodes on {} hosts, {} lines, {} copies, wall {} ms",
            nodes.len(),
            cfg.hosts,
            truth.lines,
            truth.copies.len(),
            truth.window.1 - truth.window.0
        );
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("distbuild-sim: {e}");
            ExitCode::FAILURE
        }
    }
}
