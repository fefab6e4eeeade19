//! A real GHC program's eventlog against the runtime's own statistics: a
//! small scheduler-heavy program (hundreds of threads taking turns at one
//! `MVar`, keeping a table alive so that the old generation is collected
//! too) is built with `ghc -threaded -eventlog` and run on two capabilities
//! with `+RTS -N2 -l -t<file> --machine-readable`; then `longpole analyze
//! --format json` reads the eventlog, and its summary is checked against
//! the runtime's figures (`rts/Stats.c`, docs/ghc.md):
//!
//! - bytes allocated, collections per generation, bytes copied and the
//!   maximum residency: exactly (the eventlog carries the same counters);
//! - GC time and the longest pause per generation: within 1 µs, as the
//!   runtime prints seconds with six decimals (the eventlog's collection
//!   spans carry the very clock readings it sums);
//! - the largest heap: at most the runtime's, and at most two megablocks
//!   (2 MiB) under it. The eventlog gives the heap's size at the end of
//!   each collection; the runtime counts a high-water mark of megablocks,
//!   which also holds the ones a collection takes and gives back before it
//!   ends (on this program's 10 MiB heap, none or one).
//!
//! `scripts/setup.sh` installs Debian's `ghc`; without it the test says so
//! loudly and stops.

use assert_cmd::Command;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command as Process;
use tools::{have, run};

mod tools;

/// Threads forked by the program.
const THREADS: usize = 800;

/// The program: each of its threads (the first argument) sums, records
/// the sum in a shared table and yields, forty times.
const PROGRAM: &str = "\
import Control.Concurrent
import Control.Monad
import qualified Data.Map.Strict as M
import System.Environment (getArgs)

main :: IO ()
main = do
  threads <- fmap (read . head) getArgs :: IO Int
  done <- newEmptyMVar
  table <- newMVar M.empty
  forM_ [1 .. threads] $ \\i -> forkIO $ do
    forM_ [1 .. 40 :: Int] $ \\j -> do
      let x = sum [1 .. (i * j) `mod` 3000] :: Int
      x `seq` modifyMVar_ table (return . M.insert (i * 100 + j) x)
      yield
    putMVar done ()
  replicateM_ threads (takeMVar done)
  t <- readMVar table
  print (M.size t)
";

/// Two megablocks, the largest heap's tolerance.
const HEAP_SLACK: u64 = 2 << 20;

/// The runtime's `--machine-readable` statistics: lines of `("name", "value")`.
fn machine_readable(path: &Path) -> HashMap<String, String> {
    let text = std::fs::read_to_string(path).unwrap();
    let pairs: HashMap<String, String> = text
        .lines()
        .filter_map(|line| {
            let (_, rest) = line.split_once("(\"")?;
            let (name, rest) = rest.split_once("\", \"")?;
            let (value, _) = rest.split_once("\")")?;
            Some((name.to_owned(), value.to_owned()))
        })
        .collect();
    assert!(pairs.contains_key("allocated_bytes"), "no statistics in {text}");
    pairs
}

fn int(stats: &HashMap<String, String>, name: &str) -> u64 {
    stats.get(name).unwrap_or_else(|| panic!("{name} missing")).parse().unwrap()
}

fn ms(stats: &HashMap<String, String>, name: &str) -> f64 {
    stats.get(name).unwrap_or_else(|| panic!("{name} missing")).parse::<f64>().unwrap() * 1000.0
}

#[test]
fn a_real_program_s_summary_agrees_with_the_runtime_s_statistics() {
    if !have("ghc") {
        eprintln!("\n\n!!! SKIPPED: `ghc` is not installed (scripts/setup.sh installs Debian's ghc) !!!\n");
        return;
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ghc-real");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("Workers.hs"), PROGRAM).unwrap();
    let exe = dir.join("workers");
    run(Process::new("ghc")
        .args(["-O1", "-threaded", "-rtsopts", "-eventlog", "-outputdir"])
        .arg(&dir)
        .arg("-o")
        .arg(&exe)
        .arg(dir.join("Workers.hs")));
    let (log, stats) = (dir.join("workers.eventlog"), dir.join("stats.txt"));
    let printed = run(Process::new(&exe)
        .arg(THREADS.to_string())
        .args(["+RTS", "-N2", "-l", "--machine-readable"])
        .arg(format!("-ol{}", log.display()))
        .arg(format!("-t{}", stats.display()))
        .arg("-RTS"));
    assert_eq!(printed.trim(), (THREADS * 40).to_string(), "the program ran to its end");
    let rts = machine_readable(&stats);

    let out =
        Command::cargo_bin("longpole").unwrap().arg("analyze").arg(&log).args(["--format", "json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ghc = &v["ghc"];
    assert!(ghc.is_object(), "no GHC summary in {v}");

    // Allocation: the capabilities' counters summed, each kept.
    assert_eq!(ghc["allocated_bytes"].as_u64(), Some(int(&rts, "allocated_bytes")), "bytes allocated");
    let per_cap = ghc["allocated_bytes_per_capability"].as_array().unwrap();
    assert_eq!(per_cap.len() as u64, int(&rts, "n_capabilities"), "{per_cap:?}");
    let caps: Vec<u64> = per_cap.iter().map(|c| c["bytes"].as_u64().unwrap()).collect();
    assert_eq!(caps.iter().sum::<u64>(), int(&rts, "allocated_bytes"));
    assert!(caps.iter().all(|&b| b > 0 && b < int(&rts, "allocated_bytes")), "{caps:?}");

    // Collections per generation, their pauses and the bytes copied.
    let rows = ghc["gc"].as_array().unwrap();
    let row = |g: &str| rows.iter().find(|r| r["generation"] == g).unwrap_or_else(|| panic!("no generation {g}"));
    assert!(int(&rts, "gen_1_collections") > 0, "the old generation was collected");
    for g in ["0", "1"] {
        let r = row(g);
        assert_eq!(r["count"].as_u64(), Some(int(&rts, &format!("gen_{g}_collections"))), "generation {g}'s count");
        for (ours, theirs) in [("total_ms", "wall_seconds"), ("max_ms", "max_pause_seconds")] {
            let (ours, theirs) = (r[ours].as_f64().unwrap(), ms(&rts, &format!("gen_{g}_{theirs}")));
            assert!((ours - theirs).abs() <= 0.001, "generation {g}: {ours} ms against the runtime's {theirs} ms");
        }
    }
    assert!(rows.iter().all(|r| r["generation"] != "unknown"), "every collection has its statistics: {rows:?}");
    assert_eq!(row("all")["count"].as_u64(), Some(int(&rts, "num_GCs")));
    assert_eq!(row("all")["copied_bytes"].as_u64(), Some(int(&rts, "copied_bytes")), "bytes copied");

    // The heap: the largest live data after a major collection, the largest heap.
    assert_eq!(ghc["heap_max_bytes"]["live"].as_u64(), Some(int(&rts, "max_live_bytes")), "maximum residency");
    let (size, peak) = (ghc["heap_max_bytes"]["size"].as_u64().unwrap(), int(&rts, "max_mem_in_use_bytes"));
    assert!(size <= peak && peak - size <= HEAP_SLACK, "largest heap {size} B against the runtime's {peak} B");
}
