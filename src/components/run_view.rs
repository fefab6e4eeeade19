//! A finished run: the headline, the path on the left, the views in the
//! middle (timeline, tables, report, diagnostics), details on the right.

use super::bazel_summary::BazelSummary;
use super::breakdown::Breakdown;
use super::dep_graph::DepGraph;
use super::details::Details;
use super::diagnostics_list::DiagnosticsList;
use super::flame_graph::FlameGraph;
use super::heap_chart::HeapChart;
use super::levers_list::LeversList;
use super::load_chart::LoadChart;
use super::path_list::PathList;
use super::pipeline_chart::PipelineChart;
use super::run_facts::RunFacts;
use super::sql_tab::SqlTab;
use super::tables::Tables;
use super::timeline::Timeline;
use super::what_if_panel::WhatIfPanel;
use crate::export_protocol::ExportFile;
use crate::format::{bytes, group, millis};
use crate::hooks::{AnalysisWorker, ExportWorker, SqlEngine};
use crate::memory_limit::memory_limit_hook;
use crate::protocol::{Export, Request, RunId};
use crate::shared::Shared;
use crate::shown::Shown as View;
use crate::sql_state::SqlState;
use crate::state::{Action, Explore, ExportJob, Tab};
use longpole_core::export::run::Target;
use longpole_core::numbers::duration_label;
use longpole_core::view::headline::Fact;
use longpole_core::view::PathView;
use longpole_core::Summary;
use yew::prelude::*;

/// Properties of [`RunView`].
#[derive(Properties, PartialEq)]
pub struct RunViewProps {
    /// The run.
    pub run: RunId,
    /// The inputs' summary.
    pub summary: Shared<Summary>,
    /// What the run holds.
    pub view: Shared<View>,
    /// How it is explored.
    pub explore: Explore,
    /// The time window shown.
    pub window: (i64, i64),
    /// How long reading took, ms.
    pub elapsed_ms: f64,
    /// The worker's memory, bytes.
    pub memory_bytes: u64,
    /// The worker.
    pub worker: AnalysisWorker,
    /// The export worker's handle, for the Parquet tables and the workbook.
    pub export: ExportWorker,
    /// The SQL tab's state.
    pub sql: SqlState,
    /// The SQL tab's engine.
    pub sql_engine: SqlEngine,
    /// Actions.
    pub dispatch: Callback<Action>,
    /// In an embedding page's frame: the full app's address for the same
    /// view. The run is then drawn compact: one view under one toolbar.
    #[prop_or_default]
    pub full_app: Option<AttrValue>,
}

/// One piece of the headline.
fn fact(f: &Fact) -> Html {
    if !f.strong {
        return html! { { f.text.clone() } };
    }
    html! {
        <strong class={classes!(f.warn.then_some("warn"))} title={f.title.clone()} data-testid={f.hook.clone()}>{ f.text.clone() }</strong>
    }
}

/// The export worker's download under way: how far it has come, and its Cancel.
fn export_progress(job: &ExportJob, export: ExportWorker) -> Html {
    let what = job.file.label();
    let text = match (&job.progress, job.writing) {
        (_, true) => format!("Writing {what}…"),
        (Some(p), false) => match p.bytes_total.filter(|&t| t > 0) {
            Some(total) => format!("Reading {} again for {what}: {} %", p.name, p.bytes_done * 100 / total),
            None => format!("Reading {} again for {what}: {}", p.name, bytes(p.bytes_done)),
        },
        (None, false) => format!("Starting the export worker for {what}…"),
    };
    html! {
        <p class="notice" role="status" data-testid="export-progress">{ text }{ " " }
            <button class="button small" onclick={Callback::from(move |_: MouseEvent| export.cancel())}
                data-testid="export-cancel">{ "Cancel" }</button>
        </p>
    }
}

/// The run's screen.
#[component]
pub fn RunView(props: &RunViewProps) -> Html {
    let (v, s, e) = (&props.view, &props.summary, &props.explore);
    {
        let (worker, run, wanted) = (props.worker.clone(), props.run, e.tab == Tab::Report && e.report_text.is_none());
        use_effect_with((run, wanted), move |&(run, wanted)| {
            if wanted {
                worker.send(&Request::ReportText { run }, &[]);
            }
        });
    }
    {
        let (worker, run) = (props.worker.clone(), props.run);
        use_effect_with((run, e.selected), move |&(run, selected)| {
            if let Some(task) = selected {
                worker.send(&Request::Details { run, task }, &[]);
            }
        });
    }
    // The levers and the what-if replay the run in the worker: asked for
    // when shown, a slider step each time the speed-up moves.
    let replayable = !v.without_paths();
    {
        let (worker, run, wanted) =
            (props.worker.clone(), props.run, replayable && e.levers_open && e.levers.is_none());
        use_effect_with((run, wanted), move |&(run, wanted)| {
            if wanted {
                worker.send(&Request::Levers { run }, &[]);
            }
        });
    }
    {
        let (worker, run) = (props.worker.clone(), props.run);
        use_effect_with((run, e.selected.filter(|_| replayable)), move |&(run, selected)| {
            if let Some(task) = selected {
                worker.send(&Request::Lever { run, task }, &[]);
            }
        });
    }
    {
        let (worker, run) = (props.worker.clone(), props.run);
        let step = e.selected.zip(e.speedup).filter(|_| replayable);
        use_effect_with((run, step), move |&(run, step)| {
            if let Some((task, speedup)) = step {
                worker.send(&Request::WhatIf { run, task, speedup }, &[]);
            }
        });
    }
    let lines: u64 = s.inputs.iter().map(|i| i.lines).sum();
    // Binary inputs have no lines: count their records.
    let records = if lines > 0 {
        format!("{} lines", group(lines))
    } else {
        format!("{} events", group(s.inputs.iter().map(|i| i.events).sum()))
    };
    let warnings: u64 = s.inputs.iter().map(|i| i.diagnostics.warnings + i.diagnostics.errors).sum();
    let diagnostics: u64 = s.inputs.iter().map(|i| i.diagnostics.total).sum();
    let read: u64 = s.inputs.iter().map(|i| i.bytes).sum();
    let wall = v.window.map(|(a, b)| b - a);
    // A run that records no dependencies (a GHC program, a benchmark, a
    // ninja log, a trace without flows) has no paths: the left panel lists
    // the longest spans instead, and there is no Graph tab.
    let longest;
    let program = v.without_paths();
    let (path, path_title) = match (program, e.chain) {
        (true, _) => {
            longest = PathView { total: 0, steps: v.longest.clone(), breakdown: Vec::new() };
            (&longest, "Longest spans")
        }
        (false, true) => (&v.blocking_chain, "Blocking chain"),
        (false, false) => (&v.critical_path, "Critical path"),
    };
    let on_path =
        |steps: &[longpole_core::view::TaskRow]| e.selected.is_some_and(|id| steps.iter().any(|s| s.id == id));
    let tab = |t: Tab, label: String, testid: &'static str| {
        let onclick = props.dispatch.reform(move |_: MouseEvent| Action::Tab(t));
        html! { <button role="tab" aria-selected={(e.tab == t).to_string()} class={classes!("tab", (e.tab == t).then_some("on"))} {onclick} data-testid={testid}>{ label }</button> }
    };
    let body = match e.tab {
        Tab::Timeline => html! {
            <>
                <Timeline run={props.run} view={v.clone()} bars={e.bars.clone()} window={props.window} chain={e.chain}
                    selected={e.selected} what_if={e.what_if.clone().filter(|_| e.speedup.is_some())} track={props.sql.track.clone()}
                    worker={props.worker.clone()} dispatch={props.dispatch.clone()} />
                if let Some(g) = &v.ghc {
                    <HeapChart series={g.heap.clone()} allocation={g.allocation.clone()} window={props.window} />
                } else if !program {
                    <Breakdown path={path.clone()} view={v.clone()} />
                }
                if let Some(b) = v.chrome.as_ref().and_then(|c| c.bazel.as_ref()) {
                    <BazelSummary view={b.clone()} window={props.window} />
                }
                if let Some(m) = &v.mal {
                    <LoadChart series={m.series.clone()} window={props.window} />
                }
                if let Some(sr) = &v.starrocks {
                    if !sr.hints.is_empty() {
                        <section class="hints" data-testid="hints">
                            <h3>{ "Bottleneck hints" }</h3>
                            <ul>{ for sr.hints.iter().map(|h| html! { <li data-kind={h.kind.clone()}><strong>{ &h.at }</strong>{ ": " }{ &h.text }</li> }) }</ul>
                        </section>
                    }
                    <PipelineChart pipelines={sr.pipelines.clone()} />
                }
                if !v.differences.is_empty() {
                    <div class="differences">
                        <h3>{ &v.differences_title }</h3>
                        <ul>{ for v.differences.iter().map(|d| html! { <li>{ d }</li> }) }</ul>
                    </div>
                }
            </>
        },
        Tab::Graph if program => html! {
            <p class="muted">{ "This run records no dependencies: there is no dependency graph. See the timeline and the tables." }</p>
        },
        Tab::Graph => html! {
            <DepGraph run={props.run} view={v.clone()} layout={e.graph.clone()} chain={e.chain} unfold={e.unfold.clone()} camera={e.graph_camera}
                selected={e.selected} worker={props.worker.clone()} dispatch={props.dispatch.clone()} />
        },
        Tab::Tables => html! {
            <Tables run={props.run} view={v.clone()} summary={e.summary.clone()} worker={props.worker.clone()} export={props.export.clone()}
                selected={e.selected} only={e.only_table.clone().map(AttrValue::from)} dispatch={props.dispatch.clone()} />
        },
        Tab::Flame if v.has_flame => html! {
            <FlameGraph run={props.run} flame={e.flame} layout={e.flame_layout.clone()}
                worker={props.worker.clone()} dispatch={props.dispatch.clone()} />
        },
        Tab::Flame => html! { <p class="muted">{ "This run has no flame graph." }</p> },
        Tab::Report => match &e.report_text {
            Some(text) => html! { <pre class="report" data-testid="report-text">{ &**text }</pre> },
            None => html! { <p class="muted">{ "Writing the report…" }</p> },
        },
        Tab::Diagnostics => html! { <DiagnosticsList inputs={s.inputs.clone()} /> },
        Tab::Sql => html! {
            <SqlTab run={props.run} format={v.format.name()} state={props.sql.clone()} engine={props.sql_engine.clone()}
                selected={e.selected} dispatch={props.dispatch.clone()} />
        },
    };
    if let Some(full_app) = &props.full_app {
        return html! {
            <section class="run embedded" data-testid="run">
                <header class="embed-bar">
                    <strong class="names">{ s.inputs.iter().map(|i| i.name.as_str()).collect::<Vec<_>>().join(" + ") }</strong>
                    <span data-testid="detected-format" title={v.format.title()}>{ v.format.name() }</span>
                    <span class="numbers">
                        <RunFacts view={v.clone()} />
                        { format!("{} ", v.wall_label) }<strong data-testid="wall">{ wall.map_or("unknown".to_owned(), duration_label) }</strong>
                        { for v.headline.iter().map(fact) }
                    </span>
                    <span class="spacer"></span>
                    <a class="button small" href={full_app.clone()} target="_blank" rel="noopener" data-testid="open-full-app"
                        title="Open this view in the full app, in a new tab">{ "Open in longpole ↗" }</a>
                </header>
                if let Some(no_path) = &v.no_path {
                    <p class="no-path" data-testid="no-path">{ no_path.headline() }</p>
                }
                <div class="center">{ body }</div>
            </section>
        };
    }
    let export_parquet = {
        let (export, run) = (props.export.clone(), props.run);
        Callback::from(move |_: MouseEvent| export.start(run, ExportFile::FleetTables, memory_limit_hook()))
    };
    html! {
        <section class="run" data-testid="run">
            <header class="run-header">
                <p class="headline">
                    <strong>{ s.inputs.iter().map(|i| i.name.as_str()).collect::<Vec<_>>().join(" + ") }</strong>
                    { " · " }<span data-testid="detected-format" title={v.format.title()}>{ v.format.name() }</span>
                    { format!(" · {records} · {} warnings · read {} in {}", group(warnings), bytes(read), millis(props.elapsed_ms)) }
                    <details class="export-menu" data-testid="export-menu">
                        <summary class="button small">{ "⤓ Export" }</summary>
                        <div class="menu">
                            { for [(Target::Chrome, "Chrome trace (Perfetto)", "export-chrome"), (Target::Speedscope, "speedscope", "export-speedscope"),
                                   (Target::Folded, "folded stacks", "export-folded-run"), (Target::Html, "HTML report (one file)", "export-html")]
                                .into_iter().map(|(target, label, testid)| {
                                    let (worker, run) = (props.worker.clone(), props.run);
                                    let onclick = Callback::from(move |_: MouseEvent| {
                                        worker.send(&Request::Export { run, what: Export::Run(target) }, &[]);
                                    });
                                    html! { <button class="button small" {onclick} data-testid={testid}>{ label }</button> }
                                }) }
                            <button class="button small" onclick={export_parquet} data-testid="export-parquet"
                                title="The fleet tables for DuckDB, Spark or Trino: a zip of Parquet files, as longpole export --to parquet writes them">
                                { "Parquet (tasks, path, run)" }</button>
                        </div>
                    </details>
                    <span class="muted" title="memory of the worker that holds the analysis">{ " · memory " }<span data-testid="worker-memory" data-bytes={props.memory_bytes.to_string()}>{ bytes(props.memory_bytes) }</span></span>
                </p>
                <p class="numbers">
                    <RunFacts view={v.clone()} />
                    { format!("{} ", v.wall_label) }<strong>{ wall.map_or("unknown".to_owned(), duration_label) }</strong>
                    { for v.headline.iter().map(fact) }
                </p>
                if let Some(no_path) = &v.no_path {
                    <p class="no-path" data-testid="no-path">{ no_path.headline() }</p>
                }
                if let Some(job) = &e.export_job {
                    { export_progress(job, props.export.clone()) }
                }
                if let Some(message) = &e.export_refused {
                    <p class="notice" role="alert" data-testid="export-refused">{ message }{ " " }
                        <button class="link" onclick={props.dispatch.reform(|_: MouseEvent| Action::CloseExportRefused)}
                            title="Close" aria-label="Close">{ "✕" }</button>
                    </p>
                }
            </header>
            <div class="run-body">
                <div class="left">
                    if replayable {
                        <div class="segmented left-switch" role="group" aria-label="Left panel">
                            <button class={classes!("button", "small", (!e.levers_open).then_some("on"))} data-testid="show-path"
                                onclick={props.dispatch.reform(|_: MouseEvent| Action::ShowLevers(false))}>{ "Path" }</button>
                            <button class={classes!("button", "small", e.levers_open.then_some("on"))} data-testid="show-levers"
                                title="The tasks whose fixing would save the most (V)"
                                onclick={props.dispatch.reform(|_: MouseEvent| Action::ShowLevers(true))}>{ "Levers" }</button>
                        </div>
                    }
                    if replayable && e.levers_open {
                        <LeversList levers={e.levers.clone()} selected={e.selected} dispatch={props.dispatch.clone()} />
                    } else {
                        <PathList path={path.clone()} title={path_title} note={v.path_note.clone().map(AttrValue::from)}
                            selected={e.selected} dispatch={props.dispatch.clone()} />
                    }
                </div>
                <div class="center">
                    <div class="tabs" role="tablist">
                        { tab(Tab::Timeline, "Timeline".into(), "tab-timeline") }
                        if !program {
                            { tab(Tab::Graph, "Graph".into(), "tab-graph") }
                        }
                        if v.has_flame {
                            { tab(Tab::Flame, "Flame graph".into(), "tab-flame") }
                        }
                        { tab(Tab::Tables, "Tables".into(), "tab-tables") }
                        { tab(Tab::Report, "Report".into(), "tab-report") }
                        { tab(Tab::Diagnostics, format!("Diagnostics {}", group(diagnostics)), "tab-diagnostics") }
                        { tab(Tab::Sql, "SQL".into(), "tab-sql") }
                    </div>
                    { body }
                </div>
                <Details details={e.details.clone()} selected={e.selected} on_critical_path={on_path(&v.critical_path.steps)}
                    on_blocking_chain={on_path(&v.blocking_chain.steps)} origin={v.window.map_or(0, |w| w.0)} dispatch={props.dispatch.clone()}>
                    if let (Some(task), true) = (e.selected, replayable) {
                        <WhatIfPanel {task} lever={e.lever.clone()} speedup={e.speedup} what_if={e.what_if.clone()} dispatch={props.dispatch.clone()} />
                    }
                </Details>
            </div>
        </section>
    }
}
