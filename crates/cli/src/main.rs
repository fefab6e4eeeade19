//! `longpole`: the command-line face of longpole-core. It reads files from
//! disk in slices, exactly as the browser's worker does, and prints what the
//! core computes. No analysis lives here.

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use longpole_core::{reconcile, report, Ingest, Input};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Size of the slices files are read in.
const SLICE: usize = 4 << 20;

#[derive(Parser)]
#[command(name = "longpole", version, about = "Find the long pole in any execution log")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Read logs (gzip, bzip2 and zstd are fine) and print the report: for a
    /// distbuild log, ya's `--stat` report, the critical path and the blocking chain.
    Analyze {
        /// The input files; a log and its companions (e.g. graph.json) together,
        /// in any order: each file's format is detected from its content.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// ya's build graph (graph.json) of a distbuild log; the same as giving it as a file.
        #[arg(long)]
        graph: Option<PathBuf>,
        /// Output as text or JSON.
        #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
        format: OutputFormat,
    },
    /// Print the reconciled tasks, one per line.
    Dump {
        /// The input files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum OutputFormat {
    Text,
    Json,
}

fn read(path: &Path) -> Result<Input> {
    let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    let mut file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut ingest = Ingest::new(&name);
    let mut buf = vec![0; SLICE];
    loop {
        let n = file.read(&mut buf).with_context(|| format!("cannot read {}", path.display()))?;
        if n == 0 {
            break;
        }
        ingest.feed(&buf[..n])?;
    }
    Ok(ingest.finish()?)
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Analyze { files, graph, format } => {
            let inputs = files.iter().chain(&graph).map(|f| read(f)).collect::<Result<Vec<_>>>()?;
            let analysis = reconcile(inputs);
            match format {
                OutputFormat::Text => print!("{}", report::analysis_text(&analysis)),
                OutputFormat::Json => println!("{}", serde_json::to_string_pretty(&report::analysis_json(&analysis))?),
            }
        }
        Command::Dump { files } => {
            let inputs = files.iter().map(|f| read(f)).collect::<Result<Vec<_>>>()?;
            for d in &reconcile(inputs).datasets {
                print!("{}", longpole_core::dump::tasks(&d.model));
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("longpole: {e:#}");
            ExitCode::FAILURE
        }
    }
}
