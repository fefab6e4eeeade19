//! One event object into the [`ChromeTrace`]: parsed by the fast path
//! ([`super::fast`]) or else serde (borrowing its strings), classified by
//! phase, its process and thread looked up.

use super::raw::{RawEvent, RawFrame, RawSample};
use super::{AsyncEvent, ChromeTrace, Counter, FlowEvent, Instant, Process, Sample, Scope, Slice, SlicePhase, Thread};
use crate::hash::FastMap;
use serde_json::Value;

/// Phases of the spec that are counted but not modelled.
const COUNTED: &[&str] = &["P", "N", "O", "D", "R", "c", "(", ")"];

/// What went wrong with one event.
pub(super) enum Problem {
    /// Not an event object: the parser's message.
    NotAnEvent(String),
    /// No `ph`.
    NoPhase,
    /// A phase that needs `ts` has none.
    NoTime(String),
    /// A `ts` or `dur` (µs) beyond what nanoseconds in 64 bits hold.
    TimeOutOfRange(String, f64),
}

/// The largest time in µs kept (±285 years): nanoseconds in an `i64` hold
/// ±9.22e15 µs, and a start plus a duration must still fit.
const MAX_US: f64 = 4.0e15;

/// Builds a [`ChromeTrace`] event by event.
#[derive(Default)]
pub(super) struct Builder {
    pub trace: ChromeTrace,
    process_index: FastMap<u32, u32>,
    thread_index: FastMap<(u32, u32), u32>,
    /// Unknown phases: first line and count.
    pub unknown: Vec<(String, u64, u64)>,
    first_event: bool,
    /// The (pid, tid) of the last event and its thread.
    last_thread: Option<(String, String, u32)>,
    /// A slice's `args` as written → as kept in [`Slice::args`].
    args_seen: FastMap<Box<str>, Option<u32>>,
}

/// Distinct `args` texts remembered (past it, each is read anew).
const ARGS_REMEMBERED: usize = 1 << 16;

/// JavaScript's truthiness of a value (`if (event.args)`).
fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|x| x != 0.0 && !x.is_nan()),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// The arguments Hermes puts on every frame event.
const HERMES_ARGS: &[&str] =
    &["line", "column", "name", "category", "url", "params", "allocatedCategory", "allocatedName"];

/// Appends to `out` a slice's `args` (`raw`, as written) as kept:
/// `JSON.stringify` of them when JavaScript deems them true; false, with
/// nothing appended, when they are not kept.
pub(super) fn write_kept_args(raw: &str, out: &mut String) -> bool {
    let value: Option<Value> = serde_json::from_str(raw).ok();
    match value.filter(truthy) {
        Some(args) => {
            super::js::write_value(out, &args);
            true
        }
        None => false,
    }
}

/// What was worked out of an event before it is built ([`super::ahead`]):
/// the [`crate::hash::hash_bytes`] of its name and category, and a slice's `args` as
/// kept with their hash (`Some(None)`: not kept).
#[derive(Clone, Copy, Default)]
pub(super) struct Known<'a> {
    pub name: Option<u64>,
    pub cat: Option<u64>,
    pub args: Option<Option<(&'a str, u64)>>,
}

impl Builder {
    pub fn new() -> Self {
        Builder { first_event: true, ..Builder::default() }
    }

    fn process(&mut self, pid: &str) -> u32 {
        let pid = self.trace.strings.intern(pid);
        let next = self.trace.processes.len() as u32;
        let at = *self.process_index.entry(pid).or_insert(next);
        if at == next {
            self.trace.processes.push(Process { pid, name: None, sort_index: None });
        }
        at
    }

    fn thread(&mut self, pid: &str, tid: &str) -> u32 {
        if let Some((p, t, at)) = &self.last_thread {
            if p == pid && t == tid {
                return *at;
            }
        }
        let at = self.lookup_thread(pid, tid);
        let (p, t, last) = self.last_thread.get_or_insert_with(Default::default);
        p.clear();
        p.push_str(pid);
        t.clear();
        t.push_str(tid);
        *last = at;
        at
    }

    fn lookup_thread(&mut self, pid: &str, tid: &str) -> u32 {
        let process = self.process(pid);
        let tid = self.trace.strings.intern(tid);
        let next = self.trace.threads.len() as u32;
        let at = *self.thread_index.entry((process, tid)).or_insert(next);
        if at == next {
            self.trace.threads.push(Thread { process, tid, name: None, sort_index: None });
        }
        at
    }

    fn opt(&mut self, s: Option<&str>) -> Option<u32> {
        s.map(|s| self.trace.strings.intern(s))
    }

    /// [`Builder::opt`] of a string whose hash may be known.
    fn hashed(&mut self, s: Option<&str>, hash: Option<u64>) -> Option<u32> {
        let strings = &mut self.trace.strings;
        s.map(|s| strings.intern_hashed(s, hash.unwrap_or_else(|| crate::hash::hash_bytes(s.as_bytes()))))
    }

    /// A slice's `args` as kept ([`write_kept_args`]).
    fn slice_args(&mut self, raw: &str) -> Option<u32> {
        if let Some(&kept) = self.args_seen.get(raw) {
            return kept;
        }
        let mut text = String::new();
        let kept = write_kept_args(raw, &mut text).then(|| self.trace.strings.intern(&text));
        if self.args_seen.len() < ARGS_REMEMBERED {
            self.args_seen.insert(raw.into(), kept);
        }
        kept
    }

    /// Reads one event; `root` is true for elements of a root array.
    pub fn event(&mut self, bytes: &[u8], line: u64, root: bool) -> Result<(), Problem> {
        let e: RawEvent<'_> = match super::fast::event(bytes) {
            Some(e) => e,
            None => serde_json::from_slice(bytes).map_err(|err| Problem::NotAnEvent(err.to_string()))?,
        };
        self.event_read(e, line, root, Known::default())
    }

    /// Builds one event, read by the fast path or serde (or ahead, by
    /// [`super::ahead`], with what is `known` of it); `root` is true for
    /// elements of a root array.
    pub fn event_read(&mut self, e: RawEvent<'_>, line: u64, root: bool, known: Known<'_>) -> Result<(), Problem> {
        let first = std::mem::replace(&mut self.first_event, false);
        let Some(ph) = e.ph.as_deref() else { return Err(Problem::NoPhase) };
        let raw_args = e.args.map(|a| a.0);
        let args = || -> Option<Value> { raw_args.and_then(|a| serde_json::from_str(a).ok()) };
        if first && root {
            self.trace.hermes =
                matches!(args(), Some(Value::Object(o)) if HERMES_ARGS.iter().all(|k| o.contains_key(*k)));
        }
        match self.trace.by_phase.get_mut(ph) {
            Some(n) => *n += 1,
            None => {
                self.trace.by_phase.insert(ph.to_owned(), 1);
            }
        }
        let pid = e.pid.as_ref().map_or("", |p| p.as_str());
        let tid = e.tid.as_ref().map_or("", |t| t.as_str());
        let ts = e.ts.map(|t| t.0);
        let in_range = |t: f64| if t.abs() <= MAX_US { Ok(t) } else { Err(Problem::TimeOutOfRange(ph.to_owned(), t)) };
        let needs_ts = |ts: Option<f64>| in_range(ts.ok_or_else(|| Problem::NoTime(ph.to_owned()))?);
        match ph {
            "B" | "E" | "X" => {
                let ts = needs_ts(ts)?;
                let phase = match ph {
                    "B" => SlicePhase::Begin,
                    "E" => SlicePhase::End,
                    _ => SlicePhase::Complete(in_range(e.dur.or(e.tdur).map_or(0.0, |d| d.0))?),
                };
                let thread = self.thread(pid, tid);
                let name = self.hashed(e.name.as_deref(), known.name);
                let cat = self.hashed(e.cat.as_deref(), known.cat);
                let args = match known.args {
                    Some(kept) => kept.map(|(text, hash)| self.trace.strings.intern_hashed(text, hash)),
                    None => raw_args.and_then(|a| self.slice_args(a)),
                };
                let slice = Slice {
                    phase,
                    thread,
                    name,
                    cat,
                    ts,
                    args,
                    bind_id: self.opt(e.bind_id.as_ref().map(|b| b.as_str())),
                    flow_in: e.flow_in.unwrap_or(false),
                    flow_out: e.flow_out.unwrap_or(false),
                    line,
                };
                self.trace.slices.push(slice);
            }
            "i" | "I" => {
                let ts = needs_ts(ts)?;
                let scope = match e.s.as_deref() {
                    Some("g") => Scope::Global,
                    Some("p") => Scope::Process,
                    _ => Scope::Thread,
                };
                let thread = self.thread(pid, tid);
                let name = self.opt(e.name.as_deref());
                let cat = self.opt(e.cat.as_deref());
                self.trace.instants.push(Instant { thread, name, cat, ts, scope });
            }
            "C" => {
                let ts = needs_ts(ts)?;
                let thread = self.thread(pid, tid);
                let base = e.name.as_deref().unwrap_or("(unnamed)");
                let name = match &e.id {
                    Some(id) => format!("{base}[{}]", id.as_str()),
                    None => base.to_owned(),
                };
                let name = self.trace.strings.intern(&name);
                let mut values = Vec::new();
                if let Some(Value::Object(o)) = &args() {
                    for (k, v) in o {
                        if let Some(x) = v.as_f64().or_else(|| v.as_str().and_then(|s| s.parse().ok())) {
                            values.push((self.trace.strings.intern(k), x));
                        }
                    }
                }
                self.trace.counters.push(Counter { thread, name, ts, values });
            }
            "b" | "n" | "e" | "S" | "T" | "p" | "F" => {
                let ts = needs_ts(ts)?;
                let thread = self.thread(pid, tid);
                let id2 = e.id2.unwrap_or_default();
                let key = format!(
                    "{}\u{1}{}\u{1}{}\u{1}{}\u{1}{}",
                    e.cat.as_deref().unwrap_or(""),
                    e.scope.as_deref().unwrap_or(""),
                    e.id.as_ref().map_or("", |i| i.as_str()),
                    id2.global.as_ref().map_or("", |i| i.as_str()),
                    // A local id2 is scoped by its process.
                    id2.local.as_ref().map_or(String::new(), |i| format!("{pid}:{}", i.as_str())),
                );
                let event = AsyncEvent {
                    ph: ph.as_bytes()[0],
                    thread,
                    cat: self.opt(e.cat.as_deref()),
                    name: self.opt(e.name.as_deref()),
                    key: self.trace.strings.intern(&key),
                    ts,
                    line,
                };
                self.trace.asyncs.push(event);
            }
            "s" | "t" | "f" => {
                let ts = needs_ts(ts)?;
                let thread = self.thread(pid, tid);
                let id = format!("{}\u{1}{}", e.cat.as_deref().unwrap_or(""), e.id.as_ref().map_or("", |i| i.as_str()));
                let id = self.trace.strings.intern(&id);
                let enclosing = e.bp.as_deref() == Some("e");
                self.trace.flows.push(FlowEvent { ph: ph.as_bytes()[0], thread, id, ts, enclosing, line });
            }
            "M" => self.metadata(e.name.as_deref(), pid, tid, args().as_ref()),
            _ if COUNTED.contains(&ph) => {}
            _ => match self.unknown.iter_mut().find(|u| u.0 == ph) {
                Some(u) => u.2 += 1,
                None => self.unknown.push((ph.to_owned(), line, 1)),
            },
        }
        Ok(())
    }

    fn metadata(&mut self, name: Option<&str>, pid: &str, tid: &str, args: Option<&Value>) {
        let arg = |k: &str| args.and_then(|a| a.get(k));
        let text = arg("name").and_then(Value::as_str).map(str::to_owned);
        let index =
            arg("sort_index").and_then(|v| v.as_i64().or_else(|| v.as_str().and_then(|s| s.trim().parse().ok())));
        match name {
            Some("process_name") => {
                let p = self.process(pid) as usize;
                let text = self.opt(text.as_deref());
                self.trace.processes[p].name = text.or(self.trace.processes[p].name);
            }
            Some("process_sort_index") => {
                let p = self.process(pid) as usize;
                self.trace.processes[p].sort_index = index.or(self.trace.processes[p].sort_index);
            }
            Some("thread_name") => {
                let t = self.thread(pid, tid) as usize;
                let text = self.opt(text.as_deref());
                self.trace.threads[t].name = text.or(self.trace.threads[t].name);
            }
            Some("thread_sort_index") => {
                let t = self.thread(pid, tid) as usize;
                self.trace.threads[t].sort_index = index.or(self.trace.threads[t].sort_index);
            }
            _ => {}
        }
    }

    /// Reads one element of the `samples` array.
    pub fn sample(&mut self, bytes: &[u8]) -> Result<(), Problem> {
        let s: RawSample<'_> = serde_json::from_slice(bytes).map_err(|err| Problem::NotAnEvent(err.to_string()))?;
        let ts = s.ts.ok_or_else(|| Problem::NoTime("sample".to_owned()))?.0;
        let pid = s.pid.as_ref().map_or("", |p| p.as_str());
        let tid = s.tid.as_ref().map_or("", |t| t.as_str());
        let thread = self.thread(pid, tid);
        self.trace.samples.push(Sample { thread, ts, frame: s.sf.map(|f| f.0.into_owned()) });
        Ok(())
    }

    /// Reads the `stackFrames` member.
    pub fn stack_frames(&mut self, bytes: &[u8]) -> Result<(), String> {
        let frames: std::collections::BTreeMap<String, RawFrame<'_>> =
            serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
        for (id, f) in frames {
            let frame = super::StackFrame {
                name: f.name.map(|n| n.0.into_owned()).unwrap_or_default(),
                category: f.category.map(|c| c.0.into_owned()).unwrap_or_default(),
                parent: f.parent.map(|p| p.0.into_owned()),
            };
            self.trace.stack_frames.insert(id, frame);
        }
        Ok(())
    }
}
