//! The selected task's what-if, in the details panel: its slack and drag,
//! and a speed-up slider (0–100 %). Moving it asks the worker to replay the
//! run with the task that much faster; the wall time before and after and
//! what it saves show here, the new path on the timeline.

use crate::shared::Shared;
use crate::state::Action;
use longpole_core::numbers::duration_label;
use longpole_core::view::what_if::{LeverRow, WhatIfView};
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Properties of [`WhatIfPanel`].
#[derive(Properties, PartialEq)]
pub struct WhatIfPanelProps {
    /// The selected task.
    pub task: u32,
    /// Its slack and drag, once the worker sent them.
    pub lever: Option<LeverRow>,
    /// Its speed-up, percent.
    pub speedup: Option<u8>,
    /// The replay with it, once the worker sent it.
    pub what_if: Option<Shared<WhatIfView>>,
    /// Actions.
    pub dispatch: Callback<Action>,
}

/// A time with its exact nanoseconds beside, for tests and hosts.
fn ns(testid: &'static str, n: i64) -> Html {
    html! { <strong data-testid={testid} data-ns={n.to_string()}>{ duration_label(n) }</strong> }
}

/// The what-if panel.
#[component]
pub fn WhatIfPanel(props: &WhatIfPanelProps) -> Html {
    let Some(l) = props.lever.as_ref().filter(|l| l.id == props.task) else {
        return html! {};
    };
    let speedup = props.speedup.unwrap_or(0);
    let oninput = props.dispatch.reform(|e: InputEvent| {
        let input: HtmlInputElement = e.target_unchecked_into();
        Action::SpeedUp(input.value().parse::<u8>().ok())
    });
    let shown = props.what_if.as_ref().filter(|w| w.task == props.task && props.speedup == Some(w.speedup));
    html! {
        <section class="what-if" data-testid="what-if">
            <h4>{ "What if it were faster?" }</h4>
            <dl>
                <dt title="how much later it could end without the run ending later">{ "slack" }</dt>
                <dd>{ ns("what-if-slack", l.slack) }</dd>
                <dt title="the wall time saved if it took no time">{ "drag" }</dt>
                <dd>{ ns("what-if-drag", l.drag) }</dd>
            </dl>
            <label class="slider">
                <span>{ "speed-up " }<strong data-testid="what-if-speedup">{ format!("{speedup} %") }</strong></span>
                <input type="range" min="0" max="100" step="1" value={speedup.to_string()} {oninput}
                    aria-label="Speed-up of the selected task, percent" data-testid="what-if-slider" />
            </label>
            if let Some(w) = shown {
                <p class="what-if-result" data-testid="what-if-result" data-speedup={w.speedup.to_string()}>
                    { "took " }{ duration_label(w.before) }{ " → " }{ duration_label(w.after) }<br />
                    { "wall " }{ ns("what-if-wall", w.wall) }{ " → " }{ ns("what-if-new-wall", w.what_if_wall) }<br />
                    { "saved " }{ ns("what-if-saved", w.saved) }
                </p>
            } else if speedup > 0 {
                <p class="muted">{ "Replaying…" }</p>
            }
        </section>
    }
}
