//! What a distbuild log reconciles to: ya's RunTasks, CopyTasks and
//! PrepareTasks, already as model tasks (no copy of the log's tasks is made
//! later), with what the edges need on the side.

use crate::hash::FastMap;
use crate::intern::Interner;
use crate::model::{ModelBuilder, Sym, TaskId};

/// A run task: its model task, uid and host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunRef {
    /// The model task.
    pub task: TaskId,
    /// Its uid.
    pub uid: Sym,
    /// Its host, in [`Log::hosts`].
    pub host: u32,
}

/// A complete copy: its model task, what it delivered, to whom and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyRef {
    /// The model task.
    pub task: TaskId,
    /// The producer's uid.
    pub dep_uid: Sym,
    /// The consumer's uid.
    pub uid: Sym,
    /// The destination host, in [`Log::hosts`].
    pub dest_host: u32,
}

/// A distbuild log, reconciled.
#[derive(Debug, Default)]
pub struct Log {
    /// The tasks: run tasks as they were created and copies as they were
    /// completed (interleaved, in file order), then the prepare tasks. Run
    /// tasks have ya's type `UNKNOWN` until a build graph names them. No
    /// edges yet: they need the build graph.
    pub builder: ModelBuilder,
    /// Every host seen.
    pub hosts: Interner,
    /// Run tasks, in the order they were created.
    pub runs: Vec<RunRef>,
    /// Complete copies, in the order their second event appears.
    pub copies: Vec<CopyRef>,
    /// Prepare tasks, in ya's order (workers by first prepare event, then types by first appearance).
    pub prepares: Vec<TaskId>,
    /// Per host: its prepare task that ends last (the only one that gets edges), if it has one.
    pub longest_prepare: FastMap<u32, Option<TaskId>>,
    /// Smallest and largest time (ms) of the lines with at least three fields.
    pub window: Option<(i64, i64)>,
    /// Run tasks started more than once (retried), in the order they were created.
    pub retried: Vec<TaskId>,
    /// Lines of event types nobody knows, kept verbatim with their numbers.
    pub unknown_lines: Vec<(u64, String)>,
}
