//! `longpole open --native`: the files read and analysed in this process,
//! as `analyze` reads them (on its threads, from disk), beginning as soon
//! as the server starts; the page's questions answered by the same code
//! that answers them in the tab's worker ([`longpole_answer::Session`]),
//! the answers sent over the WebSocket ([`crate::socket`]).

use crate::{includes, read};
use longpole_answer::protocol::{Request, Response, RunId};
use longpole_answer::{Loaded, Session, Sink};
use longpole_core::reconcile::reconcile_with;
use longpole_core::report::{in_turn, Join};
use longpole_core::Analysis;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

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
        });
        let reader = native.clone();
        std::thread::spawn(move || {
            let read = analyse(&files, threads).and_then(|a| {
                let b = if vs.is_empty() { None } else { Some(analyse(&vs, threads)?) };
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

    /// Waits until the files are read (or could not be).
    fn wait(&self) -> MutexGuard<'_, Reading> {
        let reading = lock(&self.reading);
        self.read.wait_while(reading, |r| matches!(r, Reading::Going)).unwrap_or_else(PoisonError::into_inner)
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
                match &mut *self.wait() {
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
            match &mut *self.wait() {
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

/// Reads `paths` as `longpole analyze` does and analyses them together.
fn analyse(paths: &[PathBuf], threads: usize) -> anyhow::Result<Analysis> {
    let paths: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    let mut inputs = read::read_all(&paths, threads, false)?;
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
