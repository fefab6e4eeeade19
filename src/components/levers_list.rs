//! The left panel's other list: the levers, the tasks whose fixing would
//! save the most wall time (as `longpole analyze` ranks them), each with
//! its drag as a bar, its slack, what halving it saves and the next pole;
//! a click selects the task, for its speed-up slider (docs/whatif.md).

use crate::shared::Shared;
use crate::state::Action;
use longpole_core::numbers::duration_label;
use longpole_core::view::what_if::LeverRow;
use yew::prelude::*;

/// Properties of [`LeversList`].
#[derive(Properties, PartialEq)]
pub struct LeversListProps {
    /// The levers, once the worker sent them.
    pub levers: Option<Shared<Vec<LeverRow>>>,
    /// The selected task.
    pub selected: Option<u32>,
    /// Actions.
    pub dispatch: Callback<Action>,
}

/// The levers list.
#[component]
pub fn LeversList(props: &LeversListProps) -> Html {
    let Some(levers) = &props.levers else {
        return html! { <nav class="path-list levers" aria-label="Levers"><p class="muted">{ "Replaying the run…" }</p></nav> };
    };
    let largest = levers.iter().map(|l| l.drag).max().unwrap_or(0).max(1);
    html! {
        <nav class="path-list levers" aria-label="Levers" data-testid="levers">
            <h2>{ "Levers" }<button class="link help-link" onclick={props.dispatch.reform(|_: MouseEvent| Action::ToggleHelp)}
                title="What drag, slack and the replay mean (?)" data-testid="levers-help">{ "what is drag?" }</button></h2>
            <p class="path-note">{ "The wall time saved if a task took no time (drag), largest first. Click one to try a speed-up." }</p>
            if levers.is_empty() {
                <p class="muted">{ "No task here can shorten the run." }</p>
            }
            <ol>
                { for levers.iter().map(|l| {
                    let id = l.id;
                    let onclick = props.dispatch.reform(move |_: MouseEvent| Action::Select(Some(id)));
                    let width = format!("{:.1}", l.drag as f64 * 100.0 / largest as f64);
                    let next = l.next_pole.as_ref().map(|n| format!(" · then {n}")).unwrap_or_default();
                    html! {
                        <li class={classes!((props.selected == Some(id)).then_some("selected"))}>
                            <button class="step lever" {onclick} title={l.label.clone()} data-testid="lever" data-task={id.to_string()}>
                                <span class="dur" title="drag: the wall time saved if it took no time">{ duration_label(l.drag) }</span>
                                <span class="name">{ &l.label }</span>
                                <svg class="drag-bar" viewBox="0 0 100 4" preserveAspectRatio="none" aria-hidden="true"><rect {width} height="4" /></svg>
                                <span class="host">{ format!("slack {} · halved saves {}{next}", duration_label(l.slack), duration_label(l.saved_if_halved)) }</span>
                            </button>
                        </li>
                    }
                }) }
            </ol>
        </nav>
    }
}
