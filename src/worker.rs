//! The analysis worker: reads each `File` in slices with `Blob.slice`,
//! feeds the slices to the core's [`Ingest`], posts progress, and posts the
//! summary at the end. Nothing here interprets data; the core does.
//!
//! A run stops between two slices when the page cancels it or starts a
//! newer one: the worker keeps listening while it reads, because every
//! slice is awaited.

use crate::protocol::{first_bars, Export, Progress, Request, Response, RunId};
use js_sys::{Array, Reflect, Uint8Array};
use longpole_core::analysis::evobench::Field;
use longpole_core::export::evobench::{statistics_csv, statistics_xlsx};
use longpole_core::export::flame::folded;
use longpole_core::export::run::{export, full_view};
use longpole_core::formats::evobench::TimingKind;
use longpole_core::layout::timeline::TimelineIndex;
use longpole_core::layout::{flame, graph};
use longpole_core::model::TaskId;
use longpole_core::render::flame_svg::flame_svg;
use longpole_core::render::graph_svg::graph_svg;
use longpole_core::render::timeline_svg::timeline_svg;
use longpole_core::report::evobench::{analysis_comparison, runs};
use longpole_core::view::{summary_rows, RunView, TaskDetails};
use longpole_core::{reconcile, Analysis, Ingest, Input, Summary};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{DedicatedWorkerGlobalScope, File, MessageEvent};

/// Bytes read per slice: Chromium hands a worker a file at about 370 MB/s
/// in 4 MiB slices and 715 MB/s in 16 MiB ones (measured here), and that
/// reading takes CPU the parse needs.
pub const SLICE: usize = 16 << 20;
/// Bytes handed to the core per call. V8 first runs WebAssembly in its
/// baseline tier and swaps in optimized code only when a function is next
/// called, so the parse loop is entered afresh every MiB instead of
/// running a whole slice unoptimized. (A quarter MiB was no faster and, for
/// a 1 GB log, left WebAssembly's memory 340 MB higher: 864 MB against 521.)
const FEED: usize = 1 << 20;
/// Least time between two progress messages, in ms.
const PROGRESS_EVERY_MS: f64 = 100.0;

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn post(response: &Response) {
    // A failed post means the page is gone; there is nobody left to tell.
    let _ = scope().post_message(&JsValue::from_str(&response.to_json()));
}

/// The last finished run, kept for the views' questions.
struct Loaded {
    run: RunId,
    analysis: Analysis,
    index: TimelineIndex,
    view: Option<RunView>,
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
            Response::Details { run, details: Box::new(TaskDetails::of(model, &l.index, TaskId(task))) }
        }
        Request::ReportText { run } if run == l.run => {
            Response::ReportText { run, text: longpole_core::report::dataset_text(dataset) }
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
            let Some(graph) = l.view.as_ref().and_then(RunView::flame) else { return };
            let m = usize::from(kind);
            let boxes = flame::layout(graph, m, root);
            if export {
                let title = l.analysis.inputs.first().map_or("", |i| i.name.as_str());
                Response::Svg {
                    run,
                    name: "longpole-flame.svg".into(),
                    text: flame_svg(graph, &boxes, m, icicle, title),
                }
            } else {
                Response::Flame { run, kind, root, boxes }
            }
        }
        Request::Export { run, what } if run == l.run => {
            let (name, mime, bytes) = match what {
                Export::Run(target) => {
                    let Some(bytes) = export(&l.analysis, target, 0) else { return };
                    let stem = l.analysis.inputs.first().map_or("longpole", |i| i.name.as_str());
                    (format!("{stem}.{}", target.extension()), target.mime(), bytes)
                }
                Export::Folded(kind) => {
                    let Some(graph) = l.view.as_ref().and_then(RunView::flame) else { return };
                    let m = usize::from(kind);
                    let name = graph.measures.get(m).map_or("stacks", |x| x.name.as_str());
                    (format!("longpole-{name}.folded"), "text/plain", folded(graph, m).into_bytes())
                }
                Export::StatisticsCsv => {
                    let Some(first) = runs(&l.analysis).into_iter().next() else { return };
                    ("longpole-statistics.csv".to_owned(), "text/csv", statistics_csv(&first.table).into_bytes())
                }
                Export::Workbook => {
                    let Some(first) = runs(&l.analysis).into_iter().next() else { return };
                    (
                        "longpole-statistics.xlsx".to_owned(),
                        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                        statistics_xlsx(&first.table),
                    )
                }
            };
            Response::File { run, name, mime: mime.to_owned(), bytes }
        }
        Request::Summary { run, field } if run == l.run => {
            let rows = summary_rows(&l.analysis, field.parse().unwrap_or_default());
            Response::Summary { run, field, rows }
        }
        Request::Compare { run, a, b, kind, field } if run == l.run => {
            let field: Field = field.parse().unwrap_or_default();
            let idx = |v: &[u32]| v.iter().map(|&i| i as usize).collect::<Vec<_>>();
            Response::Comparison {
                run,
                rows: analysis_comparison(&l.analysis, &idx(&a), &idx(&b), timing_kind(kind), field),
            }
        }
        _ => return,
    };
    post(&response);
}

/// The timing kind with index `i` (real time when out of range).
fn timing_kind(i: u8) -> TimingKind {
    TimingKind::ALL.get(usize::from(i)).copied().unwrap_or(TimingKind::Real)
}

/// Starts the worker: listens for requests and says it is ready. A panic
/// (a bug: input never panics the core) is reported to the page.
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        post(&Response::Failed {
            run: 0,
            message: format!("the analysis worker stopped on an internal error: {info}"),
        });
    }));
    let current: Rc<Cell<RunId>> = Rc::new(Cell::new(0));
    let loaded: Shared = Rc::new(RefCell::new(None));
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let data = event.data();
        let json = Reflect::get(&data, &JsValue::from_str("json")).ok().and_then(|j| j.as_string()).unwrap_or_default();
        match serde_json::from_str::<Request>(&json) {
            Ok(Request::Analyze { run }) => {
                current.set(run);
                let files: Vec<File> = Reflect::get(&data, &JsValue::from_str("files"))
                    .ok()
                    .map(|f| f.unchecked_into::<Array>().iter().map(|f| f.unchecked_into::<File>()).collect())
                    .unwrap_or_default();
                spawn_local(analyze(run, files, current.clone(), loaded.clone()));
            }
            Ok(Request::Cancel { run }) => {
                if current.get() == run {
                    current.set(0);
                }
            }
            Ok(other) => answer(&loaded, other),
            Err(_) => {}
        }
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&Response::Ready);
}

/// Why reading stopped early.
#[derive(Debug, PartialEq)]
pub enum Stop {
    /// The caller asked to stop (a cancel, or a newer run).
    Cancelled,
    /// The input could not be read; the message names file, position and bytes.
    Failed(String),
}

async fn analyze(run: RunId, files: Vec<File>, current: Rc<Cell<RunId>>, loaded: Shared) {
    let began = js_sys::Date::now();
    let response = match read_all(run, &files, &current, began).await {
        Ok(analysis) => {
            let summary = Summary::of(&analysis);
            let (index, view) = match analysis.datasets.first() {
                Some(d) => {
                    let index = TimelineIndex::new(&d.model);
                    let view = full_view(&analysis, d, &index);
                    (index, Some(view))
                }
                None => (TimelineIndex::default(), None),
            };
            let memory_bytes = wasm_bindgen::memory()
                .unchecked_into::<js_sys::WebAssembly::Memory>()
                .buffer()
                .unchecked_into::<js_sys::ArrayBuffer>()
                .byte_length() as u64;
            let bars = match (analysis.datasets.first(), view.as_ref().and_then(first_bars)) {
                (Some(d), Some((viewport, lanes))) => index.bars(&d.model, viewport, lanes),
                _ => Vec::new(),
            };
            let response = Response::Done {
                run,
                summary,
                view: view.clone().map(Box::new),
                bars,
                elapsed_ms: js_sys::Date::now() - began,
                memory_bytes,
            };
            *loaded.borrow_mut() = Some(Loaded { run, analysis, index, view });
            response
        }
        Err(Stop::Cancelled) => Response::Cancelled { run },
        Err(Stop::Failed(message)) => Response::Failed { run, message },
    };
    post(&response);
}

async fn read_all(run: RunId, files: &[File], current: &Cell<RunId>, began: f64) -> Result<Analysis, Stop> {
    let total: u64 = files.iter().map(|f| f.size() as u64).sum();
    let mut done = 0u64;
    let mut diagnostics_before = 0;
    let mut last_post = f64::NEG_INFINITY;
    let mut inputs = Vec::with_capacity(files.len());
    for (index, file) in files.iter().enumerate() {
        let name = file.name();
        let input = read_file(file, SLICE, |ingest, n| {
            done += n;
            let now = js_sys::Date::now();
            if now - last_post >= PROGRESS_EVERY_MS {
                last_post = now;
                let p = ingest.progress();
                let elapsed_ms = now - began;
                post(&Response::Progress(Progress {
                    run,
                    file: index,
                    name: name.clone(),
                    bytes_done: done,
                    bytes_total: total,
                    mb_per_s: if elapsed_ms > 0.0 { done as f64 / 1e3 / elapsed_ms } else { 0.0 },
                    elapsed_ms,
                    format: p.format.map(|f| f.name().to_owned()),
                    lines: p.counts.lines,
                    diagnostics: diagnostics_before + p.diagnostics,
                }));
            }
            current.get() == run
        })
        .await?;
        diagnostics_before += input.info.diagnostics.total();
        inputs.push(input);
    }
    Ok(reconcile(inputs))
}

/// Reads `file` in slices of `slice` bytes through an [`Ingest`].
///
/// After each slice `between(ingest, bytes)` is told how many bytes came;
/// returning false stops the reading with [`Stop::Cancelled`]. Each slice is
/// awaited, so the worker's other messages (a cancel) are handled meanwhile.
/// The next slice is asked for before this one is parsed, so the browser
/// reads the file while the core parses it.
pub async fn read_file(
    file: &File,
    slice: usize,
    mut between: impl FnMut(&Ingest, u64) -> bool,
) -> Result<Input, Stop> {
    let name = file.name();
    let failed = |e: String| Stop::Failed(format!("{name}: cannot read the file: {e}"));
    let mut ingest = Ingest::new(&name);
    let mut buf = vec![0u8; slice.max(1)];
    let size = file.size();
    let step = buf.len() as f64;
    let mut next = (size > 0.0).then(|| ask_slice(file, 0.0, step.min(size)));
    let mut at = 0.0;
    while let Some(asked) = next.take() {
        let array = asked.map_err(failed)?.await.map_err(|e| failed(js_error(e)))?;
        at = (at + step).min(size);
        if at < size {
            next = Some(ask_slice(file, at, (at + step).min(size)));
        }
        let bytes = Uint8Array::new(&array);
        let n = (bytes.length() as usize).min(buf.len());
        bytes.subarray(0, n as u32).copy_to(&mut buf[..n]);
        for chunk in buf[..n].chunks(FEED) {
            ingest.feed(chunk).map_err(|e| Stop::Failed(e.to_string()))?;
        }
        if !between(&ingest, n as u64) {
            return Err(Stop::Cancelled);
        }
    }
    ingest.finish().map_err(|e| Stop::Failed(e.to_string()))
}

/// The message of a JavaScript error.
fn js_error(e: JsValue) -> String {
    e.as_string()
        .or_else(|| Reflect::get(&e, &"message".into()).ok()?.as_string())
        .unwrap_or_else(|| "unknown error".into())
}

/// Starts reading bytes `start..end` of `file`; the future gives them.
fn ask_slice(file: &File, start: f64, end: f64) -> Result<JsFuture, String> {
    let blob = file.slice_with_f64_and_f64(start, end).map_err(js_error)?;
    Ok(JsFuture::from(blob.array_buffer()))
}
