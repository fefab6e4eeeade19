//! The analysis worker: reads each `File` in slices with `Blob.slice`,
//! feeds the slices to the core's [`Ingest`], posts progress, and posts the
//! summary at the end. Nothing here interprets data; the core does.
//!
//! A run stops between two slices when the page cancels it or starts a
//! newer one: the worker keeps listening while it reads, because every
//! slice is awaited.

use crate::compare_worker::{export_json, recompare, window, Compared, Kept, LoadedRun};
use crate::file_groups::{units, Unit};
use crate::file_read::read_parts;
use crate::finished::{conclude, Loaded};
use crate::graph_worker::{SideRead, SideResult, SIDE_MIN_BYTES};
use crate::link::Source;
use crate::protocol::{CompareSettings, Export, Progress, Request, Response, RunId};
use crate::worker_io::{memory_bytes, post, post_file, scope, Stop, PROGRESS_EVERY_MS, SLICE};
use js_sys::{Array, Reflect};
use longpole_core::analysis::task_key::TaskKey;
use longpole_core::export::flame::{folded, folded_len};
use longpole_core::export::run::{export, Target};
use longpole_core::formats::evobench::export::statistics_csv;
use longpole_core::formats::evobench::report::runs;
use longpole_core::formats::evobench::view::summary_rows;
use longpole_core::layout::{flame, graph};
use longpole_core::memory_budget::{mib, shell_quote, MemoryBudget, WASM_LIMIT};
use longpole_core::model::TaskId;
use longpole_core::render::flame_svg::flame_svg;
use longpole_core::render::graph_svg::graph_svg;
use longpole_core::render::timeline_svg::timeline_svg;
use longpole_core::view::{FlameLayout, TaskDetails};
use longpole_core::{reconcile, Analysis, Ingest, Input};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::spawn_local;
use web_sys::{File, MessageEvent};

/// The most bytes of folded stacks the worker makes: more would not fit
/// beside the run in a tab's memory, once in the worker and once in the page.
const FOLDED_LIMIT: u64 = 1 << 30;

/// Why the folded stacks of measure `m` of the loaded run are not made
/// here, if they would be over [`FOLDED_LIMIT`], with the native command.
fn folded_refusal(l: &Loaded, m: usize) -> Option<String> {
    let len = folded_len(l.view.as_ref()?.flame.as_ref()?, m);
    if len <= FOLDED_LIMIT {
        return None;
    }
    let files: Vec<String> = l.analysis.inputs.iter().map(|i| shell_quote(&i.name)).collect();
    Some(format!(
        "The folded stacks of this run would take {}: each line repeats its stack's whole path, and this run's stacks are \
         deep. That is more than a browser tab can make (at most {}). Make them natively, where they are written as they \
         are made: longpole export {} --to folded --output stacks.folded",
        mib(len),
        mib(FOLDED_LIMIT),
        files.join(" ")
    ))
}
type Shared = Rc<RefCell<Option<Loaded>>>;

/// Answers a view's question about the loaded run.
fn answer(loaded: &Shared, request: Request) {
    let loaded = loaded.borrow();
    let Some(l) = loaded.as_ref() else { return };
    let Some(dataset) = l.analysis.datasets.first() else { return };
    let model = &dataset.model;
    let response = match request {
        Request::Bars { run, seq, viewport, lanes } if run == l.run => {
            Response::Bars { run, seq, viewport, rows: l.index.bars(model, viewport, lanes.0..lanes.1) }
        }
        Request::Details { run, task } if run == l.run && (task as usize) < model.tasks().len() => {
            let (details, key) = (TaskDetails::of(model, &l.index, TaskId(task)), TaskKey::of(model, TaskId(task)));
            Response::Details { run, details: Box::new(details), key }
        }
        Request::Locate { run, key } if run == l.run => {
            Response::Located { run, task: key.find(model).map(|t| t.0), key }
        }
        Request::ReportText { run } if run == l.run => Response::ReportText { run, text: dataset.text() },
        Request::Levers { run } if run == l.run => {
            Response::Levers { run, levers: l.what_ifs().map(|w| w.levers(model)).unwrap_or_default() }
        }
        Request::Lever { run, task } if run == l.run => {
            Response::Lever { run, task, lever: l.what_ifs().and_then(|w| w.lever(model, TaskId(task))) }
        }
        Request::WhatIf { run, task, speedup } if run == l.run => {
            let view = l.what_ifs().and_then(|w| w.step(model, &l.index, TaskId(task), speedup));
            Response::WhatIf { run, view: view.map(Box::new) }
        }
        Request::Graph { run, unfold, chain, export } if run == l.run => {
            let Some(view) = &l.view else { return };
            let path = if chain { &view.blocking_chain } else { &view.critical_path };
            let ids: Vec<TaskId> = path.steps.iter().map(|s| TaskId(s.id)).collect();
            let layout = graph::layout(model, &ids, &graph::GraphOptions::unfolding(unfold));
            if export {
                let title = l.analysis.inputs.iter().map(|i| i.name.as_str()).collect::<Vec<_>>().join(" + ");
                Response::Svg { run, name: "longpole-graph.svg".into(), text: graph_svg(view, &layout, &title) }
            } else {
                Response::Graph { run, layout: Box::new(layout) }
            }
        }
        Request::ExportSvg { run, viewport, chain } if run == l.run => {
            let Some(view) = &l.view else { return };
            let path = if chain { &view.blocking_chain } else { &view.critical_path };
            let rows = l.index.bars(model, viewport, 0..view.lanes.len());
            let title = l.analysis.inputs.iter().map(|i| i.name.as_str()).collect::<Vec<_>>().join(" + ");
            Response::Svg {
                run,
                name: "longpole-timeline.svg".into(),
                text: timeline_svg(view, &rows, viewport, path, &title),
            }
        }
        Request::Flame { run, kind, root, icicle, export } if run == l.run => {
            let Some(graph) = l.view.as_ref().and_then(|v| v.flame.as_ref()) else { return };
            let m = usize::from(kind);
            if export {
                let boxes = flame::layout(graph, m, root);
                let title = l.analysis.inputs.first().map_or("", |i| i.name.as_str());
                Response::Svg {
                    run,
                    name: "longpole-flame.svg".into(),
                    text: flame_svg(graph, &boxes, m, icicle, title),
                }
            } else {
                Response::Flame { run, kind, root, layout: Box::new(FlameLayout::of(graph, m, root)) }
            }
        }
        Request::Export { run, what } if run == l.run => {
            let measure = match what {
                Export::Run(Target::Folded) => Some(0),
                Export::Folded(kind) => Some(usize::from(kind)),
                _ => None,
            };
            if let Some(message) = measure.and_then(|m| folded_refusal(l, m)) {
                return post(&Response::ExportRefused { run, message });
            }
            // The page offers each export only for a run that has what it
            // exports, so a `None` below is a request with nothing to answer.
            let (name, mime, bytes) = match what {
                Export::Run(target) => {
                    let Some(bytes) = export(&l.analysis, target, 0) else { return };
                    let stem = l.analysis.inputs.first().map_or("longpole", |i| i.name.as_str());
                    (format!("{stem}.{}", target.extension()), target.mime(), bytes)
                }
                Export::Folded(kind) => {
                    let Some(graph) = l.view.as_ref().and_then(|v| v.flame.as_ref()) else { return };
                    let m = usize::from(kind);
                    let name = graph.measures.get(m).map_or("stacks", |x| x.name.as_str());
                    (format!("longpole-{name}.folded"), "text/plain", folded(graph, m).into_bytes())
                }
                Export::StatisticsCsv => {
                    let Some(first) = runs(&l.analysis).into_iter().next() else { return };
                    ("longpole-statistics.csv".to_owned(), "text/csv", statistics_csv(&first.table).into_bytes())
                }
            };
            return post_file(run, &name, mime, &bytes);
        }
        Request::Summary { run, field } if run == l.run => {
            // The page offers only the statistics `Field` names; anything
            // else asks for the default one, the mean.
            let rows = summary_rows(&l.analysis, field.parse().unwrap_or_default());
            Response::Summary { run, field, rows }
        }
        _ => return,
    };
    post(&response);
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
    let loaded: Shared = Rc::new(RefCell::new(None));
    let compared: Kept = Rc::new(RefCell::new(None));
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
                *compared.borrow_mut() = None;
                // A request without files reads none, and the run says so.
                let files = files_of(&data);
                spawn_local(analyze(run, Inputs::Files(files), memory_limit, current.clone(), loaded.clone()));
            }
            Ok(Request::CompareFiles { run, a_files, settings, memory_limit }) => {
                current.set(run);
                crate::url_read::abort_all();
                let (current, loaded, compared) = (current.clone(), loaded.clone(), compared.clone());
                let files = files_of(&data);
                spawn_local(compare_files(run, files, a_files, settings, memory_limit, current, loaded, compared));
            }
            Ok(Request::Recompare { run, settings }) => recompare(&compared, &loaded, run, settings),
            Ok(Request::ExportComparison { run }) => export_json(&compared, run),
            Ok(Request::CompareRows { run, query }) => crate::compare_worker::rows(&compared, run, query),
            Ok(Request::ExportCompareRows { run, query, csv }) => {
                crate::compare_worker::export_rows(&compared, run, query, csv)
            }
            Ok(Request::CompareWindow { run, window: w }) => window(&compared, run, &w),
            Ok(Request::AnalyzeUrls { run, sources, memory_limit }) => {
                current.set(run);
                crate::url_read::abort_all();
                *compared.borrow_mut() = None;
                spawn_local(analyze(run, Inputs::Urls(sources), memory_limit, current.clone(), loaded.clone()));
            }
            Ok(Request::ReadGraph) => {
                if let Ok(file) = Reflect::get(&data, &JsValue::from_str("file")) {
                    crate::graph_worker::serve(file.unchecked_into::<File>());
                }
            }
            Ok(Request::Cancel { run }) => {
                if current.get() == run {
                    current.set(0);
                    crate::url_read::abort_all();
                }
            }
            Ok(other) => answer(&loaded, other),
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

async fn analyze(run: RunId, inputs: Inputs, memory_limit: Option<u64>, current: Rc<Cell<RunId>>, loaded: Shared) {
    let began = js_sys::Date::now();
    let budget = MemoryBudget { baseline: memory_bytes(), limit: memory_limit.unwrap_or(WASM_LIMIT) };
    let read = match &inputs {
        Inputs::Files(files) => read_all(run, files, budget, &current, began).await,
        Inputs::Urls(sources) => read_urls(run, sources, budget, &current, began).await.map(|a| (a, 0)),
    };
    let response = match read {
        Ok((analysis, with_sides)) => {
            let (response, kept) = conclude(run, analysis, began, with_sides);
            *loaded.borrow_mut() = Some(kept);
            response
        }
        Err(stop) => stop.response(run),
    };
    post(&response);
}

/// Reads side A's files (the first `a_files`; none when side A is the
/// loaded run) and side B's, compares them with `settings` and posts the
/// result, keeping the sides in `kept`.
#[allow(clippy::too_many_arguments)]
async fn compare_files(
    run: RunId,
    files: Vec<File>,
    a_files: Option<u32>,
    settings: CompareSettings,
    memory_limit: Option<u64>,
    current: Rc<Cell<RunId>>,
    loaded: LoadedRun,
    kept: Kept,
) {
    let began = js_sys::Date::now();
    // The last sides go first: their memory is the new sides'.
    *kept.borrow_mut() = None;
    let budget = || MemoryBudget { baseline: memory_bytes(), limit: memory_limit.unwrap_or(WASM_LIMIT) };
    let split = a_files.map_or(0, |n| (n as usize).min(files.len()));
    let (files_a, files_b) = files.split_at(split);
    let a = match a_files {
        Some(_) => match read_all(run, files_a, budget(), &current, began).await {
            Ok((a, _)) => Some(a),
            Err(stop) => return post(&stop.response(run)),
        },
        None if loaded.borrow().is_some() => None,
        None => {
            let message = "there is no run loaded to compare with: open side A's files first".to_owned();
            return post(&Response::Failed { run, message });
        }
    };
    let b = match read_all(run, files_b, budget(), &current, began).await {
        Ok((b, _)) => b,
        Err(stop) => return post(&stop.response(run)),
    };
    let mut sides = Compared::new(run, a, b, &loaded);
    sides.answer(&loaded, settings, began);
    *kept.borrow_mut() = Some(sides);
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
