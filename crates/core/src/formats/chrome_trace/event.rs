//! One event object into the [`ChromeTrace`]: parsed with serde (borrowing
//! its strings), classified by phase, its process and thread looked up.

use super::{AsyncEvent, ChromeTrace, Counter, FlowEvent, Instant, Process, Sample, Scope, Slice, SlicePhase, Thread};
use crate::hash::FastMap;
use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;

/// Phases of the spec that are counted but not modelled.
const COUNTED: &[&str] = &["P", "N", "O", "D", "R", "c", "(", ")"];

/// A number, or a string holding one (Hermes writes `"ts": "11550183666"`).
#[derive(Clone, Copy, Debug)]
struct Num(f64);

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Num;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Num, E> {
                Ok(Num(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Num, E> {
                Ok(Num(v as f64))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Num, E> {
                Ok(Num(v as f64))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Num, E> {
                v.trim().parse().map(Num).map_err(|_| E::custom("not a number"))
            }
        }
        d.deserialize_any(V)
    }
}

/// An id as text: a string's content, a number as written, a bool.
#[derive(Clone, Debug)]
struct IdText(String);

impl<'de> Deserialize<'de> for IdText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = IdText;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string or a number")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<IdText, E> {
                Ok(IdText(v.to_string()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<IdText, E> {
                Ok(IdText(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<IdText, E> {
                Ok(IdText(v.to_string()))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<IdText, E> {
                Ok(IdText(v.to_owned()))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<IdText, E> {
                Ok(IdText(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// `id2`: `{"local": …}` or `{"global": …}`.
#[derive(Deserialize, Debug, Default)]
struct Id2 {
    local: Option<IdText>,
    global: Option<IdText>,
}

/// The fields of an event that are read.
#[derive(Deserialize, Debug)]
struct RawEvent<'a> {
    #[serde(borrow)]
    ph: Option<Cow<'a, str>>,
    #[serde(borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    cat: Option<Cow<'a, str>>,
    ts: Option<Num>,
    dur: Option<Num>,
    tdur: Option<Num>,
    pid: Option<IdText>,
    tid: Option<IdText>,
    #[serde(borrow)]
    args: Option<&'a RawValue>,
    id: Option<IdText>,
    id2: Option<Id2>,
    #[serde(borrow)]
    scope: Option<Cow<'a, str>>,
    #[serde(borrow)]
    bp: Option<Cow<'a, str>>,
    #[serde(borrow)]
    s: Option<Cow<'a, str>>,
    bind_id: Option<IdText>,
    flow_in: Option<bool>,
    flow_out: Option<bool>,
}

/// A sample of the `samples` array.
#[derive(Deserialize, Debug)]
struct RawSample {
    pid: Option<IdText>,
    tid: Option<IdText>,
    ts: Option<Num>,
    sf: Option<IdText>,
}

/// A frame of `stackFrames`.
#[derive(Deserialize, Debug)]
struct RawFrame {
    name: Option<IdText>,
    category: Option<IdText>,
    parent: Option<IdText>,
}

/// What went wrong with one event.
pub(super) enum Problem {
    /// Not an event object: the parser's message.
    NotAnEvent(String),
    /// No `ph`.
    NoPhase,
    /// A phase that needs `ts` has none.
    NoTime(String),
}

/// Builds a [`ChromeTrace`] event by event.
#[derive(Default)]
pub(super) struct Builder {
    pub trace: ChromeTrace,
    process_index: FastMap<u32, u32>,
    thread_index: FastMap<(u32, u32), u32>,
    /// Unknown phases: first line and count.
    pub unknown: Vec<(String, u64, u64)>,
    first_event: bool,
}

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

    /// Reads one event; `root` is true for elements of a root array.
    pub fn event(&mut self, bytes: &[u8], line: u64, root: bool) -> Result<(), Problem> {
        let e: RawEvent<'_> = serde_json::from_slice(bytes).map_err(|err| Problem::NotAnEvent(err.to_string()))?;
        let first = std::mem::replace(&mut self.first_event, false);
        let Some(ph) = e.ph.as_deref() else { return Err(Problem::NoPhase) };
        let args: Option<Value> = e.args.and_then(|a| serde_json::from_str(a.get()).ok());
        if first && root {
            self.trace.hermes =
                matches!(&args, Some(Value::Object(o)) if HERMES_ARGS.iter().all(|k| o.contains_key(*k)));
        }
        *self.trace.by_phase.entry(ph.to_owned()).or_insert(0) += 1;
        let pid = e.pid.as_ref().map_or("", |p| p.0.as_str());
        let tid = e.tid.as_ref().map_or("", |t| t.0.as_str());
        let ts = e.ts.map(|t| t.0);
        let needs_ts = |ts: Option<f64>| ts.ok_or_else(|| Problem::NoTime(ph.to_owned()));
        match ph {
            "B" | "E" | "X" => {
                let ts = needs_ts(ts)?;
                let phase = match ph {
                    "B" => SlicePhase::Begin,
                    "E" => SlicePhase::End,
                    _ => SlicePhase::Complete(e.dur.or(e.tdur).map_or(0.0, |d| d.0)),
                };
                let thread = self.thread(pid, tid);
                let args = args.filter(truthy).map(|a| super::js_stringify(&a));
                let slice = Slice {
                    phase,
                    thread,
                    name: self.opt(e.name.as_deref()),
                    cat: self.opt(e.cat.as_deref()),
                    ts,
                    args: self.opt(args.as_deref()),
                    bind_id: self.opt(e.bind_id.as_ref().map(|b| b.0.as_str())),
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
                self.trace.instants.push(Instant { thread, name, ts, scope });
            }
            "C" => {
                let ts = needs_ts(ts)?;
                let thread = self.thread(pid, tid);
                let base = e.name.as_deref().unwrap_or("(unnamed)");
                let name = match &e.id {
                    Some(id) => format!("{base}[{}]", id.0),
                    None => base.to_owned(),
                };
                let name = self.trace.strings.intern(&name);
                let mut values = Vec::new();
                if let Some(Value::Object(o)) = &args {
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
                    e.id.as_ref().map_or("", |i| i.0.as_str()),
                    id2.global.as_ref().map_or("", |i| i.0.as_str()),
                    // A local id2 is scoped by its process.
                    id2.local.as_ref().map_or(String::new(), |i| format!("{pid}:{}", i.0)),
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
                let id =
                    format!("{}\u{1}{}", e.cat.as_deref().unwrap_or(""), e.id.as_ref().map_or("", |i| i.0.as_str()));
                let id = self.trace.strings.intern(&id);
                let enclosing = e.bp.as_deref() == Some("e");
                self.trace.flows.push(FlowEvent { ph: ph.as_bytes()[0], thread, id, ts, enclosing, line });
            }
            "M" => self.metadata(e.name.as_deref(), pid, tid, args.as_ref()),
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
        let s: RawSample = serde_json::from_slice(bytes).map_err(|err| Problem::NotAnEvent(err.to_string()))?;
        let ts = s.ts.ok_or_else(|| Problem::NoTime("sample".to_owned()))?.0;
        let pid = s.pid.as_ref().map_or("", |p| p.0.as_str());
        let tid = s.tid.as_ref().map_or("", |t| t.0.as_str());
        let thread = self.thread(pid, tid);
        self.trace.samples.push(Sample { thread, ts, frame: s.sf.map(|f| f.0) });
        Ok(())
    }

    /// Reads the `stackFrames` member.
    pub fn stack_frames(&mut self, bytes: &[u8]) -> Result<(), String> {
        let frames: std::collections::BTreeMap<String, RawFrame> =
            serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
        for (id, f) in frames {
            let frame = super::StackFrame {
                name: f.name.map(|n| n.0).unwrap_or_default(),
                category: f.category.map(|c| c.0).unwrap_or_default(),
                parent: f.parent.map(|p| p.0),
            };
            self.trace.stack_frames.insert(id, frame);
        }
        Ok(())
    }
}
