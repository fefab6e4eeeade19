//! The page's handle on its analysis worker: takes over the one `boot.js`
//! started (or starts it), turns its messages into [`Action`]s (the SQL
//! tables it makes go to the SQL tab instead, [`PendingTables`]), and sends
//! it requests with files attached. When the link says `native=1`, the
//! same requests and answers go over the `longpole open --native` server's
//! socket instead ([`super::native_socket`]).

use super::native_socket::{native_token, open};
use super::use_export_worker::Receiver;
use super::worker_link::{save_file, Link};
use super::worker_tables::PendingTables;
use crate::protocol::{Request, Response, RunId};
use crate::state::Action;
use js_sys::{Array, Function, Object, Reflect};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, File, MessageEvent, Worker};
use yew::prelude::*;

/// The worker's loader script, relative to the page so any base path works.
const WORKER_URL: &str = "./worker_loader.js";

/// Where `boot.js` leaves the worker it started: `{ worker, early }`, the
/// events that came before the app took over in `early`.
const EARLY_KEY: &str = "longpoleWorker";

/// Takes the worker `boot.js` started, with the events it sent meanwhile.
fn take_early_worker() -> Option<(Worker, Array)> {
    let global = js_sys::global();
    let key = JsValue::from_str(EARLY_KEY);
    let early = Reflect::get(&global, &key).ok().filter(|e| e.is_object())?;
    // Taken once: a second app instance starts a worker of its own.
    let _ = Reflect::delete_property(global.unchecked_ref::<Object>(), &key);
    let worker = Reflect::get(&early, &JsValue::from_str("worker")).ok()?.dyn_into::<Worker>().ok()?;
    let events = Reflect::get(&early, &JsValue::from_str("early")).ok()?.dyn_into::<Array>().ok()?;
    Some((worker, events))
}

/// Sends requests to the analysis worker.
#[derive(Clone)]
pub struct AnalysisWorker {
    link: Rc<RefCell<Link>>,
    /// Where a request that cannot be encoded is reported.
    dispatch: Callback<Action>,
    /// The requests go to a `longpole open --native` server.
    native: bool,
    /// The SQL tables waited for.
    tables: PendingTables,
}

impl PartialEq for AnalysisWorker {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.link, &other.link)
    }
}

impl AnalysisWorker {
    /// Whether the requests go to a `longpole open --native` server, which
    /// reads the inputs itself (no file is sent, none is fetched).
    pub fn native(&self) -> bool {
        self.native
    }

    /// Sends `request`, with `files` attached (once the worker is ready);
    /// false if the worker is not running or the request could not be
    /// encoded (which is reported as a failure).
    pub fn send(&self, request: &Request, files: &[File]) -> bool {
        let json = match request.to_json() {
            Ok(json) => json,
            Err(e) => {
                self.dispatch.emit(Action::Failed(format!("longpole {e}; please report this")));
                return false;
            }
        };
        super::worker_link::request(&json, files).is_some_and(|message| self.link.borrow_mut().post(message))
    }

    /// Asks for loaded run `run`'s SQL tables, `files` being its inputs,
    /// for `receiver`; false if the worker cannot be asked (a native run's
    /// server does not make them).
    pub fn sql_tables(&self, run: RunId, files: &[File], receiver: Receiver) -> bool {
        if self.native {
            return false;
        }
        self.tables.wait(run, receiver.clone());
        let sent = self.send(&Request::SqlTables { run }, files);
        if !sent {
            self.tables.forget();
        }
        sent
    }
}

/// Takes over (or starts) the worker on first render; its messages are
/// dispatched as [`Action::Worker`].
#[hook]
pub fn use_analysis_worker(dispatch: Callback<Action>) -> AnalysisWorker {
    let link = use_mut_ref(Link::default);
    let native = use_memo((), |_| native_token());
    let tables = use_memo((), |_| PendingTables::default());
    {
        let (link, dispatch, native, tables) = (link.clone(), dispatch.clone(), native.clone(), (*tables).clone());
        use_effect_with((), move |_| {
            let on_json: Rc<dyn Fn(String)> = {
                let (dispatch, link, tables) = (dispatch.clone(), link.clone(), tables.clone());
                Rc::new(move |json: String| {
                    match Response::from_json(&json) {
                        Ok(Response::Ready) => link.borrow_mut().ready(),
                        Ok(Response::WarmedUp { json }) => {
                            // Decoded to warm the decoder up, then dropped; a
                            // result that does not decode is a bug to report.
                            if let Err(e) = Response::from_json(&json) {
                                dispatch.emit(Action::Failed(format!(
                                    "longpole could not read its worker's warm-up result ({e}); please report this"
                                )));
                            }
                        }
                        Ok(Response::Svg { name, text, .. }) => {
                            if let Err(e) = crate::download::download(&name, "image/svg+xml", &text) {
                                dispatch.emit(Action::Failed(e));
                            }
                        }
                        Ok(Response::SqlTables { run, failed }) => tables.end(run, failed),
                        Ok(response) => dispatch.emit(Action::Worker(response)),
                        Err(e) => dispatch.emit(Action::Failed(format!(
                            "longpole could not read its worker's message ({e}); please report this"
                        ))),
                    }
                })
            };
            let on_message = {
                let (dispatch, on_json, tables) = (dispatch.clone(), on_json.clone(), tables.clone());
                Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                    let data = event.data();
                    match data.as_string() {
                        Some(json) => on_json(json),
                        None if tables.take_file(&data) => {}
                        None => {
                            if let Err(e) = save_file(&data) {
                                dispatch.emit(Action::Failed(e));
                            }
                        }
                    }
                })
            };
            let on_error = {
                let dispatch = dispatch.clone();
                Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |e: web_sys::ErrorEvent| {
                    dispatch.emit(Action::Failed(format!("the analysis worker stopped: {}", e.message())));
                })
            };
            let (worker, early) = match take_early_worker() {
                Some((w, early)) => (Ok(w), early),
                None if native.is_some() => (Err(JsValue::NULL), Array::new()),
                None => (Worker::new(WORKER_URL), Array::new()),
            };
            let mut socket = None;
            if let Some(token) = native.as_ref() {
                // The server analyses: the worker `boot.js` started is not needed.
                if let Ok(w) = &worker {
                    w.terminate();
                }
                match open(token, link.clone(), on_json.clone(), dispatch.clone()) {
                    Ok(s) => socket = Some(s),
                    Err(e) => dispatch.emit(Action::Failed(e)),
                }
            }
            match worker.ok().filter(|_| native.is_none()) {
                Some(w) => {
                    w.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
                    w.set_onerror(Some(on_error.as_ref().unchecked_ref()));
                    link.borrow_mut().worker = Some(w);
                    for event in early.iter() {
                        let handler: &Function = if event.is_instance_of::<ErrorEvent>() {
                            on_error.as_ref().unchecked_ref()
                        } else {
                            on_message.as_ref().unchecked_ref()
                        };
                        // A handler that throws has dispatched its failure already.
                        let _ = handler.call1(&JsValue::NULL, &event);
                    }
                }
                None if native.is_some() => {}
                None => dispatch.emit(Action::Failed("this browser could not start the analysis worker".into())),
            }
            move || {
                if let Some(w) = link.borrow_mut().worker.take() {
                    w.terminate();
                }
                link.borrow_mut().socket = None;
                drop(socket);
                drop(on_message);
                drop(on_error);
            }
        });
    }
    AnalysisWorker { link, dispatch, native: native.is_some(), tables: (*tables).clone() }
}
