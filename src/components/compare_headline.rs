//! The wall time's change between the two sides, split into its three
//! parts (which add up to it), the what-if, what matched, and the noise
//! settings.

use longpole_core::report::compare::{dur, percent, signed};
use longpole_core::view::compare::CompareView;
use yew::prelude::*;

/// Properties of [`CompareHeadline`].
#[derive(Properties, PartialEq)]
pub struct CompareHeadlineProps {
    /// The comparison.
    pub view: crate::shared::Shared<CompareView>,
}

/// A bar's full width, px.
const BAR: f64 = 160.0;

/// A bar of `ms` against the `largest` part (an SVG: the page's policy
/// allows no inline style).
fn bar(ms: f64, largest: f64, class: &'static str) -> Html {
    let share = if largest > 0.0 { (ms.abs() / largest).min(1.0) } else { 0.0 };
    html! {
        <svg class="part-bar" width={BAR.to_string()} height="10" aria-hidden="true">
            <rect class={class} width={format!("{:.1}", share * BAR)} height="10" />
        </svg>
    }
}

/// The headline.
#[component]
pub fn CompareHeadline(props: &CompareHeadlineProps) -> Html {
    let v = &props.view;
    let largest = v.parts.iter().map(|p| p.ms.abs()).fold(v.wall_delta_ms.abs(), f64::max);
    let sum: f64 = v.parts.iter().map(|p| p.ms).sum();
    let direction = |ms: f64| if ms > 0.0 { "slower" } else { "faster" };
    let relative = (v.wall_a_ms > 0.0).then(|| v.wall_delta_ms / v.wall_a_ms);
    let several = v.runs_a.len() > 1 || v.runs_b.len() > 1;
    html! {
        <section class="compare-headline" data-testid="compare-headline">
            <p class="compare-wall" data-testid="compare-wall" data-delta-ms={v.wall_delta_ms.to_string()}>
                { "Wall time " }{ dur(v.wall_a_ms) }{ " → " }{ dur(v.wall_b_ms) }{ " " }
                <strong class={direction(v.wall_delta_ms)}>{ signed(v.wall_delta_ms) }</strong>
                { format!(" ({})", percent(relative)) }
                if several {
                    <span class="muted">{ format!(" — paths and wall time of the median runs, {} and {}", v.representative_a, v.representative_b) }</span>
                }
            </p>
            <table class="compare-parts">
                <tbody>
                    { for v.parts.iter().map(|p| html! {
                        <tr data-testid={format!("compare-part-{}", p.id)} data-ms={p.ms.to_string()}>
                            <td class="num">{ signed(p.ms) }</td>
                            <td>{ bar(p.ms, largest, direction(p.ms)) }</td>
                            <td>{ &p.label }</td>
                        </tr>
                    }) }
                    <tr class="sum" data-testid="compare-part-sum" data-ms={sum.to_string()}>
                        <td class="num">{ signed(sum) }</td>
                        <td></td>
                        <td>{ "the change in wall time: the parts add up to it" }</td>
                    </tr>
                </tbody>
            </table>
            <p data-testid="compare-what-if" data-ms={v.explained_ms.to_string()}>
                { "What-if: B's graph replayed with A's durations takes " }{ dur(v.what_if_wall_ms) }
                { ", so the durations alone explain " }<strong>{ signed(v.explained_ms) }</strong>{ " of the change." }
            </p>
            <p class="muted" data-testid="compare-matched">
                { format!(
                    "Matched {} keys ({} by their neighbours); {} only in A, {} only in B. Over matched keys only: {} → {} ({}).",
                    v.matched, v.matched_by_structure, v.only_a, v.only_b,
                    dur(v.matched_totals_ms.0), dur(v.matched_totals_ms.1), signed(v.matched_totals_ms.1 - v.matched_totals_ms.0)
                ) }
            </p>
        </section>
    }
}
