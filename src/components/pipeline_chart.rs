//! A StarRocks profile's pipelines as stacked bars of their driver time:
//! active, input empty, output full, precondition, pending finish and
//! schedule, on one scale, so where each pipeline waited shows at a glance.

use longpole_core::formats::starrocks_profile::analysis::PipelineBreakdown;
use longpole_core::numbers::duration_label;
use yew::prelude::*;

/// The parts of a pipeline's time, in drawing order, with their class.
const PARTS: [(&str, &str); 6] = [
    ("active", "part-active"),
    ("input empty", "part-input"),
    ("output full", "part-output"),
    ("precondition", "part-precondition"),
    ("pending finish", "part-pending"),
    ("schedule", "part-schedule"),
];

fn parts(p: &PipelineBreakdown) -> [i64; 6] {
    [p.active, p.input_empty, p.output_full, p.precondition, p.pending_finish, p.schedule]
}

/// Properties of [`PipelineChart`].
#[derive(Properties, PartialEq)]
pub struct PipelineChartProps {
    /// The pipelines.
    pub pipelines: Vec<PipelineBreakdown>,
}

/// The chart.
#[component]
pub fn PipelineChart(props: &PipelineChartProps) -> Html {
    let max = props.pipelines.iter().map(|p| parts(p).iter().map(|v| (*v).max(0)).sum::<i64>()).max().unwrap_or(0);
    if max == 0 {
        return html! {};
    }
    html! {
        <section class="pipeline-chart" data-testid="pipeline-chart" aria-label="Time by pipeline">
            <h3>{ "Where each pipeline's driver time went" }</h3>
            <p class="legend">{ for PARTS.iter().map(|(name, class)| html! {
                <span><svg class="swatch" viewBox="0 0 10 10"><rect class={*class} width="10" height="10" /></svg>{ *name }</span>
            }) }</p>
            { for props.pipelines.iter().map(|p| {
                let values = parts(p);
                html! {
                    <div class="pipeline-row" data-testid="pipeline-row">
                        <span class="name" title={p.pipeline.clone()}>{ &p.pipeline }</span>
                        <svg class="bar" viewBox="0 0 1000 12" preserveAspectRatio="none" role="img"
                            aria-label={format!("{}: {}", p.pipeline, duration_label(p.total))}>
                            { for values.iter().zip(PARTS).scan(0.0f64, |x, (v, (name, class))| {
                                let w = (*v).max(0) as f64 * 1000.0 / max as f64;
                                let at = *x;
                                *x += w;
                                Some((at, w, *v, name, class))
                            }).filter(|(_, w, ..)| *w > 0.0).map(|(at, w, v, name, class)| html! {
                                <rect class={class} x={format!("{at:.2}")} y="0" width={format!("{w:.2}")} height="12">
                                    <title>{ format!("{name}: {}", duration_label(v)) }</title>
                                </rect>
                            }) }
                        </svg>
                        <span class="total">{ duration_label(p.total) }</span>
                    </div>
                }
            }) }
        </section>
    }
}
