//! `longpole open --native`: the files read and analysed in this process,
//! as `analyze` reads them (on its threads, from disk), beginning as soon
//! as the server starts; the page's questions answered by the same code
//! that answers them in the tab's worker ([`longpole_answer::Session`]),
//! the answers sent over the WebSocket ([`crate::socket`]).

use crate::{includes, read};
use longpole_answer::protocol::{Progress, Request, Response, RunId};
use longpole_answer::{Loaded, Session, Sink};
use longpole_core::reconcile::reconcile_with;
use longpole_core::report::{in_turn, Join};
use longpole_core::Analysis;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// How often a page waiting for the files hears how far their reading has come.
const PROGRESS_EVERY: Duration = Duration::from_millis(200);

/// What a native page says of files it holds (dropped or picked).
const NOT_HERE: &str = "this page shows what the longpole process read (longpole open --native); to open other \
     files, run longpole open with them, or open the app without --native";

/// How far the reading of the files has come.
enum Reading {
    /// Still reading.
    Going,
    /// A file could not be read: why.
    Failed(String),
    /// Read: side A and, with `--compare`, side B, each until the page's
    /// first request takes it into the session.
    Read(Option<Analysis>, Option<Analysis>),
}

/// The files of one `longpole open --native`, read or being read, and
/// what the page's questions are about.
pub struct Native {
    reading: Mutex<Reading>,
    /// Told when the reading ends.
    read: Condvar,
    session: Mutex<Session>,
    /// Bytes read so far, over both sides.
    done: Arc<AtomicU64>,
    /// Bytes of all the files, as they are read.
    total: u64,
    /// The first file's name, which the progress messages give.
    first: String,
    /// When the reading began.
    began: Instant,
}

/// Locks `m`, whatever a thread that panicked while holding it left.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Native {
    /// Starts reading `files` (side A's, with `vs` side B's) on `threads`
    /// threads, in a thread of its own.
    pub fn start(files: Vec<PathBuf>, vs: Vec<PathBuf>, threads: usize) -> Arc<Native> {
        let native = Arc::new(Native {
            reading: Mutex::new(Reading::Going),
            read: Condvar::new(),
            session: Mutex::new(Session::default()),
            done: Arc::default(),
            total: files.iter().chain(&vs).map(|p| read::bytes_of(p)).sum(),
            first: files
                .first()
                .and_then(|p| p.file_name())
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            began: Instant::now(),
        });
        let reader = native.clone();
        std::thread::spawn(move || {
            let done = &reader.done;
            let read = analyse(&files, threads, done).and_then(|a| {
                let b = if vs.is_empty() { None } else { Some(analyse(&vs, threads, done)?) };
                Ok((a, b))
            });
            *lock(&reader.reading) = match read {
                Ok((a, b)) => Reading::Read(Some(a), b),
                Err(e) => Reading::Failed(format!("{e:#}")),
            };
            reader.read.notify_all();
        });
        native
    }

    /// Waits until the files are read (or could not be), telling `sink`
    /// how far the reading has come every [`PROGRESS_EVERY`], as run `run`'s progress.
    fn wait(&self, run: RunId, sink: &mut dyn Sink) -> MutexGuard<'_, Reading> {
        let mut reading = lock(&self.reading);
        loop {
            let waited = self.read.wait_timeout_while(reading, PROGRESS_EVERY, |r| matches!(r, Reading::Going));
            let timed_out;
            (reading, timed_out) = match waited {
                Ok((guard, t)) => (guard, t.timed_out()),
                Err(poisoned) => (poisoned.into_inner().0, false),
            };
            if !timed_out || !matches!(*reading, Reading::Going) {
                return reading;
            }
            sink.send(&Response::Progress(self.progress(run)));
        }
    }

    /// How far the reading has come, as run `run`'s progress.
    fn progress(&self, run: RunId) -> Progress {
        let bytes_done = self.done.load(Ordering::Relaxed);
        let elapsed_ms = self.began.elapsed().as_secs_f64() * 1e3;
        Progress {
            run,
            file: 0,
            name: self.first.clone(),
            bytes_done,
            bytes_total: Some(self.total),
            mb_per_s: bytes_done as f64 / 1e3 / elapsed_ms.max(1.0),
            elapsed_ms,
            format: None,
            lines: 0,
            diagnostics: 0,
        }
    }

    /// Answers one of the page's requests into `sink`, as the worker
    /// would. A request to analyse a link's inputs (whatever they are: this
    /// process reads only the files it was started on) is answered with the
    /// files read here, once they are; a request to compare a link's two
    /// sides, with the two sides given to `--compare`; a request about files
    /// the page holds, with a failure saying how to open them.
    pub fn answer(&self, request: Request, sink: &mut dyn Sink) {
        let began = Instant::now();
        let elapsed_ms = move || began.elapsed().as_secs_f64() * 1e3;
        match request {
            Request::AnalyzeUrls { run, .. } => self.load(run, &elapsed_ms, sink),
            // Files the page holds (dropped or picked) cannot come over the socket.
            Request::Analyze { run, .. } | Request::CompareFiles { run, a_files: None, .. } => {
                sink.send(&Response::Failed { run, message: NOT_HERE.to_owned() })
            }
            Request::CompareFiles { run, settings, .. } => {
                let mut guard = lock(&self.session);
                let session = &mut *guard;
                if let Some(c) = session.compared.as_mut() {
                    c.renumber(run);
                    return c.answer(session.loaded.as_ref(), settings, &elapsed_ms, sink);
                }
                match &mut *self.wait(run, sink) {
                    // Side A read here, or already loaded as the page's run.
                    Reading::Read(a, b) if b.is_some() && (a.is_some() || session.loaded.is_some()) => {
                        let Some(b) = b.take() else { return };
                        session.compare(run, (a.take(), b), settings, &elapsed_ms, sink);
                    }
                    Reading::Failed(message) => sink.send(&Response::Failed { run, message: message.clone() }),
                    Reading::Read(..) | Reading::Going => {
                        let message = "this longpole open was not started with two sides (--compare)".to_owned();
                        sink.send(&Response::Failed { run, message });
                    }
                }
            }
            other => lock(&self.session).answer(other, &elapsed_ms, sink),
        }
    }

    /// Sends the run read here as run `run`'s result.
    fn load(&self, run: RunId, elapsed_ms: &dyn Fn() -> f64, sink: &mut dyn Sink) {
        let mut session = lock(&self.session);
        if session.loaded.is_none() {
            match &mut *self.wait(run, sink) {
                Reading::Read(a, _) => session.loaded = a.take().map(|a| Loaded::of(run, a)),
                Reading::Failed(message) => return sink.send(&Response::Failed { run, message: message.clone() }),
                Reading::Going => {}
            }
        }
        let Some(loaded) = session.loaded.as_mut() else {
            let message = "this longpole open holds a comparison: open it with its link".to_owned();
            return sink.send(&Response::Failed { run, message });
        };
        loaded.run = run;
        sink.send(&loaded.done(elapsed_ms(), peak_memory()));
    }
}

/// Reads `paths` as `longpole analyze` does, adding the bytes read to
/// `done`, and analyses them together.
fn analyse(paths: &[PathBuf], threads: usize, done: &Arc<AtomicU64>) -> anyhow::Result<Analysis> {
    let paths: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    let mut inputs = read::read_counting(&paths, threads, false, done.clone())?;
    includes::read_includes(&mut inputs, &paths, threads)?;
    let join: Join<'_> = if threads > 1 { &crate::both } else { &in_turn };
    Ok(reconcile_with(inputs, join))
}

/// The most memory this process has held, bytes (Linux's `VmHWM`; 0
/// where the system does not say).
fn peak_memory() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kib = status.lines().find_map(|l| l.strip_prefix("VmHWM:")?.trim().strip_suffix("kB")?.trim().parse().ok());
    kib.map_or(0, |k: u64| k * 1024)
}
