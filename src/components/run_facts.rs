//! The run's key numbers as machine-readable elements (hidden, so they cost
//! no layout): for tests and automation, present whichever tab is open.
//!
//! A path can have thousands of steps; their elements are added a few
//! thousand per task, so drawing a big result is never one long task. Each
//! task's steps are a component of their own ([`PathSteps`]), which later
//! tasks leave as they are: a task costs its own steps, not all shown so far.
//! The `analysis-ready` marker appears when all of them are in the DOM.

use crate::shared::Shared;
use crate::shown::Shown;
use longpole_core::model::NANOS_PER_MS;
use yew::prelude::*;

/// Path steps added per task.
const STEPS_PER_TASK: usize = 4_000;

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
    let shown = use_state(|| total.min(STEPS_PER_TASK));
    {
        let (shown, now) = (shown.clone(), *shown);
        use_effect_with((now, total), move |&(now, total)| {
            // The next steps in a task of their own, as soon as the page is
            // free: between tasks the browser paints and takes input, and
            // nothing waits for a frame that the hidden steps do not need.
            let next = (now < total)
                .then(|| gloo_timers::callback::Timeout::new(0, move || shown.set((now + STEPS_PER_TASK).min(total))));
            // Dropping the timeout cancels it: steps of a view no longer drawn never come.
            move || drop(next)
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
                { for (0..*shown).step_by(STEPS_PER_TASK).map(|from| html! {
                    <PathSteps key={from} view={v.clone()} {from} to={(from + STEPS_PER_TASK).min(*shown)} />
                }) }
            </ol>
        </div>
        if *shown >= total {
            <span class="ready-mark" data-testid="analysis-ready" title="Every result is on the page">{ "✓ analysed" }</span>
        }
        </>
    }
}

/// Properties of [`PathSteps`].
#[derive(Properties, PartialEq)]
struct PathStepsProps {
    /// The run.
    view: Shared<Shown>,
    /// The first step drawn.
    from: usize,
    /// The step past the last drawn.
    to: usize,
}

/// The path's steps `from..to`, one element each.
#[component]
fn PathSteps(props: &PathStepsProps) -> Html {
    let steps = props.view.critical_path.steps.get(props.from..props.to).unwrap_or_default();
    html! {
        <>{ for steps.iter().map(|s| html! {
            <li data-testid="critical-path-task" data-kind={s.kind.clone()} data-uid={s.uid.clone()} />
        }) }</>
    }
}
