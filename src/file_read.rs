//! Reading a `File` in slices through an [`Ingest`], for the analysis
//! worker ([`crate::worker`]) and its comparisons, its second workers ([`crate::graph_worker`]) and the export worker
//! ([`crate::export_worker`], which also hashes the bytes: [`read_file_tapped`]);
//! any file's bytes slice by slice ([`each_slice`], which the SQL tables'
//! run id is hashed through);
//! a rolling Spark event log's parts one after the other as one input
//! ([`read_parts`]).

use crate::slice_feed::{FeedError, SliceFeed};
use crate::worker_io::{feed, js_error, Stop};
use js_sys::Uint8Array;
use longpole_core::{Ingest, Input};
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use web_sys::File;

/// Reads `file` in slices of `slice` bytes through an [`Ingest`].
///
/// After each slice `between(ingest, bytes)` is told how many bytes came;
/// returning false stops the reading with [`Stop::Cancelled`]. Each slice is
/// awaited, so the worker's other messages (a cancel) are handled meanwhile.
/// A file of more than one slice is read by a reader worker
/// ([`SliceFeed`]), so the next slices arrive while the core parses this
/// one; a smaller file, or one whose reader cannot start or stops (its
/// script not served, say), is read here from where the reader left it,
/// the next slice asked for before this one is parsed.
pub async fn read_file(file: &File, slice: usize, between: impl FnMut(&Ingest, u64) -> bool) -> Result<Input, Stop> {
    read_file_tapped(file, slice, |_| {}, between).await
}

/// [`read_file`], also handing every slice's bytes to `tap` before the
/// core reads them (the export worker hashes them for the run's id).
pub async fn read_file_tapped(
    file: &File,
    slice: usize,
    tap: impl FnMut(&[u8]),
    between: impl FnMut(&Ingest, u64) -> bool,
) -> Result<Input, Stop> {
    read_parts(std::slice::from_ref(file), &file.name(), slice, tap, between).await
}

/// Reads `files` one after the other as one input called `name` (a
/// rolling Spark event log's parts), as [`read_file_tapped`] reads one.
pub async fn read_parts(
    files: &[File],
    name: &str,
    slice: usize,
    mut tap: impl FnMut(&[u8]),
    mut between: impl FnMut(&Ingest, u64) -> bool,
) -> Result<Input, Stop> {
    let mut ingest = Ingest::new(name);
    ingest.expect_bytes(files.iter().map(|f| f.size() as u64).sum());
    for file in files {
        let failed = |e: String| Stop::Failed(format!("{}: cannot read the file: {e}", file.name()));
        each_slice(file, slice, failed, |bytes| {
            tap(bytes);
            feed(&mut ingest, bytes).map_err(|e| Stop::Failed(e.to_string()))?;
            if !between(&ingest, bytes.len() as u64) {
                return Err(Stop::Cancelled);
            }
            Ok(())
        })
        .await?;
    }
    ingest.finish().map_err(|e| Stop::Failed(e.to_string()))
}

/// Hands `file`'s bytes to `each`, `slice` bytes at a time, in order (by a
/// reader worker for a file of more than one slice: [`Slices`]); stops at
/// the first error of `each`, or of reading (made by `cannot_read` from
/// the browser's message).
pub async fn each_slice<E>(
    file: &File,
    slice: usize,
    cannot_read: impl Fn(String) -> E,
    mut each: impl FnMut(&[u8]) -> Result<(), E>,
) -> Result<(), E> {
    let mut buf = vec![0u8; slice.max(1)];
    let mut slices = Slices::of(file, buf.len() as f64);
    while let Some(asked) = slices.next().await {
        let array = asked.map_err(&cannot_read)?;
        let bytes = Uint8Array::new(&array);
        let n = (bytes.length() as usize).min(buf.len());
        bytes.subarray(0, n as u32).copy_to(&mut buf[..n]);
        slices.took();
        each(&buf[..n])?;
    }
    Ok(())
}

/// Where a file's slices come from: a reader worker, or this thread.
enum Slices<'a> {
    /// A reader worker's: the feed, the end of the bytes it gave so far,
    /// the file, its size and the slice's.
    Fed { feed: SliceFeed, at: f64, size: f64, step: f64, file: &'a File },
    /// Asked here, one ahead: the slice asked for (if any is left), the end
    /// of the bytes asked for so far, the file and the slice's size.
    Here { next: Option<Result<JsFuture, String>>, at: f64, file: &'a File, step: f64 },
}

impl<'a> Slices<'a> {
    /// The slices of `file`, `step` bytes each.
    fn of(file: &'a File, step: f64) -> Slices<'a> {
        let size = file.size();
        if size > step {
            if let Ok(feed) = SliceFeed::start(file, step as usize) {
                return Slices::Fed { feed, at: 0.0, size, step, file };
            }
        }
        Slices::here(file, 0.0, step)
    }

    /// The slices of `file` from byte `from`, asked for by this thread.
    fn here(file: &'a File, from: f64, step: f64) -> Slices<'a> {
        let size = file.size();
        let next = (from < size).then(|| ask_slice(file, from, (from + step).min(size)));
        Slices::Here { next, at: from, file, step }
    }

    /// The next slice's bytes (an `ArrayBuffer`), or why they could not be
    /// read; `None` after the last.
    async fn next(&mut self) -> Option<Result<JsValue, String>> {
        match self {
            Slices::Fed { feed, at, size, step, file } => {
                if *at >= *size {
                    return None;
                }
                match feed.next().await {
                    Ok(buffer) => {
                        *at = (*at + *step).min(*size);
                        Some(Ok(buffer))
                    }
                    Err(FeedError::Read(e)) => Some(Err(e)),
                    Err(FeedError::Stopped(_)) => {
                        *self = Slices::here(file, *at, *step);
                        Box::pin(self.next()).await
                    }
                }
            }
            Slices::Here { next, at, file, step } => {
                let asked = next.take()?;
                let size = file.size();
                *at = (*at + *step).min(size);
                if *at < size {
                    *next = Some(ask_slice(file, *at, (*at + *step).min(size)));
                }
                Some(match asked {
                    Ok(f) => f.await.map_err(js_error),
                    Err(e) => Err(e),
                })
            }
        }
    }

    /// Says the last slice was taken (copied out), so that the next can come.
    fn took(&self) {
        if let Slices::Fed { feed, .. } = self {
            feed.took();
        }
    }
}

/// Starts reading bytes `start..end` of `file`; the future gives them.
fn ask_slice(file: &File, start: f64, end: f64) -> Result<JsFuture, String> {
    let blob = file.slice_with_f64_and_f64(start, end).map_err(js_error)?;
    Ok(JsFuture::from(blob.array_buffer()))
}
