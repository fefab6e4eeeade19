//! `evobench-bench`: reading a large uncompressed evobench log and
//! computing the evaluator's statistics, native, one thread, with the peak
//! memory of each run measured in its own process.
//!
//! ```text
//! cargo run --release -p longpole-bench --bin evobench-bench -- [SIZE_MB...]   # default: 200
//! ```
//!
//! The log is made once into `target/bench-data/` by repeating the records
//! of the corpus's current-format log (12,854 records of evobench's own
//! example: 6,220 scopes, 40 KeyValues, `EVOBENCH_SCOPE_EVERY` spans) after
//! its Start and Metadata lines, each copy a whole process run (TStart …
//! TEnd), so pairing stays consistent; each copy's thread gets a new thread
//! number, as a reused thread id does. Each size is measured
//! `longpole_bench::RUNS` times in fresh processes; the fastest run is
//! reported. Prints a Markdown table.

use longpole_bench::{data_dir, ingest_file, peak_rss, rate, Bench};
use longpole_core::decompress::{Compression, CorruptStream, Decoder};
use longpole_core::formats::evobench::reconcile::EvobenchRun;
use longpole_core::reconcile;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The corpus log whose records are repeated (zstd; the core decompresses it).
const SEED: &str = "../../tests/data/evobench/generated-current-format/evobench.log.zstd";

fn data_file(mb: u64) -> Result<PathBuf, Box<dyn std::error::Error>> {
    let path = data_dir()?.join(format!("evobench-{mb}mb.log"));
    if path.exists() {
        return Ok(path);
    }
    let text = seed_text(&Path::new(env!("CARGO_MANIFEST_DIR")).join(SEED))?;
    let split = text.match_indices('\n').nth(1).map_or(0, |(i, _)| i + 1);
    let (head, body) = text.split_at(split);
    let repeats = ((mb as f64 * 1e6 - head.len() as f64) / body.len() as f64).ceil().max(1.0) as u64;
    eprintln!("writing {repeats} copies of the seed's {} records into {}", body.lines().count(), path.display());
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path)?);
    out.write_all(head.as_bytes())?;
    for _ in 0..repeats {
        out.write_all(body.as_bytes())?;
    }
    out.flush()?;
    Ok(path)
}

/// The seed's decompressed text, through the core's own zstd decoder.
fn seed_text(path: &Path) -> Result<String, Box<dyn std::error::Error>> {
    let mut decoder = Decoder::new(Compression::Zstd);
    let mut text = Vec::new();
    decoder
        .push::<CorruptStream>(&std::fs::read(path)?, &mut |piece| {
            text.extend_from_slice(piece);
            Ok(())
        })
        .map_err(|e| e.to_string())?;
    Ok(String::from_utf8(text)?)
}

/// One measurement, in this process: prints a tab-separated result line.
fn measure(path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let t0 = Instant::now();
    let (input, bytes) = ingest_file(path)?;
    let t_read = t0.elapsed();
    let lines = input.info.counts.lines;
    let analysis = reconcile(vec![input]);
    let Some(run) = analysis.datasets[0].detail::<EvobenchRun>() else { return Err("not an evobench log".into()) };
    let rows = run.table.rows.len();
    let t_all = t0.elapsed();
    println!(
        "{bytes}\t{lines}\t{}\t{}\t{}\t{rows}",
        t_read.as_secs_f64(),
        (t_all - t_read).as_secs_f64(),
        peak_rss().unwrap_or(0),
    );
    Ok(())
}

fn row(f: &[f64]) -> String {
    let [bytes, lines, read, stats, rss, rows] = f[..6] else { return String::new() };
    let mb = bytes / 1e6;
    let rate = |s: f64| rate(mb, s);
    format!(
        "| {mb:.0} MB | {:.2} M | {} | {:.0} ms | {} | {rows:.0} | {:.0} MB |",
        lines / 1e6,
        rate(read),
        stats * 1000.0,
        rate(read + stats),
        rss / 1e6
    )
}

fn main() -> ExitCode {
    Bench {
        name: "evobench-bench",
        default_sizes: &[200],
        header: "| log | lines | read + pair | statistics + model | read + statistics | rows | peak memory |",
        fields: 6,
        key: 2,
        input: &data_file,
        measure: &measure,
        row: &row,
    }
    .main()
}
