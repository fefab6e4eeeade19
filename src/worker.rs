//! The analysis worker: reads each `File` in slices with `Blob.slice`,
//! feeds the slices to the core's [`Ingest`], posts progress, and posts the
//! summary at the end. Nothing here interprets data; the core does. The
//! answers to the page's later questions are `longpole-answer`'s
//! ([`Session`]), posted ([`Post`]); `longpole open --native` sends the
//! same over a WebSocket.
//!
//! A run stops between two slices when the page cancels it or starts a
//! newer one: the worker keeps listening while it reads, because every
//! slice is awaited.

use crate::file_groups::{units, Unit};
use crate::file_read::read_parts;
use crate::finished::conclude;
use crate::graph_worker::{SideRead, SideResult, SIDE_MIN_BYTES};
use crate::link::Source;
use crate::protocol::{CompareSettings, Progress, Request, Response, RunId};
use crate::worker_io::{memory_bytes, post, scope, Post, Stop, PROGRESS_EVERY_MS, SLICE};
use js_sys::{Array, Reflect};
use longpole_answer::Session;
use longpole_core::memory_budget::{MemoryBudget, WASM_LIMIT};
use longpole_core::{reconcile, Analysis, Ingest, Input};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::spawn_local;
use web_sys::{File, MessageEvent};

/// The loaded run and the comparison, which the page's questions are about.
type Shared = Rc<RefCell<Session>>;

/// The time since `began` (ms since the epoch), in ms.
fn since(began: f64) -> impl Fn() -> f64 {
    move || js_sys::Date::now() - began
}

/// Starts the worker: listens for requests, says it is ready and warms up
/// until the first request ([`crate::warm_up`]). A panic (a bug: input never
/// panics the core) is reported to the page.
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        post(&Response::Failed {
            run: 0,
            message: format!("the analysis worker stopped on an internal error: {info}"),
        });
    }));
    let current: Rc<Cell<RunId>> = Rc::new(Cell::new(0));
    let session: Shared = Rc::new(RefCell::new(Session::default()));
    let asked = Rc::new(Cell::new(false));
    let stop_warming = asked.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        stop_warming.set(true);
        let data = event.data();
        let json = Reflect::get(&data, &JsValue::from_str("json")).ok().and_then(|j| j.as_string()).unwrap_or_default();
        match serde_json::from_str::<Request>(&json) {
            Ok(Request::Analyze { run, memory_limit }) => {
                current.set(run);
                crate::url_read::abort_all();
                session.borrow_mut().compared = None;
                // A request without files reads none, and the run says so.
                let files = files_of(&data);
                spawn_local(analyze(run, Inputs::Files(files), memory_limit, current.clone(), session.clone()));
            }
            Ok(Request::CompareFiles { run, a_files, settings, memory_limit }) => {
                current.set(run);
                crate::url_read::abort_all();
                let (current, session) = (current.clone(), session.clone());
                let files = files_of(&data);
                spawn_local(compare_files(run, files, a_files, settings, memory_limit, current, session));
            }
            Ok(Request::AnalyzeUrls { run, sources, memory_limit }) => {
                current.set(run);
                crate::url_read::abort_all();
                session.borrow_mut().compared = None;
                spawn_local(analyze(run, Inputs::Urls(sources), memory_limit, current.clone(), session.clone()));
            }
            Ok(Request::ReadGraph) => {
                if let Ok(file) = Reflect::get(&data, &JsValue::from_str("file")) {
                    crate::graph_worker::serve(file.unchecked_into::<File>());
                }
            }
            Ok(Request::SqlTables { run }) => {
                spawn_local(crate::sql_tables::make(run, files_of(&data), session.clone()));
            }
            Ok(Request::Cancel { run }) => {
                if current.get() == run {
                    current.set(0);
                    crate::url_read::abort_all();
                }
            }
            Ok(other) => session.borrow_mut().answer(other, &since(js_sys::Date::now()), &mut Post),
            Err(e) => post(&Response::Failed {
                run: 0,
                message: format!(
                    "longpole's analysis worker could not read the page's request ({e}); please report this"
                ),
            }),
        }
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&Response::Ready);
    spawn_local(crate::warm_up::warm_up(asked));
}

/// The files sent beside a request (none when it has none); the export
/// worker's requests carry them the same way.
pub fn files_of(data: &JsValue) -> Vec<File> {
    Reflect::get(data, &JsValue::from_str("files"))
        .ok()
        .filter(|f| f.is_object())
        .map(|f| f.unchecked_into::<Array>().iter().map(|f| f.unchecked_into::<File>()).collect())
        .unwrap_or_default()
}

/// What a run reads: files the page sent, or URLs a link names.
enum Inputs {
    Files(Vec<File>),
    Urls(Vec<Source>),
}

async fn analyze(run: RunId, inputs: Inputs, memory_limit: Option<u64>, current: Rc<Cell<RunId>>, session: Shared) {
    let began = js_sys::Date::now();
    let budget = MemoryBudget { baseline: memory_bytes(), limit: memory_limit.unwrap_or(WASM_LIMIT) };
    let read = match &inputs {
        Inputs::Files(files) => read_all(run, files, budget, &current, began).await,
        Inputs::Urls(sources) => read_urls(run, sources, budget, &current, began).await.map(|a| (a, 0)),
    };
    let response = match read {
        Ok((analysis, with_sides)) => {
            let (response, kept) = conclude(run, analysis, began, with_sides);
            session.borrow_mut().loaded = Some(kept);
            response
        }
        Err(stop) => stop.response(run),
    };
    post(&response);
}

/// Reads side A's files (the first `a_files`; none when side A is the
/// loaded run) and side B's, compares them with `settings` and posts the
/// result, keeping the sides in `session`.
async fn compare_files(
    run: RunId,
    files: Vec<File>,
    a_files: Option<u32>,
    settings: CompareSettings,
    memory_limit: Option<u64>,
    current: Rc<Cell<RunId>>,
    session: Shared,
) {
    let began = js_sys::Date::now();
    // The last sides go first: their memory is the new sides'.
    session.borrow_mut().compared = None;
    let budget = || MemoryBudget { baseline: memory_bytes(), limit: memory_limit.unwrap_or(WASM_LIMIT) };
    let split = a_files.map_or(0, |n| (n as usize).min(files.len()));
    let (files_a, files_b) = files.split_at(split);
    let a = match a_files {
        Some(_) => match read_all(run, files_a, budget(), &current, began).await {
            Ok((a, _)) => Some(a),
            Err(stop) => return post(&stop.response(run)),
        },
        None if session.borrow().loaded.is_some() => None,
        None => {
            let message = "there is no run loaded to compare with: open side A's files first".to_owned();
            return post(&Response::Failed { run, message });
        }
    };
    let b = match read_all(run, files_b, budget(), &current, began).await {
        Ok((b, _)) => b,
        Err(stop) => return post(&stop.response(run)),
    };
    session.borrow_mut().compare(run, (a, b), settings, &since(began), &mut Post);
}

/// Posts a run's reading progress, at most every [`PROGRESS_EVERY_MS`].
struct Reporter {
    run: RunId,
    began: f64,
    /// Bytes of all inputs, when known.
    total: Option<u64>,
    last_post: f64,
    /// Diagnostics of the files already read.
    diagnostics_before: u64,
    /// The memory the run may need.
    budget: MemoryBudget,
    /// The run's file names, for the command that reads them natively.
    names: Vec<String>,
}

impl Reporter {
    /// Why the run must stop, once `done` bytes of all files are read, if
    /// the whole is projected not to fit in its memory ([`MemoryBudget`]).
    fn over_budget(&self, done: u64) -> Option<String> {
        // Without a total (a server that does not say), what is read so far
        // is the least the whole can be.
        let total = self.total.map_or(done, |t| t.max(done));
        self.budget.check(done, total, memory_bytes()).err().map(|over| over.message(&self.names))
    }

    /// Posts that `done` bytes of all files are read, `ingest` being the
    /// reader of file `index` (if this worker is reading one).
    fn report(&mut self, index: usize, name: &str, done: u64, ingest: Option<&Ingest>) {
        let now = js_sys::Date::now();
        if now - self.last_post < PROGRESS_EVERY_MS {
            return;
        }
        self.last_post = now;
        let p = ingest.map(Ingest::progress);
        let elapsed_ms = now - self.began;
        post(&Response::Progress(Progress {
            run: self.run,
            file: index,
            name: name.to_owned(),
            bytes_done: done,
            bytes_total: self.total,
            mb_per_s: if elapsed_ms > 0.0 { done as f64 / 1e3 / elapsed_ms } else { 0.0 },
            elapsed_ms,
            format: p.and_then(|p| p.format).map(|f| f.name().to_owned()),
            lines: p.map_or(0, |p| p.counts.lines),
            diagnostics: self.diagnostics_before + p.map_or(0, |p| p.diagnostics),
        }));
    }
}

/// Bytes the second workers have read so far.
fn side_bytes(sides: &[(usize, SideRead)]) -> u64 {
    sides.iter().map(|(_, s)| s.bytes()).sum()
}

/// Reads `unit` (a file, or a rolling log's parts) in this worker,
/// reporting progress with what the second workers have read; stops when
/// the run is no longer current.
async fn read_here(
    unit: &Unit,
    current: &Cell<RunId>,
    done: &mut u64,
    reporter: &mut Reporter,
    sides: &[(usize, SideRead)],
) -> Result<Input, Stop> {
    if unit.files.is_empty() {
        return Err(Stop::Failed(format!("{} holds no events_N_* file of a rolling Spark event log", unit.name)));
    }
    let run = reporter.run;
    let mut over = None;
    let read = read_parts(
        &unit.files,
        &unit.name,
        SLICE,
        |_| {},
        |ingest, n| {
            *done += n;
            let all = *done + side_bytes(sides);
            reporter.report(unit.first, &unit.name, all, Some(ingest));
            over = reporter.over_budget(all);
            over.is_none() && current.get() == run
        },
    )
    .await;
    match over {
        Some(message) => Err(Stop::Failed(message)),
        None => read.map(|mut input| {
            unit.said.iter().for_each(|d| input.info.diagnostics.push(d.clone()));
            input
        }),
    }
}

/// Reads every file and reconciles them, a rolling Spark event log's parts
/// as one input ([`units`]). Big extra files (a build graph beside its
/// log) are read by second workers meanwhile ([`SideRead`]). Also gives the
/// most WebAssembly memory this worker and the second workers held
/// together while they ran, in bytes (0 without them).
async fn read_all(
    run: RunId,
    files: &[File],
    budget: MemoryBudget,
    current: &Cell<RunId>,
    began: f64,
) -> Result<(Analysis, u64), Stop> {
    let total = Some(files.iter().map(|f| f.size() as u64).sum());
    let names = files.iter().map(File::name).collect();
    let mut reporter =
        Reporter { run, began, total, last_post: f64::NEG_INFINITY, diagnostics_before: 0, budget, names };
    let units = units(files);
    let largest = (0..units.len()).max_by(|&a, &b| size(&units[a]).total_cmp(&size(&units[b])));
    let mut sides: Vec<(usize, SideRead)> = units
        .iter()
        .enumerate()
        .filter(|&(i, u)| Some(i) != largest && size(u) >= SIDE_MIN_BYTES)
        // A worker that cannot start leaves its file to be read here.
        .filter_map(|(i, u)| match u.files.as_slice() {
            [file] => Some((i, SideRead::start(file).ok()?)),
            _ => None,
        })
        .collect();
    let mut inputs: Vec<Option<Input>> = units.iter().map(|_| None).collect();
    let mut done = 0u64;
    for (index, unit) in units.iter().enumerate() {
        if sides.iter().any(|&(i, _)| i == index) {
            continue;
        }
        let input = read_here(unit, current, &mut done, &mut reporter, &sides).await?;
        reporter.diagnostics_before += input.info.diagnostics.total();
        inputs[index] = Some(input);
    }
    let (mut side_memory, mut with_sides) = (0, 0);
    while !sides.is_empty() {
        let (index, side) = sides.remove(0);
        let unit = &units[index];
        let answer = loop {
            if let Some(answer) = side.answer_within(PROGRESS_EVERY_MS as i32).await {
                break answer;
            }
            if current.get() != run {
                return Err(Stop::Cancelled);
            }
            reporter.report(unit.first, &unit.name, done + side.bytes() + side_bytes(&sides), None);
        };
        // This worker's memory only grows, and every second worker's is
        // counted at its largest: an upper bound of what they held together.
        // The second worker stops here, before its graph is made in this one.
        let before = memory_bytes();
        drop(side);
        let input = match answer.take()? {
            SideResult::Graph(input, memory) => {
                side_memory += memory;
                with_sides = with_sides.max(before + side_memory);
                done += input.info.bytes;
                *input
            }
            SideResult::ReadHere => read_here(unit, current, &mut done, &mut reporter, &sides).await?,
        };
        reporter.diagnostics_before += input.info.diagnostics.total();
        inputs[index] = Some(input);
    }
    Ok((reconcile(inputs.into_iter().flatten().collect()), with_sides))
}

/// The bytes of a unit's files.
fn size(unit: &Unit) -> f64 {
    unit.files.iter().map(|f| f.size()).sum()
}

/// Fetches every URL up to its headers (so that the total is known, and a
/// missing file is said at once), then reads their bodies one after the
/// other and reconciles them, as [`read_all`] does files.
async fn read_urls(
    run: RunId,
    sources: &[Source],
    budget: MemoryBudget,
    current: &Cell<RunId>,
    began: f64,
) -> Result<Analysis, Stop> {
    let mut opened = Vec::with_capacity(sources.len());
    for s in sources {
        let o = crate::url_read::open(s).await;
        if current.get() != run {
            return Err(Stop::Cancelled);
        }
        opened.push(o?);
    }
    let total = opened.iter().map(|o| o.length).sum();
    let names = sources.iter().map(|s| crate::url_read::file_name(&s.url)).collect();
    let mut reporter =
        Reporter { run, began, total, last_post: f64::NEG_INFINITY, diagnostics_before: 0, budget, names };
    let (mut inputs, mut done) = (Vec::with_capacity(opened.len()), 0u64);
    for (index, o) in opened.into_iter().enumerate() {
        let name = crate::url_read::file_name(&sources[index].url);
        let mut over = None;
        let input = crate::url_read::read(o, |ingest, n| {
            done += n;
            reporter.report(index, &name, done, Some(ingest));
            over = reporter.over_budget(done);
            over.is_none() && current.get() == run
        })
        .await;
        if let Some(message) = over {
            return Err(Stop::Failed(message));
        }
        let input = input?;
        reporter.diagnostics_before += input.info.diagnostics.total();
        inputs.push(input);
    }
    Ok(reconcile(inputs))
}
