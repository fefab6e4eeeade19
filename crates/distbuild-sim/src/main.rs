//! `distbuild-sim`: writes a simulated distributed build as a distbuild
//! execution log and its graph.json, for tests, benchmarks and samples.

use longpole_distbuild_sim::{graph, renamed, simulate, write_graph_json, Config, Rerun};
use std::fs::File;
use std::io::BufWriter;
use std::process::ExitCode;

const USAGE: &str = "usage: distbuild-sim [--nodes N] [--hosts N] [--slots N] [--seed N] [--shuffle-ms N] [--no-extract] [--cache-hits SHARE] [--failures SHARE] [--rerun SEED [--jitter SHARE] [--slow NODE:FACTOR]... [--rename SEED]] --log OUT.log [--graph OUT.json]

--rerun SEED writes a run of the same build again (the graph of --seed, the
schedule and jitter of SEED): compare two of them with `longpole compare`.";

/// The message for a value an option cannot take.
fn bad(option: &str, value: &str) -> String {
    format!("{option} cannot take {value:?}")
}

fn main() -> ExitCode {
    let mut cfg = Config::default();
    let (mut log, mut graph_out) = (None, None);
    let mut rename = None;
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
            "--cache-hits" => value.parse().map(|v| cfg.cache_hits = v).map(|_| 2).map_err(|_| bad(&args[i], &value)),
            "--failures" => value.parse().map(|v| cfg.failures = v).map(|_| 2).map_err(|_| bad(&args[i], &value)),
            "--rerun" => num().map(|n| cfg.rerun.get_or_insert_with(Rerun::default).seed = n).map(|_| 2),
            "--jitter" => value
                .parse()
                .map(|v| cfg.rerun.get_or_insert_with(Rerun::default).jitter = v)
                .map(|_| 2)
                .map_err(|_| bad(&args[i], &value)),
            "--slow" => value
                .split_once(':')
                .and_then(|(n, f)| Some((n.parse().ok()?, f.parse().ok()?)))
                .map(|s| cfg.rerun.get_or_insert_with(Rerun::default).slow.push(s))
                .map(|_| 2)
                .ok_or_else(|| bad(&args[i], &value)),
            "--rename" => num().map(|n| rename = Some(n)).map(|_| 2),
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
    let nodes = match rename {
        Some(seed) => renamed(&nodes, seed),
        None => nodes,
    };
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
