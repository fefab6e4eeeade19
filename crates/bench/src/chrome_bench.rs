//! `chrome-bench`: reading a large generated Chrome trace (nested `X`
//! events on 8 threads), building its model and its views (the run view
//! with both paths and the flame graph), native, one thread, with the peak
//! memory of each run measured in its own process.
//!
//! ```text
//! cargo run --release -p longpole-bench --bin chrome-bench -- [SIZE_MB...]   # default: 10 100
//! ```
//!
//! The trace is made once into `target/bench-data/`: an object with
//! `traceEvents`, process and thread names, then on each of 8 threads in
//! turn a call tree three deep (a root of 1 ms holding 4 children holding
//! 3 grandchildren each, with small `args`), one event per line, until the
//! size is reached. Each size is measured `longpole_bench::RUNS` times in
//! fresh processes; the fastest run is reported. Prints a Markdown table.

use longpole_bench::{data_dir, ingest_file, peak_rss, rate, Bench};
use longpole_core::layout::timeline::TimelineIndex;
use longpole_core::reconcile;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Threads of the generated trace.
const THREADS: u64 = 8;

fn data_file(mb: u64) -> Result<PathBuf, Box<dyn std::error::Error>> {
    let path = data_dir()?.join(format!("chrome-{mb}mb.json"));
    if path.exists() {
        return Ok(path);
    }
    eprintln!("writing {}", path.display());
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path)?);
    let written = std::cell::Cell::new(0u64);
    let put = |out: &mut std::io::BufWriter<std::fs::File>, line: String| -> std::io::Result<()> {
        written.set(written.get() + line.len() as u64);
        out.write_all(line.as_bytes())
    };
    put(&mut out, "{\"traceEvents\":[\n".to_owned())?;
    put(&mut out, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"bench\"}}".to_owned())?;
    for t in 0..THREADS {
        let line = format!(
            ",\n{{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":{t},\"args\":{{\"name\":\"worker {t}\"}}}}"
        );
        put(&mut out, line)?;
    }
    let mut round = 0u64;
    while written.get() < mb * 1_000_000 {
        for tid in 0..THREADS {
            let base = round * 1000 + tid * 7;
            let x = |name: &str, ts: u64, dur: u64, n: u64| {
                format!(
                    ",\n{{\"name\":\"{name}\",\"cat\":\"bench\",\"ph\":\"X\",\"ts\":{ts},\"dur\":{dur},\"pid\":1,\"tid\":{tid},\"args\":{{\"n\":{n}}}}}"
                )
            };
            put(&mut out, x("root", base, 1000, round))?;
            for c in 0..4 {
                let cts = base + 10 + c * 240;
                put(&mut out, x(&format!("child{c}"), cts, 230, c))?;
                for g in 0..3 {
                    put(&mut out, x(&format!("leaf{g}"), cts + 5 + g * 70, 60, g))?;
                }
            }
        }
        round += 1;
    }
    put(&mut out, "\n]}\n".to_owned())?;
    out.flush()?;
    Ok(path)
}

/// One measurement, in this process: prints a tab-separated result line.
fn measure(path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let t0 = Instant::now();
    let (input, bytes) = ingest_file(path)?;
    let t_read = t0.elapsed();
    let events = input.info.counts.events;
    let analysis = reconcile(vec![input]);
    let t_model = t0.elapsed();
    let d = &analysis.datasets[0];
    let index = TimelineIndex::new(&d.model);
    let view = analysis.view(d, &index);
    let frames = view.flame.as_ref().map_or(0, |f| f.nodes.len());
    let t_all = t0.elapsed();
    println!(
        "{bytes}\t{events}\t{}\t{}\t{}\t{}\t{frames}",
        t_read.as_secs_f64(),
        (t_model - t_read).as_secs_f64(),
        (t_all - t_model).as_secs_f64(),
        peak_rss().unwrap_or(0),
    );
    Ok(())
}

fn row(f: &[f64]) -> String {
    let [bytes, events, read, model, views, rss, frames] = f[..7] else { return String::new() };
    let mb = bytes / 1e6;
    format!(
        "| {mb:.0} MB | {:.2} M | {} | {:.0} ms | {:.0} ms | {} | {frames:.0} | {:.0} MB |",
        events / 1e6,
        rate(mb, read),
        model * 1000.0,
        views * 1000.0,
        rate(mb, read + model + views),
        rss / 1e6
    )
}

fn main() -> ExitCode {
    Bench {
        name: "chrome-bench",
        default_sizes: &[10, 100],
        header: "| trace | events | read | model (match, flows, flame) | views | read + model + views | flame frames | peak memory |",
        fields: 7,
        key: 2,
        input: &data_file,
        measure: &measure,
        row: &row,
    }
    .main()
}
