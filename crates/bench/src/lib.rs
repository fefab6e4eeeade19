//! What the benchmark binaries share: where generated inputs live, reading
//! a file into the core as the CLI does, peak memory, and best-of-N runs of
//! a measurement in fresh processes.

pub mod counting;

use longpole_core::{Ingest, Input};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// Measurements per input; the fastest is reported (noise only adds time).
pub const RUNS: usize = 3;

/// The folder of generated inputs, `target/bench-data/`, created if needed.
pub fn data_dir() -> std::io::Result<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/bench-data");
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// Reads a file into the core in 4 MiB slices, its every byte kept (so that
/// round trips can be measured); gives the input and its size.
pub fn ingest_file(path: &Path) -> Result<(Input, u64), Box<dyn std::error::Error>> {
    let mut file = File::open(path)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut ingest = Ingest::new(&name);
    ingest.keep_source();
    ingest.expect_bytes(file.metadata()?.len());
    let mut buf = vec![0u8; 4 << 20];
    let mut bytes = 0u64;
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        bytes += n as u64;
        ingest.feed(&buf[..n])?;
    }
    Ok((ingest.finish()?, bytes))
}

/// Peak resident memory of this process, from /proc (Linux), in bytes.
pub fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kb| kb * 1024)
}

/// Runs this executable with `--measure PATH` [`RUNS`] times, each in a
/// fresh process, and gives the tab-separated numbers of the run whose
/// field `key` was smallest.
pub fn best_of(path: &Path, key: usize) -> Result<Vec<f64>, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut best: Option<Vec<f64>> = None;
    for _ in 0..RUNS {
        let out = Command::new(&exe).arg("--measure").arg(path).output().map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).into_owned());
        }
        let text = String::from_utf8_lossy(&out.stdout);
        let f: Vec<f64> = text.trim().split('\t').filter_map(|x| x.parse().ok()).collect();
        if f.len() <= key {
            return Err(format!("unexpected output {text:?}"));
        }
        if best.as_ref().is_none_or(|b| f[key] < b[key]) {
            best = Some(f);
        }
    }
    best.ok_or_else(|| "no run".to_owned())
}

/// A throughput cell: `mb` megabytes in `secs` seconds, as `332 MB/s (603 ms)`.
pub fn rate(mb: f64, secs: f64) -> String {
    format!("{:.0} MB/s ({:.0} ms)", mb / secs, secs * 1000.0)
}

/// Any error of a benchmark.
pub type BenchError = Box<dyn std::error::Error>;

/// What a benchmark binary is made of.
pub struct Bench<'a> {
    /// Its name, for messages.
    pub name: &'a str,
    /// Input sizes in MB when none are given.
    pub default_sizes: &'a [u64],
    /// The Markdown table's header row.
    pub header: &'a str,
    /// Numbers a measurement prints.
    pub fields: usize,
    /// The number whose smallest value picks the best run.
    pub key: usize,
    /// Makes (or finds) the input of a size.
    pub input: &'a dyn Fn(u64) -> Result<PathBuf, BenchError>,
    /// Measures an input once, in this process, printing tab-separated numbers.
    pub measure: &'a dyn Fn(&Path) -> Result<(), BenchError>,
    /// The table row of the best run's numbers.
    pub row: &'a dyn Fn(&[f64]) -> String,
}

impl Bench<'_> {
    /// Runs as the command line says: `--measure PATH` measures once;
    /// otherwise each size (the arguments, or the defaults) is measured
    /// [`RUNS`] times in fresh processes and its best run printed as a row.
    pub fn main(&self) -> ExitCode {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let fail = |e: &dyn std::fmt::Display| {
            eprintln!("{}: {e}", self.name);
            ExitCode::FAILURE
        };
        if args.first().map(String::as_str) == Some("--measure") {
            return match args.get(1).map(|p| (self.measure)(Path::new(p))) {
                Some(Ok(())) => ExitCode::SUCCESS,
                Some(Err(e)) => fail(&e),
                None => fail(&"--measure needs a file"),
            };
        }
        let sizes: Vec<u64> = if args.is_empty() {
            self.default_sizes.to_vec()
        } else {
            args.iter().filter_map(|a| a.parse().ok()).collect()
        };
        println!("{}", self.header);
        println!("{}|", "|---".repeat(self.header.matches('|').count() - 1));
        for mb in sizes {
            let path = match (self.input)(mb) {
                Ok(p) => p,
                Err(e) => return fail(&format!("cannot make the {mb} MB input: {e}")),
            };
            match best_of(&path, self.key) {
                Ok(f) if f.len() >= self.fields => println!("{}", (self.row)(&f)),
                Ok(f) => return fail(&format!("unexpected measurement {f:?}")),
                Err(e) => return fail(&e),
            }
        }
        ExitCode::SUCCESS
    }
}
