//! A stage's skew and its straggler: the slowest successful task against
//! the median, and the cause its metrics show beside the stage's median
//! task: garbage collection, waiting for shuffle blocks, spilling, or more
//! input than the others.

use super::log::{Metrics, TaskAttempt};
use serde::{Deserialize, Serialize};

/// A task time counts as a straggler's at this many times the median.
pub const STRAGGLER_RATIO: f64 = 1.5;

/// What the metrics show made the slowest task slow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cause {
    /// `JVM GC Time` took a large share of its run time.
    Gc,
    /// `Fetch Wait Time`: waiting for shuffle blocks.
    ShuffleWait,
    /// It spilled to memory or disk and the median task did not (as much).
    Spill,
    /// It read (input or shuffle) far more than the median task.
    SkewedInput,
    /// None of the above.
    Unclear,
}

impl Cause {
    /// Its words in a report.
    pub fn label(self) -> &'static str {
        match self {
            Cause::Gc => "GC",
            Cause::ShuffleWait => "shuffle wait",
            Cause::Spill => "spill",
            Cause::SkewedInput => "skewed input",
            Cause::Unclear => "not shown by the metrics",
        }
    }
}

/// A stage's task times and its slowest task.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Skew {
    /// Successful tasks counted.
    pub tasks: u64,
    /// The median task time (launch to finish), ms.
    pub median_ms: i64,
    /// The slowest task's time, ms.
    pub max_ms: i64,
    /// `max_ms / median_ms` (1 for a median of 0 with a max of 0).
    pub ratio: f64,
    /// The slowest task's `Task ID`.
    pub slowest_task: i64,
    /// Its executor.
    pub executor: String,
    /// Its read bytes (input and shuffle) against the median task's.
    pub read_bytes: (i64, i64),
    /// Why it was slow, as far as the metrics say.
    pub cause: Cause,
    /// Its metrics.
    pub metrics: Metrics,
}

impl Skew {
    /// The slowest task is a straggler: [`STRAGGLER_RATIO`] times the median or more.
    pub fn straggler(&self) -> bool {
        self.ratio >= STRAGGLER_RATIO
    }
}

fn median(mut xs: Vec<i64>) -> i64 {
    xs.sort_unstable();
    match xs.len() {
        0 => 0,
        n if n % 2 == 1 => xs.get(n / 2).copied().unwrap_or(0),
        n => (xs.get(n / 2 - 1).copied().unwrap_or(0) + xs.get(n / 2).copied().unwrap_or(0)) / 2,
    }
}

fn read(t: &TaskAttempt) -> i64 {
    t.metrics.input_bytes.saturating_add(t.metrics.shuffle_read_bytes)
}

/// The skew of the successful finished `tasks` of one stage attempt.
pub fn skew(tasks: &[&TaskAttempt]) -> Option<Skew> {
    let done: Vec<(&TaskAttempt, i64)> =
        tasks.iter().filter(|t| t.succeeded()).filter_map(|t| Some((*t, t.finish? - t.launch))).collect();
    let &(slow, max_ms) = done.iter().max_by_key(|(t, d)| (*d, -t.task_id))?;
    let median_ms = median(done.iter().map(|(_, d)| *d).collect());
    let ratio = if median_ms > 0 {
        max_ms as f64 / median_ms as f64
    } else if max_ms == 0 {
        1.0
    } else {
        f64::INFINITY
    };
    let med = |f: fn(&TaskAttempt) -> i64| median(done.iter().map(|(t, _)| f(t)).collect());
    let m = &slow.metrics;
    let run = m.run_ms.max(1);
    let spilled = m.memory_spilled.saturating_add(m.disk_spilled);
    let median_read = med(read);
    let cause = if m.gc_ms * 5 >= run && m.gc_ms > 2 * med(|t| t.metrics.gc_ms) {
        Cause::Gc
    } else if m.fetch_wait_ms * 5 >= run && m.fetch_wait_ms > 2 * med(|t| t.metrics.fetch_wait_ms) {
        Cause::ShuffleWait
    } else if spilled > 2 * med(|t| t.metrics.memory_spilled.saturating_add(t.metrics.disk_spilled)) {
        Cause::Spill
    } else if read(slow) >= 2 * median_read.max(1) {
        Cause::SkewedInput
    } else {
        Cause::Unclear
    };
    Some(Skew {
        tasks: done.len() as u64,
        median_ms,
        max_ms,
        ratio,
        slowest_task: slow.task_id,
        executor: slow.executor.clone(),
        read_bytes: (read(slow), median_read),
        cause,
        metrics: slow.metrics,
    })
}
