//! `longpole`: the command-line face of longpole-core. It reads files from
//! disk ([`read`]) and prints what the core computes. No analysis lives here.

mod browser;
mod bundle;
mod chunks;
mod fleet;
mod http;
mod includes;
mod native;
mod open;
mod projection;
mod read;
mod serve;
mod socket;
mod token;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use longpole_core::export::run::Target;
use longpole_core::formats::evobench::report as evobench;
use longpole_core::formats::evobench::TimingKind;
use longpole_core::formats::ghc_eventlog::show::show;
use longpole_core::formats::monetdb_mal::statement::statements;
use longpole_core::formats::Parsed;
use longpole_core::reconcile::reconcile_with;
use longpole_core::{compare, export, report};
use std::io::Write;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(name = "longpole", version, about = "Find the long pole in any execution log")]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Threads to read files on, to read a distbuild log's lines or a
    /// Chrome trace's events ahead, and a report's analyses on (default: every core); the output is the
    /// same for any count.
    #[arg(long, global = true)]
    threads: Option<usize>,
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
        /// Runs of a second group (after), compared against the FILES
        /// (before): the same as `compare FILES --vs GROUP_B`, whose output
        /// this prints instead of the report (kept for evobench's groups).
        #[arg(long, num_args = 1.., conflicts_with = "graph")]
        group_b: Vec<String>,
    },
    /// Write a run in another tool's format: a Chrome trace (Perfetto,
    /// chrome://tracing), a speedscope file, folded stacks (inferno,
    /// FlameGraph), the timeline as SVG, a single-file HTML report; for an
    /// evobench log also its statistics as CSV or the evaluator's workbook;
    /// any number of runs as Parquet fleet tables.
    Export {
        /// The input files, read together as for `analyze`.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// What to write.
        #[arg(long, value_enum)]
        to: Export,
        /// For folded stacks of an evobench log: the timing kind (real, cpu, sys, ctx).
        #[arg(long, default_value = "real")]
        kind: TimingKind,
        /// Where to write (for Parquet: a folder).
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Compare runs: side A (FILES, before) against side B (--vs, after):
    /// the wall time's change split into the shared path, path changes and
    /// waiting, both critical paths aligned, and every task's change,
    /// ranked, with noise told apart (thresholds with one run a side,
    /// tests with several).
    Compare {
        /// Side A's files, read together (a log and its graph.json); each
        /// run in them is a run of A. `FILE#N` takes only the N-th run of a
        /// file holding several (a ninja log's builds, a MAL trace's executions).
        #[arg(required = true)]
        files: Vec<String>,
        /// Side B's files, as for side A.
        #[arg(long, required = true, num_args = 1..)]
        vs: Vec<String>,
        /// Output as text or JSON.
        #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
        format: OutputFormat,
        /// A change counts only past this many ms (default: 0.1 % of A's
        /// wall time, at least 0.001 ms).
        #[arg(long)]
        min_delta_ms: Option<f64>,
        /// ... and past this many percent of A's time.
        #[arg(long, default_value_t = 5.0)]
        min_relative: f64,
    },
    /// Replay a run with chosen tasks faster and print what it would have
    /// taken: the wall time before and after, the tasks changed and the new
    /// critical path (see docs/whatif.md).
    Whatif {
        /// The input files, read together as for `analyze`.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// KEY=FACTOR: the tasks KEY names (a task's name, a compare key,
        /// or a substring of one name) take FACTOR of their time (0.5:
        /// twice as fast; 0: no time). Repeat for more.
        #[arg(long, required = true)]
        faster: Vec<report::whatif::Faster>,
        /// Output as text or JSON.
        #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
        format: OutputFormat,
    },
    /// Print the reconciled tasks, one per line.
    Dump {
        /// The input files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// For a GHC eventlog: print what `ghc-events show` prints (raw times).
        #[arg(long, conflicts_with = "mal_statements")]
        ghc_events_show: bool,
        /// For a MonetDB MAL trace: print each event's MAL statement as
        /// stethoscope does (`null` for SQL phases).
        #[arg(long)]
        mal_statements: bool,
    },
    /// Serve the app built into this binary on 127.0.0.1 (offline use, or
    /// behind a docs host): `--bind` serves on another address.
    Serve {
        /// The port (default: a free one, printed).
        #[arg(long, default_value_t = 0)]
        port: u16,
        /// The address to listen on instead of 127.0.0.1 (prints a warning
        /// unless it is a loopback address).
        #[arg(long)]
        bind: Option<IpAddr>,
    },
    /// Open logs in the app, in the default browser: a server on 127.0.0.1
    /// serves the app and only these files, to the page that holds this
    /// run's token, and stops once the page has been closed a while (or on
    /// Ctrl-C). See docs/cli.md.
    Open {
        /// The input files, read together as for `analyze` (side A's with `--compare`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Side B's files: open the compare screen, FILES (before) against these (after).
        #[arg(long, num_args = 1..)]
        compare: Vec<PathBuf>,
        /// Start no browser (print the link with --print-url).
        #[arg(long)]
        no_browser: bool,
        /// Print the page's link (it holds the token: it opens the files).
        #[arg(long)]
        print_url: bool,
        /// The port (default: a free one).
        #[arg(long, default_value_t = 0)]
        port: u16,
        /// The address to listen on instead of 127.0.0.1 (prints a warning
        /// unless it is a loopback address).
        #[arg(long)]
        bind: Option<IpAddr>,
        /// Seconds without a word from the page before the server stops
        /// (a hidden tab may be heard from only once a minute).
        #[arg(long, default_value_t = 90)]
        linger: u64,
        /// Read and analyse the files in this process, not in the tab, and
        /// answer the page over a WebSocket (for inputs past a tab's
        /// memory; see docs/native.md). Without it, files projected past a
        /// tab's memory are read here all the same, and the reason printed.
        #[arg(long)]
        native: bool,
        /// Read the files in the tab even when they are projected past its memory.
        #[arg(long, conflicts_with = "native")]
        tab: bool,
    },
    /// Read a file and write it back in its own format (decompressed), byte
    /// for byte as it was: what longpole does not interpret is kept.
    Rewrite {
        /// The input file.
        file: PathBuf,
        /// Where to write.
        #[arg(short, long)]
        output: PathBuf,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Export {
    /// A Chrome trace (JSON).
    Chrome,
    /// A speedscope file.
    Speedscope,
    /// Folded stacks (a flame graph's self times, or each task's duration in µs).
    Folded,
    /// The timeline as a standalone SVG.
    Svg,
    /// A single self-contained HTML report.
    Html,
    /// evobench: every timing kind's statistics as CSV.
    Csv,
    /// evobench: the evaluator's workbook, one sheet per timing kind.
    Xlsx,
    /// Fleet tables for DuckDB, Spark and Trino: every run of the inputs
    /// (files, folders, glob patterns) as `runs`, `tasks` and
    /// `critical_path` rows, in Parquet files under the output folder
    /// (see docs/fleet.md).
    Parquet,
}

#[derive(Clone, Copy, ValueEnum)]
enum OutputFormat {
    Text,
    Json,
}

/// Writes to stdout; a reader that went away (`| head`) is not an error.
fn emit(text: &str) -> Result<()> {
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e).context("cannot write to stdout"),
        _ => Ok(()),
    }
}

fn run(cli: Cli) -> Result<()> {
    let threads = cli.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    let read_all = |files: &[&Path]| read::read_all(files, threads, false);
    // One file to rewrite or dump: every byte of it is kept.
    let read = |file: &Path| read::read_all(&[file], threads, true).map(|mut inputs| inputs.remove(0));
    // Independent computations (a report's analyses, a trace's threads) run at once on two threads.
    let join: report::Join<'_> = if threads > 1 { &both } else { &report::in_turn };
    match cli.command {
        Command::Analyze { files, group_b, format, .. } if !group_b.is_empty() => {
            let files: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
            compare_command(&files, &group_b, format, &compare::Options::default(), threads, join)?
        }
        Command::Analyze { files, graph, format, .. } => {
            let paths: Vec<&Path> = files.iter().chain(&graph).map(PathBuf::as_path).collect();
            let mut inputs = read_all(&paths)?;
            includes::read_includes(&mut inputs, &paths, threads)?;
            let analysis = reconcile_with(inputs, join);
            match format {
                OutputFormat::Text => emit(&report::analysis_text_with(&analysis, join))?,
                OutputFormat::Json => {
                    let json = report::analysis_json_with(&analysis, join);
                    emit(&(serde_json::to_string_pretty(&json)? + "\n"))?
                }
            }
            // The process ends here: freeing millions of tasks one by one
            // would only delay the exit (5% of a large eventlog's analysis).
            std::mem::forget(analysis);
        }
        Command::Export { files, to: Export::Parquet, output, .. } => fleet::export(&files, &output, threads)?,
        Command::Export { files, to, kind, output } => {
            let paths: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
            let mut inputs = read_all(&paths)?;
            includes::read_includes(&mut inputs, &paths, threads)?;
            let analysis = reconcile_with(inputs, join);
            if matches!(to, Export::Folded) {
                // Folded stacks can be many times the run's size: written as they are made.
                let cannot = || format!("cannot write {}", output.display());
                let file = std::fs::File::create(&output).with_context(cannot)?;
                let mut out = std::io::BufWriter::new(file);
                let Some(written) = export::run::write_folded(&analysis, kind.index(), &mut out) else {
                    bail!("the input holds no run to export");
                };
                written.and_then(|()| out.flush()).with_context(cannot)?;
                std::mem::forget(analysis);
                return Ok(());
            }
            let target = match to {
                Export::Chrome => Some(Target::Chrome),
                Export::Speedscope => Some(Target::Speedscope),
                Export::Svg => Some(Target::Svg),
                Export::Html => Some(Target::Html),
                // Folded stacks were written above, Parquet tables by `fleet`.
                Export::Folded | Export::Csv | Export::Xlsx | Export::Parquet => None,
            };
            let bytes = match target {
                Some(target) => {
                    let Some(bytes) = export::run::export(&analysis, target, kind.index()) else {
                        bail!("the input holds no run to export");
                    };
                    bytes
                }
                None => {
                    let Some(run) = evobench::runs(&analysis).into_iter().next() else {
                        bail!("{} is a {}, not an evobench log", files[0].display(), analysis.inputs[0].format.title());
                    };
                    if matches!(to, Export::Csv) {
                        longpole_core::formats::evobench::export::statistics_csv(&run.table).into_bytes()
                    } else {
                        longpole_core::formats::evobench::export::statistics_xlsx(&run.table)
                            .context("cannot write the workbook")?
                    }
                }
            };
            std::fs::write(&output, bytes).with_context(|| format!("cannot write {}", output.display()))?;
        }
        Command::Compare { files, vs, format, min_delta_ms, min_relative } => {
            let opts = compare::Options::default()
                .with_min_delta(min_delta_ms.map(|ms| (ms * 1e6).round() as i64))
                .with_min_relative(min_relative / 100.0);
            compare_command(&files, &vs, format, &opts, threads, join)?
        }
        Command::Whatif { files, faster, format } => {
            let paths: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
            let mut inputs = read_all(&paths)?;
            includes::read_includes(&mut inputs, &paths, threads)?;
            let analysis = reconcile_with(inputs, join);
            let answer = report::whatif::what_if(&analysis, &faster).map_err(anyhow::Error::msg)?;
            match format {
                OutputFormat::Text => emit(&report::whatif::what_if_text(&answer))?,
                OutputFormat::Json => emit(&(serde_json::to_string_pretty(&answer)? + "\n"))?,
            }
            std::mem::forget(analysis);
        }
        Command::Dump { files, mal_statements: true, .. } => {
            for f in &files {
                let input = read(f)?;
                let Parsed::MonetdbMal(trace) = &input.parsed else {
                    bail!("{} is a {}, not a MonetDB MAL trace", f.display(), input.info.format.title());
                };
                let mut out = String::new();
                statements(trace, &mut out);
                emit(&out)?;
            }
        }
        Command::Dump { files, ghc_events_show: true, .. } => {
            for f in &files {
                let input = read(f)?;
                let Some(read) = input.parsed.read::<longpole_core::formats::ghc_eventlog::ReadEventlog>() else {
                    bail!("{} is a {}, not a GHC eventlog", f.display(), input.info.format.title());
                };
                let log = read.source.as_ref().context("the eventlog's events were not kept")?;
                let mut out = String::new();
                show(log, &mut out);
                emit(&out)?;
            }
        }
        Command::Rewrite { file, output } => {
            let input = read(&file)?;
            let Some(bytes) = input.parsed.write_back() else {
                bail!("longpole cannot write a {} ({})", input.info.format.title(), file.display());
            };
            std::fs::write(&output, bytes).with_context(|| format!("cannot write {}", output.display()))?;
        }
        Command::Serve { port, bind } => serve::serve(bind, port)?,
        Command::Open { files, compare, no_browser, print_url, port, bind, linger, native, tab } => {
            bundle::required()?;
            let native = native || (!tab && over_a_tab(&files, &compare)?);
            let server = open::OpenServer::start(&files, &compare, bind, port, native.then_some(threads))?;
            let opened = if no_browser { Ok(()) } else { browser::open(server.link()) };
            if print_url || opened.is_err() {
                emit(&format!("{}\n", server.link()))?;
            }
            if let Err(e) = opened {
                eprintln!("longpole: {e:#}; open the link above in a browser");
            }
            let what = if compare.is_empty() { "the files" } else { "the comparison's files" };
            eprintln!("longpole: serving {what} to the page until it has been closed {linger} s (Ctrl-C to stop)");
            server.run(Duration::from_secs(linger), !no_browser)?
        }
        Command::Dump { files, ghc_events_show: false, mal_statements: false } => {
            let paths: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
            let mut inputs = read_all(&paths)?;
            includes::read_includes(&mut inputs, &paths, threads)?;
            for d in &reconcile_with(inputs, join).datasets {
                emit(&longpole_core::dump::tasks(&d.model))?;
            }
        }
    }
    Ok(())
}

/// `longpole compare FILES --vs VS` (and `analyze FILES --group-b VS`):
/// both sides read, compared with `opts`, and printed in `format`.
fn compare_command(
    files: &[String],
    vs: &[String],
    format: OutputFormat,
    opts: &compare::Options,
    threads: usize,
    join: report::Join<'_>,
) -> Result<()> {
    // Both sides' files are read side by side, then each side is
    // reconciled, keyed and digested beside the other.
    let (paths_a, picks_a): (Vec<PathBuf>, Vec<Option<usize>>) = files.iter().map(|s| run_spec(s)).unzip();
    let (paths_b, picks_b): (Vec<PathBuf>, Vec<Option<usize>>) = vs.iter().map(|s| run_spec(s)).unzip();
    let mut inputs_a =
        read::read_all(&paths_a.iter().chain(&paths_b).map(PathBuf::as_path).collect::<Vec<_>>(), threads, false)?;
    let inputs_b = inputs_a.split_off(paths_a.len());
    let (mut a, mut b) = (None, None);
    let (mut inputs_a, mut inputs_b) = (Some(inputs_a), Some(inputs_b));
    join(&mut || a = inputs_a.take().map(|i| reconcile_with(i, join)), &mut || {
        b = inputs_b.take().map(|i| reconcile_with(i, join))
    });
    let (Some(a), Some(b)) = (a, b) else { bail!("a side was not read") };
    let (mut keys_a, mut keys_b) = (Vec::new(), Vec::new());
    join(&mut || keys_a = report::compare::keys_of(&a), &mut || keys_b = report::compare::keys_of(&b));
    let runs_a = report::compare::runs_of(&a, &keys_a, &|i| picks_a[i]).map_err(anyhow::Error::msg)?;
    let runs_b = report::compare::runs_of(&b, &keys_b, &|i| picks_b[i]).map_err(anyhow::Error::msg)?;
    // The text shows only the first changes: no row is made for the rest.
    let opts = match format {
        OutputFormat::Text => opts.clone().with_rows(Some(report::compare::SHOWN)),
        OutputFormat::Json => opts.clone(),
    };
    let Some(c) = compare::compare_with(&runs_a, &runs_b, &opts, join) else {
        bail!("side {} holds no run to compare", if runs_a.is_empty() { "A" } else { "B" });
    };
    match format {
        OutputFormat::Text => emit(&report::compare::compare_text(&c))?,
        OutputFormat::Json => emit(&(report::compare::compare_json_text(&c)? + "\n"))?,
    }
    // As for `analyze`: the process ends here, nothing is freed one by one.
    std::mem::forget(c);
    std::mem::forget((runs_a, runs_b));
    std::mem::forget((keys_a, keys_b, a, b));
    Ok(())
}

/// Whether `open`'s files (both sides) are projected past a tab's memory;
/// says so, and why, when they are.
fn over_a_tab(files: &[PathBuf], compare: &[PathBuf]) -> Result<bool> {
    let all: Vec<PathBuf> = files.iter().chain(compare).cloned().collect();
    let projection = projection::Projection::of(&all)?;
    if projection.over() {
        eprintln!("longpole: {}", projection.reason());
    }
    Ok(projection.over())
}

/// A file named on `compare`'s command line, and the run it picks
/// (`kati.ninja_log#2`: the second); a name that is a file as it stands is
/// taken whole.
fn run_spec(spec: &str) -> (PathBuf, Option<usize>) {
    if !Path::new(spec).exists() {
        if let Some((file, n)) = spec.rsplit_once('#') {
            if let Ok(n) = n.parse::<usize>() {
                return (PathBuf::from(file), Some(n));
            }
        }
    }
    (PathBuf::from(spec), None)
}

/// Runs `a` on another thread while `b` runs on this one.
fn both(a: &mut (dyn FnMut() + Send), b: &mut (dyn FnMut() + Send)) {
    std::thread::scope(|scope| {
        scope.spawn(a);
        b();
    });
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
