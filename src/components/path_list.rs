//! The left panel: the path (or, where tasks have no dependencies, the
//! longest spans) as a list, longest steps standing out, with a note on
//! the long pole where the format has one; a click selects the task
//! everywhere.

use crate::state::Action;
use longpole_core::numbers::duration_label;
use longpole_core::view::PathView;
use yew::prelude::*;

/// Properties of [`PathList`].
#[derive(Properties, PartialEq)]
pub struct PathListProps {
    /// The path shown.
    pub path: PathView,
    /// Its title (`Critical path`, `Blocking chain`, `Longest spans`).
    pub title: AttrValue,
    /// What the long pole waited on, in plain words (a StarRocks scan's remote reads).
    #[prop_or_default]
    pub note: Option<AttrValue>,
    /// The selected task.
    pub selected: Option<u32>,
    /// Actions.
    pub dispatch: Callback<Action>,
}

/// Steps drawn before "show all": a path of thousands of steps stays quick.
const FIRST_STEPS: usize = 300;

/// The path list.
#[component]
pub fn PathList(props: &PathListProps) -> Html {
    let all = use_state(|| false);
    let longest = props.path.steps.iter().filter_map(|s| Some(s.end? - s.start?)).max().unwrap_or(0).max(1);
    let title = props.title.clone();
    html! {
        <nav class="path-list" aria-label={title.clone()}>
            <h2>{ title }
                if props.path.total > 0 {
                    <span class="total">{ duration_label(props.path.total) }</span>
                }
            </h2>
            if let Some(note) = &props.note {
                <p class="path-note" data-testid="path-note">{ note }</p>
            }
            <ol>
                { for props.path.steps.iter().take(if *all { usize::MAX } else { FIRST_STEPS }).map(|s| {
                    let d = match (s.start, s.end) { (Some(a), Some(b)) => b - a, _ => 0 };
                    let id = s.id;
                    let onclick = props.dispatch.reform(move |_: MouseEvent| Action::Select(Some(id)));
                    let heavy = d * 4 >= longest;
                    html! {
                        <li class={classes!(heavy.then_some("heavy"), (props.selected == Some(id)).then_some("selected"))}>
                            if s.gap > 0 {
                                <span class="gap">{ format!("waited {}", duration_label(s.gap)) }</span>
                            }
                            <button class="step" {onclick} title={s.label.clone()}>
                                <span class="dur">{ duration_label(d) }</span>
                                <span class="type">{ &s.task_type }</span>
                                <span class="name">{ &s.label }</span>
                                <span class="host">{ &s.lane }</span>
                            </button>
                        </li>
                    }
                }) }
            </ol>
            if !*all && props.path.steps.len() > FIRST_STEPS {
                <button class="button small" onclick={let all = all.clone(); Callback::from(move |_: MouseEvent| all.set(true))}>
                    { format!("show all {} steps", props.path.steps.len()) }
                </button>
            }
        </nav>
    }
}
