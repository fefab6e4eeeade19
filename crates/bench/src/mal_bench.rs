//! `mal-bench`: reading and analysing a large MonetDB MAL trace, native, one
//! thread, with the peak memory of each run measured in its own process.
//!
//! ```text
//! cargo run --release -p longpole-bench --bin mal-bench -- [SIZE_MB...]   # default: 100 500
//! ```
//!
//! The trace is made once into `target/bench-data/` by repeating the corpus's
//! TPC-H Q1 trace (1,456 events of a real 10-thread plan, 2018 layout), each
//! copy a new execution (its tag shifted) later in time (`clk` and `ctime`
//! shifted). Each size is measured `longpole_bench::RUNS` times in fresh
//! processes; the fastest run is reported. Prints a Markdown table for
//! docs/numbers.md.

use longpole_bench::{data_dir, ingest_file, peak_rss, Bench};
use longpole_core::formats::Parsed;
use longpole_core::layout::timeline::TimelineIndex;
use longpole_core::reconcile;
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The corpus trace whose events are repeated.
const SEED: &str = "../../tests/data/monetdb-mal/jan2019_sf10_10threads/Q01_variation001.json";

fn data_file(mb: u64) -> Result<PathBuf, Box<dyn std::error::Error>> {
    let path = data_dir()?.join(format!("mal-{mb}mb.json"));
    if path.exists() {
        return Ok(path);
    }
    let seed = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(SEED))?;
    let objects: Vec<Value> = seed.lines().map(serde_json::from_str).collect::<Result<_, _>>()?;
    let clk = |o: &Value, k: &str| o.get(k).and_then(Value::as_i64).unwrap_or(0);
    let span = objects.iter().map(|o| clk(o, "clk")).max().unwrap_or(0)
        - objects.iter().map(|o| clk(o, "clk")).min().unwrap_or(0)
        + 1;
    let repeats = (mb as f64 * 1e6 / seed.len() as f64).ceil() as i64;
    eprintln!("writing {repeats} copies of {} events into {}", objects.len(), path.display());
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path)?);
    for r in 0..repeats {
        for o in &objects {
            let mut o = o.clone();
            for (k, shift) in [("clk", r * span), ("ctime", r * span), ("tag", r)] {
                if let Some(v) = o.get(k).and_then(Value::as_i64) {
                    o[k] = Value::from(v + shift);
                }
            }
            serde_json::to_writer(&mut out, &o)?;
            out.write_all(b"\n")?;
        }
    }
    out.flush()?;
    Ok(path)
}

/// One measurement, in this process: prints a tab-separated result line.
fn measure(path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let t0 = Instant::now();
    let (input, bytes) = ingest_file(path)?;
    let t_read = t0.elapsed();
    let Parsed::MonetdbMal(trace) = &input.parsed else { return Err("not a MAL trace".into()) };
    let events = trace.events.len();
    let analysis = reconcile(vec![input]);
    let d = &analysis.datasets[0];
    let t_model = t0.elapsed();
    let index = TimelineIndex::new(&d.model);
    let view = analysis.view(d, &index);
    let t_all = t0.elapsed();
    println!(
        "{bytes}\t{events}\t{}\t{}\t{}\t{}\t{}",
        t_read.as_secs_f64(),
        (t_model - t_read).as_secs_f64(),
        (t_all - t_model).as_secs_f64(),
        peak_rss().unwrap_or(0),
        view.critical_path.steps.len(),
    );
    Ok(())
}

fn row(f: &[f64]) -> String {
    let [bytes, events, read, model, views, rss, _] = f[..7] else { return String::new() };
    let mb = bytes / 1e6;
    format!(
        "| {mb:.0} MB | {:.2} M | {:.0} MB/s ({:.0} ms) | {:.0} ms | {:.0} ms | {:.0} MB/s | {:.0} MB |",
        events / 1e6,
        mb / read,
        read * 1000.0,
        model * 1000.0,
        views * 1000.0,
        mb / (read + model + views),
        rss / 1e6
    )
}

fn main() -> ExitCode {
    Bench {
        name: "mal-bench",
        default_sizes: &[100, 500],
        header: "| trace | events | read | reconcile (mal_analytics) | paths + views | end to end | peak memory |",
        fields: 7,
        key: 2,
        input: &data_file,
        measure: &measure,
        row: &row,
    }
    .main()
}
