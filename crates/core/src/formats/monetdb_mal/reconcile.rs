//! MAL traces as one [`Model`] and a [`MalRun`], the way mal_analytics
//! reconciles them (`profiler_parser.py` and its tables).
//!
//! All traces given together are one picture (a distributed query's
//! supervisor and workers): they are replayed in the order given through one
//! parser state, as mal_analytics parses several files into one database.
//!
//! - **Executions**: `(session, tag)` is one MAL execution, numbered from 1
//!   on first sight; its function is the pc 0 event's instruction, else the
//!   part of `function` after the dot (remote plans).
//! - **Counts** ([`MalCounts`]): one event row per instruction event;
//!   prerequisites are the `prereq` entries; variables are scoped by
//!   execution and returned variables are read only from non-start events;
//!   every variable read is an event-variable row; a `querylog.define` start
//!   is a query and an execution initiating itself; user-function calls and
//!   definitions (`session:function`) and `remote.register_supervisor`
//!   arguments (supervisor session, worker UUID) pair executions that
//!   initiate others. mal_analytics reads only the 2018 layout; later
//!   layouts are counted by the same rules on their own fields.
//! - **Tasks**: each instruction is a task on its thread's lane
//!   (`thread N`), of its module's kind, from its start event to the done
//!   event of the same execution and pc (Sep2022: `clk − usec` to `clk`).
//!   A second done for a pc (seen on `return`) is reported and left out.
//!   The pc 0 event spans the whole execution, and `language.dataflow`
//!   encloses a dataflow block: both are phases on the `executions` lane.
//!   Sep2022 SQL phases are phases on the `sql phases` lane.
//! - **Dataflow**: an instruction depends on the instructions that last
//!   returned its (non-constant) arguments in the same execution.

use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::formats::monetdb_mal::{Generation, MalEvent, MalTrace, State};
use crate::hash::FastMap;
use crate::model::{Model, ModelBuilder, Nanos, Role, Sym, Task, TaskId, When};
use serde::{Deserialize, Serialize};
use std::collections::hash_map::Entry;

/// The row counts mal_analytics' tables get for the same traces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MalCounts {
    /// `mal_execution` rows.
    pub executions: u64,
    /// `profiler_event` rows.
    pub events: u64,
    /// `prerequisite_events` rows.
    pub prerequisites: u64,
    /// `mal_variable` rows.
    pub variables: u64,
    /// `event_variable_list` rows.
    pub event_variables: u64,
    /// `query` rows.
    pub queries: u64,
    /// `initiates_executions` rows.
    pub initiations: u64,
}

/// One MAL execution (a plan run once).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Execution {
    /// mal_analytics' execution id (from 1).
    pub id: u32,
    /// The server session.
    pub session: String,
    /// The tag.
    pub tag: i64,
    /// The user function it runs.
    pub function: String,
    /// The server's version, if given.
    pub version: Option<String>,
    /// The input it was read from.
    pub input: usize,
    /// Its instruction tasks, in start order.
    pub tasks: Vec<TaskId>,
    /// The whole-function span (pc 0), if the trace has it.
    pub span: Option<TaskId>,
    /// The SQL text of the query it runs, if it defines one.
    pub query: Option<String>,
}

/// One execution starting another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Initiation {
    /// The initiating execution's id.
    pub parent: u32,
    /// The initiated execution's id.
    pub child: u32,
    /// Across servers (`remote.register_supervisor`).
    pub remote: bool,
}

/// A server's load at one moment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Load {
    /// When, ns, on the model's clock when the heartbeat gives that clock.
    pub time: Nanos,
    /// RSS in MB.
    pub rss: Option<i64>,
    /// Mean per-core load, 0..1.
    pub cpu: Option<f64>,
}

/// What MAL traces say beyond their model.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MalRun {
    /// mal_analytics' table sizes.
    pub counts: MalCounts,
    /// The layouts seen.
    pub generations: Vec<Generation>,
    /// Executions by id − 1.
    pub executions: Vec<Execution>,
    /// Who initiated whom.
    pub initiations: Vec<Initiation>,
    /// RSS after instructions (done events), in time order.
    pub rss: Vec<(Nanos, i64)>,
    /// Heartbeats, in time order.
    pub loads: Vec<Load>,
    /// Objects skipped for errors (W001).
    pub rejected: u64,
    /// Operation names (`algebra.join`), indexed by [`MalRun::task_ops`].
    pub ops: Vec<String>,
    /// Each model task's operation in [`MalRun::ops`].
    pub task_ops: Vec<u32>,
}

/// Replays `traces` (input index, trace) in order.
pub fn reconcile(traces: &[(usize, &MalTrace)], diags: &mut [Diagnostics]) -> (Model, MalRun) {
    let mut r = Replay::default();
    for (n, &(input, trace)) in traces.iter().enumerate() {
        for e in &trace.events {
            r.event(input, trace, e, &mut diags[n]);
        }
        for h in &trace.heartbeats {
            let time = h.ctime.or(h.clk).map(|t| t.saturating_mul(1000));
            let cpu = (!h.cpuload.is_empty()).then(|| h.cpuload.iter().sum::<f64>() / h.cpuload.len() as f64);
            if let Some(time) = time {
                r.run.loads.push(Load { time, rss: h.rss, cpu });
            }
        }
        r.run.rejected += trace.rejected;
        for g in trace.generations() {
            if !r.run.generations.contains(&g) {
                r.run.generations.push(g);
            }
        }
    }
    let mut unfinished: Vec<(u32, i64)> = r.open.iter().filter(|(_, v)| !v.is_empty()).map(|(k, _)| *k).collect();
    unfinished.sort_unstable();
    for (exec, pc) in unfinished {
        let e = &r.run.executions[exec as usize - 1];
        let n = traces.iter().position(|(i, _)| *i == e.input).unwrap_or(0);
        diags[n].report(
            Severity::Warning,
            "mal.no-done",
            Position::Whole,
            format!("pc {pc} of {} (tag {}) starts but never finishes; it has no end", e.function, e.tag),
        );
    }
    r.finish()
}

#[derive(Default)]
struct Replay {
    b: ModelBuilder,
    run: MalRun,
    /// `session:tag` → execution id.
    executions: FastMap<(String, i64), u32>,
    /// Variables seen: (execution, name).
    variables: FastMap<(u32, Sym), ()>,
    /// Open tasks per (execution, pc).
    open: FastMap<(u32, i64), Vec<TaskId>>,
    /// Closed (execution, pc) pairs, to tell a duplicate done from a lone one.
    closed: FastMap<(u32, i64), ()>,
    /// The task that last returned a variable.
    producer: FastMap<(u32, Sym), TaskId>,
    /// Pending initiation halves: local `session:function:c|d`, remote worker UUID.
    pending: FastMap<String, u32>,
    deps: Vec<(TaskId, TaskId)>,
    window: Option<(Nanos, Nanos)>,
    op_ids: FastMap<String, u32>,
}

impl Replay {
    fn event(&mut self, input: usize, trace: &MalTrace, e: &MalEvent, diags: &mut Diagnostics) {
        let session = trace.str(e.session).to_owned();
        let tag = e.tag.unwrap_or(0);
        let exec = self.execution(input, trace, e, session.clone(), tag, diags);
        self.run.counts.events += 1;
        self.run.counts.prerequisites += trace.prereqs_of(e).len() as u64;
        for v in trace.vars_of(e) {
            if v.ret && e.state == State::Start {
                continue;
            }
            self.run.counts.event_variables += 1;
            let name = self.b.sym(trace.var_name(v));
            if self.variables.insert((exec, name), ()).is_none() {
                self.run.counts.variables += 1;
            }
        }
        self.initiations(trace, e, exec, &session);
        self.task(trace, e, exec, diags);
    }

    fn execution(
        &mut self,
        input: usize,
        trace: &MalTrace,
        e: &MalEvent,
        session: String,
        tag: i64,
        diags: &mut Diagnostics,
    ) -> u32 {
        match self.executions.entry((session.clone(), tag)) {
            Entry::Occupied(o) => *o.get(),
            Entry::Vacant(v) => {
                let function = if e.pc == Some(0) {
                    trace.str(e.instruction).to_owned()
                } else {
                    let f = trace.str(e.function);
                    if e.phase.is_none() {
                        diags.report(
                            Severity::Info,
                            "mal.no-pc0",
                            Position::Line(e.line),
                            format!("execution {session}:{tag} starts without its pc 0 event (seen on remote plans)"),
                        );
                    }
                    f.split_once('.').map_or(f, |(_, after)| after.split('.').next().unwrap_or(after)).to_owned()
                };
                // Sep2022 events name no enclosing function.
                let function = if function.is_empty() { format!("tag {tag}") } else { function };
                let id = self.run.executions.len() as u32 + 1;
                v.insert(id);
                self.run.counts.executions += 1;
                self.run.executions.push(Execution {
                    id,
                    session,
                    tag,
                    function,
                    version: e.version.map(|s| trace.str(s).to_owned()),
                    input,
                    tasks: Vec::new(),
                    span: None,
                    query: None,
                });
                id
            }
        }
    }

    fn initiations(&mut self, trace: &MalTrace, e: &MalEvent, exec: u32, session: &str) {
        if e.state != State::Start && e.state != State::Once {
            return;
        }
        let module = trace.str(e.module);
        let instruction = trace.str(e.instruction);
        if module == "querylog" && instruction == "define" {
            self.run.counts.queries += 1;
            let query = e.query.map(|q| trace.str(q).to_owned());
            let x = &mut self.run.executions[exec as usize - 1];
            if x.query.is_none() {
                x.query = query;
            }
            self.initiate(exec, exec, false);
        } else if module == "remote" && instruction == "register_supervisor" {
            let mut supervisor = None;
            let mut worker = None;
            for v in trace.vars_of(e).iter().filter(|v| !v.ret) {
                let value = v.value.map(|s| strip_quotes(trace.str(s)).to_owned());
                match v.index {
                    Some(1) => supervisor = value,
                    Some(2) => worker = value,
                    _ => {}
                }
            }
            let (Some(supervisor), Some(worker)) = (supervisor, worker) else { return };
            let at_supervisor = session == supervisor;
            match self.pending.remove(&worker) {
                Some(other) if at_supervisor => self.initiate(exec, other, true),
                Some(other) => self.initiate(other, exec, true),
                None => {
                    self.pending.insert(worker, exec);
                }
            }
        } else if module == "user" {
            let exec_session = self.run.executions[exec as usize - 1].session.clone();
            let key = format!("{exec_session}:{instruction}");
            let (look, record) = if e.defines { (":c", ":d") } else { (":d", ":c") };
            match self.pending.remove(&format!("{key}{look}")) {
                Some(other) if e.defines => self.initiate(other, exec, false),
                Some(other) => self.initiate(exec, other, false),
                None => {
                    self.pending.insert(format!("{key}{record}"), exec);
                }
            }
        }
    }

    fn initiate(&mut self, parent: u32, child: u32, remote: bool) {
        self.run.counts.initiations += 1;
        self.run.initiations.push(Initiation { parent, child, remote });
    }

    fn task(&mut self, trace: &MalTrace, e: &MalEvent, exec: u32, diags: &mut Diagnostics) {
        let Some(time) = e.time.map(|t| t.saturating_mul(1000)) else { return };
        let usec = e.usec.unwrap_or(0).max(0).saturating_mul(1000);
        let pc = e.pc.unwrap_or(-1);
        let key = (exec, pc);
        match e.state {
            State::Start => {
                let t = self.new_task(trace, e, exec, Some(time), None);
                self.consume(trace, e, exec, t);
                self.open.entry(key).or_default().push(t);
            }
            State::Done => {
                let t = match self.open.get_mut(&key).and_then(Vec::pop) {
                    Some(t) => {
                        let task = self.b.get_mut(t);
                        let end = time.max(task.start.get().unwrap_or(time));
                        task.end = When::at(end);
                        self.window = self.window.map(|(a, b)| (a.min(end), b.max(end)));
                        if let Some(size) = e.size.filter(|&s| s > 0) {
                            self.b.payload_mut(t).bytes = Some((size as u64).saturating_mul(1 << 20));
                        }
                        t
                    }
                    None if self.closed.contains_key(&key) => {
                        diags.report(
                            Severity::Info,
                            "mal.duplicate-done",
                            Position::Line(e.line),
                            format!("a second done event for pc {pc} (tag {}) is left out (mal_analytics' unique constraint rejects it)", e.tag.unwrap_or(0)),
                        );
                        return;
                    }
                    None => {
                        diags.report(
                            Severity::Warning,
                            "mal.done-without-start",
                            Position::Line(e.line),
                            format!("pc {pc} is done without a start event; its start is taken as clk − usec"),
                        );
                        let t = self.new_task(trace, e, exec, Some(time - usec), Some(time));
                        self.consume(trace, e, exec, t);
                        t
                    }
                };
                self.closed.insert(key, ());
                self.produce(trace, e, exec, t);
                if let Some(rss) = e.rss {
                    self.run.rss.push((time, rss));
                }
            }
            State::Once => {
                let t = self.new_task(trace, e, exec, Some(time - usec), Some(time));
                self.consume(trace, e, exec, t);
                self.produce(trace, e, exec, t);
            }
            State::Pause | State::Other => {}
        }
    }

    fn new_task(
        &mut self,
        trace: &MalTrace,
        e: &MalEvent,
        exec: u32,
        start: Option<Nanos>,
        end: Option<Nanos>,
    ) -> TaskId {
        let x = &self.run.executions[exec as usize - 1];
        let pc = e.pc.unwrap_or(-1);
        let (lane, kind, role, uid) = if let Some(phase) = e.phase {
            let phase = trace.str(phase);
            ("sql phases".to_owned(), phase.to_owned(), Role::Phase, format!("{phase} (tag {})", x.tag))
        } else if pc == 0 {
            ("executions".to_owned(), "function".to_owned(), Role::Phase, format!("{} (tag {})", x.function, x.tag))
        } else if is_block(trace, e) {
            (
                "executions".to_owned(),
                "dataflow block".to_owned(),
                Role::Phase,
                format!("{}[{}]:{pc}", x.function, x.tag),
            )
        } else {
            let module = trace.str(e.module);
            let kind = if module.is_empty() { "(no module)" } else { module };
            let lane = e.thread.map_or_else(|| "thread ?".to_owned(), |t| format!("thread {t}"));
            (lane, kind.to_owned(), Role::Work, format!("{}[{}]:{pc}", x.function, x.tag))
        };
        let op = match (e.phase, e.operator) {
            (Some(p), _) => trace.str(p).to_owned(),
            (None, Some(o)) => trace.str(o).to_owned(),
            (None, None) => {
                let (m, i) = (trace.str(e.module), trace.str(e.instruction));
                if m.is_empty() && i.is_empty() {
                    "(no instruction)".to_owned()
                } else {
                    format!("{m}.{i}")
                }
            }
        };
        let next = self.run.ops.len() as u32;
        let op = *self.op_ids.entry(op).or_insert_with_key(|name| {
            self.run.ops.push(name.clone());
            next
        });
        self.run.task_ops.push(op);
        let lane = self.b.lane(&lane);
        let kind = self.b.kind(&kind, None);
        let uid = self.b.sym(&uid);
        let name = self.b.sym(trace.str(e.label));
        let id = self.b.named_task(Task::new(uid, kind, role, lane, start, end), Some(name));
        for t in [start, end].into_iter().flatten() {
            self.window = Some(self.window.map_or((t, t), |(a, b)| (a.min(t), b.max(t))));
        }
        let x = &mut self.run.executions[exec as usize - 1];
        if pc == 0 && e.phase.is_none() {
            x.span.get_or_insert(id);
        } else if role == Role::Work {
            x.tasks.push(id);
        }
        id
    }

    /// The task waits for the producers of its non-constant arguments.
    fn consume(&mut self, trace: &MalTrace, e: &MalEvent, exec: u32, t: TaskId) {
        if e.pc == Some(0) || e.phase.is_some() || is_block(trace, e) {
            return;
        }
        let mut seen: Vec<TaskId> = Vec::new();
        for v in trace.vars_of(e).iter().filter(|v| !v.ret && !v.constant) {
            let Some(name) = self.b.find_sym(trace.var_name(v)) else { continue };
            if let Some(&p) = self.producer.get(&(exec, name)) {
                if p != t && !seen.contains(&p) {
                    seen.push(p);
                    self.deps.push((t, p));
                }
            }
        }
    }

    /// The task becomes the producer of what it returns.
    fn produce(&mut self, trace: &MalTrace, e: &MalEvent, exec: u32, t: TaskId) {
        if e.pc == Some(0) || e.phase.is_some() || is_block(trace, e) {
            return;
        }
        for v in trace.vars_of(e).iter().filter(|v| v.ret) {
            let name = self.b.sym(trace.var_name(v));
            self.producer.insert((exec, name), t);
        }
    }

    fn finish(mut self) -> (Model, MalRun) {
        for (t, d) in std::mem::take(&mut self.deps) {
            self.b.depends(t, d);
        }
        if let Some((a, b)) = self.window {
            self.b.window(a, b);
        }
        self.run.rss.sort_by_key(|&(t, _)| t);
        self.run.loads.sort_by_key(|l| l.time);
        (self.b.build(), self.run)
    }
}

/// `language.dataflow`: the barrier that opens a dataflow block; its start
/// and done enclose the block's instructions, so it is a phase, not work.
fn is_block(trace: &MalTrace, e: &MalEvent) -> bool {
    trace.str(e.module) == "language" && trace.str(e.instruction) == "dataflow"
}

/// A value without the quotes a 2018 server puts around strings (Python's `[1:-1]`).
fn strip_quotes(s: &str) -> &str {
    let mut chars = s.chars();
    chars.next();
    chars.next_back();
    chars.as_str()
}
