//! `longpole export --to parquet`: many logs to the fleet tables, on
//! every core. The inputs (files, folders walked, glob patterns) are
//! grouped into runs as the core groups them
//! ([`longpole_core::reconcile::groups`]); each worker reads one run at a
//! time, hashes its bytes for the run's id, and writes its three files,
//! so memory holds a run per worker however many there are. A run that
//! cannot be read is reported and skipped.

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use longpole_core::export::parquet::{analysis_files, RunIdHasher};
use longpole_core::reconcile::groups::{groups, FileFormat};
use longpole_core::reconcile::reconcile;
use longpole_core::{Ingest, Input};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Bytes read of a file to tell its format.
const SNIFF: usize = 64 << 10;
/// Size of the slices files are read in.
const SLICE: usize = 1 << 20;

/// The files `args` name: files as given, folders walked (sorted), glob
/// patterns expanded; each once, in that order.
pub fn expand(args: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for arg in args {
        if arg.exists() {
            walk(arg, &mut files)?;
            continue;
        }
        let pattern = arg.to_string_lossy();
        let mut matched = false;
        for entry in glob::glob(&pattern).with_context(|| format!("{pattern} is not a glob pattern"))? {
            walk(&entry.with_context(|| format!("cannot read a match of {pattern}"))?, &mut files)?;
            matched = true;
        }
        if !matched {
            bail!("{} does not exist and matches no file", arg.display());
        }
    }
    let mut seen = std::collections::HashSet::new();
    files.retain(|f| seen.insert(f.clone()));
    Ok(files)
}

/// `path` if it is a file, the files under it if it is a folder.
fn walk(path: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    if !path.is_dir() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .with_context(|| format!("cannot list {}", path.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<_>>()
        .with_context(|| format!("cannot list {}", path.display()))?;
    entries.sort();
    entries.iter().try_for_each(|e| walk(e, out))
}

/// The format of `path` from its first bytes (all of a short file), if they tell it.
fn sniff(path: &Path) -> Option<longpole_core::model::FormatId> {
    let mut head = Vec::with_capacity(SNIFF);
    File::open(path).ok()?.take(SNIFF as u64).read_to_end(&mut head).ok()?;
    let mut ingest = Ingest::new(&path.file_name()?.to_string_lossy());
    ingest.feed(&head).ok()?;
    if head.len() < SNIFF {
        // The whole file: detection settles at its end.
        return ingest.finish().ok().map(|input| input.info.format);
    }
    ingest.progress().format
}

/// Reads one file into an input, hashing its bytes into `id`.
fn read(path: &Path, id: &mut RunIdHasher, bytes: &AtomicU64) -> Result<Input> {
    let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    let mut file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut ingest = Ingest::new(&name);
    if let Ok(meta) = file.metadata() {
        ingest.expect_bytes(meta.len());
    }
    let mut buf = vec![0; SLICE];
    loop {
        let n = file.read(&mut buf).with_context(|| format!("cannot read {}", path.display()))?;
        if n == 0 {
            break;
        }
        id.update(&buf[..n]);
        bytes.fetch_add(n as u64, Ordering::Relaxed);
        ingest.feed(&buf[..n])?;
    }
    id.end_input();
    Ok(ingest.finish()?)
}

/// Reads the run of `paths` and writes its tables under `out`; the number
/// of runs written.
fn export_run(paths: &[&Path], out: &Path, bytes: &AtomicU64) -> Result<usize> {
    let mut id = RunIdHasher::new();
    let mut inputs = paths.iter().map(|p| read(p, &mut id, bytes)).collect::<Result<Vec<_>>>()?;
    crate::includes::read_includes(&mut inputs, paths, 1)?;
    let source = inputs.iter().map(|i| i.info.name.clone()).collect::<Vec<_>>().join(" + ");
    let analysis = reconcile(inputs);
    if analysis.datasets.is_empty() {
        bail!("{source} holds no run");
    }
    let files = analysis_files(&analysis, &id.finish(), &source).context("cannot make the tables")?;
    for f in &files {
        for (name, data) in f.named() {
            let path = out.join(name);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
            }
            std::fs::write(&path, data).with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    Ok(files.len())
}

/// Exports every run in `args` to `out` on `threads` threads. Each run
/// that failed is reported on stderr with its error; if any did, the
/// result is an error saying how many.
pub fn export(args: &[PathBuf], out: &Path, threads: usize) -> Result<()> {
    let files = expand(args)?;
    let formats: Vec<_> = parallel(files.len(), threads, |i| sniff(&files[i]));
    let folders: Vec<String> =
        files.iter().map(|f| f.parent().map_or_else(String::new, |p| p.to_string_lossy().into_owned())).collect();
    let described: Vec<FileFormat<'_>> =
        folders.iter().zip(&formats).map(|(folder, &format)| FileFormat { folder, format }).collect();
    let groups = groups(&described);
    let bar = ProgressBar::with_draw_target(Some(groups.len() as u64), ProgressDrawTarget::stderr()).with_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} runs {msg} {eta} left")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let (bytes, started) = (AtomicU64::new(0), Instant::now());
    let results = parallel(groups.len(), threads, |g| {
        let paths: Vec<&Path> = groups[g].iter().map(|&i| files[i].as_path()).collect();
        let result = export_run(&paths, out, &bytes);
        let mb = bytes.load(Ordering::Relaxed) as f64 / 1e6;
        bar.set_message(format!("{:.1} MB/s", mb / started.elapsed().as_secs_f64().max(1e-9)));
        bar.inc(1);
        result
    });
    bar.finish_and_clear();
    let (mut written, mut failed) = (0, 0);
    for (g, result) in groups.iter().zip(results) {
        match result {
            Ok(n) => written += n,
            Err(e) => {
                let names: Vec<String> = g.iter().map(|&i| files[i].display().to_string()).collect();
                eprintln!("longpole: skipped {}: {e:#}", names.join(" + "));
                failed += 1;
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "longpole: wrote {} runs from {} inputs ({:.1} MB) to {} in {secs:.2} s",
        written,
        files.len(),
        bytes.into_inner() as f64 / 1e6,
        out.display()
    );
    if failed > 0 {
        bail!("{failed} of {} runs failed (each is reported above)", groups.len());
    }
    Ok(())
}

/// `f(0..n)` on up to `threads` threads, the results in order.
fn parallel<T: Send>(n: usize, threads: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<T>>> = (0..n).map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, n.max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let r = f(i);
                *results[i].lock().unwrap_or_else(|p| p.into_inner()) = Some(r);
            });
        }
    });
    results.into_iter().filter_map(|r| r.into_inner().unwrap_or_else(|p| p.into_inner())).collect()
}
