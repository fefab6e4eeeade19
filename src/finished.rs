//! What a finished run sends the page ([`conclude`]), and what the worker
//! keeps of it to answer the views' questions ([`Loaded`], shared with
//! `longpole open --native`); used by a real run and the warm-up.

use crate::protocol::{Response, RunId};
use crate::worker_io::memory_bytes;
pub use longpole_answer::Loaded;
use longpole_core::Analysis;

/// What run `run`, begun at `began` (ms since the epoch), sends the page
/// once its files are read into `analysis`, and what the worker keeps for
/// the views' questions. `with_sides` is the memory the second workers held
/// with this one (see `read_all` in [`crate::worker`]).
pub fn conclude(run: RunId, analysis: Analysis, began: f64, with_sides: u64) -> (Response, Loaded) {
    let loaded = Loaded::of(run, analysis);
    let response = loaded.done(js_sys::Date::now() - began, memory_bytes().max(with_sides));
    (response, loaded)
}
