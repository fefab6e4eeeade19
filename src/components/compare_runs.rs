//! Choosing two groups of evobench runs (say, two commits) and a statistic,
//! and asking the worker to compare them path by path.

use crate::hooks::AnalysisWorker;
use crate::protocol::{Request, RunId};
use longpole_core::formats::evobench::view::RunRow;
use longpole_core::formats::evobench::TimingKind;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// Properties of [`CompareRuns`].
#[derive(Properties, PartialEq)]
pub struct CompareRunsProps {
    /// The run (the analysis).
    pub run: RunId,
    /// The evobench runs.
    pub runs: Vec<RunRow>,
    /// The worker.
    pub worker: AnalysisWorker,
    /// Called with the timing kind compared, when a comparison is asked for.
    pub on_compare: Callback<TimingKind>,
}

/// The groups: the first half of the runs in A, the rest in B, to start.
fn initial_groups(n: usize) -> Vec<bool> {
    (0..n).map(|i| i >= n.div_ceil(2).min(n.saturating_sub(1)).max(1)).collect()
}

/// The form.
#[component]
pub fn CompareRuns(props: &CompareRunsProps) -> Html {
    let n = props.runs.len();
    let in_b = use_state(|| initial_groups(n));
    let kind = use_state(|| 0u8);
    let field = use_state(|| "mean".to_owned());
    let toggle = |i: usize| {
        let in_b = in_b.clone();
        Callback::from(move |_: Event| {
            let mut g = (*in_b).clone();
            if let Some(x) = g.get_mut(i) {
                *x = !*x;
            }
            in_b.set(g);
        })
    };
    let on_kind = {
        let kind = kind.clone();
        Callback::from(move |e: Event| {
            kind.set(e.target_unchecked_into::<HtmlSelectElement>().value().parse().unwrap_or(0))
        })
    };
    let on_field = {
        let field = field.clone();
        Callback::from(move |e: Event| field.set(e.target_unchecked_into::<HtmlSelectElement>().value()))
    };
    let a: Vec<u32> = (0..n as u32).filter(|&i| !in_b[i as usize]).collect();
    let b: Vec<u32> = (0..n as u32).filter(|&i| in_b[i as usize]).collect();
    let ready = !a.is_empty() && !b.is_empty();
    let compare = {
        let (worker, run, on_compare, kind, field) =
            (props.worker.clone(), props.run, props.on_compare.clone(), *kind, (*field).clone());
        let (a, b) = (a.clone(), b.clone());
        Callback::from(move |_: MouseEvent| {
            worker.send(&Request::Compare { run, a: a.clone(), b: b.clone(), kind, field: field.clone() }, &[]);
            on_compare.emit(TimingKind::ALL[usize::from(kind).min(3)]);
        })
    };
    html! {
        <section class="compare" data-testid="compare-runs">
            <h3>{ "Compare two groups of runs" }</h3>
            <p class="muted">{ "Welch's t-test per path on each run's statistic, with its 95% interval; tick the runs of group B." }</p>
            <ul class="groups">
                { for props.runs.iter().enumerate().map(|(i, r)| html! {
                    <li>
                        <label>
                            <input type="checkbox" checked={in_b[i]} onchange={toggle(i)} data-testid={format!("compare-b-{i}")} />
                            { format!(" {} · {}", if in_b[i] { "B" } else { "A" }, r.name) }
                        </label>
                    </li>
                }) }
            </ul>
            <label>{ "timing " }
                <select onchange={on_kind} data-testid="compare-kind">
                    { for TimingKind::ALL.iter().enumerate().map(|(i, k)| html! { <option value={i.to_string()} selected={i == usize::from(*kind)}>{ k.title() }</option> }) }
                </select>
            </label>
            <label>{ " statistic " }
                <select onchange={on_field} data-testid="compare-field">
                    { for ["mean", "median", "p90", "p99", "sum", "count"].iter().map(|f| html! { <option value={*f} selected={*f == field.as_str()}>{ *f }</option> }) }
                </select>
            </label>
            { " " }
            <button class="button" onclick={compare} disabled={!ready} data-testid="compare-go">{ "Compare" }</button>
        </section>
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs_start_split_in_two_halves() {
        assert_eq!(super::initial_groups(2), [false, true]);
        assert_eq!(super::initial_groups(4), [false, false, true, true]);
        assert_eq!(super::initial_groups(5), [false, false, false, true, true]);
    }
}
