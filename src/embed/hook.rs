//! Embed mode's link between the host and the page's state: a host's
//! requests become the page's [`Action`]s (or open files, as a drop
//! does) and are answered from its state; what changes in the state is
//! told to the host as events.

use super::channel::{self, Port};
use super::config::{Config, View};
use super::message::{self, Failure, KeyArg, RangeArg, Request};
use crate::hooks::{AnalysisWorker, SqlEngine};
use crate::protocol::{self, RunId};
use crate::state::{Action, AppState, Phase};
use longpole_core::analysis::task_key::TaskKey;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::File;
use yew::prelude::*;

/// What the link keeps between renders.
#[derive(Default)]
struct Link {
    /// The state of the last render.
    state: AppState,
    /// The view the host wants: kept when a new run opens.
    view: Option<View>,
    /// `load` requests waiting for a run after this one to end.
    loads: Vec<(u64, RunId)>,
    /// `select` requests waiting for the worker to find their key.
    selects: Vec<(u64, TaskKey)>,
    /// The hash's range and selection were applied (to the first run only).
    first_applied: bool,
}

/// What listens while the page lives: the window's `message` listener,
/// the page's resize observer and its callback.
type Listeners = (gloo_events::EventListener, Option<web_sys::ResizeObserver>, Closure<dyn FnMut()>);

/// What the hook needs of the page.
#[derive(Clone)]
pub struct Page {
    /// The page's actions.
    pub dispatch: Callback<Action>,
    /// Opens files as a drop does.
    pub open_files: Callback<Vec<File>>,
    /// The analysis worker (to find a task by its key).
    pub worker: AnalysisWorker,
    /// The SQL engine (for `query`).
    pub sql: SqlEngine,
}

/// The view the state shows.
fn view_of(state: &AppState) -> View {
    View::of(state.explore.tab, state.explore.only_table.as_deref())
}

/// Shows `view`.
fn show(view: &View, dispatch: &Callback<Action>) {
    let only = match view {
        View::Table(t) => t.clone(),
        _ => None,
    };
    dispatch.emit(Action::OnlyTable(only));
    dispatch.emit(Action::Tab(view.tab()));
}

/// Asks the worker which task `key` names; false if no run is shown.
fn find(state: &AppState, worker: &AnalysisWorker, key: TaskKey) -> bool {
    state.view().is_some() && worker.send(&protocol::Request::Locate { run: state.run, key }, &[])
}

/// Answers (or queues) one request. The link is never borrowed while an
/// action is dispatched: a dispatch may draw the page at once.
fn handle(link: &Rc<RefCell<Link>>, page: &Page, port: &Port, data: JsValue) {
    let json = js_sys::JSON::stringify(&data).ok().and_then(|s| s.as_string()).unwrap_or_default();
    let (id, request) = match message::parse(&json) {
        Ok(r) => r,
        Err((Some(id), f)) => {
            port.post(&message::reply(id, Err(f)));
            return;
        }
        Err((None, f)) => {
            port.post(&message::event("error", f.json()));
            return;
        }
    };
    let state = link.borrow().state.clone();
    let reply = |r: Result<Value, Failure>| port.post(&message::reply(id, r));
    match request {
        Request::Load { .. } => match channel::files(&data) {
            Ok(files) => {
                link.borrow_mut().loads.push((id, state.run));
                page.open_files.emit(files);
            }
            Err(e) => {
                reply(Err(Failure::new("bad-file", e)));
            }
        },
        Request::GetSummary => {
            reply(message::summary(&state));
        }
        Request::GetWhatIf => {
            reply(message::what_if(&state));
        }
        Request::SetWhatIf { select, speedup } => {
            if state.view().is_none() {
                reply(Err(Failure::new("no-run", "no run is shown yet")));
                return;
            }
            if speedup.is_some_and(|s| s > 100) {
                reply(Err(Failure::new("bad-request", "a speed-up is a percentage from 0 to 100")));
                return;
            }
            let key = match select.map(KeyArg::key).transpose() {
                Ok(k) => k,
                Err(f) => {
                    reply(Err(f));
                    return;
                }
            };
            // Set before the task is found: its selection keeps it.
            page.dispatch.emit(Action::SpeedUp(speedup));
            match key {
                Some(key) if find(&state, &page.worker, key.clone()) => link.borrow_mut().selects.push((id, key)),
                Some(_) => {
                    reply(Err(Failure::new("worker", "the analysis worker is not running")));
                }
                None => {
                    reply(Ok(Value::Null));
                }
            }
        }
        Request::Query { sql, rows } => {
            if state.view().is_none() {
                reply(Err(Failure::new("no-run", "no run is shown yet")));
                return;
            }
            let (engine, port, run) = (page.sql.clone(), port.clone(), state.run);
            let rows = rows.unwrap_or(message::QUERY_ROWS).min(message::QUERY_ROWS_MAX);
            wasm_bindgen_futures::spawn_local(async move {
                let answer = engine.answer(run, &sql, rows).await.and_then(|json| {
                    serde_json::from_str::<Value>(&json)
                        .map_err(|e| format!("the SQL engine's answer could not be read ({e})"))
                });
                port.post(&message::reply(id, answer.map_err(|m| Failure::new("sql", m))));
            });
        }
        Request::Select { key: None } => {
            page.dispatch.emit(Action::Select(None));
            reply(Ok(Value::Null));
        }
        Request::Select { key: Some(key) } => {
            let key = match key.key() {
                Ok(k) => k,
                Err(f) => {
                    reply(Err(f));
                    return;
                }
            };
            if find(&state, &page.worker, key.clone()) {
                link.borrow_mut().selects.push((id, key));
            } else {
                reply(Err(Failure::new("no-run", "no run is shown yet")));
            }
        }
        Request::SetView { view, range, select } => {
            let Some(window) = state.view().and_then(|v| v.window) else {
                reply(Err(Failure::new("no-run", "no run is shown yet")));
                return;
            };
            let view = match view.as_deref().map(View::parse).transpose() {
                Ok(v) => v,
                Err(e) => {
                    reply(Err(Failure::new("bad-request", e)));
                    return;
                }
            };
            let range = match range.as_ref().map(|r| match r {
                RangeArg::Window(a, b) => a.nanos().zip(b.nanos()).filter(|(a, b)| a < b).ok_or(()),
                RangeArg::All(all) if all == "all" => Ok(window),
                RangeArg::All(_) => Err(()),
            }) {
                Some(Ok(r)) => Some(r),
                Some(Err(())) => {
                    reply(Err(Failure::new("bad-request", "a range is [start, end] in ns, start first, or \"all\"")));
                    return;
                }
                None => None,
            };
            if let Some(v) = &view {
                link.borrow_mut().view = Some(v.clone());
                show(v, &page.dispatch);
            }
            if let Some((a, b)) = range {
                page.dispatch.emit(Action::Window(a, b));
            }
            match select.map(KeyArg::key).transpose() {
                Err(f) => {
                    reply(Err(f));
                }
                Ok(Some(key)) if find(&state, &page.worker, key.clone()) => link.borrow_mut().selects.push((id, key)),
                Ok(Some(_)) => {
                    reply(Err(Failure::new("worker", "the analysis worker is not running")));
                }
                Ok(None) => {
                    reply(Ok(Value::Null));
                }
            }
        }
    }
}

/// The page's height, px: what the host's frame needs to show it all.
fn body_height() -> Option<f64> {
    let body = web_sys::window()?.document()?.body()?;
    Some(body.get_bounding_client_rect().height().ceil())
}

/// The detail of a `selection` event.
fn selection(state: &AppState) -> Value {
    let e = &state.explore;
    match (&e.selected_key, &e.details) {
        (Some(key), Some(d)) => json!({
            "key": message::key_json(key),
            "uid": d.task.uid,
            "name": d.name.clone().unwrap_or_else(|| d.task.label.clone()),
            "label": d.task.label,
            "lane": d.task.lane,
            "start_ns": d.task.start.map(message::ns),
            "end_ns": d.task.end.map(message::ns),
        }),
        _ => json!({ "key": null }),
    }
}

/// Connects the page to its host (when the hash says embed mode), and
/// keeps the host told of the view, the selection, runs and the height.
#[hook]
pub fn use_embed(config: Option<Rc<Config>>, state: &AppState, page: Page) {
    let link = use_mut_ref(Link::default);
    let port = use_memo((), |_| Port::default());
    link.borrow_mut().state = state.clone();
    {
        let (link, page, port, config) = (link.clone(), page.clone(), (*port).clone(), config.clone());
        use_effect_with((), move |_| {
            let mut keep: Option<Listeners> = None;
            if let Some(config) = config {
                link.borrow_mut().view = config.view.clone();
                for problem in &config.problems {
                    page.dispatch.emit(Action::Failed(format!("this embedded view's settings: {problem}")));
                }
                let on_message: Rc<dyn Fn(JsValue)> = {
                    let (link, page, port) = (link.clone(), page.clone(), port.clone());
                    Rc::new(move |data| handle(&link, &page, &port, data))
                };
                // A host that connects late hears what it missed.
                let on_connect: Rc<dyn Fn()> = {
                    let (link, port) = (link.clone(), port.clone());
                    Rc::new(move || {
                        let l = link.borrow();
                        if let Some(height) = body_height() {
                            port.post(&message::event("resized", json!({ "height": height })));
                        }
                        if let Ok(summary) = message::summary(&l.state) {
                            port.post(&message::event("loaded", summary));
                            let (view, window) = (view_of(&l.state), l.state.explore.window);
                            port.post(&message::event(
                                "viewChanged",
                                json!({ "view": view.name(), "range": message::window_json(window) }),
                            ));
                        }
                    })
                };
                // Not in a frame: there is no host to tell anything.
                if let Some(listener) = channel::open(config.origins.clone(), port.clone(), on_connect, on_message) {
                    let on_resize = {
                        let port = port.clone();
                        Closure::<dyn FnMut()>::new(move || {
                            if let Some(height) = body_height() {
                                port.post(&message::event("resized", json!({ "height": height })));
                            }
                        })
                    };
                    let observer = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok();
                    let body = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body());
                    if let (Some(o), Some(b)) = (&observer, body) {
                        o.observe(&b);
                    }
                    keep = Some((listener, observer, on_resize));
                }
            }
            move || {
                // Dropping the window's listener removes it.
                if let Some((_listener, observer, _)) = keep {
                    if let Some(o) = observer {
                        o.disconnect();
                    }
                }
            }
        });
    }
    if config.is_none() {
        return;
    }
    // A run ended: answer the loads waiting for it, tell the host, and
    // show the host's view (and, for the first run, the hash's range and task).
    let ended = match &state.phase {
        Phase::Ready { .. } => Some(Ok(())),
        Phase::Failed { message } => Some(Err(Failure::new("load-failed", message.clone()))),
        Phase::Cancelled => Some(Err(Failure::new("cancelled", "the reading was cancelled"))),
        _ => None,
    };
    {
        let (link, page, port, config) = (link.clone(), page.clone(), (*port).clone(), config.clone());
        use_effect_with((state.run, ended.clone()), move |(run, ended)| {
            let Some(ended) = ended else { return };
            let (state, view, first) = {
                let mut l = link.borrow_mut();
                let (done, waiting): (Vec<_>, Vec<_>) = l.loads.drain(..).partition(|&(_, after)| *run > after);
                l.loads = waiting;
                let result = ended.clone().and_then(|()| message::summary(&l.state));
                for (id, _) in done {
                    port.post(&message::reply(id, result.clone()));
                }
                match &result {
                    Ok(summary) => port.post(&message::event("loaded", summary.clone())),
                    Err(f) => port.post(&message::event("error", f.json())),
                };
                let first = ended.is_ok() && !std::mem::replace(&mut l.first_applied, true);
                (l.state.clone(), l.view.clone(), first)
            };
            if ended.is_err() || state.view().is_none() {
                return;
            }
            if let Some(v) = &view {
                show(v, &page.dispatch);
            }
            if first {
                let config = config.as_deref().cloned().unwrap_or_default();
                if let Some((a, b)) = config.range {
                    page.dispatch.emit(Action::Window(a, b));
                }
                if let Some(key) = config.select {
                    find(&state, &page.worker, key);
                }
            }
        });
    }
    // The worker found (or not) a key: answer who asked.
    {
        let (link, port) = (link.clone(), (*port).clone());
        use_effect_with(state.explore.found.clone(), move |found| {
            let Some((key, task)) = found else { return };
            let done: Vec<_> = {
                let mut l = link.borrow_mut();
                let (done, waiting) = l.selects.drain(..).partition(|(_, k)| k == key);
                l.selects = waiting;
                done
            };
            let result = match task {
                Some(_) => Ok(json!({ "key": message::key_json(key) })),
                None => Err(Failure::new("not-found", format!("no task has the key {}", json!(key)))),
            };
            if done.is_empty() {
                if let Err(f) = &result {
                    // The hash's own selection: nobody asked, so tell the host.
                    port.post(&message::event("error", f.json()));
                }
            }
            for (id, _) in done {
                port.post(&message::reply(id, result.clone()));
            }
        });
    }

    // The view changed: tell the host.
    {
        let port = (*port).clone();
        let ready = state.view().is_some();
        let view = (view_of(state), state.explore.window, ready);
        use_effect_with(view, move |(view, window, ready)| {
            if *ready {
                port.post(&message::event(
                    "viewChanged",
                    json!({ "view": view.name(), "range": message::window_json(*window) }),
                ));
            }
        });
    }
    // A what-if's replay came: tell the host.
    {
        let port = (*port).clone();
        let detail = message::what_if(state).ok();
        let shown = state.explore.what_if.clone().filter(|_| state.explore.speedup.is_some());
        use_effect_with(shown, move |shown| {
            if let (Some(_), Some(detail)) = (shown, detail) {
                port.post(&message::event("whatIf", detail));
            }
        });
    }
    // The selection changed (its key and details came): tell the host.
    {
        let port = (*port).clone();
        let detail = selection(state);
        let key = (state.explore.selected_key.clone(), state.explore.selected.is_none());
        use_effect_with(key, move |(key, cleared)| {
            if key.is_some() || *cleared {
                port.post(&message::event("selection", detail));
            }
        });
    }
}
