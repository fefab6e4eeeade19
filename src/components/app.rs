//! The page: wires the state, the worker, the keys and drag-and-drop to the views.

use super::compare_screen::CompareScreen;
use super::error_panel::ErrorPanel;
use super::header::{copy_link, files_of, Header, Linkable};
use super::help::Help;
use super::landing::Landing;
use super::reading::Reading;
use super::run_view::RunView;
use super::shell_notice::ShellNoticeView;
use super::summary_view::SummaryView;
use crate::embed::{use_embed, Page};
use crate::hooks::{
    use_analysis_worker, use_export_worker, use_hash_view, use_keys, use_launch_queue, use_link_load,
    use_offline_shell, use_open_ping, use_sql_engine, HashView, KeptInputs,
};
use crate::link::Source;
use crate::link_files::fetch_files;
use crate::memory_limit::memory_limit_hook;
use crate::protocol::{CompareSettings, Request};
use crate::samples::{self, Sample};
use crate::state::{Action, AppState, Phase};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{Blob, File, HtmlInputElement};
use yew::prelude::*;

/// Fetches one bundled sample file (from the page's own origin) as a `File`.
async fn fetch_sample_file(name: &str) -> Result<File, String> {
    let window = web_sys::window().ok_or("no window")?;
    let err = |what: &str| format!("could not load the sample {name}: {what}");
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(&samples::url(name)))
        .await
        .map_err(|_| err("network error"))?
        .unchecked_into();
    if !response.ok() {
        return Err(err(&format!("HTTP {}", response.status())));
    }
    let body = response.blob().map_err(|_| err("no body"))?;
    let blob: Blob = JsFuture::from(body).await.map_err(|_| err("no body"))?.unchecked_into();
    let parts = js_sys::Array::of1(&blob);
    File::new_with_blob_sequence(&parts, name).map_err(|_| err("cannot make a file"))
}

/// Fetches every file of a sample; a link names them by their URLs.
async fn fetch_sample(sample: Sample) -> Result<(Vec<File>, Vec<Source>), String> {
    let mut files = Vec::with_capacity(sample.files.len());
    for name in sample.files {
        files.push(fetch_sample_file(name).await?);
    }
    let sources =
        sample.files.iter().map(|name| Source { url: samples::url(name), sha256: None, token: None }).collect();
    Ok((files, sources))
}

/// Focuses the tables' search box once it is drawn.
fn focus_search() {
    // After this render: a timeout of 0 runs once the page has drawn.
    gloo_timers::callback::Timeout::new(0, || {
        let input = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector("[data-testid=\"table-search\"]").ok().flatten())
            .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(input) = input {
            let _ = input.focus();
        }
    })
    .forget();
}

/// The whole page.
#[component]
pub fn App() -> Html {
    let state = use_reducer(AppState::default);
    let dispatch = {
        let d = state.dispatcher();
        Callback::from(move |a: Action| d.dispatch(a))
    };
    let worker = use_analysis_worker(dispatch.clone());
    // Started only for a Parquet download; it keeps the loaded run's inputs.
    let export = use_export_worker(dispatch.clone());
    // Loaded the first time the SQL tab opens; its tables come from the analysis worker.
    let sql_engine = use_sql_engine(dispatch.clone(), worker.clone(), export.clone());
    let embed = use_memo((), |_| crate::embed::from_location().map(Rc::new));
    let e = &state.explore;
    // An embedded frame's hash holds its embed settings: its view is told to the host instead.
    let hash = HashView {
        run: state.run,
        ready: state.view().is_some() && embed.is_none(),
        sources: state.sources.clone(),
        native: worker.native(),
        tab: e.tab,
        window: e.window,
        selected: e.selected_key.clone().filter(|_| e.selected.is_some()),
        chain: e.chain,
        flame: e.flame,
        speedup: e.speedup,
        sql: state
            .sql
            .track
            .as_ref()
            .map(|t| t.query.clone())
            .or_else(|| state.sql.result.as_ref().map(|r| r.query.clone())),
        track: state.sql.track.is_some(),
    };
    use_hash_view(hash, worker.clone(), sql_engine.clone(), dispatch.clone());
    let next_run = use_mut_ref(|| Rc::new(Cell::new(0u32)));
    let file_input = use_node_ref();
    let compare_input = use_node_ref();
    let dragging = use_state(|| false);

    // Files opened, dropped or fetched (a sample), with the URLs a link
    // names them by (none for opened or dropped files).
    let open_files = {
        let (worker, dispatch, next_run) = (worker.clone(), dispatch.clone(), next_run.borrow().clone());
        let export = export.clone();
        Callback::from(move |(files, sources): (Vec<File>, Vec<Source>)| {
            if files.is_empty() {
                return;
            }
            let run = next_run.get() + 1;
            next_run.set(run);
            export.keep(run, KeptInputs::Files(files.clone()));
            let names = files.iter().map(File::name).collect();
            let total = Some(files.iter().map(|f| f.size() as u64).sum());
            dispatch.emit(Action::Started { run, names, total, sources });
            if !worker.send(&Request::Analyze { run, memory_limit: memory_limit_hook() }, &files) {
                dispatch.emit(Action::Failed("the analysis worker is not running; reload the page".into()));
            }
        })
    };
    // Two sides to compare: side A's files, or `None` for the loaded run
    // ("Compare with…"), and side B's.
    let compare_files = {
        let (worker, dispatch, next_run) = (worker.clone(), dispatch.clone(), next_run.borrow().clone());
        let export = export.clone();
        let loaded = match &state.phase {
            Phase::Ready { names, .. } => names.clone(),
            _ => Vec::new(),
        };
        Callback::from(move |(a, b): (Option<Vec<File>>, Vec<File>)| {
            if b.is_empty() || a.as_ref().is_some_and(Vec::is_empty) {
                return;
            }
            let run = next_run.get() + 1;
            next_run.set(run);
            export.forget();
            let names_a = a.as_ref().map_or_else(|| loaded.clone(), |f| f.iter().map(File::name).collect());
            let names =
                names_a.iter().map(|n| format!("A: {n}")).chain(b.iter().map(|f| format!("B: {}", f.name()))).collect();
            let total = Some(a.iter().flatten().chain(&b).map(|f| f.size() as u64).sum());
            dispatch.emit(Action::Started { run, names, total, sources: Vec::new() });
            let a_files = a.as_ref().map(|f| f.len() as u32);
            let files: Vec<File> = a.into_iter().flatten().chain(b).collect();
            let settings = CompareSettings::default();
            let request = Request::CompareFiles { run, a_files, settings, memory_limit: memory_limit_hook() };
            if !worker.send(&request, &files) {
                dispatch.emit(Action::Failed("the analysis worker is not running; reload the page".into()));
            }
        })
    };
    let on_compare_sides = compare_files.reform(|(a, b): (Vec<File>, Vec<File>)| (Some(a), b));
    let on_compare_with = state.view().is_some().then(|| compare_files.reform(|b: Vec<File>| (None, b)));
    use_launch_queue(open_files.reform(|files| (files, Vec::new())), dispatch.clone());
    let shell_notice = use_offline_shell(matches!(state.phase, Phase::Reading { .. }));
    // Inputs a link names: as the link gives them, and made absolute.
    let open_urls = {
        let (worker, dispatch, next_run) = (worker.clone(), dispatch.clone(), next_run.borrow().clone());
        let export = export.clone();
        Callback::from(move |(given, absolute): (Vec<Source>, Vec<Source>)| {
            let run = next_run.get() + 1;
            next_run.set(run);
            export.keep(run, KeptInputs::Urls(absolute.clone()));
            let names = absolute.iter().map(|s| crate::url_read::file_name(&s.url)).collect();
            dispatch.emit(Action::Started { run, names, total: None, sources: given });
            let request = Request::AnalyzeUrls { run, sources: absolute, memory_limit: memory_limit_hook() };
            if !worker.send(&request, &[]) {
                dispatch.emit(Action::Failed("the analysis worker is not running; reload the page".into()));
            }
        })
    };
    // Both sides of a comparison a link names, fetched whole and compared
    // as picked files are.
    let compare_urls = {
        let (compare_files, dispatch) = (compare_files.clone(), dispatch.clone());
        let (worker, next_run) = (worker.clone(), next_run.borrow().clone());
        Callback::from(move |(a, b): (Vec<Source>, Vec<Source>)| {
            if worker.native() {
                // A `longpole open --native` server compares its own two sides.
                let run = next_run.get() + 1;
                next_run.set(run);
                let name = |side: &str, s: &Source| format!("{side}: {}", crate::url_read::file_name(&s.url));
                let names = a.iter().map(|s| name("A", s)).chain(b.iter().map(|s| name("B", s))).collect();
                dispatch.emit(Action::Started { run, names, total: None, sources: Vec::new() });
                let (a_files, settings) = (Some(a.len() as u32), CompareSettings::default());
                let request = Request::CompareFiles { run, a_files, settings, memory_limit: None };
                if !worker.send(&request, &[]) {
                    dispatch.emit(Action::Failed("the longpole process is not answering; run it again".into()));
                }
                return;
            }
            let (compare_files, dispatch) = (compare_files.clone(), dispatch.clone());
            spawn_local(async move {
                let sides = async { Ok::<_, String>((fetch_files(&a).await?, fetch_files(&b).await?)) };
                match sides.await {
                    Ok((a, b)) => compare_files.emit((Some(a), b)),
                    Err(message) => dispatch.emit(Action::Failed(message)),
                }
            });
        })
    };
    use_link_load(state.sources.clone(), open_urls, compare_urls, dispatch.clone());
    use_open_ping();
    use_embed(
        (*embed).clone(),
        &state,
        Page {
            dispatch: dispatch.clone(),
            open_files: open_files.reform(|files| (files, Vec::new())),
            worker: worker.clone(),
            sql: sql_engine.clone(),
        },
    );
    use_effect_with(embed.as_ref().as_ref().map(|c| c.theme), |theme| {
        let root = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element());
        if let (Some(root), Some(theme)) = (root, theme) {
            // Failing to set them leaves the full app's look: nothing to report.
            let _ = root.set_attribute("data-embed", "1");
            let _ = root.set_attribute("data-theme", theme.name());
        }
    });
    let on_sample = {
        let (open_files, dispatch) = (open_files.clone(), dispatch.clone());
        Callback::from(move |sample: Sample| {
            let (open_files, dispatch) = (open_files.clone(), dispatch.clone());
            spawn_local(async move {
                match fetch_sample(sample).await {
                    Ok(files) => open_files.emit(files),
                    Err(message) => dispatch.emit(Action::Failed(message)),
                }
            });
        })
    };
    let cancel = {
        let (worker, run) = (worker.clone(), state.run);
        Callback::from(move |_: ()| {
            worker.send(&Request::Cancel { run }, &[]);
        })
    };
    let on_copy = {
        let dispatch = dispatch.clone();
        Callback::from(move |_: ()| copy_link(dispatch.clone()))
    };
    let linkable = match (&state.phase, state.sources.is_empty()) {
        (Phase::Ready { .. }, false) => Linkable::Everything,
        (Phase::Ready { .. }, true) => Linkable::ViewOnly,
        _ => Linkable::Nothing,
    };
    {
        let (dispatch, cancel, file_input) = (dispatch.clone(), cancel.clone(), file_input.clone());
        let compare_input = compare_input.clone();
        let on_copy = on_copy.clone();
        let (help, reading) = (state.help, matches!(state.phase, Phase::Reading { .. }));
        let exploring = state.view().is_some();
        let (levers_open, speedup) = (state.explore.levers_open, state.explore.speedup.unwrap_or(0));
        let selected = state.explore.selected.is_some();
        use_keys(Callback::from(move |key: String| match key.as_str() {
            "o" | "O" => {
                if let Some(input) = file_input.cast::<HtmlInputElement>() {
                    input.click();
                }
            }
            "?" => dispatch.emit(Action::ToggleHelp),
            "l" | "L" if exploring => on_copy.emit(()),
            "c" | "C" if exploring => {
                if let Some(input) = compare_input.cast::<HtmlInputElement>() {
                    input.click();
                }
            }
            "Escape" if help => dispatch.emit(Action::CloseHelp),
            "Escape" if reading => cancel.emit(()),
            "Escape" if exploring => dispatch.emit(Action::Select(None)),
            "w" | "W" if exploring => dispatch.emit(Action::Zoom { factor: 0.8, at: 0.5 }),
            "s" | "S" if exploring => dispatch.emit(Action::Zoom { factor: 1.25, at: 0.5 }),
            "a" | "A" if exploring => dispatch.emit(Action::Pan(-0.2)),
            "d" | "D" if exploring => dispatch.emit(Action::Pan(0.2)),
            "v" | "V" if exploring => dispatch.emit(Action::ShowLevers(!levers_open)),
            "[" if exploring && selected => dispatch.emit(Action::SpeedUp(Some(speedup.saturating_sub(10)))),
            "]" if exploring && selected => dispatch.emit(Action::SpeedUp(Some(speedup.saturating_add(10).min(100)))),
            "/" if exploring => {
                dispatch.emit(Action::Tab(crate::state::Tab::Tables));
                focus_search();
            }
            _ => {}
        }));
    }

    let ondragover = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(true);
        })
    };
    let ondragleave = {
        let dragging = dragging.clone();
        Callback::from(move |_: DragEvent| dragging.set(false))
    };
    let ondrop = {
        let (dragging, open_files) = (dragging.clone(), open_files.clone());
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(false);
            let transfer = e.data_transfer();
            // A folder dropped (a rolling Spark log's) is read through its entries.
            match transfer.as_ref().and_then(crate::dropped::folder_entries) {
                Some(entries) => {
                    let open_files = open_files.clone();
                    wasm_bindgen_futures::spawn_local(async move {
                        open_files.emit((crate::dropped::files_in(entries).await, Vec::new()));
                    });
                }
                None => open_files.emit((files_of(transfer.and_then(|d| d.files())), Vec::new())),
            }
        })
    };

    let full_app = embed.as_ref().as_ref().and_then(|_| crate::embed::full_app_url(&state)).map(AttrValue::from);
    let embedded = embed.is_some();
    let body = match &state.phase {
        Phase::Idle if embedded => html! { <p class="notice" data-testid="embed-waiting">{ "Waiting for a log…" }</p> },
        Phase::Idle => html! { <Landing on_sample={on_sample.clone()} on_compare={on_compare_sides.clone()} /> },
        Phase::Reading { names, total, progress } => {
            html! { <Reading names={names.clone()} total={*total} progress={progress.clone()} on_cancel={cancel.clone()} /> }
        }
        Phase::Ready { summary, view: Some(view), elapsed_ms, memory_bytes, .. } if state.window().is_some() => {
            let window = state.window().unwrap_or_default();
            html! {
                <RunView run={state.run} summary={summary.clone()} view={view.clone()} explore={state.explore.clone()} {window}
                    elapsed_ms={*elapsed_ms} memory_bytes={*memory_bytes} worker={worker.clone()} export={export.clone()}
                    sql={state.sql.clone()} sql_engine={sql_engine.clone()} dispatch={dispatch.clone()} {full_app} />
            }
        }
        Phase::Ready { summary, elapsed_ms, .. } => {
            html! { <SummaryView summary={summary.clone()} elapsed_ms={*elapsed_ms} /> }
        }
        Phase::Failed { message } if embedded => html! { <ErrorPanel message={message.clone()} /> },
        Phase::Failed { message } => {
            html! { <><ErrorPanel message={message.clone()} /><Landing on_sample={on_sample.clone()} on_compare={on_compare_sides.clone()} /></> }
        }
        Phase::Cancelled if embedded => {
            html! { <p class="notice" data-testid="cancelled">{ "Reading was cancelled." }</p> }
        }
        Phase::Cancelled => html! {
            <>
                <p class="notice" data-testid="cancelled">{ "Reading was cancelled." }</p>
                <Landing on_sample={on_sample.clone()} on_compare={on_compare_sides.clone()} />
            </>
        },
        Phase::Compared { view, rows, timelines, flames, runs, settings, elapsed_ms, refused } => html! {
            <CompareScreen run={state.run} view={view.clone()} rows={rows.clone()} timelines={timelines.clone()} flames={flames.clone()} runs={*runs} settings={settings.clone()} elapsed_ms={*elapsed_ms}
                refused={refused.clone()} worker={worker.clone()} dispatch={dispatch.clone()} />
        },
    };
    let on_help = dispatch.reform(|_: ()| Action::ToggleHelp);
    let on_close_help = dispatch.reform(|_: ()| Action::CloseHelp);
    html! {
        <div class={classes!("page", dragging.then_some("dragging"))} {ondragover} {ondragleave} {ondrop}>
            if !embedded {
                <Header file_input={file_input} on_files={open_files.reform(|files| (files, Vec::new()))} {on_help}
                    {linkable} copied={state.copied.clone()} {on_copy} {compare_input} on_compare={on_compare_with} />
            }
            <main class="content">
                { for state.notices.iter().map(|n| html! { <p class="notice" data-testid="link-notice">{ n }</p> }) }
                { body }
            </main>
            if state.help {
                <Help on_close={on_close_help} />
            }
            if let Some(notice) = (*shell_notice).clone() {
                <ShellNoticeView {notice} on_reload={Callback::from(|_: ()| reload())}
                    on_close={Callback::from(move |_: ()| shell_notice.set(None))} />
            }
        </div>
    }
}

/// Reloads the page (to take a newer version); a browser that refuses says so on the console.
fn reload() {
    if let Some(Err(e)) = web_sys::window().map(|w| w.location().reload()) {
        web_sys::console::error_2(&"longpole could not reload the page:".into(), &e);
    }
}
