//! The report as tables, as the run's view describes them (each format
//! makes its own in the core); one search filters them all. evobench runs
//! add what the page asked for: another summary.

use super::data_table::DataTable;
use crate::export_protocol::ExportFile;
use crate::hooks::{AnalysisWorker, ExportWorker};
use crate::memory_limit::memory_limit_hook;
use crate::protocol::{Export, Request, RunId};
use crate::shared::Shared;
use crate::shown::Shown;
use crate::state::Action;
use longpole_core::formats::evobench::tables::{tables as evobench_tables, SUMMARY_FIELDS};
use longpole_core::formats::evobench::view::StatRow;
use longpole_core::numbers::duration_label;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Properties of [`Tables`].
#[derive(Properties, PartialEq)]
pub struct TablesProps {
    /// The run's id.
    pub run: RunId,
    /// The run.
    pub view: Shared<Shown>,
    /// The summary over evobench runs of another statistic than the mean.
    pub summary: Option<(String, Shared<Vec<StatRow>>)>,
    /// The worker (evobench exports and summaries).
    pub worker: AnalysisWorker,
    /// The export worker (evobench's workbook).
    pub export: ExportWorker,
    /// The selected task.
    pub selected: Option<u32>,
    /// Only the table of this title (case-insensitive); None: all.
    #[prop_or_default]
    pub only: Option<AttrValue>,
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
    // evobench's other summaries come after the view: its tables are made
    // again with them.
    let list = match v.evobench.as_ref().zip(props.summary.as_ref()) {
        Some((e, (f, rows))) => evobench_tables(e, Some((f.as_str(), rows.as_slice()))),
        None => v.tables.clone(),
    };
    let mut list = list;
    if let Some(only) = &props.only {
        let titles: Vec<String> = list.iter().map(|t| t.title.clone()).collect();
        list.retain(|t| t.title.eq_ignore_ascii_case(only));
        if list.is_empty() {
            return html! {
                <p class="notice" role="alert" data-testid="no-such-table">
                    { format!("This run has no table \"{only}\". Its tables: {}.", titles.join(", ")) }
                </p>
            };
        }
    }
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
    let workbook = {
        let (export, run) = (props.export.clone(), props.run);
        Callback::from(move |_: MouseEvent| export.start(run, ExportFile::Workbook, memory_limit_hook()))
    };
    html! {
        <div class="tables">
            <div class="toolbar">
                <input type="search" class="search" placeholder={v.search_hint.clone()} aria-label="Search the tables"
                    data-testid="table-search" {oninput} />
                if v.evobench.is_some() {
                    <span class="spacer"></span>
                    <button class="button" onclick={export(Export::StatisticsCsv)} data-testid="export-statistics-csv"
                        title="Every timing kind and percentile, as CSV">{ "⤓ statistics CSV" }</button>
                    <button class="button" onclick={workbook} data-testid="export-workbook"
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
            if v.evobench.as_ref().is_some_and(|e| e.runs.len() > 1) {
                <p class="muted" data-testid="compare-groups-hint">
                    { "To compare two groups of runs, open group A's logs and pick group B's with Compare with… (C): each path's time per run, tested (Welch's t-test or a permutation test, Benjamini–Hochberg, the minimum detectable effect), as longpole compare does." }
                </p>
            }
            if !v.cache_line.is_empty() {
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
