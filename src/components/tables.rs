//! The report as tables: ya's `--stat` tables for a build, the GHC tables
//! for an eventlog, the MAL tables for traces; one search filters them all.

use super::compare_runs::CompareRuns;
use super::data_table::{count, span, text, time, DataTable, Row, Table};
use super::evobench_tables::{evobench_tables, SUMMARY_FIELDS};
use super::ghc_tables::ghc_tables;
use super::mal_tables::mal_tables;
use super::run_tables::{by_type_table, path_tables, task_rows};
use super::starrocks_tables::starrocks_tables;
use crate::hooks::AnalysisWorker;
use crate::protocol::{Export, Request, RunId};
use crate::shared::Shared;
use crate::shown::Shown;
use crate::state::Action;
use longpole_core::formats::evobench::analysis::Change;
use longpole_core::formats::evobench::view::StatRow;
use longpole_core::formats::evobench::TimingKind;
use longpole_core::numbers::duration_label;
use web_sys::HtmlInputElement;
use yew::prelude::*;

fn tables(v: &Shown) -> Vec<Table> {
    let origin = v.window.map_or(0, |w| w.0);
    let task_headers = vec!["duration", "type", "uid", "name", "host", "started", "finished"];
    let mut list = Vec::from(path_tables(v, "Critical path (ya)", &task_headers));
    list.extend([
        Table {
            id: "longest",
            title: "Longest tasks",
            headers: task_headers,
            rows: task_rows(&v.longest, origin, false),
        },
        Table {
            id: "biggest-copies",
            title: "Biggest copies",
            headers: vec!["duration", "type", "uid", "name", "to host", "from host", "bytes", "started", "finished"],
            rows: task_rows(&v.biggest_copies, origin, true),
        },
        by_type_table(v, "Time by type", "type"),
        Table {
            id: "stages",
            title: "Wall time by stage",
            headers: vec!["stage", "time"],
            rows: v
                .stages
                .iter()
                .map(|(s, t)| Row { cells: vec![text(s), span(*t)], task: None, haystack: s.clone() })
                .collect(),
        },
    ]);
    list
}

/// A Chrome trace's tables: Bazel's own critical path (for a Bazel
/// profile), the paths over its flows, the longest slices, time per
/// category, events per phase and the counters.
fn chrome_tables(v: &Shown) -> Vec<Table> {
    let origin = v.window.map_or(0, |w| w.0);
    let headers = ["duration", "category", "uid", "name", "thread", "started", "finished"];
    let Some(c) = &v.chrome else { return Vec::new() };
    let mut list = Vec::new();
    if !c.bazel_critical_path.is_empty() {
        list.push(Table {
            id: "bazel-critical-path",
            title: "Bazel's critical path",
            headers: headers.to_vec(),
            rows: task_rows(&c.bazel_critical_path, origin, false),
        });
    }
    if let Some(b) = &c.bazel {
        list.extend(super::bazel_tables::bazel_tables(b, origin));
    }
    if c.flows > 0 {
        list.extend(path_tables(v, "Critical path over the flows", &headers));
    }
    list.extend([
        Table {
            id: "longest",
            title: "Longest slices",
            headers: headers.to_vec(),
            rows: task_rows(&v.longest, origin, false),
        },
        by_type_table(v, "Time by category", "category"),
        Table {
            id: "phases",
            title: "Events by phase",
            headers: vec!["phase", "events"],
            rows: c
                .by_phase
                .iter()
                .map(|(p, n)| Row { cells: vec![text(p), count(*n)], task: None, haystack: p.to_lowercase() })
                .collect(),
        },
        Table {
            id: "counters",
            title: "Counters",
            headers: vec!["counter", "process", "samples"],
            rows: c
                .counters
                .iter()
                .map(|(name, process, n)| Row {
                    cells: vec![text(name), text(process), count(*n)],
                    task: None,
                    haystack: format!("{name} {process}").to_lowercase(),
                })
                .collect(),
        },
    ]);
    list
}

/// A ninja log's tables: its builds, the longest edges, time per kind.
fn ninja_tables(v: &Shown) -> Vec<Table> {
    let origin = v.window.map_or(0, |w| w.0);
    let builds = v.ninja.as_ref().map_or(&[][..], |n| &n.builds[..]);
    vec![
        Table {
            id: "builds",
            title: "Builds",
            headers: vec!["build", "outputs", "edges", "started", "wall", "busy", "slots", "parallelism"],
            rows: builds
                .iter()
                .enumerate()
                .map(|(i, b)| Row {
                    cells: vec![
                        count(i as u64 + 1),
                        count(b.outputs),
                        count(b.edges),
                        time(Some(b.start), origin),
                        span(b.wall),
                        span(b.busy),
                        count(u64::from(b.slots)),
                        text(&format!("{:.2}", b.busy as f64 / b.wall.max(1) as f64)),
                    ],
                    task: None,
                    haystack: format!("build {}", i + 1),
                })
                .collect(),
        },
        Table {
            id: "longest",
            title: "Longest edges",
            headers: vec!["duration", "kind", "output", "outputs", "slot", "started", "finished"],
            rows: task_rows(&v.longest, origin, false),
        },
        by_type_table(v, "Time by kind", "kind"),
    ]
}

/// Properties of [`Tables`].
#[derive(Properties, PartialEq)]
pub struct TablesProps {
    /// The run's id.
    pub run: RunId,
    /// The run.
    pub view: Shared<Shown>,
    /// The last comparison of evobench runs.
    pub comparison: Option<Shared<Vec<Change>>>,
    /// The summary over evobench runs of another statistic than the mean.
    pub summary: Option<(String, Shared<Vec<StatRow>>)>,
    /// The worker (evobench exports and comparisons).
    pub worker: AnalysisWorker,
    /// The selected task.
    pub selected: Option<u32>,
    /// Actions.
    pub dispatch: Callback<Action>,
}

/// The tables of the report.
#[component]
pub fn Tables(props: &TablesProps) -> Html {
    let search = use_state(String::new);
    let oninput = {
        let search = search.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            search.set(input.value().to_lowercase());
        })
    };
    let v = &props.view;
    let (failed, tests, run) = v.totals;
    let pct = |x: i64| if run == 0 { 100.0 } else { x as f64 * 100.0 / run as f64 };
    let compared_kind = use_state(|| TimingKind::Real);
    let (placeholder, list) = match (&v.ghc, &v.mal, &v.evobench) {
        (Some(g), _, _) => ("Search threads, labels, marks, types  (/)", ghc_tables(v, g)),
        (None, Some(m), _) => ("Search statements, operations, threads, queries  (/)", mal_tables(v, m)),
        (None, None, Some(e)) => (
            "Search paths  (/)",
            evobench_tables(
                e,
                props.comparison.as_deref().map(|c| (c.as_slice(), *compared_kind)),
                props.summary.as_ref().map(|(f, rows)| (f.as_str(), rows.as_slice())),
            ),
        ),
        (None, None, None) if v.ninja.is_some() => ("Search outputs  (/)", ninja_tables(v)),
        (None, None, None) if v.chrome.is_some() => ("Search slices, threads  (/)", chrome_tables(v)),
        (None, None, None) if v.starrocks.is_some() => (
            "Search operators, pipelines, counters  (/)",
            v.starrocks.as_ref().map(|s| starrocks_tables(v, s)).unwrap_or_default(),
        ),
        (None, None, None) => ("Search uid, name or host  (/)", tables(v)),
    };
    let on_summary_field = {
        let (worker, run) = (props.worker.clone(), props.run);
        Callback::from(move |e: Event| {
            let field = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            worker.send(&Request::Summary { run, field }, &[]);
        })
    };
    let (worker, run_id) = (props.worker.clone(), props.run);
    let export = move |what: Export| {
        let worker = worker.clone();
        Callback::from(move |_: MouseEvent| {
            worker.send(&Request::Export { run: run_id, what }, &[]);
        })
    };
    html! {
        <div class="tables">
            <div class="toolbar">
                <input type="search" class="search" placeholder={placeholder} aria-label="Search the tables"
                    data-testid="table-search" {oninput} />
                if v.evobench.is_some() {
                    <span class="spacer"></span>
                    <button class="button" onclick={export(Export::StatisticsCsv)} data-testid="export-statistics-csv"
                        title="Every timing kind and percentile, as CSV">{ "⤓ statistics CSV" }</button>
                    <button class="button" onclick={export(Export::Workbook)} data-testid="export-workbook"
                        title="The evaluator's workbook: one sheet per timing kind">{ "⤓ workbook (.xlsx)" }</button>
                }
            </div>
            if v.evobench.as_ref().is_some_and(|e| e.runs.len() > 1) {
                <p class="summary-field">
                    <label>{ "Summary over each run's " }
                        <select onchange={on_summary_field} data-testid="summary-field">
                            { for SUMMARY_FIELDS.iter().map(|(f, _)| html! {
                                <option value={*f} selected={props.summary.as_ref().map_or("mean", |(s, _)| s.as_str()) == *f}>{ *f }</option>
                            }) }
                        </select>
                    </label>
                </p>
            }
            if let Some(e) = v.evobench.as_ref().filter(|e| e.runs.len() > 1) {
                <CompareRuns run={props.run} runs={e.runs.clone()} worker={props.worker.clone()}
                    on_compare={Callback::from(move |k| compared_kind.set(k))} />
            }
            if !v.without_paths() && v.mal.is_none() && v.starrocks.is_none() && v.chrome.is_none() {
                <p class="cache" data-testid="cache-line">{ &v.cache_line }</p>
                <p class="totals">{ format!("Failed tasks: {} ({:.2}%) · test tasks: {} ({:.2}%) · all run tasks: {}",
                    duration_label(failed), pct(failed), duration_label(tests), pct(tests), duration_label(run)) }</p>
            }
            { for list.into_iter().map(|t| html! {
                <DataTable table={t} search={(*search).clone()} selected={props.selected} dispatch={props.dispatch.clone()} />
            }) }
        </div>
    }
}
