//! The page's handle on the SQL tab's engine ([`crate::sql_engine`]): it
//! loads DuckDB the first time the tab opens, has the analysis worker make
//! the run's tables (Arrow IPC) meanwhile (the export worker,
//! [`ExportFile::SqlTables`], for a run loaded from URLs), loads them, and
//! runs the user's queries, turning each answer into an [`Action`]. The engine then stays for the page's life; another run
//! replaces its tables.

use super::use_analysis_worker::AnalysisWorker;
use super::use_export_worker::{Delivered, ExportWorker, Receiver};
use crate::export_protocol::ExportFile;
use crate::memory_limit::memory_limit_hook;
use crate::protocol::RunId;
use crate::shared::Shared;
use crate::sql_engine::{self, Engine};
use crate::sql_state::{ResultHead, SqlAction, TableSchema, Track, PAGE_ROWS, TRACK_ROWS};
use crate::state::Action;
use js_sys::{Array, Promise, Reflect, Uint8Array};
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, spawn_local, JsFuture};
use web_sys::File;
use yew::prelude::*;

/// The engine's state behind the handle.
#[derive(Default)]
struct Inner {
    /// The engine's load, once started (shared by every caller).
    engine: Option<Promise>,
    /// The run whose tables the engine holds or is being given, and that load.
    loading: Option<(RunId, Promise)>,
}

/// Runs SQL in the page.
#[derive(Clone)]
pub struct SqlEngine {
    inner: Rc<RefCell<Inner>>,
    dispatch: Callback<Action>,
    analysis: AnalysisWorker,
    export: ExportWorker,
}

impl PartialEq for SqlEngine {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.inner, &other.inner)
    }
}

/// Dispatches a SQL action.
fn sql(dispatch: &Callback<Action>, action: SqlAction) {
    dispatch.emit(Action::Sql(action));
}

impl SqlEngine {
    /// The engine, loaded on the first call; its download's progress is shown.
    async fn engine(&self) -> Result<Engine, String> {
        let promise = {
            let mut inner = self.inner.borrow_mut();
            inner
                .engine
                .get_or_insert_with(|| {
                    let dispatch = self.dispatch.clone();
                    let progress = Closure::<dyn FnMut(f64, f64)>::new(move |loaded: f64, total: f64| {
                        let what = match total > 0.0 {
                            true => format!("Loading the SQL engine (DuckDB): {:.0} %", loaded * 100.0 / total),
                            false => format!("Loading the SQL engine (DuckDB): {:.1} MB", loaded / 1e6),
                        };
                        sql(&dispatch, SqlAction::Loading(what));
                    });
                    let function: js_sys::Function = progress.as_ref().unchecked_ref::<js_sys::Function>().clone();
                    // The engine hears its download for the page's life.
                    progress.forget();
                    future_to_promise(async move {
                        sql_engine::open(&function).await.map(JsValue::from).map_err(|e| JsValue::from_str(&e))
                    })
                })
                .clone()
        };
        match JsFuture::from(promise).await {
            Ok(engine) => Ok(engine.unchecked_into()),
            Err(e) => {
                // The next opening of the tab tries again.
                self.inner.borrow_mut().engine = None;
                Err(sql_engine::message(&e))
            }
        }
    }

    /// The load of run `run`'s tables into the engine (the engine loaded
    /// first if need be), started once per run: it resolves to `true` once
    /// they are in, `false` if another run's took over, or rejects with why.
    fn loaded(&self, run: RunId) -> Promise {
        if let Some((r, p)) = &self.inner.borrow().loading {
            if *r == run {
                return p.clone();
            }
        }
        let this = self.clone();
        sql(&self.dispatch, SqlAction::Loading("Loading the SQL engine (DuckDB)…".into()));
        let tables = self.tables_of(run);
        let promise = future_to_promise(async move {
            let loaded = async {
                let engine = this.engine().await?;
                sql(&this.dispatch, SqlAction::Loading("Making the run's tables…".into()));
                let tables = JsFuture::from(tables).await.map_err(|e| sql_engine::message(&e))?;
                if !this.loading(run) {
                    return Ok(None);
                }
                engine.reset().await?;
                add_tables(&engine, &tables).await?;
                Ok::<_, String>(Some(schema(&engine).await?))
            };
            match loaded.await {
                Ok(Some(tables)) if this.loading(run) => {
                    sql(&this.dispatch, SqlAction::Ready(run, tables));
                    Ok(JsValue::TRUE)
                }
                Ok(_) => Ok(JsValue::FALSE),
                Err(message) => {
                    if this.loading(run) {
                        this.inner.borrow_mut().loading = None;
                        sql(&this.dispatch, SqlAction::Failed(message.clone()));
                    }
                    Err(JsValue::from_str(&message))
                }
            }
        });
        self.inner.borrow_mut().loading = Some((run, promise.clone()));
        promise
    }

    /// Whether run `run`'s tables are the ones being loaded or in.
    fn loading(&self, run: RunId) -> bool {
        self.inner.borrow().loading.as_ref().is_some_and(|(r, _)| *r == run)
    }

    /// Gives the engine run `run`'s tables, loading the engine first if
    /// need be; does nothing if they are there or on their way.
    pub fn open(&self, run: RunId) {
        let loaded = self.loaded(run);
        // Its failure is shown by the tab (SqlAction::Failed).
        spawn_local(async move {
            let _ = JsFuture::from(loaded).await;
        });
    }

    /// Once run `run`'s tables are in: `query`'s head and first `rows`
    /// rows, as JSON text (the embed API's `query`); the result the tab
    /// shows stays.
    pub async fn answer(&self, run: RunId, query: &str, rows: usize) -> Result<String, String> {
        let ready = JsFuture::from(self.loaded(run)).await.map_err(|e| sql_engine::message(&e))?;
        if ready != JsValue::TRUE {
            return Err("another run was opened meanwhile".into());
        }
        self.engine().await?.sample(query, rows).await
    }

    /// Run `run`'s tables: a promise of the files made (each `{name,
    /// bytes}`), or of why they could not be. The analysis worker makes
    /// them of the run it holds when its inputs are kept files; the export
    /// worker, reading the inputs again, for a run loaded from URLs.
    fn tables_of(&self, run: RunId) -> Promise {
        let (analysis, export) = (self.analysis.clone(), self.export.clone());
        received(move |receiver| {
            let asked = export.kept_files(run).is_some_and(|files| analysis.sql_tables(run, &files, receiver.clone()));
            if !asked {
                export.deliver(run, ExportFile::SqlTables, memory_limit_hook(), receiver);
            }
        })
    }

    /// Runs `query`, sorted by the column `by` (descending if `desc`) when given.
    pub fn run(&self, query: String, by: Option<(String, bool)>) {
        let this = self.clone();
        sql(&self.dispatch, SqlAction::Running(query.clone()));
        spawn_local(async move {
            let answered = async {
                let engine = this.engine().await?;
                let (column, desc) = by.clone().unwrap_or_default();
                let head: ResultHead = parse(&engine.query(&query, &column, desc).await?)?;
                let rows = parse(&engine.rows(0, PAGE_ROWS)?)?;
                Ok::<_, String>((head, rows))
            };
            match answered.await {
                Ok((head, rows)) => sql(&this.dispatch, SqlAction::Answered(query, head, by, rows)),
                Err(message) => sql(&this.dispatch, SqlAction::Error(message)),
            }
        });
    }

    /// A link's query on run `run`: put in the editor, run once the run's
    /// tables are in (the engine loads for it), and drawn if `draw`.
    pub fn restore(&self, run: RunId, query: String, draw: bool) {
        sql(&self.dispatch, SqlAction::Text(query.clone()));
        let (this, loaded) = (self.clone(), self.loaded(run));
        spawn_local(async move {
            if JsFuture::from(loaded).await.is_ok_and(|ready| ready == JsValue::TRUE) {
                this.run(query.clone(), None);
                if draw {
                    this.draw(query);
                }
            }
        });
    }

    /// Draws `query`'s rows on the timeline (the result shown stays).
    pub fn draw(&self, query: String) {
        let this = self.clone();
        spawn_local(async move {
            let drawn = async {
                let engine = this.engine().await?;
                let answer: Sample = parse(&engine.sample(&query, TRACK_ROWS).await?)?;
                Track::of(query, &answer.head, &answer.rows)
            };
            match drawn.await {
                Ok(track) => sql(&this.dispatch, SqlAction::Track(Some(Shared::new(track)))),
                Err(message) => sql(&this.dispatch, SqlAction::Error(message)),
            }
        });
    }

    /// Shows the last result's rows from `offset`.
    pub fn page(&self, offset: u64) {
        let this = self.clone();
        spawn_local(async move {
            let rows = async {
                let engine = this.engine().await?;
                parse::<Vec<Vec<Value>>>(&engine.rows(offset, PAGE_ROWS)?)
            };
            match rows.await {
                Ok(rows) => sql(&this.dispatch, SqlAction::Page(offset, rows)),
                Err(message) => sql(&this.dispatch, SqlAction::Error(message)),
            }
        });
    }

    /// Saves the last result, every row, as CSV.
    pub fn save_csv(&self) {
        let this = self.clone();
        spawn_local(async move {
            let saved = async {
                let engine = this.engine().await?;
                crate::download::download("longpole-query.csv", "text/csv", &engine.result_csv()?)
            };
            if let Err(message) = saved.await {
                sql(&this.dispatch, SqlAction::Error(message));
            }
        });
    }

    /// Adds a folder of fleet tables (`longpole export --to parquet`):
    /// `files`, each named with its path under the folder. The export worker
    /// reads them into tables that replace the run's `runs`, `tasks` and
    /// `critical_path`.
    pub fn add_folder(&self, files: Vec<File>) {
        let this = self.clone();
        sql(&self.dispatch, SqlAction::Loading(format!("Reading a folder of {} files…", files.len())));
        let run = self.inner.borrow().loading.as_ref().map_or(0, |(r, _)| *r);
        let paths: Vec<String> = files.iter().map(path_of).collect();
        let export = self.export.clone();
        let tables = received(move |receiver| export.read_folder(run, files, paths, receiver));
        spawn_local(async move {
            let added = async {
                let engine = this.engine().await?;
                let tables = JsFuture::from(tables).await.map_err(|e| sql_engine::message(&e))?;
                add_tables(&engine, &tables).await?;
                schema(&engine).await
            };
            match added.await {
                Ok(tables) => sql(&this.dispatch, SqlAction::Ready(run, tables)),
                Err(message) => sql(&this.dispatch, SqlAction::Failed(message)),
            }
        });
    }
}

/// A promise of the files an export makes for the receiver `start` is
/// given (each `{name, bytes}`), or of why it could not.
fn received(start: impl FnOnce(Receiver)) -> Promise {
    let mut start = Some(start);
    Promise::new(&mut |resolve, reject| {
        let files = Array::new();
        let receiver = Callback::from(move |d: Delivered| match d {
            Delivered::File(data) => {
                files.push(&data);
            }
            Delivered::Over(Ok(())) => {
                let _ = resolve.call1(&JsValue::NULL, &files);
            }
            Delivered::Over(Err(message)) => {
                let _ = reject.call1(&JsValue::NULL, &JsValue::from_str(&message));
            }
        });
        if let Some(start) = start.take() {
            start(receiver);
        }
    })
}

/// Adds each of `tables` (an export's files: `{name: "TABLE.arrow", bytes}`) to the engine.
async fn add_tables(engine: &Engine, tables: &JsValue) -> Result<(), String> {
    for t in Array::from(tables).iter() {
        let name = Reflect::get(&t, &"name".into()).ok().and_then(|n| n.as_string()).unwrap_or_default();
        let bytes: Uint8Array =
            Reflect::get(&t, &"bytes".into()).map_err(|e| sql_engine::message(&e))?.unchecked_into();
        engine.add_table(name.trim_end_matches(".arrow"), &bytes).await?;
    }
    Ok(())
}

/// A file's path in its folder: the folder picker's relative path, or the
/// name a dropped folder's file was given ([`crate::dropped`]).
fn path_of(file: &File) -> String {
    Reflect::get(file, &"webkitRelativePath".into())
        .ok()
        .and_then(|p| p.as_string())
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| file.name())
}

/// A query's head and first rows, as [`Engine::sample`] answers.
#[derive(serde::Deserialize)]
struct Sample {
    #[serde(flatten)]
    head: ResultHead,
    rows: Vec<Vec<Value>>,
}

/// The engine's tables.
async fn schema(engine: &Engine) -> Result<Vec<TableSchema>, String> {
    parse(&engine.tables().await?)
}

/// A JSON answer of the engine.
fn parse<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, String> {
    serde_json::from_str(json)
        .map_err(|e| format!("longpole could not read the SQL engine's answer ({e}); please report this"))
}

/// The page's SQL engine handle; the engine itself loads when the SQL tab
/// first opens.
#[hook]
pub fn use_sql_engine(dispatch: Callback<Action>, analysis: AnalysisWorker, export: ExportWorker) -> SqlEngine {
    let inner = use_mut_ref(Inner::default);
    SqlEngine { inner, dispatch, analysis, export }
}
