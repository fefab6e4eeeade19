//! The two critical paths side by side, aligned: each step on A's path
//! only, B's only or both, with its change; a step whose slack fell to
//! zero is flagged newly critical.

use longpole_core::report::compare::{dur, signed};
use longpole_core::view::compare::{CompareView, OnPath, PathStep};
use yew::prelude::*;

/// Properties of [`ComparePaths`].
#[derive(Properties, PartialEq)]
pub struct ComparePathsProps {
    /// The comparison.
    pub view: crate::shared::Shared<CompareView>,
}

/// Steps drawn at first, and added by each "show more".
const PAGE: usize = 300;

/// One side's cell of a step: its key and time, when on that side's path.
fn cell(s: &PathStep, ms: Option<f64>, critical: bool) -> Html {
    match ms {
        Some(ms) => html! {
            <td>
                <span class="key">{ &s.key }</span>{ " " }<span class="muted">{ dur(ms) }</span>
                if critical {
                    <>{ " " }<span class="badge" data-testid="newly-critical">{ "newly critical" }</span></>
                }
            </td>
        },
        None => html! { <td class="absent"></td> },
    }
}

/// The aligned paths.
#[component]
pub fn ComparePaths(props: &ComparePathsProps) -> Html {
    let shown = use_state(|| PAGE);
    let v = &props.view;
    let on = |s: &PathStep| match s.on {
        OnPath::A => "a",
        OnPath::B => "b",
        OnPath::Both => "both",
    };
    html! {
        <section class="compare-paths" data-testid="compare-paths">
            <h3>{ format!("Critical paths: {} steps in A, {} in B", v.path_a_len, v.path_b_len) }</h3>
            if v.path.is_empty() {
                <p class="muted">{ "None: the runs record no dependencies." }</p>
            } else {
                <table class="data compare-path">
                    <thead><tr><th>{ "A (before)" }</th><th>{ "B (after)" }</th><th>{ "Δ" }</th></tr></thead>
                    <tbody>
                        { for v.path.iter().take(*shown).map(|s| html! {
                            <tr class={format!("on-{}", on(s))} data-testid="compare-step" data-on={on(s)} data-key={s.key.clone()}>
                                { cell(s, s.a_ms, false) }
                                { cell(s, s.b_ms, s.newly_critical) }
                                <td class="num">{ signed(s.delta_ms) }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
                if v.path.len() > *shown {
                    <button class="button small" onclick={let shown = shown.clone(); Callback::from(move |_: MouseEvent| shown.set(*shown + PAGE))}>
                        { format!("show {} more of {}", PAGE.min(v.path.len() - *shown), v.path.len() - *shown) }
                    </button>
                }
            }
        </section>
    }
}
