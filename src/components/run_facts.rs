//! The run's key numbers as machine-readable elements (hidden, so they cost
//! no layout): for tests and automation, present whichever tab is open.
//!
//! A path can have thousands of steps; their elements are added a few
//! thousand per frame, so drawing a big result is never one long task. The
//! `analysis-ready` marker appears when all of them are in the DOM.

use crate::shared::Shared;
use crate::shown::Shown;
use longpole_core::model::NANOS_PER_MS;
use yew::prelude::*;

/// Path steps added per frame.
const STEPS_PER_FRAME: usize = 2_000;

/// Properties of [`RunFacts`].
#[derive(Properties, PartialEq)]
pub struct RunFactsProps {
    /// The run.
    pub view: Shared<Shown>,
}

/// The facts.
#[component]
pub fn RunFacts(props: &RunFactsProps) -> Html {
    let v = &props.view;
    let total = v.critical_path.steps.len();
    let shown = use_state(|| total.min(STEPS_PER_FRAME));
    {
        let (shown, now) = (shown.clone(), *shown);
        use_effect_with((now, total), move |&(now, total)| {
            let frame = (now < total)
                .then(|| gloo_render::request_animation_frame(move |_| shown.set((now + STEPS_PER_FRAME).min(total))));
            // Dropping the request cancels it: a frame asked for a view no longer drawn never comes.
            move || drop(frame)
        });
    }
    let ms = |ns: i64| (ns / NANOS_PER_MS).to_string();
    html! {
        <>
        <div hidden=true data-testid="run-facts">
            <span data-testid="critical-path-total-ms">{ ms(v.critical_path.total) }</span>
            <span data-testid="blocking-chain-total-ms">{ ms(v.blocking_chain.total) }</span>
            <span data-testid="task-count-run">{ v.counts.run }</span>
            <span data-testid="task-count-copy">{ v.counts.copy }</span>
            <span data-testid="task-count-prepare">{ v.counts.prepare }</span>
            <span data-testid="lane-count">{ v.lanes.len() }</span>
            { for v.counts_by_hook.iter().map(|(hook, n)| html! { <span data-testid={hook.clone()}>{ n }</span> }) }
            <ol>
                { for v.critical_path.steps.iter().take(*shown).map(|s| html! {
                    <li data-testid="critical-path-task" data-kind={s.kind.clone()} data-uid={s.uid.clone()} />
                }) }
            </ol>
        </div>
        if *shown >= total {
            <span class="ready-mark" data-testid="analysis-ready" title="Every result is on the page">{ "✓ analysed" }</span>
        }
        </>
    }
}
