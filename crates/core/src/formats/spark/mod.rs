//! A Spark application's event log: one JSON object a line, each a
//! `SparkListener` event, as Spark writes it with `spark.eventLog.enabled`
//! (plain, or compressed with `spark.eventLog.compression.codec`: zstd, lz4
//! or snappy, which [`crate::decompress`] reads), or the `events_N_*` files
//! of a rolling log's `eventlog_v2_*` folder read one after the other.
//!
//! **Who writes it.** Spark's `EventLoggingListener` through `JsonProtocol`
//! (apache/spark, `core/src/main/scala/org/apache/spark/util/JsonProtocol.scala`).
//!
//! **A record**, abridged:
//!
//! ```text
//! {"Event":"SparkListenerTaskEnd","Stage ID":3,"Stage Attempt ID":0,
//!  "Task End Reason":{"Reason":"Success"},
//!  "Task Info":{"Task ID":17,"Index":5,"Attempt":0,"Launch Time":1732700000123,
//!               "Executor ID":"driver","Finish Time":1732700000456,...},
//!  "Task Metrics":{"Executor Run Time":310,"JVM GC Time":12,"Memory Bytes Spilled":0,
//!                  "Shuffle Read Metrics":{"Fetch Wait Time":3,"Remote Bytes Read":0,...},...}}
//! ```
//!
//! - **Read**: the log's Spark version; the application's name, id, start
//!   and end; `spark.master`; executors added and removed; jobs (start,
//!   end, result, `Stage Infos`, description, SQL execution id); stage
//!   attempts (name, tasks, `Parent IDs`, `RDD Info`, submission and
//!   completion, failure); task attempts (ids, executor, launch and
//!   finish, end reason, and the metrics: run time, GC, shuffle fetch wait,
//!   spills, input, output and shuffle bytes); SQL executions. Every other
//!   event is checked to be JSON and passed over.
//! - **Model**: each stage attempt that ran is a task on a stage slot
//!   (`stages 1`), after the stages it waited for; each task attempt is a
//!   task on a core slot of its executor (`executor 1 · 2`, `driver · 1`),
//!   packed first fit. The wall is the application's start to its end, as
//!   the History Server's duration is.
//! - **Path** ([`path`]): over the stage DAG, back from the stage that
//!   completed last through the parent that completed last; a skipped
//!   parent (its shuffle was written by an earlier job) stands for the
//!   stage that ran with the same RDD. Its total is its span. In each stage,
//!   the slowest task against the median and the cause its metrics show
//!   ([`skew`]).
//! - **Caveats**: lines that are not JSON (`spark.bad-line`), a cut last
//!   line (`spark.truncated`), repeated task, stage or job ids
//!   (`spark.duplicate-*`, the first kept), a version outside 1.x–4.x
//!   (`spark.version`, read anyway), and a log without the application's
//!   end (`spark.no-application-end`, the wall ends at the last event).
//!
//! Files: `events.rs` (the events' fields), `log.rs` (what is kept),
//! `reader.rs`, `path.rs`, `skew.rs`, `reconcile.rs`, `run.rs`,
//! `report.rs`, `view.rs`, `run_kind.rs`; `rolling.rs`, which files are one
//! rolling log, for the CLI and the app.

mod events;
pub mod log;
pub mod path;
pub mod reader;
pub mod reconcile;
pub mod report;
pub mod rolling;
pub mod run;
mod run_kind;
pub mod skew;
pub mod view;

#[cfg(test)]
mod tests;

use super::{Format, FormatId, FormatReader, Parsed, ReadCounts, Sniff, SniffInput};
use crate::diagnostics::Diagnostics;
use crate::error::FormatError;
use crate::lines::LineSplitter;

/// The format's id.
pub const ID: FormatId = FormatId::new("spark", "Spark event log");

/// The title errors name.
pub const TITLE: &str = "Spark event log";

/// How every line of a log starts, as Spark writes it.
const START: &[u8] = b"{\"Event\":\"";

/// Spark's event logs.
pub struct SparkFormat;

impl Format for SparkFormat {
    fn id(&self) -> FormatId {
        ID
    }

    /// Yes when the first line starts as Spark writes an event and names a
    /// `SparkListener` event (or, cut short in the head, starts so).
    fn sniff(&self, input: SniffInput<'_>) -> Sniff {
        let head = input.head.trim_ascii_start();
        match (SniffInput { head, ..input }).starts_with(START) {
            Sniff::Yes => {}
            other => return other,
        }
        let rest = head.get(START.len()..).unwrap_or_default();
        let name_end = memchr::memchr(b'"', rest);
        match name_end {
            Some(n) if rest.get(..n).is_some_and(|name| memchr::memmem::find(name, b"SparkListener").is_some()) => {
                Sniff::Yes
            }
            Some(_) => Sniff::No,
            None if input.at_eof || head.len() >= super::SNIFF_LIMIT => Sniff::No,
            None => Sniff::NeedMore,
        }
    }

    fn reader(&self) -> Box<dyn FormatReader> {
        Box::new(Reader::default())
    }
    /// Measured in a tab (a 1.07 GB event log: 239 MB).
    fn tab_bytes_per_input_byte(&self) -> f64 {
        0.3
    }
}

#[derive(Default)]
struct Reader {
    lines: LineSplitter,
    log: reader::LogReader,
}

impl FormatReader for Reader {
    fn feed(&mut self, chunk: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError> {
        let Reader { lines, log } = self;
        lines.feed(chunk, |no, line| log.line(no, line, diags))
    }

    fn end_of_input(&mut self, diags: &mut Diagnostics) -> Result<(), FormatError> {
        let Reader { lines, log } = self;
        lines.finish(|no, line| log.line(no, line, diags))
    }

    fn finish(mut self: Box<Self>, diags: &mut Diagnostics) -> Result<Parsed, FormatError> {
        self.end_of_input(diags)?;
        let log = std::mem::take(&mut self.log).finish(diags);
        if log.events == 0 {
            return Err(FormatError::new(
                TITLE,
                crate::diagnostics::Position::Whole,
                "no Spark listener event was read",
                b"",
            ));
        }
        Ok(Parsed::run(log))
    }

    fn counts(&self) -> ReadCounts {
        ReadCounts { lines: self.lines.lines(), events: self.log.events() }
    }
}
