//! Turning distbuild events into ya's tasks, line by line, in any line order.
//!
//! This follows ya's `_create_graph_with_distbuild_log` step by step (see
//! `specs/distbuild-log.md`), with three deliberate differences, each
//! reported as a diagnostic: a worker with no `prepare_start` gets an
//! unknown start instead of 0; a copy with one event is reported instead of
//! dropped silently; a line ya would crash on (a bad time, a missing field)
//! is reported and skipped.

use super::ahead::{Event, Line};
use super::binder::Binder;
use super::line::{is_numeric, parse_int};
use super::log::{CopyRef, Log, RunRef};
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::error::quote_bytes;
use crate::hash::FastMap;
use crate::model::{KindId, LaneId, Payload, Role, Sym, Task, TaskId, NANOS_PER_MS};
use crate::recent_ids::RecentIds;
use std::borrow::Cow;

/// Event types of older logs that ya no longer reads.
const RETIRED: &[&str] = &[
    "toolchain_prepare_finish",
    "resources_prepare_finish",
    "source_prepare_finish",
    "tests_data_prepare_finish",
    "deploy_identic",
    "ready",
    "dep_pack_start",
    "dep_pack_finish",
    "dep_send_start",
    "dep_send_finish",
];

/// Every event type a current log has.
pub(super) const CURRENT: &[&str] = &[
    "prepare_start",
    "repository_prepared",
    "resources_prepared",
    "dep_start",
    "dep_wait",
    "dep_finished",
    "dep_extract_queue",
    "dep_extract_start",
    "dep_extract_finish",
    "deploy",
    "deployed",
    "started",
    "finished",
    "finished_from_cache",
];

/// Is `name` an event type of some distbuild dialect?
pub(super) fn is_known_event(name: &[u8]) -> bool {
    CURRENT.iter().chain(RETIRED).any(|e| e.as_bytes() == name)
}

/// One worker's prepare events.
#[derive(Debug)]
struct Worker {
    id: i64,
    start: Option<i64>,
    /// (prepare type, end time), types in order of first appearance.
    ends: Vec<(String, i64)>,
    first_line: u64,
}

/// Lines of one event type that is not interpreted.
#[derive(Debug)]
struct Uninterpreted {
    name: String,
    first_line: u64,
    count: u64,
    retired: bool,
}

/// A copy with one of its two events.
#[derive(Debug)]
struct OpenCopy {
    dest_host: u32,
    origin_host: Option<u32>,
    start: Option<i64>,
    end: Option<i64>,
    size: u64,
    line: u64,
}

/// ya's type of a run task whose build-graph node is unknown.
pub(crate) const UNKNOWN_KIND: &str = "UNKNOWN";
/// The type of copies.
pub(crate) const COPY_KIND: &str = "Copy";
/// Prefix of prepare task types.
pub(crate) const PREPARE_PREFIX: &str = "prepare:";

fn ns(ms: Option<i64>) -> Option<i64> {
    // `saturating_mul`, without its overflow check (a 128-bit multiply in
    // WebAssembly) for the times that cannot overflow.
    const LIMIT: i64 = i64::MAX / NANOS_PER_MS;
    ms.map(|t| if (-LIMIT..=LIMIT).contains(&t) { t * NANOS_PER_MS } else { t.saturating_mul(NANOS_PER_MS) })
}

/// The streaming state of one log.
#[derive(Debug, Default)]
pub(super) struct Reconciler {
    log: Log,
    /// The ids of the uids named on the last lines.
    recent_uids: RecentIds,
    /// The ids of the hosts named on the last lines (nearly all of them:
    /// a build farm has hundreds).
    recent_hosts: RecentIds,
    /// Index in `log.runs` by uid (`u32::MAX`: none yet).
    run_of_uid: Vec<u32>,
    /// The line that created each run task.
    run_lines: Vec<u64>,
    /// The run tasks with a `started` line, by index in `log.runs`, as bits.
    started: Vec<u64>,
    /// The run tasks with a second `started` line (retried), by index in
    /// `log.runs`, with that line.
    restarted: Vec<(u32, u64)>,
    /// Lanes by host, made on first use.
    lanes: Vec<Option<LaneId>>,
    kinds: Option<(KindId, KindId)>,
    open_copies: FastMap<(u32, u32), OpenCopy>,
    workers: Vec<Worker>,
    worker_of_id: FastMap<i64, usize>,
    binder: Binder,
    uninterpreted: Vec<Uninterpreted>,
    uninterpreted_of: FastMap<String, usize>,
    old_dep_dialect: bool,
    old_prepare_dialect: bool,
    events: u64,
}

impl Reconciler {
    /// Lines recognised as events (a time, a type and at least one more field).
    pub(super) fn events(&self) -> u64 {
        self.events
    }

    /// Reads one line, `raw`, read ahead as `line`.
    pub(super) fn line(&mut self, line_no: u64, line: &Line, raw: &[u8], diags: &mut Diagnostics) {
        let at = Position::Line(line_no);
        let fields = &line.fields;
        if fields.len() < 3 {
            if fields.len() > 0 {
                diags.report(
                    Severity::Warning,
                    "distbuild.short-line",
                    at,
                    format!("a line needs a time, an event type and its fields; skipped {}", quote_bytes(raw)),
                );
            }
            return;
        }
        let Some(time) = line.time else {
            diags.report(
                Severity::Warning,
                "distbuild.bad-time",
                at,
                format!(
                    "the time {} is not an integer number of milliseconds; line skipped",
                    quote_bytes(line.field(raw, 0))
                ),
            );
            return;
        };
        self.events += 1;
        self.log.window = Some(match self.log.window {
            None => (time, time),
            Some((lo, hi)) => (lo.min(time), hi.max(time)),
        });
        let need = line.event.needs();
        if fields.len() < need {
            diags.report(
                Severity::Warning,
                "distbuild.short-line",
                at,
                format!(
                    "'{}' needs {need} fields but the line has {}; skipped {}",
                    String::from_utf8_lossy(line.field(raw, 1)),
                    fields.len(),
                    quote_bytes(raw)
                ),
            );
            return;
        }
        let f = |i: usize| line.field(raw, i);
        let name = |i: usize| line.name(raw, i);
        match line.event {
            Event::Started | Event::Deployed => {
                let uid = self.uid(name(2), line_no, diags);
                let host = self.host(name(3), line_no, diags);
                self.binder.uid_on_host(uid, host);
                let run = self.run(uid, host, line_no);
                self.log.builder.get_mut(run).start = ns(Some(time)).into();
                if line.event == Event::Started {
                    self.note_start(uid, line_no);
                }
            }
            Event::Finished => {
                let uid = self.uid(name(2), line_no, diags);
                let host = self.host(name(3), line_no, diags);
                self.binder.uid_on_host(uid, host);
                let run = self.run(uid, host, line_no);
                self.log.builder.get_mut(run).end = ns(Some(time)).into();
                self.set_result(run, line, raw);
            }
            Event::FinishedFromCache => {
                let uid = self.uid(name(2), line_no, diags);
                let host = self.host(name(3), line_no, diags);
                let run = self.run(uid, host, line_no);
                let task = self.log.builder.get_mut(run);
                task.cached = true;
                task.start = ns(Some(time)).into();
                task.end = ns(Some(time)).into();
                self.set_result(run, line, raw);
            }
            Event::DepStart | Event::DepWait => {
                let old = f(5);
                if !old.is_empty() && !is_numeric(old) && !self.old_dep_dialect {
                    self.old_dep_dialect = true;
                    diags.report(
                        Severity::Info,
                        "distbuild.old-dialect",
                        at,
                        "older dialect (before late 2024): dep_start/dep_wait carry the origin host where the dependency count is now",
                    );
                }
                let uid = self.uid(name(2), line_no, diags);
                let dest = self.host(name(3), line_no, diags);
                let dep = self.uid(name(4), line_no, diags);
                self.copy(dep, uid, dest, line_no, |c| c.start = Some(time));
            }
            Event::DepFinished => {
                let uid = self.uid(name(2), line_no, diags);
                let dest = self.host(name(3), line_no, diags);
                let dep = self.uid(name(4), line_no, diags);
                let origin = self.host(name(5), line_no, diags);
                let size = f(6);
                let size = if is_numeric(size) { parse_int(size).map_or(0, |s| s as u64) } else { 0 };
                self.copy(dep, uid, dest, line_no, |c| {
                    c.origin_host = Some(origin);
                    c.end = Some(time);
                    c.size = size;
                });
            }
            Event::Deploy => {
                if let Some(worker) = self.worker_id(f(3), line_no, diags) {
                    let uid = self.uid(name(2), line_no, diags);
                    self.binder.uid_on_worker(uid, worker);
                }
            }
            Event::PrepareStart => {
                if !f(2).is_empty() && !self.old_prepare_dialect {
                    self.old_prepare_dialect = true;
                    diags.report(
                        Severity::Info,
                        "distbuild.old-dialect",
                        at,
                        "older dialect (before late 2024): prepare_start carries a host in its third field",
                    );
                }
                if let Some(worker) = self.worker_id(f(3), line_no, diags) {
                    self.worker(worker, line_no).start = Some(time);
                }
            }
            Event::RepositoryPrepared | Event::ResourcesPrepared => {
                if let Some(worker) = self.worker_id(f(3), line_no, diags) {
                    let kind = if line.event == Event::ResourcesPrepared {
                        "resources".to_owned()
                    } else {
                        format!("repository:{}", text(f(2), line_no, diags))
                    };
                    let w = self.worker(worker, line_no);
                    match w.ends.iter_mut().find(|(k, _)| *k == kind) {
                        Some((_, end)) => *end = time,
                        None => w.ends.push((kind, time)),
                    }
                }
            }
            Event::DepExtract => {
                // ya ignores these: their key (dep uid, destination) is not unique.
            }
            Event::Other => self.uninterpreted(f(1), line_no, raw),
        }
    }

    /// The id of a uid, given with its [`crate::hash::hash_bytes`].
    fn uid(&mut self, (field, hash): (&[u8], u64), line_no: u64, diags: &mut Diagnostics) -> u32 {
        let builder = &mut self.log.builder;
        self.recent_uids.id_hashed(field, hash, || {
            if let Some(sym) = builder.find_sym_hashed(field, hash) {
                return (sym.0, true);
            }
            // A uid that is not UTF-8 is reported on each of its lines.
            match text(field, line_no, diags) {
                Cow::Borrowed(s) => (builder.sym_hashed(s, hash).0, true),
                Cow::Owned(s) => (builder.sym(&s).0, false),
            }
        })
    }

    fn lane(&mut self, host: u32) -> LaneId {
        let slot = host as usize;
        if slot >= self.lanes.len() {
            self.lanes.resize(slot + 1, None);
        }
        match self.lanes[slot] {
            Some(l) => l,
            None => {
                let l = self.log.builder.lane(self.log.hosts.name(host));
                self.lanes[slot] = Some(l);
                l
            }
        }
    }

    /// The run task and copy kinds, made on first use.
    fn kinds(&mut self) -> (KindId, KindId) {
        let b = &mut self.log.builder;
        *self.kinds.get_or_insert_with(|| (b.kind(UNKNOWN_KIND, Some("red")), b.kind(COPY_KIND, Some("brown"))))
    }

    /// The id of a host, given with its [`crate::hash::hash_bytes`].
    fn host(&mut self, (field, hash): (&[u8], u64), line_no: u64, diags: &mut Diagnostics) -> u32 {
        let hosts = &mut self.log.hosts;
        self.recent_hosts.id_hashed(field, hash, || {
            if let Some(id) = hosts.get_hashed(field, hash) {
                return (id, true);
            }
            // A host that is not UTF-8 is reported on each of its lines.
            match text(field, line_no, diags) {
                Cow::Borrowed(s) => (hosts.intern_hashed(s, hash), true),
                Cow::Owned(s) => (hosts.intern(&s), false),
            }
        })
    }

    fn worker_id(&mut self, field: &[u8], line_no: u64, diags: &mut Diagnostics) -> Option<i64> {
        let id = parse_int(field);
        if id.is_none() {
            diags.report(
                Severity::Warning,
                "distbuild.bad-worker-id",
                Position::Line(line_no),
                format!("the worker id {} is not an integer; line skipped (as ya does)", quote_bytes(field)),
            );
        }
        id
    }

    /// ya's `get_run_task`: the run task of `uid`, made (on `host`) by its first event.
    fn run(&mut self, uid: u32, host: u32, line_no: u64) -> TaskId {
        let slot = uid as usize;
        if slot >= self.run_of_uid.len() {
            self.run_of_uid.resize(slot + 1, u32::MAX);
        }
        if self.run_of_uid[slot] == u32::MAX {
            let (kind, lane) = (self.kinds().0, self.lane(host));
            let task = self.log.builder.task(Task::new(Sym(uid), kind, Role::Work, lane, None, None));
            self.run_of_uid[slot] = self.log.runs.len() as u32;
            self.log.runs.push(RunRef { task, uid: Sym(uid), host });
            self.run_lines.push(line_no);
        }
        self.log.runs[self.run_of_uid[slot] as usize].task
    }

    /// The STATUS and SIZE fields of a `finished` line for `run`: a STATUS
    /// other than `OK` marks a failure (the last such line wins, as in ya).
    fn set_result(&mut self, run: TaskId, line: &Line, raw: &[u8]) {
        let b = &mut self.log.builder;
        if let Some(status) = line.fields.get(raw, 4) {
            b.get_mut(run).failed = status != b"OK";
        }
        let bytes = line.fields.get(raw, 5).filter(|s| is_numeric(s)).and_then(parse_int).map(|s| s as u64);
        if bytes.is_some() || b.payload(run).is_some() {
            b.payload_mut(run).bytes = bytes;
        }
    }

    /// Records a `started` line of the run task of `uid` (made already): a
    /// second one means the node was started again (retried).
    fn note_start(&mut self, uid: u32, line_no: u64) {
        let i = self.run_of_uid[uid as usize];
        let (word, bit) = (i as usize / 64, 1u64 << (i % 64));
        if word >= self.started.len() {
            self.started.resize(word + 1, 0);
        }
        if self.started[word] & bit != 0 {
            if self.restarted.last().is_none_or(|&(r, _)| r != i) {
                self.restarted.push((i, line_no));
            }
        } else {
            self.started[word] |= bit;
        }
    }

    /// ya's `get_copy_task`: the first event of a pair parks the copy, the
    /// second (after `event` set its fields) completes it as a task.
    fn copy(&mut self, dep_uid: u32, uid: u32, dest_host: u32, line_no: u64, event: impl FnOnce(&mut OpenCopy)) {
        let key = (dep_uid, uid);
        let Some(mut c) = self.open_copies.remove(&key) else {
            let mut c = OpenCopy { dest_host, origin_host: None, start: None, end: None, size: 0, line: line_no };
            event(&mut c);
            self.open_copies.insert(key, c);
            return;
        };
        event(&mut c);
        let (kind, lane) = (self.kinds().1, self.lane(c.dest_host));
        let origin = c.origin_host.map(|h| self.lane(h));
        let task = self.log.builder.task(Task::new(Sym(dep_uid), kind, Role::Transfer, lane, ns(c.start), ns(c.end)));
        *self.log.builder.payload_mut(task) = Payload { bytes: Some(c.size), origin, target: Some(Sym(uid)) };
        self.log.copies.push(CopyRef { task, dep_uid: Sym(dep_uid), uid: Sym(uid), dest_host: c.dest_host });
    }

    fn worker(&mut self, id: i64, line_no: u64) -> &mut Worker {
        let workers = &mut self.workers;
        let i = *self.worker_of_id.entry(id).or_insert_with(|| {
            workers.push(Worker { id, start: None, ends: Vec::new(), first_line: line_no });
            workers.len() - 1
        });
        &mut workers[i]
    }

    fn uninterpreted(&mut self, ev: &[u8], line_no: u64, raw: &[u8]) {
        let name = String::from_utf8_lossy(ev).into_owned();
        let i = match self.uninterpreted_of.get(&name) {
            Some(&i) => i,
            None => {
                let retired = RETIRED.contains(&name.as_str());
                self.uninterpreted.push(Uninterpreted { name: name.clone(), first_line: line_no, count: 0, retired });
                self.uninterpreted_of.insert(name, self.uninterpreted.len() - 1);
                self.uninterpreted.len() - 1
            }
        };
        let u = &mut self.uninterpreted[i];
        u.count += 1;
        if !u.retired {
            self.log.unknown_lines.push((line_no, String::from_utf8_lossy(raw).into_owned()));
        }
    }

    /// Ends the log: builds the prepare tasks, resolves worker ids and reports what is incomplete.
    pub(super) fn finish(mut self, diags: &mut Diagnostics) -> Log {
        let mut lone: Vec<((u32, u32), OpenCopy)> = std::mem::take(&mut self.open_copies).into_iter().collect();
        lone.sort_by_key(|(_, c)| c.line);
        for ((dep, uid), c) in lone {
            let (event, missing) = if c.start.is_some() {
                ("dep_start/dep_wait", "dep_finished")
            } else {
                ("dep_finished", "dep_start/dep_wait")
            };
            let b = &self.log.builder;
            diags.report(
                Severity::Warning,
                "distbuild.lone-copy-event",
                Position::Line(c.line),
                format!(
                    "the copy of {} to {} on {} has a {event} but no {missing}; dropped (ya drops it too)",
                    b.str(Sym(dep)),
                    b.str(Sym(uid)),
                    self.log.hosts.name(c.dest_host)
                ),
            );
        }

        let mut prepare_of: FastMap<(String, u32), TaskId> = FastMap::default();
        let workers = std::mem::take(&mut self.workers);
        for w in &workers {
            let host = match self.binder.host(w.id) {
                Some(h) => h,
                None => {
                    diags.report(
                        Severity::Warning,
                        "distbuild.unbound-worker",
                        Position::Line(w.first_line),
                        format!(
                            "worker {} was never bound to a host (no deploy and run event share a uid); its prepare tasks are shown on 'worker-{}'",
                            w.id, w.id
                        ),
                    );
                    self.log.hosts.intern(&format!("worker-{}", w.id))
                }
            };
            if w.start.is_none() && !w.ends.is_empty() {
                diags.report(
                    Severity::Warning,
                    "distbuild.no-prepare-start",
                    Position::Line(w.first_line),
                    format!(
                        "worker {} has prepare events but no prepare_start: the start of its prepare tasks is unknown, so they stay off the critical path (ya would start them at 0)",
                        w.id
                    ),
                );
            }
            let mut longest: Option<(TaskId, i64)> = None;
            for (kind, end) in &w.ends {
                let id = match prepare_of.get(&(kind.clone(), host)) {
                    Some(&id) => id,
                    None => {
                        let k = self.log.builder.kind(&format!("{PREPARE_PREFIX}{kind}"), Some("gray"));
                        let lane = self.lane(host);
                        let uid = self.log.builder.sym(kind);
                        let name =
                            self.log.builder.sym(&format!("[{PREPARE_PREFIX}{kind}] {}", self.log.hosts.name(host)));
                        let id =
                            self.log.builder.named_task(Task::new(uid, k, Role::Setup, lane, None, None), Some(name));
                        prepare_of.insert((kind.clone(), host), id);
                        self.log.prepares.push(id);
                        id
                    }
                };
                let t = self.log.builder.get_mut(id);
                t.start = ns(w.start).into();
                t.end = ns(Some(*end)).into();
                if longest.is_none_or(|(_, e)| e < *end) {
                    longest = Some((id, *end));
                }
            }
            self.log.longest_prepare.insert(host, longest.map(|(id, _)| id));
        }

        for i in 0..self.log.runs.len() {
            let run = self.log.runs[i];
            let host_text = self.log.hosts.name(run.host);
            if self.log.builder.get(run.task).cached && is_numeric(host_text.as_bytes()) {
                let worker = parse_int(host_text.as_bytes());
                let bound = worker.and_then(|w| self.binder.host(w));
                let host = match (bound, worker) {
                    (Some(h), _) => h,
                    (None, Some(w)) => self.log.hosts.intern(&format!("worker-{w}")),
                    (None, None) => run.host,
                };
                self.log.runs[i].host = host;
                let lane = self.lane(host);
                self.log.builder.get_mut(run.task).lane = lane;
            }
            let t = self.log.builder.get(run.task);
            let (code, what) = match (t.start.get(), t.end.get()) {
                (Some(_), None) => ("distbuild.unfinished-task", "started but never finished"),
                (None, Some(_)) => ("distbuild.unstarted-task", "finished but never started"),
                _ => continue,
            };
            diags.report(
                Severity::Warning,
                code,
                Position::Line(self.run_lines[i]),
                format!(
                    "run task {} on {} {what}: it has no duration, so it gets no edges and stays off the critical path",
                    self.log.builder.str(run.uid),
                    self.log.hosts.name(self.log.runs[i].host)
                ),
            );
        }

        self.restarted.sort_unstable();
        self.restarted.dedup_by_key(|r| r.0);
        if let Some(&(first, line)) = self.restarted.iter().min_by_key(|r| r.1) {
            let n = self.restarted.len();
            diags.report(
                Severity::Info,
                "distbuild.retried-task",
                Position::Line(line),
                format!(
                    "{n} run task{} started more than once (the first: {}); the last start counts, as in ya, and a comparison shows {} as retried",
                    if n == 1 { " was" } else { "s were" },
                    self.log.builder.str(self.log.runs[first as usize].uid),
                    if n == 1 { "it" } else { "them" },
                ),
            );
        }
        self.log.retried = self.restarted.iter().map(|&(i, _)| self.log.runs[i as usize].task).collect();

        for u in &self.uninterpreted {
            let (severity, code, what) = if u.retired {
                (Severity::Info, "distbuild.retired-event", "retired event type (older dialect), not used")
            } else {
                (Severity::Warning, "distbuild.unknown-event", "unknown event type; lines kept but not interpreted")
            };
            let lines = if u.count == 1 { "line" } else { "lines" };
            diags.report(
                severity,
                code,
                Position::Line(u.first_line),
                format!("'{}': {what} ({} {lines})", u.name, u.count),
            );
        }
        self.log
    }
}

/// A field as text; bytes that are not UTF-8 are replaced and reported.
fn text<'a>(field: &'a [u8], line_no: u64, diags: &mut Diagnostics) -> Cow<'a, str> {
    match std::str::from_utf8(field) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => {
            diags.report(
                Severity::Warning,
                "distbuild.invalid-utf8",
                Position::Line(line_no),
                format!("the field {} is not UTF-8; invalid bytes replaced with U+FFFD", quote_bytes(field)),
            );
            String::from_utf8_lossy(field)
        }
    }
}
