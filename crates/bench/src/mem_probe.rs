//! Where the analysis worker's memory goes, natively: reads one or more
//! files as the worker does (nothing kept to be written back), reconciles
//! them, and makes what the worker keeps for the page (the timeline's rows,
//! the view, the first bars). A counting allocator gives, after each
//! step, the bytes live and the most live during it: WebAssembly memory
//! never shrinks, so the tab's figure is about the largest of those peaks
//! (plus what the allocator cannot reuse).
//!
//! Usage: `mem-probe FILE...`

use longpole_answer::Loaded;
use longpole_bench::counting::{step, Counting};
use longpole_core::layout::timeline::TimelineIndex;
use longpole_core::{reconcile, Ingest};
use std::fs::File;
use std::io::Read;
use std::process::ExitCode;
use std::time::Instant;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn run(paths: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let mut inputs = Vec::new();
    for path in paths {
        let began = Instant::now();
        let mut file = File::open(path)?;
        let mut ingest = Ingest::new(path);
        ingest.expect_bytes(file.metadata()?.len());
        // The worker's slices are 16 MiB.
        let mut buf = vec![0u8; 16 << 20];
        loop {
            let n = file.read(&mut buf)?;
            if n == 0 {
                break;
            }
            ingest.feed(&buf[..n])?;
        }
        drop(buf);
        inputs.push(ingest.finish()?);
        step(&format!("read {path}"), began);
    }
    let began = Instant::now();
    let analysis = reconcile(inputs);
    step("reconcile", began);
    // What `Loaded::of` does, step by step.
    if let Some(d) = analysis.datasets.first() {
        let began = Instant::now();
        let index = TimelineIndex::new(&d.model);
        step("timeline rows", began);
        let began = Instant::now();
        let view = analysis.view(d, &index);
        step("view", began);
        drop((view, index));
    }
    let began = Instant::now();
    let loaded = Loaded::of(0, analysis);
    step("both, as the worker keeps them", began);
    let began = Instant::now();
    let done = serde_json::to_string(&loaded.done(0.0, 0))?;
    step(&format!("first bars ({} KB)", done.len() / 1000), began);
    Ok(())
}

fn main() -> ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: mem-probe FILE...");
        return ExitCode::FAILURE;
    }
    match run(&paths) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mem-probe: {e}");
            ExitCode::FAILURE
        }
    }
}
