//! What the page shows of MAL traces beyond the timeline: the executions
//! with their critical paths and who initiated them, the most expensive
//! operations, how the threads were used, and the server's memory and load.

use crate::formats::monetdb_mal::analysis::{by_instruction, by_module, core_use, execution_paths, OpStats};
use crate::formats::monetdb_mal::reconcile::{MalCounts, MalRun};
use crate::model::{Model, Nanos};
use crate::view::Series;
use serde::{Deserialize, Serialize};

/// Most operation rows sent to the page.
pub const OPS: usize = 500;
/// Most idle stretches listed.
pub const IDLE: usize = 20;

/// One execution as a table row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExecutionRow {
    /// mal_analytics' execution id.
    pub id: u32,
    /// The server session.
    pub session: String,
    /// The tag.
    pub tag: i64,
    /// The user function.
    pub function: String,
    /// The SQL text, if the execution defines a query.
    pub query: Option<String>,
    /// Instructions.
    pub instructions: u64,
    /// First start to last end of its instructions, ns.
    pub wall: Nanos,
    /// Its critical path's summed durations, ns.
    pub critical: Nanos,
    /// Instructions on its critical path.
    pub path_length: u32,
    /// The execution that initiated it (not itself), if known.
    pub initiated_by: Option<u32>,
    /// Initiated from another server.
    pub remote: bool,
}

/// How the threads were used.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoreView {
    /// Threads that ran instructions.
    pub threads: u32,
    /// Busy thread-time, ns.
    pub busy: Nanos,
    /// First instruction start to last end, ns.
    pub wall: Nanos,
    /// The most threads busy at once.
    pub peak: u32,
    /// The longest stretches with nothing running: (start, end) ns.
    pub idle: Vec<(Nanos, Nanos)>,
    /// Idle time in all, ns.
    pub idle_total: Nanos,
    /// Busy time per thread, busiest first.
    pub per_thread: Vec<(String, Nanos)>,
}

/// Everything MAL-specific the page shows.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MalView {
    /// mal_analytics' table sizes.
    pub counts: MalCounts,
    /// Layouts seen, named.
    pub generations: Vec<String>,
    /// Every execution.
    pub executions: Vec<ExecutionRow>,
    /// Instructions by total time (at most [`OPS`]).
    pub instructions: Vec<OpStats>,
    /// Modules by total time.
    pub modules: Vec<OpStats>,
    /// Thread use.
    pub core: CoreView,
    /// Running instructions, RSS and CPU load over time, where present.
    pub series: Vec<Series>,
    /// Objects skipped for errors.
    pub rejected: u64,
}

impl MalView {
    /// The view of MAL traces.
    pub fn of(model: &Model, run: &MalRun) -> MalView {
        let paths = execution_paths(model, run);
        let initiator = |id: u32| run.initiations.iter().find(|i| i.child == id && i.parent != id);
        let executions = run
            .executions
            .iter()
            .zip(&paths)
            .map(|(x, p)| ExecutionRow {
                id: x.id,
                session: x.session.clone(),
                tag: x.tag,
                function: x.function.clone(),
                query: x.query.clone(),
                instructions: x.tasks.len() as u64,
                wall: p.wall,
                critical: p.total,
                path_length: p.tasks.len() as u32,
                initiated_by: initiator(x.id).map(|i| i.parent),
                remote: initiator(x.id).is_some_and(|i| i.remote),
            })
            .collect();
        let core = core_use(model);
        let running: Vec<(Nanos, i64)> = core.running.iter().map(|&(t, n)| (t, n as i64)).collect();
        let loads: Vec<(Nanos, i64)> = run.loads.iter().filter_map(|l| Some((l.time, l.rss?))).collect();
        let rss = if run.rss.is_empty() { loads } else { run.rss.clone() };
        let cpu: Vec<(Nanos, i64)> =
            run.loads.iter().filter_map(|l| Some((l.time, (l.cpu? * 100.0).round() as i64))).collect();
        MalView {
            counts: run.counts,
            generations: run.generations.iter().map(|g| g.name().to_owned()).collect(),
            executions,
            instructions: by_instruction(model, run).into_iter().take(OPS).collect(),
            modules: by_module(model),
            core: CoreView {
                threads: core.threads,
                busy: core.busy,
                wall: core.wall,
                peak: core.peak,
                idle_total: core.idle.iter().map(|(a, b)| b - a).sum(),
                idle: core.idle.iter().take(IDLE).copied().collect(),
                per_thread: core.per_thread.clone(),
            },
            series: [("running instructions", running), ("rss MB", rss), ("cpu load %", cpu)]
                .iter()
                .filter_map(|(name, s)| Series::of(name, s))
                .collect(),
            rejected: run.rejected,
        }
    }
}
