//! Reading the input files from disk in slices fed to the core as the
//! browser's worker feeds it (here cut where a line ends), several files
//! at once (a log and its graph.json read side by side), with a progress
//! line per file on stderr once reading has taken more than a second and
//! only when stderr is a terminal. Within a file whose reader takes chunks
//! read ahead (a distbuild log's lines, a Chrome trace's events), one
//! thread reads the next chunks and the others read their lines or events
//! ahead while this one builds, in order. A rolling Spark event log's folder is one input,
//! its `events_N_*` files read one after the other (the core's rule says
//! which, and what is missing). The inputs come
//! back in the order given, whatever the thread count, and the same as
//! when read on one thread.

use crate::chunks::LineChunks;
use anyhow::{Context, Result};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use longpole_core::diagnostics::Diagnostic;
use longpole_core::formats::spark::rolling::{self, Grouped};
use longpole_core::formats::{Prepared, Preparer};
use longpole_core::{Ingest, Input};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Size of the slices files are read in.
const SLICE: usize = 4 << 20;
/// Size of the chunks whose lines are read ahead: small enough that the
/// reconciler soon has work, and that the chunks in flight stay small.
const AHEAD: usize = 256 << 10;
/// Chunks read ahead and waiting to be fed, at most.
const IN_FLIGHT: usize = 2;
/// Reads shorter than this show no progress.
const QUIET_FOR: Duration = Duration::from_secs(1);

/// The progress lines, drawn once reading has taken [`QUIET_FOR`], and
/// the bytes read over all files, for whoever else shows progress.
struct Progress {
    multi: MultiProgress,
    started: Instant,
    shown: AtomicBool,
    done: Arc<AtomicU64>,
}

impl Progress {
    fn new(done: Arc<AtomicU64>) -> Self {
        Progress {
            multi: MultiProgress::with_draw_target(ProgressDrawTarget::hidden()),
            started: Instant::now(),
            shown: AtomicBool::new(false),
            done,
        }
    }

    /// `bytes` more of `bar`'s file read.
    fn advance(&self, bar: &ProgressBar, bytes: usize) {
        bar.inc(bytes as u64);
        self.done.fetch_add(bytes as u64, Ordering::Relaxed);
        self.tick();
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

/// Reads `paths` on up to `threads` threads (with more than one, a file
/// whose chunks can be read ahead has a thread of its own for that),
/// keeping every byte of each (for rewriting and dumps) when
/// `keep_source`; the first failure in the order given is the error.
pub fn read_all(paths: &[&Path], threads: usize, keep_source: bool) -> Result<Vec<Input>> {
    read_counting(paths, threads, keep_source, Arc::default())
}

/// [`read_all`], adding the bytes read to `done` as they are read (for
/// `longpole open --native`'s progress messages).
pub fn read_counting(paths: &[&Path], threads: usize, keep_source: bool, done: Arc<AtomicU64>) -> Result<Vec<Input>> {
    let names: Vec<String> = paths
        .iter()
        .map(|p| p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned()))
        .collect();
    read_in(paths, &names, threads, keep_source, &Progress::new(done))
}

/// [`read_all`], each input named `names[i]` rather than by its file name
/// (an included ninja file by the path its manifest gives).
pub fn read_named(paths: &[&Path], names: &[String], threads: usize, keep_source: bool) -> Result<Vec<Input>> {
    read_in(paths, names, threads, keep_source, &Progress::new(Arc::default()))
}

/// [`read_named`], its progress shown by `progress`.
fn read_in(
    paths: &[&Path],
    names: &[String],
    threads: usize,
    keep_source: bool,
    progress: &Progress,
) -> Result<Vec<Input>> {
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<Result<Input>>>> = paths.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, paths.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let (Some(path), Some(name)) = (paths.get(i), names.get(i)) else { break };
                let read = read(path, name, progress, threads, keep_source);
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

/// The bytes [`read_all`] reads of `path`: its file's, or a rolling Spark
/// event log's parts' (0 for what cannot be listed or read).
pub fn bytes_of(path: &Path) -> u64 {
    let files = parts(path).map(|(files, _)| files).unwrap_or_default();
    files.iter().filter_map(|f| std::fs::metadata(f).ok()).map(|m| m.len()).sum()
}

/// The files of `path`: itself, or for a rolling Spark event log (an
/// `eventlog_v2_*` folder) its parts by the core's rule
/// ([`longpole_core::formats::spark::rolling`]), read as one input, with what
/// that rule says is missing or left out.
fn parts(path: &Path) -> Result<(Vec<PathBuf>, Vec<Diagnostic>)> {
    let folder = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if !(folder.starts_with(rolling::FOLDER_PREFIX) && path.is_dir()) {
        return Ok((vec![path.to_path_buf()], Vec::new()));
    }
    let mut names = std::fs::read_dir(path)
        .with_context(|| format!("cannot list {}", path.display()))?
        .map(|e| Ok(e?.file_name().to_string_lossy().into_owned()))
        .collect::<std::io::Result<Vec<String>>>()
        .with_context(|| format!("cannot list {}", path.display()))?;
    names.sort();
    let paths: Vec<String> = names.iter().map(|n| format!("{folder}/{n}")).collect();
    let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
    let log = rolling::group(&refs).into_iter().find_map(|g| match g {
        Grouped::Rolling(log) => Some(log),
        Grouped::Single(_) => None,
    });
    let Some(log) = log.filter(|l| !l.parts.is_empty()) else {
        anyhow::bail!("{} holds no events_N_* file of a rolling Spark event log", path.display());
    };
    let files = log.parts.iter().filter_map(|&i| names.get(i)).map(|n| path.join(n)).collect();
    Ok((files, log.diagnostics))
}

/// Reads one file (or a rolling event log's files, one after the other),
/// keeping every byte of it when `keep_source`; with more than one thread,
/// a single file's chunks ahead on another.
fn read(path: &Path, name: &str, progress: &Progress, threads: usize, keep_source: bool) -> Result<Input> {
    let (parts, said) = parts(path)?;
    let mut ingest = Ingest::new(name);
    if keep_source {
        ingest.keep_source();
    }
    let len: Option<u64> = parts.iter().map(|p| std::fs::metadata(p).map(|m| m.len()).ok()).sum();
    if let Some(len) = len {
        ingest.expect_bytes(len);
    }
    let bar = progress.bar(name, len.unwrap_or(0));
    let single = parts.len() == 1;
    for part in &parts {
        let file = File::open(part).with_context(|| format!("cannot open {}", part.display()))?;
        // The first chunk is small: once it tells the format, a file whose
        // chunks are read ahead goes on in chunks of that size, others in slices.
        let mut chunks = LineChunks::new(file, AHEAD);
        let cannot_read = || format!("cannot read {}", part.display());
        let mut buf = Vec::new();
        while let Some(chunk) = chunks.next(buf).with_context(cannot_read)? {
            ingest.feed(&chunk)?;
            progress.advance(&bar, chunk.len());
            buf = chunk;
            if let Some(preparer) = ingest.preparer().filter(|_| threads > 1 && single) {
                read_ahead(&mut ingest, chunks, preparer, threads, &bar, progress).with_context(cannot_read)?;
                break;
            }
            chunks.resize(SLICE);
        }
    }
    bar.finish_and_clear();
    let mut input = ingest.finish()?;
    said.into_iter().for_each(|d| input.info.diagnostics.push(d));
    Ok(input)
}

/// A chunk with its lines or events read ahead.
type Ahead = (Vec<u8>, Prepared);

/// Feeds the rest of the file to `ingest`, its chunks read on one thread
/// and their lines or events read ahead on `preparers` others (chunk `i`
/// on preparer `i % preparers`) while this one feeds the chunks before
/// them, in order. The queues are short, so a few chunks are in flight at
/// most, and their memory goes back to be used again.
fn read_ahead(
    ingest: &mut Ingest,
    mut chunks: LineChunks,
    preparer: Preparer,
    preparers: usize,
    bar: &ProgressBar,
    progress: &Progress,
) -> Result<()> {
    let preparers = preparers.max(1);
    std::thread::scope(|scope| {
        let (spare_tx, spare_rx) = sync_channel::<Ahead>(IN_FLIGHT * preparers + 1);
        let mut to_prepare = Vec::new();
        let mut prepared_rx = Vec::new();
        for _ in 0..preparers {
            let (job_tx, job_rx) = sync_channel::<Ahead>(1);
            let (done_tx, done_rx) = sync_channel::<Ahead>(IN_FLIGHT);
            scope.spawn(move || {
                for (chunk, mut prepared) in job_rx {
                    preparer(&chunk, &mut prepared);
                    if done_tx.send((chunk, prepared)).is_err() {
                        return;
                    }
                }
            });
            to_prepare.push(job_tx);
            prepared_rx.push(done_rx);
        }
        let reader = scope.spawn(move || -> std::io::Result<()> {
            for job_tx in to_prepare.iter().cycle() {
                let (buf, prepared) = spare_rx.try_recv().unwrap_or_default();
                let Some(chunk) = chunks.next(buf)? else { return Ok(()) };
                if job_tx.send((chunk, prepared)).is_err() {
                    return Ok(());
                }
            }
            Ok(())
        });
        // Chunk `i` comes from preparer `i % preparers`; the first that has
        // none left means the file has no chunk `i`.
        let fed =
            prepared_rx.iter().cycle().map_while(|rx| rx.recv().ok()).try_for_each(|(chunk, prepared)| -> Result<()> {
                ingest.feed_prepared(&chunk, &prepared)?;
                progress.advance(bar, chunk.len());
                // A full queue means enough spares: these are dropped.
                let _ = spare_tx.try_send((chunk, prepared));
                Ok(())
            });
        // Stops the preparers and the reader (their queues close) if feeding failed.
        drop(prepared_rx);
        let read = reader.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        fed?;
        Ok(read?)
    })
}
