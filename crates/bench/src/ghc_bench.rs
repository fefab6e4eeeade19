//! `ghc-bench`: reading, round-tripping and analysing a large GHC eventlog,
//! native, one thread, with the peak memory of each run measured in its own
//! process.
//!
//! ```text
//! cargo run --release -p longpole-bench --bin ghc-bench -- [SIZE_MB...]   # default: 100 500
//! ```
//!
//! The eventlog is made once into `target/bench-data/` with the core's
//! writer, by repeating the events of the corpus's `stop.hT.eventlog`
//! (122,155 events of a real program: thread runs, collections, heap
//! samples) shifted in time, block markers included. Each size is measured
//! `longpole_bench::RUNS` times in fresh processes; the fastest run is
//! reported. Prints a Markdown table for docs/numbers.md.

use longpole_bench::{data_dir, ingest_file, peak_rss, rate, Bench};
use longpole_core::formats::ghc_eventlog::{write, Eventlog};
use longpole_core::layout::timeline::TimelineIndex;
use longpole_core::reconcile;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The corpus eventlog whose events are repeated.
const SEED: &str = "../../tests/data/ghc-eventlog/stop.hT.eventlog";

fn data_file(mb: u64) -> Result<PathBuf, Box<dyn std::error::Error>> {
    let path = data_dir()?.join(format!("ghc-{mb}mb.eventlog"));
    if path.exists() {
        return Ok(path);
    }
    let (input, seed_bytes) = ingest_file(&Path::new(env!("CARGO_MANIFEST_DIR")).join(SEED))?;
    let Some(read) = input.parsed.into_read::<longpole_core::formats::ghc_eventlog::ReadEventlog>() else {
        return Err("the seed is not a GHC eventlog".into());
    };
    let seed = read.source.ok_or("the seed's events were not kept")?;
    let span = seed.events.iter().map(|e| e.time).max().unwrap_or(0) + 1;
    let repeats = (mb as f64 * 1e6 / seed_bytes as f64).ceil() as u64;
    eprintln!("writing {repeats} copies of {} events into {}", seed.events.len(), path.display());
    let mut log = Eventlog::new(seed.types.clone());
    for r in 0..repeats {
        let shift = r * span;
        for e in &seed.events {
            if e.ty == 18 {
                log.push_block(e.time + shift, e.cap);
            } else {
                log.push(e.ty, e.time + shift, seed.payload(e));
            }
        }
    }
    std::fs::write(&path, write(&log))?;
    Ok(path)
}

/// One measurement, in this process: prints a tab-separated result line.
fn measure(path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let t0 = Instant::now();
    let (input, bytes) = ingest_file(path)?;
    let t_read = t0.elapsed();
    let Some(read) = input.parsed.read::<longpole_core::formats::ghc_eventlog::ReadEventlog>() else {
        return Err("not a GHC eventlog".into());
    };
    let log = read.source.as_ref().ok_or("the events were not kept")?;
    let events = log.events.len();
    let written = write(log);
    let t_write = t0.elapsed();
    if written.len() as u64 != bytes {
        return Err("the round trip changed the size".into());
    }
    drop(written);
    let analysis = reconcile(vec![input]);
    let d = &analysis.datasets[0];
    let index = TimelineIndex::new(&d.model);
    let view = analysis.view(d, &index);
    let t_all = t0.elapsed();
    println!(
        "{bytes}\t{events}\t{}\t{}\t{}\t{}\t{}",
        t_read.as_secs_f64(),
        (t_write - t_read).as_secs_f64(),
        (t_all - t_write).as_secs_f64(),
        peak_rss().unwrap_or(0),
        d.model.tasks().len() + view.lanes.len(),
    );
    Ok(())
}

fn row(f: &[f64]) -> String {
    let [bytes, events, read, write, model, rss, _] = f[..7] else { return String::new() };
    let mb = bytes / 1e6;
    let rate = |s: f64| rate(mb, s);
    format!(
        "| {mb:.0} MB | {:.1} M | {} | {} | {} | {:.0} ms | {:.0} MB |",
        events / 1e6,
        rate(read),
        rate(write),
        rate(read + write),
        model * 1000.0,
        rss / 1e6
    )
}

fn main() -> ExitCode {
    Bench {
        name: "ghc-bench",
        default_sizes: &[100, 500],
        header: "| eventlog | events | read | write back | round trip | model + views | peak memory |",
        fields: 7,
        key: 2,
        input: &data_file,
        measure: &measure,
        row: &row,
    }
    .main()
}
