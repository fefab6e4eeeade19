//! A finished run: the headline, the path on the left, the views in the
//! middle (timeline, tables, report, diagnostics), details on the right.

use super::bazel_summary::BazelSummary;
use super::breakdown::Breakdown;
use super::dep_graph::DepGraph;
use super::details::Details;
use super::diagnostics_list::DiagnosticsList;
use super::flame_graph::FlameGraph;
use super::heap_chart::HeapChart;
use super::load_chart::LoadChart;
use super::path_list::PathList;
use super::pipeline_chart::PipelineChart;
use super::run_facts::RunFacts;
use super::tables::Tables;
use super::timeline::Timeline;
use crate::format::{bytes, group, millis};
use crate::hooks::AnalysisWorker;
use crate::protocol::{Export, Request, RunId};
use crate::shared::Shared;
use crate::shown::Shown as View;
use crate::state::{Action, Explore, Tab};
use longpole_core::export::run::Target;
use longpole_core::formats::evobench::view::EvobenchView;
use longpole_core::formats::evobench::TimingKind;
use longpole_core::formats::ghc_eventlog::view::GhcView;
use longpole_core::formats::monetdb_mal::view::MalView;
use longpole_core::numbers::duration_label;
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
    /// Actions.
    pub dispatch: Callback<Action>,
}

/// `1 thread`, `2 threads`.
fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", group(n), if n == 1 { one } else { many })
}

/// The headline numbers of a GHC program: capabilities, threads, pauses, events.
fn ghc_numbers(g: &GhcView) -> Html {
    let pauses = g.gc.iter().find(|r| r.generation == "all");
    html! {
        <>
            { format!(" · {} · {} · ", plural(u64::from(g.capabilities), "capability", "capabilities"), plural(g.threads.len() as u64, "thread", "threads")) }
            if let Some(p) = pauses {
                { "GC " }<strong>{ duration_label(p.total) }</strong>
                { format!(" in {} pauses (longest {})", group(p.count), duration_label(p.max)) }
            } else {
                { "no GC" }
            }
            { format!(" · {} events", group(g.events)) }
        </>
    }
}

/// The headline numbers of MAL traces: both paths, executions, threads.
fn mal_numbers(v: &View, m: &MalView) -> Html {
    let parallelism = m.core.busy as f64 / m.core.wall.max(1) as f64;
    html! {
        <>
            { " · critical path " }<strong>{ duration_label(v.critical_path.total) }</strong>{ " (dataflow) / " }
            <strong>{ duration_label(v.blocking_chain.total) }</strong>{ " (blocking)" }
            { format!(" · {} · {} · {} instructions on {} · {parallelism:.1} busy on average",
                plural(m.counts.executions, "execution", "executions"), plural(m.counts.queries, "query", "queries"),
                group(v.counts.run), plural(u64::from(m.core.threads), "thread", "threads")) }
        </>
    }
}

/// The headline numbers of evobench runs: runs, threads, the hottest path.
fn evobench_numbers(ev: &EvobenchView) -> Html {
    let hottest = ev.flame.hottest_path(TimingKind::Real.index());
    let names: Vec<&str> = hottest.iter().skip(1).map(|&n| ev.flame.nodes[n as usize].name.as_str()).collect();
    let first = ev.runs.first();
    html! {
        <>
            { format!(" · {} · {} · {} statistics rows", plural(ev.runs.len() as u64, "run", "runs"),
                plural(first.map_or(0, |r| r.threads), "thread", "threads"), group(ev.rows.len() as u64)) }
            if !names.is_empty() {
                { " · hottest path " }<strong title={names.join(" > ")}>{ names.last().copied().unwrap_or("") }</strong>
            }
            if first.is_some_and(|r| !r.complete) {
                { " · " }<strong class="warn">{ "cut off" }</strong>
            }
        </>
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
                    selected={e.selected} worker={props.worker.clone()} dispatch={props.dispatch.clone()} />
                if let Some(g) = &v.ghc {
                    <HeapChart series={g.heap.clone()} window={props.window} />
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
                        <h3>{ if v.mal.is_some() { "Where the blocking chain differs from the critical path" } else { "Where the blocking chain differs from ya's path" } }</h3>
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
            <Tables run={props.run} view={v.clone()} comparison={e.comparison.clone()} summary={e.summary.clone()} worker={props.worker.clone()}
                selected={e.selected} dispatch={props.dispatch.clone()} />
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
                        </div>
                    </details>
                    <span class="muted" title="memory of the worker that holds the analysis">{ " · memory " }<span data-testid="worker-memory" data-bytes={props.memory_bytes.to_string()}>{ bytes(props.memory_bytes) }</span></span>
                </p>
                <p class="numbers">
                    <RunFacts view={v.clone()} />
                    { if v.starrocks.is_some() { "plan nodes' time end to end " } else { "wall " } }<strong>{ wall.map_or("unknown".to_owned(), duration_label) }</strong>
                    if let Some(g) = &v.ghc {
                        { ghc_numbers(g) }
                    } else if let Some(m) = &v.mal {
                        { mal_numbers(v, m) }
                    } else if let Some(ev) = &v.evobench {
                        { evobench_numbers(ev) }
                    } else if let Some(sr) = &v.starrocks {
                        { format!(" · {} · total {}", sr.state.as_deref().unwrap_or("state unknown"), sr.total.map_or("unknown".to_owned(), duration_label)) }
                        if let Some(pole) = &sr.long_pole {
                            { " · long pole " }<strong data-testid="long-pole">{ pole }</strong>
                        }
                        { format!(" · {} fragments, {} pipelines, {} operators · {}", sr.counts.0, sr.counts.1, sr.counts.2,
                            plural(sr.hints.len() as u64, "hint", "hints")) }
                    } else if let Some(c) = &v.chrome {
                        { format!(" · {} · {} · {}", plural(v.lanes.len() as u64, "thread", "threads"),
                            plural(v.counts.run, "slice", "slices"), plural(c.flows, "flow", "flows")) }
                        if c.flows > 0 {
                            { " · critical path " }<strong>{ duration_label(v.critical_path.total) }</strong>
                        }
                        if !c.bazel_critical_path.is_empty() {
                            { " · Bazel's critical path " }
                            <strong data-testid="bazel-critical-path">{ duration_label(v.critical_path.total) }</strong>
                            { format!(" in {} steps", c.bazel_critical_path.len()) }
                        }
                    } else if let Some(n) = &v.ninja {
                        { format!(" · {} · {} on {} slots{}", plural(n.builds.len() as u64, "build", "builds"),
                            plural(n.builds.iter().map(|b| b.edges).sum(), "edge", "edges"),
                            n.builds.iter().map(|b| b.slots).max().unwrap_or(0),
                            if n.recompacted { " · recompacted log" } else { "" }) }
                    } else {
                        { " · critical path " }<strong>{ duration_label(v.critical_path.total) }</strong>{ " (ya) / " }
                        <strong>{ duration_label(v.blocking_chain.total) }</strong>{ " (blocking)" }
                        { format!(" · {} hosts · {} run, {} copy, {} prepare tasks", group(v.lanes.len() as u64), group(v.counts.run), group(v.counts.copy), group(v.counts.prepare)) }
                    }
                </p>
                if let Some(no_path) = &v.no_path {
                    <p class="no-path" data-testid="no-path">{ no_path.headline() }</p>
                }
                if let Some(message) = &e.export_refused {
                    <p class="notice" role="alert" data-testid="export-refused">{ message }{ " " }
                        <button class="link" onclick={props.dispatch.reform(|_: MouseEvent| Action::CloseExportRefused)}
                            title="Close" aria-label="Close">{ "✕" }</button>
                    </p>
                }
            </header>
            <div class="run-body">
                <PathList path={path.clone()} title={path_title} note={v.starrocks.as_ref().and_then(|sr| sr.long_pole_io.clone()).map(AttrValue::from)}
                    selected={e.selected} dispatch={props.dispatch.clone()} />
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
                    </div>
                    { body }
                </div>
                <Details details={e.details.clone()} selected={e.selected} on_critical_path={on_path(&v.critical_path.steps)}
                    on_blocking_chain={on_path(&v.blocking_chain.steps)} origin={v.window.map_or(0, |w| w.0)} dispatch={props.dispatch.clone()} />
            </div>
        </section>
    }
}
