//! Reading a `File` in slices through an [`Ingest`], for the analysis
//! worker ([`crate::worker`]) and its second workers
//! ([`crate::graph_worker`]); a big file's chunks may be read ahead by
//! another second worker meanwhile ([`crate::ahead_worker`]).

use crate::ahead_worker::{feed_ahead, AheadRead, AheadTally, AHEAD_MIN_BYTES};
use crate::line_cells::Cutter;
use crate::worker_io::{feed, js_error, Stop, FEED};
use js_sys::Uint8Array;
use longpole_core::{Ingest, Input};
use wasm_bindgen_futures::JsFuture;
use web_sys::File;

/// Reads `file` in slices of `slice` bytes through an [`Ingest`].
///
/// After each slice `between(ingest, bytes)` is told how many bytes came;
/// returning false stops the reading with [`Stop::Cancelled`]. Each slice is
/// awaited, so the worker's other messages (a cancel) are handled meanwhile.
/// The next slice is asked for before this one is parsed, so the browser
/// reads the file while the core parses it. With `ahead`, a file of at
/// least [`AHEAD_MIN_BYTES`] whose format reads chunks ahead has them read
/// ahead by a second worker ([`AheadRead`]), and `ahead` tallies what it did.
pub async fn read_file(
    file: &File,
    slice: usize,
    ahead: Option<&AheadTally>,
    mut between: impl FnMut(&Ingest, u64) -> bool,
) -> Result<Input, Stop> {
    let name = file.name();
    let failed = |e: String| Stop::Failed(format!("{name}: cannot read the file: {e}"));
    let mut ingest = Ingest::new(&name);
    let mut buf = vec![0u8; slice.max(1)];
    let size = file.size();
    ingest.expect_bytes(size as u64);
    let step = buf.len() as f64;
    let mut next = (size > 0.0).then(|| ask_slice(file, 0.0, step.min(size)));
    let (mut at, mut reader): (f64, Option<(AheadRead, Cutter)>) = (0.0, None);
    let mut may_read_ahead = ahead.is_some() && size >= AHEAD_MIN_BYTES && slice % FEED == 0;
    while let Some(asked) = next.take() {
        let array = asked.map_err(failed)?.await.map_err(|e| failed(js_error(e)))?;
        let slice_at = at as u64;
        at = (at + step).min(size);
        if at < size {
            next = Some(ask_slice(file, at, (at + step).min(size)));
        }
        let bytes = Uint8Array::new(&array);
        let n = (bytes.length() as usize).min(buf.len());
        bytes.subarray(0, n as u32).copy_to(&mut buf[..n]);
        match (&mut reader, ahead) {
            (Some((r, cutter)), Some(tally)) => {
                let data = &buf[..n];
                for cut in cutter.cuts(slice_at, data, at >= size) {
                    let piece = cutter.bytes(slice_at, data, &cut);
                    let fed = match cut.chunk {
                        Some(k) => feed_ahead(&mut ingest, r, tally, (k, cut.from), &piece).await,
                        None => feed(&mut ingest, &piece),
                    };
                    fed.map_err(|e| Stop::Failed(e.to_string()))?;
                }
                cutter.carry(slice_at, data);
            }
            _ => feed(&mut ingest, &buf[..n]).map_err(|e| Stop::Failed(e.to_string()))?,
        }
        if !between(&ingest, n as u64) {
            return Err(Stop::Cancelled);
        }
        if may_read_ahead && at < size {
            if let Some(format) = ingest.progress().format {
                may_read_ahead = false;
                // Without a second worker (one that cannot start), the file is read here alone.
                let from = at as u64;
                reader = ingest
                    .preparer()
                    .and_then(|_| AheadRead::start(file, format, from).ok())
                    .map(|r| (r, Cutter::new(FEED as u64, from)));
            }
        }
    }
    ingest.finish().map_err(|e| Stop::Failed(e.to_string()))
}

/// Starts reading bytes `start..end` of `file`; the future gives them.
fn ask_slice(file: &File, start: f64, end: f64) -> Result<JsFuture, String> {
    let blob = file.slice_with_f64_and_f64(start, end).map_err(js_error)?;
    Ok(JsFuture::from(blob.array_buffer()))
}
