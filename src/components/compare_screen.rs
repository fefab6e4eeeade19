//! The compare screen: which runs of each side, when a change counts (the
//! thresholds, shown and adjustable), the warnings, the wall time's change
//! attributed, the paths aligned, and every key's change as a table
//! (sortable, searchable, exportable as CSV, JSON, and the JSON of
//! `longpole compare`).

use super::compare_flame::CompareFlame;
use super::compare_headline::CompareHeadline;
use super::compare_paths::ComparePaths;
use super::compare_timelines::CompareTimelinesView;
use super::remote_table::RemoteTable;
use crate::hooks::AnalysisWorker;
use crate::protocol::{CompareSettings, Request, RunId};
use crate::shared::Shared;
use crate::state::Action;
use longpole_core::report::compare::dur;
use longpole_core::view::compare::CompareView;
use longpole_core::view::compare_flame::DiffFlame;
use longpole_core::view::compare_timelines::CompareTimelines;
use longpole_core::view::table_page::TablePage;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Properties of [`CompareScreen`].
#[derive(Properties, PartialEq)]
pub struct CompareScreenProps {
    /// The comparison's run.
    pub run: RunId,
    /// What it found.
    pub view: Shared<CompareView>,
    /// The table's rows shown.
    pub rows: Shared<TablePage>,
    /// The representative runs' timelines.
    pub timelines: Option<Shared<CompareTimelines>>,
    /// The differential flame graphs, one per measure, where the format
    /// has one (none otherwise).
    pub flames: Shared<Vec<DiffFlame>>,
    /// The runs side A's and side B's files hold.
    pub runs: (usize, usize),
    /// The settings it was made with.
    pub settings: CompareSettings,
    /// How long it took, ms.
    pub elapsed_ms: f64,
    /// Why the last settings asked for were refused.
    pub refused: Option<String>,
    /// The worker.
    pub worker: AnalysisWorker,
    /// Actions.
    pub dispatch: Callback<Action>,
}

/// A side's run picker: every run, or one (from 1).
fn pick(id: &str, runs: usize, chosen: Option<u32>, node: &NodeRef) -> Html {
    html! {
        <select ref={node.clone()} data-testid={format!("compare-pick-{id}")} disabled={runs < 2}>
            <option value="" selected={chosen.is_none()}>{ format!("all {runs} run{}", if runs == 1 { "" } else { "s" }) }</option>
            { for (1..=runs as u32).map(|n| html! {
                <option value={n.to_string()} selected={chosen == Some(n)}>{ format!("run {n}") }</option>
            }) }
        </select>
    }
}

/// The settings the form says, or what in it is not a number.
fn read_form(
    pick_a: &NodeRef,
    pick_b: &NodeRef,
    min_delta: &NodeRef,
    min_relative: &NodeRef,
) -> Result<CompareSettings, String> {
    let select = |n: &NodeRef| n.cast::<HtmlSelectElement>().and_then(|s| s.value().parse().ok());
    let number = |n: &NodeRef, what: &str| -> Result<Option<f64>, String> {
        let text = n.cast::<HtmlInputElement>().map(|i| i.value()).unwrap_or_default();
        match text.trim() {
            "" => Ok(None),
            t => t
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .map(Some)
                .ok_or_else(|| format!("the {what} must be a number of zero or more, not \"{t}\"")),
        }
    };
    let relative = number(min_relative, "relative threshold")?.unwrap_or(5.0) / 100.0;
    Ok(CompareSettings {
        pick_a: select(pick_a),
        pick_b: select(pick_b),
        min_delta_ms: number(min_delta, "absolute threshold")?,
        min_relative: relative,
    })
}

/// The screen.
#[component]
pub fn CompareScreen(props: &CompareScreenProps) -> Html {
    let search = use_state(String::new);
    let form_error = use_state(|| None::<String>);
    let (pick_a, pick_b, min_delta, min_relative) = (use_node_ref(), use_node_ref(), use_node_ref(), use_node_ref());
    let v = &props.view;
    let s = &props.settings;
    let apply = {
        let (worker, run, form_error) = (props.worker.clone(), props.run, form_error.clone());
        let nodes = (pick_a.clone(), pick_b.clone(), min_delta.clone(), min_relative.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match read_form(&nodes.0, &nodes.1, &nodes.2, &nodes.3) {
                Ok(settings) => {
                    form_error.set(None);
                    worker.send(&Request::Recompare { run, settings }, &[]);
                }
                Err(message) => form_error.set(Some(message)),
            }
        })
    };
    let oninput = {
        let search = search.clone();
        Callback::from(move |e: InputEvent| {
            search.set(e.target_unchecked_into::<HtmlInputElement>().value().to_lowercase())
        })
    };
    let export = {
        let (worker, run) = (props.worker.clone(), props.run);
        Callback::from(move |_: MouseEvent| {
            worker.send(&Request::ExportComparison { run }, &[]);
        })
    };
    let sides = |names: &[String]| match names {
        [one] => one.clone(),
        many => format!("{} runs: {}", many.len(), many.join(", ")),
    };
    let noise = if v.tests {
        format!(
            "Several runs a side: a change counts past both thresholds and with q < 0.05 (Welch's t-test, or a permutation test for few runs or ties; Benjamini–Hochberg across keys). Run-wide speed factor B/A {:.3}, divided out before the tests.",
            v.speed_factor
        )
    } else {
        format!(
            "One run on a side: no p-values; a change counts only past both thresholds, below them it is within noise and not ranked. Speed factor B/A {:.3} (not divided out).",
            v.speed_factor
        )
    };
    html! {
        <section class="compare-screen" data-testid="compare-ready">
            <h2>{ "Comparison" }<span class="muted">{ format!(" · {} ms", props.elapsed_ms.round()) }</span></h2>
            <p data-testid="compare-side-names">
                <strong>{ "A (before): " }</strong>{ sides(&v.runs_a) }<br />
                <strong>{ "B (after): " }</strong>{ sides(&v.runs_b) }
            </p>
            <form class="compare-settings" onsubmit={apply} data-testid="compare-settings">
                <label>{ "A " }{ pick("a", props.runs.0, s.pick_a, &pick_a) }</label>
                <label>{ " B " }{ pick("b", props.runs.1, s.pick_b, &pick_b) }</label>
                <label title="A change smaller than this is within noise (default: 0.1% of A's wall time, at least 1 µs)">
                    { " min Δ (ms) " }
                    <input ref={min_delta} type="text" inputmode="decimal" size="16" data-testid="compare-min-delta"
                        value={s.min_delta_ms.map(|m| m.to_string()).unwrap_or_default()}
                        placeholder={format!("{} (default)", v.min_delta_ms)} />
                </label>
                <label title="A change smaller than this share of A's time is within noise">
                    { " min relative (%) " }
                    <input ref={min_relative} type="text" inputmode="decimal" size="5" data-testid="compare-min-relative"
                        value={(s.min_relative * 100.0).to_string()} />
                </label>
                { " " }<button class="button small" type="submit" data-testid="compare-apply">{ "Apply" }</button>
            </form>
            <p class="muted" data-testid="compare-noise">
                { format!("A change counts past {} and {}%. ", dur(v.min_delta_ms), v.min_relative * 100.0) }{ noise }
            </p>
            if let Some(e) = (*form_error).clone().or_else(|| props.refused.clone()) {
                <p class="notice error" role="alert" data-testid="compare-refused">{ e }</p>
            }
            if !v.warnings.is_empty() {
                <ul class="compare-warnings" data-testid="compare-warnings">
                    { for v.warnings.iter().map(|w| html! { <li>{ "Note: " }{ w }{ "." }</li> }) }
                </ul>
            }
            <CompareHeadline view={v.clone()} />
            <ComparePaths view={v.clone()} />
            if let Some(t) = props.timelines.clone() {
                <CompareTimelinesView timelines={t} run={props.run} worker={props.worker.clone()} />
            }
            if !props.flames.is_empty() {
                <CompareFlame flames={props.flames.clone()} min_delta_ms={v.min_delta_ms} min_relative={v.min_relative} />
            }
            <div class="tables-bar">
                <input type="search" class="search" placeholder="Search keys and statuses" aria-label="Search the keys"
                    data-testid="table-search" {oninput} />
                <span class="spacer"></span>
                <button class="button small" onclick={export} data-testid="export-compare-json"
                    title="The whole comparison, as longpole compare --format json writes it">{ "⤓ longpole compare JSON" }</button>
            </div>
            <RemoteTable run={props.run} table={v.table.clone()} rows={props.rows.clone()} search={(*search).clone()}
                worker={props.worker.clone()} dispatch={props.dispatch.clone()} />
        </section>
    }
}
