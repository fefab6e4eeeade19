//! The page's handle on its export worker ([`crate::export_worker`]): it
//! keeps the loaded run's inputs (the `File`s opened, dropped or fetched
//! for a sample, or the URLs a link named), starts the worker only when the
//! Parquet tables or the workbook are asked for, sends it those inputs,
//! turns its messages into [`Action`]s and saves the file it makes (or,
//! for the SQL tab's tables, hands each file to its [`Receiver`]). The
//! worker is stopped once it has answered (its memory goes with it) or when
//! the user cancels.

use super::worker_link::{request, save_file, Link};
use crate::export_protocol::{ExportFile, ExportRequest, ExportResponse};
use crate::protocol::{RunId, Source};
use crate::state::Action;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, File, MessageEvent, Worker};
use yew::prelude::*;

/// Why a run cannot be exported.
const NOT_KEPT: &str = "the page no longer holds this run's files: open them again to export them";

/// The export worker's loader script, relative to the page so any base path works.
const EXPORT_WORKER_URL: &str = "./export_worker_loader.js";

/// Where the loaded run's bytes can be read again.
#[derive(Clone, Debug)]
pub enum KeptInputs {
    /// Files opened, dropped or fetched (a sample).
    Files(Vec<File>),
    /// The URLs a link named, absolute, with their digests.
    Urls(Vec<Source>),
}

/// What an export made for the page rather than for a download: each file
/// (the worker's file message: `name`, `mime`, `bytes`), then the end, `Ok`
/// when every file came or why not.
#[derive(Clone, Debug)]
pub enum Delivered {
    /// A file.
    File(JsValue),
    /// The export is over.
    Over(Result<(), String>),
}

/// Who receives an export's files instead of the browser's download.
pub type Receiver = Callback<Delivered>;

/// A worker's message and error handlers.
type Handlers = (Closure<dyn FnMut(MessageEvent)>, Closure<dyn FnMut(ErrorEvent)>);

/// The export worker's state behind the handle.
#[derive(Default)]
struct Inner {
    /// The running worker (none between exports).
    link: Link,
    /// The loaded run and its inputs.
    kept: Option<(RunId, KeptInputs)>,
    /// The run whose export is under way.
    exporting: Option<RunId>,
    /// Who receives its files, when not the download.
    receiver: Option<Receiver>,
    /// The last worker's handlers: dropped when the next starts, never
    /// from inside one of them.
    handlers: Option<Handlers>,
}

impl Inner {
    /// Stops the worker, if one runs.
    fn stop(&mut self) {
        if let Some(w) = std::mem::take(&mut self.link).worker {
            w.terminate();
        }
        self.exporting = None;
        if let Some(r) = self.receiver.take() {
            r.emit(Delivered::Over(Err("the export stopped before its end".into())));
        }
    }
}

/// Starts downloads of the loaded run made by the export worker.
#[derive(Clone)]
pub struct ExportWorker {
    inner: Rc<RefCell<Inner>>,
    dispatch: Callback<Action>,
}

impl PartialEq for ExportWorker {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.inner, &other.inner)
    }
}

impl ExportWorker {
    /// Keeps `inputs` as run `run`'s, for its download; the export of an
    /// earlier run, if one is under way, is stopped.
    pub fn keep(&self, run: RunId, inputs: KeptInputs) {
        let mut inner = self.inner.borrow_mut();
        inner.stop();
        inner.kept = Some((run, inputs));
    }

    /// Run `run`'s inputs, when they are kept files (not URLs).
    pub fn kept_files(&self, run: RunId) -> Option<Vec<File>> {
        match self.inner.borrow().kept.as_ref() {
            Some((r, KeptInputs::Files(files))) if *r == run => Some(files.clone()),
            _ => None,
        }
    }

    /// Forgets the kept inputs (a comparison is no run to export), and
    /// stops an export under way.
    pub fn forget(&self) {
        let mut inner = self.inner.borrow_mut();
        inner.stop();
        inner.kept = None;
    }

    /// Starts the download of run `run`'s `file`: a new export worker
    /// reads its kept inputs. One export runs at a time; a second one asked
    /// for replaces it.
    pub fn start(&self, run: RunId, file: ExportFile, memory_limit: Option<u64>) {
        self.begin(run, file, memory_limit, None);
    }

    /// Starts making run `run`'s `file` for `receiver`, which gets each
    /// file made, then the end, instead of the browser's download.
    pub fn deliver(&self, run: RunId, file: ExportFile, memory_limit: Option<u64>, receiver: Receiver) {
        self.begin(run, file, memory_limit, Some(receiver));
    }

    /// Starts an export of run `run`'s `file`, for the download or for `receiver`.
    fn begin(&self, run: RunId, file: ExportFile, memory_limit: Option<u64>, receiver: Option<Receiver>) {
        let mut inner = self.inner.borrow_mut();
        inner.stop();
        inner.receiver = receiver;
        let Some((_, inputs)) = inner.kept.as_ref().filter(|(r, _)| *r == run) else {
            return self.failed(&mut inner, ExportResponse::Refused { run, message: NOT_KEPT.into() });
        };
        let (urls, files) = match inputs {
            KeptInputs::Files(files) => (Vec::new(), files.clone()),
            KeptInputs::Urls(urls) => (urls.clone(), Vec::new()),
        };
        let json = match serde_json::to_string(&ExportRequest::Write { run, file, urls, memory_limit }) {
            Ok(json) => json,
            Err(e) => {
                let message = format!("longpole could not encode the export's request ({e}); please report this");
                return self.failed(&mut inner, ExportResponse::Failed { run, message });
            }
        };
        self.launch(&mut inner, run, file, &json, &files);
    }

    /// Reads a folder of fleet tables (`files` at `paths` in it) into SQL
    /// tables for `receiver`, as [`Self::deliver`] does a run's.
    pub fn read_folder(&self, run: RunId, files: Vec<File>, paths: Vec<String>, receiver: Receiver) {
        let mut inner = self.inner.borrow_mut();
        inner.stop();
        inner.receiver = Some(receiver);
        match serde_json::to_string(&ExportRequest::Folder { run, paths }) {
            Ok(json) => self.launch(&mut inner, run, ExportFile::SqlTables, &json, &files),
            Err(e) => {
                let message = format!("longpole could not encode the folder's request ({e}); please report this");
                self.failed(&mut inner, ExportResponse::Failed { run, message });
            }
        }
    }

    /// Starts a new export worker on request `json` with `files` beside it.
    fn launch(&self, inner: &mut Inner, run: RunId, file: ExportFile, json: &str, files: &[File]) {
        let worker = match Worker::new(EXPORT_WORKER_URL) {
            Ok(w) => w,
            Err(_) => {
                let message = "this browser could not start the export worker".to_owned();
                return self.failed(inner, ExportResponse::Failed { run, message });
            }
        };
        let (on_message, on_error) = self.handlers(run);
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        inner.handlers = Some((on_message, on_error));
        inner.link.worker = Some(worker);
        inner.exporting = Some(run);
        self.dispatch.emit(Action::ExportStarted(run, file));
        let posted = request(json, files).is_some_and(|m| inner.link.post(m));
        if !posted {
            let message = "the page could not send the files to the export worker".to_owned();
            self.failed(inner, ExportResponse::Failed { run, message });
        }
    }

    /// An export that could not start: stopped, its receiver told, and the page.
    fn failed(&self, inner: &mut Inner, response: ExportResponse) {
        let receiver = inner.receiver.take();
        inner.stop();
        if let (Some(r), ExportResponse::Refused { message, .. } | ExportResponse::Failed { message, .. }) =
            (receiver, &response)
        {
            r.emit(Delivered::Over(Err(message.clone())));
        }
        self.dispatch.emit(Action::Exporting(response));
    }

    /// Cancels the export under way: its worker is stopped at once.
    pub fn cancel(&self) {
        let run = self.inner.borrow().exporting;
        self.inner.borrow_mut().stop();
        if let Some(run) = run {
            self.dispatch.emit(Action::ExportCancelled(run));
        }
    }

    /// The handlers of the worker exporting run `run`.
    fn handlers(&self, run: RunId) -> Handlers {
        let (inner, dispatch) = (self.inner.clone(), self.dispatch.clone());
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let data = event.data();
            let Some(json) = data.as_string() else {
                let receiver = inner.borrow().receiver.clone();
                match receiver {
                    Some(r) => r.emit(Delivered::File(data)),
                    None => {
                        if let Err(message) = save_file(&data) {
                            dispatch.emit(Action::Exporting(ExportResponse::Failed { run, message }));
                        }
                    }
                }
                return;
            };
            match serde_json::from_str::<ExportResponse>(&json) {
                Ok(ExportResponse::Ready) => inner.borrow_mut().link.ready(),
                Ok(response) => {
                    let over = matches!(
                        response,
                        ExportResponse::Done { .. } | ExportResponse::Refused { .. } | ExportResponse::Failed { .. }
                    );
                    if over && inner.borrow().exporting == Some(run) {
                        let receiver = inner.borrow_mut().receiver.take();
                        inner.borrow_mut().stop();
                        if let Some(r) = receiver {
                            r.emit(Delivered::Over(match &response {
                                ExportResponse::Refused { message, .. } | ExportResponse::Failed { message, .. } => {
                                    Err(message.clone())
                                }
                                _ => Ok(()),
                            }));
                        }
                    }
                    // A panic's report names no run: it is this one's.
                    let response = match response {
                        ExportResponse::Failed { run: 0, message } => ExportResponse::Failed { run, message },
                        other => other,
                    };
                    dispatch.emit(Action::Exporting(response));
                }
                Err(e) => {
                    let message =
                        format!("longpole could not read its export worker's message ({e}); please report this");
                    dispatch.emit(Action::Exporting(ExportResponse::Failed { run, message }));
                }
            }
        });
        let (inner, dispatch) = (self.inner.clone(), self.dispatch.clone());
        let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |e: ErrorEvent| {
            if inner.borrow().exporting == Some(run) {
                inner.borrow_mut().stop();
            }
            let message = format!("the export worker stopped: {}", e.message());
            dispatch.emit(Action::Exporting(ExportResponse::Failed { run, message }));
        });
        (on_message, on_error)
    }
}

/// The page's export worker handle; the worker itself starts only with a
/// download, and is stopped when the page goes.
#[hook]
pub fn use_export_worker(dispatch: Callback<Action>) -> ExportWorker {
    let inner = use_mut_ref(Inner::default);
    {
        let inner = inner.clone();
        use_effect_with((), move |_| move || inner.borrow_mut().stop());
    }
    ExportWorker { inner, dispatch }
}
