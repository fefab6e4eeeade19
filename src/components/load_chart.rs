//! MAL traces' server load under the timeline, on its time window:
//! instructions running at once, RSS and CPU load, each a step line scaled
//! to its own maximum (their units differ; the legend gives each maximum).

use super::heap_chart::{step_path, H, W};
use crate::format::group;
use longpole_core::model::Nanos;
use longpole_core::view::Series;
use yew::prelude::*;

/// Properties of [`LoadChart`].
#[derive(Properties, PartialEq)]
pub struct LoadChartProps {
    /// The figures.
    pub series: Vec<Series>,
    /// The time window shown, ns (the timeline's).
    pub window: (Nanos, Nanos),
}

/// The load chart; nothing when there is no series.
#[component]
pub fn LoadChart(props: &LoadChartProps) -> Html {
    if props.series.is_empty() {
        return html! {};
    }
    html! {
        <section class="heap-chart" data-testid="load-chart" aria-label="Server load over time">
            <div class="heap-legend">
                <h3>{ "Load" }</h3>
                { for props.series.iter().enumerate().map(|(i, s)| html! {
                    <p class={format!("heap-{i}")} title={format!("{} samples, each line on its own scale", group(s.samples))}>
                        <span class="swatch"></span>
                        { format!("{} · max {}", s.name, group(s.max.max(0) as u64)) }
                    </p>
                }) }
            </div>
            <svg class="heap-plot" viewBox={format!("0 0 {W} {H}")} preserveAspectRatio="none" role="img"
                aria-label="running instructions, memory and CPU load over the time window">
                { for props.series.iter().enumerate().map(|(i, s)| html! {
                    <path class={format!("heap-line heap-{i}")}
                        d={step_path(&s.points, props.window, |v| v as f64, s.max as f64)}
                        vector-effect="non-scaling-stroke" />
                }) }
            </svg>
        </section>
    }
}
