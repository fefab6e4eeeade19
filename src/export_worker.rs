//! The export worker: writes the loaded run's fleet tables (docs/fleet.md)
//! as one zip, with the core's own code
//! ([`longpole_core::export::parquet`]), as `longpole export --to parquet`
//! does, or evobench's workbook, as `longpole export --to xlsx` does.
//!
//! It is a WebAssembly module of its own (`src/bin/export_worker.rs`, built
//! with the `export` feature), started by the page only when one of those
//! downloads is asked for, or the SQL tab's tables: their writers (arrow-rs, the zip and `.xlsx`
//! writers) would make the analysis worker, which every page loads,
//! bigger. It has no copy of the analysis, so it reads the run's inputs
//! again — the very `File`s the analysis worker read, or the link's URLs
//! fetched again — in slices through the core's streaming reader (for the
//! tables also hashing their bytes for the run's id, as the CLI does); then
//! reconciles, writes the file and posts it. The page cancels by stopping
//! the worker.

use crate::export_protocol::{ExportFile, ExportRequest, ExportResponse};
use crate::file_read::read_file_tapped;
use crate::protocol::{Progress, RunId, Source};
use crate::url_read::{file_name, read_tapped};
use crate::worker::files_of;
use crate::worker_io::{memory_bytes, post_file, scope, Stop, PROGRESS_EVERY_MS, SLICE};
use js_sys::Reflect;
use longpole_core::export::parquet::{analysis_files, zip::zip, RunIdHasher};
use longpole_core::export::sql::{fleet::folder_tables, sql_tables, ARROW_STREAM};
use longpole_core::formats::evobench::{export::statistics_xlsx, report::runs};
use longpole_core::memory_budget::{shell_quote, MemoryBudget, WASM_LIMIT};
use longpole_core::model::FormatId;
use longpole_core::reconcile::groups::folder_order;
use longpole_core::Analysis;
use longpole_core::{reconcile, Ingest, Input};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::spawn_local;
use web_sys::{File, MessageEvent};

/// Posts `message` to the page.
fn post(message: &ExportResponse) {
    // A failed post means the page is gone; there is nobody left to tell.
    let _ = scope().post_message(&JsValue::from_str(&message.to_json()));
}

/// Starts the worker: listens for the page's request and says it is
/// ready. A panic (a bug: input never panics the core) is reported.
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let message = format!("the export worker stopped on an internal error: {info}");
        post(&ExportResponse::Failed { run: 0, message });
    }));
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let data = event.data();
        let json = Reflect::get(&data, &JsValue::from_str("json")).ok().and_then(|j| j.as_string()).unwrap_or_default();
        match serde_json::from_str::<ExportRequest>(&json) {
            Ok(ExportRequest::Write { run, file, urls, memory_limit }) => {
                let inputs = if urls.is_empty() { Inputs::Files(files_of(&data)) } else { Inputs::Urls(urls) };
                spawn_local(export(run, file, inputs, memory_limit));
            }
            Ok(ExportRequest::Folder { run, paths }) => spawn_local(folder(run, files_of(&data), paths)),
            Err(e) => post(&ExportResponse::Failed {
                run: 0,
                message: format!(
                    "longpole's export worker could not read the page's request ({e}); please report this"
                ),
            }),
        }
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&ExportResponse::Ready);
}

/// The run's inputs: the files the page kept, or the URLs a link named.
enum Inputs {
    Files(Vec<File>),
    Urls(Vec<Source>),
}

impl Inputs {
    /// The inputs' names, as the run's files go by.
    fn names(&self) -> Vec<String> {
        match self {
            Inputs::Files(files) => files.iter().map(File::name).collect(),
            Inputs::Urls(sources) => sources.iter().map(|s| file_name(&s.url)).collect(),
        }
    }
}

/// Why an export stopped.
enum Stopped {
    /// It cannot be made here; the message says why and what to do.
    Refused(String),
    /// An input could not be read, or the tables not written.
    Failed(String),
}

impl From<Stop> for Stopped {
    fn from(stop: Stop) -> Self {
        match stop {
            // Only the memory check stops a reading (a cancel stops the worker).
            Stop::Cancelled => Stopped::Failed("the export stopped before its end".into()),
            Stop::Failed(message) => Stopped::Failed(message),
        }
    }
}

/// Writes run `run`'s `file` and tells the page how it ended.
async fn export(run: RunId, file: ExportFile, inputs: Inputs, memory_limit: Option<u64>) {
    let response = match write(run, file, &inputs, memory_limit).await {
        Ok(()) => ExportResponse::Done { run },
        Err(Stopped::Refused(message)) => ExportResponse::Refused { run, message },
        Err(Stopped::Failed(message)) => ExportResponse::Failed { run, message },
    };
    post(&response);
}

/// Reads the inputs, hashing them, and posts `file` made of them.
async fn write(run: RunId, file: ExportFile, inputs: &Inputs, memory_limit: Option<u64>) -> Result<(), Stopped> {
    let names = inputs.names();
    if names.is_empty() {
        return Err(Stopped::Refused("the page kept no inputs of this run to export".into()));
    }
    let to = match file {
        ExportFile::FleetTables | ExportFile::SqlTables => "parquet --output fleet/",
        ExportFile::Workbook => "xlsx --output statistics.xlsx",
    };
    let native = format!(
        "export it natively: longpole export {} --to {to}",
        names.iter().map(|n| shell_quote(n)).collect::<Vec<_>>().join(" ")
    );
    let budget = MemoryBudget { baseline: memory_bytes(), limit: memory_limit.unwrap_or(WASM_LIMIT) };
    let mut reporter = Reporter { run, began: js_sys::Date::now(), total: None, last_post: f64::NEG_INFINITY, done: 0 };
    // Only the tables name the run by its inputs' digest.
    let hashed = file != ExportFile::Workbook;
    let mut id = RunIdHasher::new();
    let mut read = Vec::with_capacity(names.len());
    let mut over = None;
    match inputs {
        Inputs::Files(files) => {
            reporter.total = Some(files.iter().map(|f| f.size() as u64).sum());
            for (index, file) in files.iter().enumerate() {
                let input = read_file_tapped(
                    file,
                    SLICE,
                    |b| {
                        if hashed {
                            id.update(b)
                        }
                    },
                    |ingest, n| {
                        over = reporter.step(index, &names[index], ingest, n, budget);
                        over.is_none()
                    },
                )
                .await;
                read.push(checked(input, &mut over, &native)?);
                id.end_input();
            }
        }
        Inputs::Urls(sources) => {
            let mut opened = Vec::with_capacity(sources.len());
            for s in sources {
                opened.push(crate::url_read::open(s).await.map_err(|e| Stopped::Failed(e.to_string()))?);
            }
            reporter.total = opened.iter().map(|o| o.length).sum();
            for (index, o) in opened.into_iter().enumerate() {
                let input = read_tapped(
                    o,
                    |b| {
                        if hashed {
                            id.update(b)
                        }
                    },
                    |ingest, n| {
                        over = reporter.step(index, &names[index], ingest, n, budget);
                        over.is_none()
                    },
                )
                .await;
                read.push(checked(input, &mut over, &native)?);
                id.end_input();
            }
        }
    }
    let read = as_the_cli_orders(read);
    let source = read.iter().map(|i| i.info.name.clone()).collect::<Vec<_>>().join(" + ");
    let analysis = reconcile(read);
    match file {
        ExportFile::FleetTables => fleet_tables(run, &analysis, &id.finish(), &source),
        ExportFile::Workbook => workbook(run, &analysis, &source),
        ExportFile::SqlTables => sql(run, &analysis, &id.finish(), &source),
    }
}

/// Posts the SQL tables of `analysis` (inputs `source`, run id `id`), one
/// Arrow IPC stream each, named `TABLE.arrow`.
fn sql(run: RunId, analysis: &Analysis, id: &str, source: &str) -> Result<(), Stopped> {
    if analysis.datasets.is_empty() {
        return Err(Stopped::Refused(format!("{source} holds no run: there are no tasks to query")));
    }
    post(&ExportResponse::Writing { run });
    let tables = sql_tables(analysis, id, source)
        .map_err(|e| Stopped::Failed(format!("longpole could not make the SQL tables of {source}: {e}")))?;
    for t in &tables {
        post_file(run, &format!("{}.arrow", t.name), ARROW_STREAM, &t.ipc);
    }
    Ok(())
}

/// Posts the fleet tables of `analysis` (inputs `source`, run id `id`) as one zip.
fn fleet_tables(run: RunId, analysis: &Analysis, id: &str, source: &str) -> Result<(), Stopped> {
    if analysis.datasets.is_empty() {
        let message = format!(
            "{source} holds no run: there are no tasks to put in the Parquet tables (the Diagnostics tab says what \
             was read)"
        );
        return Err(Stopped::Refused(message));
    }
    post(&ExportResponse::Writing { run });
    let tables = analysis_files(analysis, id, source)
        .map_err(|e| Stopped::Failed(format!("longpole could not write the Parquet tables of {source}: {e}")))?;
    let bytes = zip(&tables)
        .map_err(|e| Stopped::Failed(format!("longpole could not zip the Parquet tables of {source}: {e}")))?;
    post_file(run, &format!("longpole-fleet-{}.zip", &id[..12.min(id.len())]), "application/zip", &bytes);
    Ok(())
}

/// Reads a folder of fleet tables (`files` at `paths`) and posts its SQL
/// tables, one Arrow IPC stream each, named `TABLE.arrow`.
async fn folder(run: RunId, files: Vec<File>, paths: Vec<String>) {
    let read = async {
        let mut read = Vec::with_capacity(files.len());
        for (file, path) in files.iter().zip(paths) {
            let buffer = wasm_bindgen_futures::JsFuture::from(file.array_buffer())
                .await
                .map_err(|_| format!("{path} could not be read"))?;
            read.push((path, js_sys::Uint8Array::new(&buffer).to_vec()));
        }
        post(&ExportResponse::Writing { run });
        let tables = folder_tables(&read).map_err(|e| format!("longpole could not read the fleet tables: {e}"))?;
        if tables.is_empty() {
            return Err(
                "the folder holds no runs/, tasks/ or critical_path/ Parquet files of longpole export --to parquet"
                    .to_owned(),
            );
        }
        for t in &tables {
            post_file(run, &format!("{}.arrow", t.name), ARROW_STREAM, &t.ipc);
        }
        Ok(())
    };
    post(&match read.await {
        Ok(()) => ExportResponse::Done { run },
        Err(message) => ExportResponse::Failed { run, message },
    });
}

/// Posts the workbook of the first evobench run of `analysis` (inputs `source`).
fn workbook(run: RunId, analysis: &Analysis, source: &str) -> Result<(), Stopped> {
    let Some(first) = runs(analysis).into_iter().next() else {
        return Err(Stopped::Refused(format!("{source} holds no evobench run: the workbook is evobench's")));
    };
    post(&ExportResponse::Writing { run });
    let bytes = statistics_xlsx(&first.table)
        .map_err(|e| Stopped::Failed(format!("longpole could not write the workbook of {source}: {e}")))?;
    let mime = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
    post_file(run, "longpole-statistics.xlsx", mime, &bytes);
    Ok(())
}

/// The inputs in the order `longpole export FOLDER --to parquet` reads
/// them when they lie alone in that folder ([`folder_order`]), so that the
/// tables' `source` is the CLI's.
fn as_the_cli_orders(read: Vec<Input>) -> Vec<Input> {
    let keys: Vec<(&str, FormatId)> = read.iter().map(|i| (i.info.name.as_str(), i.info.format)).collect();
    let order = folder_order(&keys);
    let mut slots: Vec<Option<Input>> = read.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| slots[i].take()).collect()
}

/// The input read, or why the reading stopped: over the memory budget
/// (`over`, a refusal with the native command) or an error of the input.
fn checked(input: Result<Input, Stop>, over: &mut Option<String>, native: &str) -> Result<Input, Stopped> {
    match over.take() {
        Some(message) => Err(Stopped::Refused(format!("{message}; {native}"))),
        None => Ok(input?),
    }
}

/// Posts the reading's progress, at most every [`PROGRESS_EVERY_MS`].
struct Reporter {
    run: RunId,
    began: f64,
    /// Bytes of all inputs, when known (a URL's server may not say).
    total: Option<u64>,
    last_post: f64,
    /// Bytes read so far, over all inputs.
    done: u64,
}

impl Reporter {
    /// Counts `n` more bytes of input `index` read by `ingest`, posts the
    /// progress when it is time, and says why the export must stop if the
    /// whole is projected not to fit in its memory.
    fn step(&mut self, index: usize, name: &str, ingest: &Ingest, n: u64, budget: MemoryBudget) -> Option<String> {
        self.done += n;
        let now = js_sys::Date::now();
        if now - self.last_post >= PROGRESS_EVERY_MS {
            self.last_post = now;
            let (p, elapsed_ms) = (ingest.progress(), now - self.began);
            post(&ExportResponse::Progress(Progress {
                run: self.run,
                file: index,
                name: name.to_owned(),
                bytes_done: self.done,
                bytes_total: self.total,
                mb_per_s: if elapsed_ms > 0.0 { self.done as f64 / 1e3 / elapsed_ms } else { 0.0 },
                elapsed_ms,
                format: p.format.map(|f| f.name().to_owned()),
                lines: p.counts.lines,
                diagnostics: p.diagnostics,
            }));
        }
        let total = self.total.map_or(self.done, |t| t.max(self.done));
        budget.check(self.done, total, memory_bytes()).err().map(|over| over.to_string())
    }
}
