//! A Bazel profile's summary under the timeline: the suggestions in plain
//! words, then the actions running over the time window against the
//! evaluator threads that ran them (one scale), with the figures behind
//! them: the lower bound on `--jobs`, the actions at once (each slice
//! lasting its own `dur`), garbage collection when the profile records it.

use super::heap_chart::{step_path, H, W};
use crate::format::group;
use longpole_core::formats::chrome_trace::bazel::view::BazelView;
use longpole_core::model::Nanos;
use longpole_core::numbers::duration_label;
use yew::prelude::*;

/// Properties of [`BazelSummary`].
#[derive(Properties, PartialEq)]
pub struct BazelSummaryProps {
    /// The summary.
    pub view: BazelView,
    /// The time window shown, ns (the timeline's).
    pub window: (Nanos, Nanos),
}

/// The suggestions and the actions-running chart.
#[component]
pub fn BazelSummary(props: &BazelSummaryProps) -> Html {
    let (v, s) = (&props.view, &props.view.summary);
    let jobs = s.cores.used.map_or(0, i64::from);
    let scale = jobs.max(s.most_running) as f64;
    let jobs_line = format!("M0 {:.1}H{W}", H - jobs as f64 / scale.max(1.0) * H);
    let share = s.execution.filter(|&e| e > 0).map(|e| s.critical_path as f64 * 100.0 / e as f64);
    html! {
        <>
            if !v.suggestions.is_empty() {
                <section class="hints" data-testid="bazel-suggestions">
                    <h3>{ "Suggestions" }</h3>
                    <ul>{ for v.suggestions.iter().map(|x| html! { <li data-id={x.id.clone()}><strong>{ &x.title }</strong>{ ": " }{ &x.text }</li> }) }</ul>
                </section>
            }
            <p class="muted" data-testid="bazel-facts">
                { format!("Critical path {}", duration_label(s.critical_path)) }
                if let Some(p) = share {
                    { format!(" ({p:.1}% of the execution phase)") }
                }
                if let Some(bound) = s.cores.jobs_at_least {
                    { format!(" · --jobs at least {bound}") }
                }
                if !s.running.is_empty() {
                    { format!(" · at most {} actions at once", s.most_running) }
                }
                if s.gc.recorded {
                    { format!(" · GC {} in {} pauses ({} on the critical path)", duration_label(s.gc.total),
                        group(s.gc.count), duration_label(s.gc.on_path)) }
                } else {
                    { " · no garbage collection recorded (no Garbage Collector thread)" }
                }
                if v.unmatched > 0 {
                    { format!(" · {} critical path components without their action (on the Critical Path lane)", v.unmatched) }
                }
            </p>
            if let Some(r) = &v.running {
                <section class="heap-chart" data-testid="bazel-load" aria-label="Actions running over time">
                    <div class="heap-legend">
                        <h3>{ "Actions running" }</h3>
                        <p class="heap-0"><span class="swatch"></span>{ format!("actions · max {}", r.max) }</p>
                        if jobs > 0 {
                            <p class="heap-1"><span class="swatch"></span>{ format!("evaluator threads · {jobs}") }</p>
                        }
                    </div>
                    <svg class="heap-plot" viewBox={format!("0 0 {W} {H}")} preserveAspectRatio="none" role="img"
                        aria-label="actions running and the evaluator threads over the time window">
                        <path class="heap-line heap-0" d={step_path(&r.points, props.window, |x| x as f64, scale)} vector-effect="non-scaling-stroke" />
                        if jobs > 0 {
                            <path class="heap-line heap-1" d={jobs_line} vector-effect="non-scaling-stroke" />
                        }
                    </svg>
                </section>
            }
        </>
    }
}
