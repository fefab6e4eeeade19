//! What a distbuild log reconciles to: ya's RunTasks, CopyTasks and
//! PrepareTasks, in ya's orders, with interned uids and hosts.

use crate::hash::FastMap;
use crate::intern::Interner;

/// Execution of a build-graph node (or its retrieval from cache), keyed by uid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunTask {
    /// Interned uid.
    pub uid: u32,
    /// Interned host (for a from-cache task: the bound host of its worker).
    pub host: u32,
    /// Start in ms (`deployed`/`started`, the later line in the file wins).
    pub start: Option<i64>,
    /// End in ms (`finished`).
    pub end: Option<i64>,
    /// The result came from distbuild's cache.
    pub from_cache: bool,
    /// The STATUS field of the last `finished`/`finished_from_cache` line,
    /// interned in [`Log::statuses`].
    pub status: Option<u32>,
    /// The SIZE field of that line, when it is a number.
    pub size: Option<u64>,
    /// Line of the event that created the task.
    pub line: u64,
}

/// Delivery of `dep_uid`'s output to the host that runs `uid`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyTask {
    /// Interned uid of the producer.
    pub dep_uid: u32,
    /// Interned uid of the consumer.
    pub uid: u32,
    /// Interned destination host (from the copy's first event).
    pub dest_host: u32,
    /// Interned origin host, from `dep_finished`.
    pub origin_host: Option<u32>,
    /// Start in ms (`dep_start`/`dep_wait`).
    pub start: Option<i64>,
    /// End in ms (`dep_finished`).
    pub end: Option<i64>,
    /// Bytes sent (0 when the field is not a number, as in ya).
    pub size: u64,
    /// Line of the copy's first event.
    pub line: u64,
}

/// One prepare phase of one host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrepareTask {
    /// `repository:<PATTERN>` or `resources`.
    pub kind: String,
    /// Interned host (`worker-<id>` when the worker was never bound).
    pub host: u32,
    /// The worker's `prepare_start`, unknown when the log has none.
    pub start: Option<i64>,
    /// When this phase finished.
    pub end: i64,
}

/// A distbuild log, reconciled.
#[derive(Clone, Debug, Default)]
pub struct Log {
    /// Every uid seen.
    pub uids: Interner,
    /// Every host seen.
    pub hosts: Interner,
    /// Every STATUS value seen (`OK`, `FAILED`...).
    pub statuses: Interner,
    /// Prepare tasks, in ya's order (workers by first prepare event, then types by first appearance).
    pub prepares: Vec<PrepareTask>,
    /// Complete copies, in the order their second event appears.
    pub copies: Vec<CopyTask>,
    /// Run tasks, in the order they were created.
    pub runs: Vec<RunTask>,
    /// Per host: its prepare task that ends last (the only one that gets edges), if it has one.
    pub longest_prepare: FastMap<u32, Option<usize>>,
    /// Smallest and largest time of the lines with at least three fields.
    pub window: Option<(i64, i64)>,
    /// Lines of event types nobody knows, kept verbatim with their numbers.
    pub unknown_lines: Vec<(u64, String)>,
}

impl Log {
    /// A uid's text.
    pub fn uid(&self, id: u32) -> &str {
        self.uids.name(id)
    }

    /// Whether a run task failed: it has a STATUS and it is not `OK`.
    pub fn failed(&self, run: &RunTask) -> bool {
        run.status.is_some_and(|s| self.statuses.name(s) != "OK")
    }

    /// A host's name.
    pub fn host(&self, id: u32) -> &str {
        self.hosts.name(id)
    }
}
