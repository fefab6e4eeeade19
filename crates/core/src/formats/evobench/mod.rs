//! evobench benchmark logs: what the evobench probes library writes when a
//! program built with it runs with `EVOBENCH_LOG=<path>`.
//!
//! **Who writes it.** `evobench-probes` (C++, GenSpectrum/evobench, ETH
//! Zurich); `evobench-tools` evaluates it. Spec: `shared/specs/other-formats.md`
//! §3. `evobench run` compresses finished logs with zstd (`evobench.log.zstd`);
//! the ingest layer decompresses, so the reader sees plain NDJSON.
//!
//! **A record.** One JSON object per line, externally tagged:
//!
//! ```text
//! {"Start":{"evobench_log_version":1,"evobench_version":"v0.1.1"}}    <- line 1, always
//! {"Metadata":{"username":…,"hostname":…,"uname":{…},"compiler":…}}  <- line 2
//! {"TS":{"pn":"main|fib",          <- scope start; TE ends it (same pn)
//!        "pid":14592,"tid":14592,  <- thread id: scopes pair per thread
//!        "n":1,                    <- EVOBENCH_SCOPE_EVERY's n: the span's weight (absent: 1)
//!        "r":{"sec":…,"nsec":…},   <- real time (`t` before 2025-04)
//!        "u":{"sec":…,"usec":…},"s":{…},   <- the thread's user and system CPU time
//!        "maxrss":3212,…,"nvcsw":0,"nivcsw":0}}   <- rusage, optional (macOS omits them)
//! {"KeyValue":{"tid":14592,"k":"sum_of_fibs n","v":"27"}}   <- a pseudo-scope `k=v`
//! {"TEnd":{…}}                                               <- last line, always
//! ```
//!
//! **What is read.** Start and Metadata; every TStart/TEnd (the process
//! scope), TThreadStart/TThreadEnd (a thread scope), TS/TE (a probe scope)
//! and KeyValue, paired per thread into a call tree ([`Log::nodes`]) with
//! one sample (the end − start of real, cpu, sys time and context switches,
//! and the weight) per closed span, and the closed spans' real times for
//! the timeline. T (single points) and TIO (buffer flushes) are counted
//! only, as the evaluator ignores them; `pid`, `maxrss` and the fault and
//! block counts are skipped. Lines are not kept (no write-back).
//!
//! **Pairing** ([`pairing`](self)): as the evaluator's `log_data_tree.rs`;
//! thread numbers in order of first appearance, dropped at TThreadEnd; a
//! KeyValue stays open until the enclosing real scope ends.
//!
//! **Model.** `reconcile/evobench.rs`: one lane per thread (`thread00`, …),
//! each closed span a task; the statistics in `analysis/evobench/`.
//!
//! **Dialects and caveats.** Real time is `r` or the old `t`; `n` and the
//! rusage fields are optional. A log whose last record is not TEnd was cut
//! off (`evobench.cut-off`): its closed spans count, open ones do not. A TE
//! whose name differs from its scope's still closes it
//! (`evobench.name-mismatch`), as in the evaluator. Only a first line that
//! is not the Start record is an error.

pub mod analysis;
pub mod export;
mod fast;
mod log;
mod pairing;
mod reader;
pub mod reconcile;
mod record;
pub mod report;
mod run_kind;
pub mod tables;
pub mod view;

pub use log::{Label, Log, Metadata, Node, Sample, Span, StartInfo, TimingKind, RECORD_KINDS};

use super::{Format, FormatId, FormatReader, Sniff, SniffInput};

/// This format's id: an evobench benchmark log (NDJSON of probe timings).
pub const ID: FormatId = FormatId::new("evobench", "evobench log");

/// The evobench log format.
pub struct EvobenchFormat;

/// How every evobench log starts.
const MAGIC: &[u8] = b"{\"Start\":{\"evobench_log_version\":";

impl Format for EvobenchFormat {
    fn id(&self) -> FormatId {
        crate::formats::evobench::ID
    }

    /// Yes when the input starts with the Start record's opening.
    fn sniff(&self, input: SniffInput<'_>) -> Sniff {
        input.starts_with(MAGIC)
    }

    fn reader(&self) -> Box<dyn FormatReader> {
        Box::new(reader::Reader::default())
    }
}

#[cfg(test)]
mod tests;
