//! `compare-probe`: the stages of comparing two runs as the app's worker
//! does, natively, one thread, timed one by one, with the bytes live after
//! each and the most live during it (a counting allocator): reading each side,
//! their keys, the comparison, the compare screen's view with the whole
//! table of keys and as sent (its first rows), each view's JSON size, and
//! reading the whole one back (what the page did before the table stayed
//! in the worker).
//!
//! ```text
//! cargo run --release -p longpole-bench --bin compare-probe -- A.log A.graph.json --vs B.log B.graph.json
//! ```

use longpole_bench::counting::{step, Counting};
use longpole_bench::ingest_file;
use longpole_core::compare::digest::Digest;
use longpole_core::compare::{compare, Options};
use longpole_core::report::compare::{keys_of, runs_of};
use longpole_core::view::compare::CompareView;
use longpole_core::Analysis;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The rows the worker sends with a comparison (the app's `COMPARE_FIRST_ROWS`).
const FIRST_ROWS: usize = 200;

fn side(files: &[String]) -> Result<Analysis, Box<dyn std::error::Error>> {
    let inputs = files.iter().map(|f| ingest_file(Path::new(f)).map(|(input, _)| input)).collect::<Result<_, _>>()?;
    Ok(longpole_core::reconcile(inputs))
}

fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let out = f();
    step(what, t);
    out
}

fn run(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let at = args.iter().position(|a| a == "--vs").ok_or("usage: compare-probe A_FILE... --vs B_FILE...")?;
    let a = timed("read side A", || side(&args[..at]))?;
    let b = timed("read side B", || side(&args[at + 1..]))?;
    let (ka, kb) = timed("keys", || (keys_of(&a), keys_of(&b)));
    let (ra, rb) = (runs_of(&a, &ka, &|_| None)?, runs_of(&b, &kb, &|_| None)?);
    let (Some(first_a), Some(first_b)) = (ra.first(), rb.first()) else { return Err("a side holds no run".into()) };
    // The comparison's first stage on its own: each side's digest.
    let digests = timed("  digests (in compare)", || (Digest::of(first_a), Digest::of(first_b)));
    drop(digests);
    let c = timed("compare", || compare(&ra, &rb, &Options::default())).ok_or("a side holds no run")?;
    println!("keys compared                {:>8}", c.tasks.len());
    let whole = timed("view, whole table", || CompareView::of(&c));
    let json = timed("its JSON", || serde_json::to_string(&whole))?;
    println!("  bytes                      {:>8}", json.len());
    timed("read back", || serde_json::from_str::<CompareView>(&json))?;
    let sent = timed("view, first rows", || CompareView::with_rows(&c, FIRST_ROWS));
    let json = timed("its JSON", || serde_json::to_string(&sent))?;
    println!("  bytes                      {:>8}", json.len());
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("compare-probe: {e}");
            ExitCode::FAILURE
        }
    }
}
