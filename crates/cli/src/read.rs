//! Reading the input files from disk in slices, exactly as the browser's
//! worker does, several files at once (a log and its graph.json read side by
//! side), with a progress line per file on stderr once reading has taken
//! more than a second and only when stderr is a terminal. The inputs come
//! back in the order given, whatever the thread count.

use anyhow::{Context, Result};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use longpole_core::{Ingest, Input};
use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Size of the slices files are read in.
const SLICE: usize = 4 << 20;
/// Reads shorter than this show no progress.
const QUIET_FOR: Duration = Duration::from_secs(1);

/// The progress lines, drawn once reading has taken [`QUIET_FOR`].
struct Progress {
    multi: MultiProgress,
    started: Instant,
    shown: AtomicBool,
}

impl Progress {
    fn new() -> Self {
        Progress {
            multi: MultiProgress::with_draw_target(ProgressDrawTarget::hidden()),
            started: Instant::now(),
            shown: AtomicBool::new(false),
        }
    }

    /// A bar for one file of `total` bytes.
    fn bar(&self, name: &str, total: u64) -> ProgressBar {
        let style = ProgressStyle::with_template(
            "{prefix:20!} {bar:30} {bytes}/{total_bytes} {binary_bytes_per_sec} {eta} left",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        self.multi.add(ProgressBar::new(total).with_style(style).with_prefix(name.to_string()))
    }

    /// Shows the lines on stderr (if it is a terminal) once reading took long enough.
    fn tick(&self) {
        if !self.shown.load(Ordering::Relaxed) && self.started.elapsed() >= QUIET_FOR {
            self.shown.store(true, Ordering::Relaxed);
            // `stderr()` draws nothing when stderr is not a terminal.
            self.multi.set_draw_target(ProgressDrawTarget::stderr());
        }
    }
}

/// Reads `paths` on up to `threads` threads, keeping every byte of each
/// (for rewriting and dumps) when `keep_source`; the first failure in the
/// order given is the error.
pub fn read_all(paths: &[&Path], threads: usize, keep_source: bool) -> Result<Vec<Input>> {
    let progress = Progress::new();
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<Result<Input>>>> = paths.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, paths.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(path) = paths.get(i) else { break };
                let read = read(path, &progress, keep_source);
                *results[i].lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(read);
            });
        }
    });
    progress.multi.clear().context("cannot clear the progress lines")?;
    results
        .into_iter()
        .zip(paths)
        .map(|(r, path)| {
            r.into_inner()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .with_context(|| format!("{} was not read: its reading thread stopped", path.display()))?
        })
        .collect()
}

/// Reads one file.
fn read(path: &Path, progress: &Progress, keep_source: bool) -> Result<Input> {
    let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    let mut file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut ingest = Ingest::new(&name);
    if keep_source {
        ingest.keep_source();
    }
    let len = file.metadata().map(|m| m.len()).ok();
    if let Some(len) = len {
        ingest.expect_bytes(len);
    }
    let bar = progress.bar(&name, len.unwrap_or(0));
    let mut buf = vec![0; SLICE];
    loop {
        let n = file.read(&mut buf).with_context(|| format!("cannot read {}", path.display()))?;
        if n == 0 {
            break;
        }
        ingest.feed(&buf[..n])?;
        bar.inc(n as u64);
        progress.tick();
    }
    bar.finish_and_clear();
    Ok(ingest.finish()?)
}
