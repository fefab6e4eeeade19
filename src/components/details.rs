//! The right panel: the selected task, its dependencies and dependants as
//! links, and whether it is on the path.

use crate::format::bytes;
use crate::shared::Shared;
use crate::state::Action;
use longpole_core::numbers::{duration_label, ms};
use longpole_core::view::{TaskDetails, TaskRow};
use yew::prelude::*;

/// Properties of [`Details`].
#[derive(Properties, PartialEq)]
pub struct DetailsProps {
    /// The details, once known.
    pub details: Option<Shared<TaskDetails>>,
    /// The selected task.
    pub selected: Option<u32>,
    /// Is it on ya's critical path?
    pub on_critical_path: bool,
    /// Is it on the blocking chain?
    pub on_blocking_chain: bool,
    /// The run's first time, ns (times are shown from it).
    pub origin: i64,
    /// Actions.
    pub dispatch: Callback<Action>,
    /// What follows the task's facts (its what-if).
    #[prop_or_default]
    pub children: Html,
}

fn links(rows: &[TaskRow], total: usize, dispatch: &Callback<Action>) -> Html {
    if rows.is_empty() {
        return html! { <p class="muted">{ "none" }</p> };
    }
    html! {
        <ul class="links">
            { for rows.iter().map(|r| {
                let id = r.id;
                let onclick = dispatch.reform(move |_: MouseEvent| Action::Select(Some(id)));
                html! { <li><button class="link" {onclick} title={r.label.clone()}>{ format!("{} {}", r.task_type, r.label) }</button></li> }
            }) }
            if total > rows.len() {
                <li class="muted">{ format!("… and {} more", total - rows.len()) }</li>
            }
        </ul>
    }
}

/// The details panel.
#[component]
pub fn Details(props: &DetailsProps) -> Html {
    let Some(d) = props.details.as_ref().filter(|d| Some(d.task.id) == props.selected) else {
        return html! {
            <aside class="details" data-testid="details">
                <p class="muted">{ if props.selected.is_some() { "Loading…" } else { "Click a task to see its details." } }</p>
            </aside>
        };
    };
    let t = &d.task;
    let when = |x: Option<i64>| {
        x.map_or_else(|| "unknown".to_owned(), |x| format!("+{} ({} ms)", duration_label(x - props.origin), ms(x)))
    };
    let close = props.dispatch.reform(|_: MouseEvent| Action::Select(None));
    html! {
        <aside class="details" data-testid="details">
            <header>
                <span class="kind">{ &t.task_type }</span>
                <button class="close" onclick={close} title="Clear the selection (Esc)">{ "×" }</button>
            </header>
            <h3 data-testid="details-uid">{ &t.uid }</h3>
            if let Some(name) = &d.name {
                <p class="name">{ name }</p>
            }
            <dl>
                <dt>{ "host" }</dt><dd>{ &t.lane }</dd>
                if let Some(from) = &t.from_lane {
                    <dt>{ "from" }</dt><dd>{ from }</dd>
                }
                <dt>{ "started" }</dt><dd>{ when(t.start) }</dd>
                <dt>{ "finished" }</dt><dd>{ when(t.end) }</dd>
                <dt>{ "took" }</dt><dd data-testid="details-duration">{ match (t.start, t.end) { (Some(a), Some(b)) => duration_label(b - a), _ => "unknown".to_owned() } }</dd>
                if let Some(b) = t.bytes {
                    <dt>{ "size" }</dt><dd>{ bytes(b) }</dd>
                }
                <dt>{ "critical path" }</dt><dd data-testid="details-on-path">{ if props.on_critical_path { "on it ✓" } else { "no" } }</dd>
                <dt>{ "blocking chain" }</dt><dd>{ if props.on_blocking_chain { "on it ✓" } else { "no" } }</dd>
                if d.cached {
                    <dt>{ "cache" }</dt><dd>{ "result from cache" }</dd>
                }
                if d.failed {
                    <dt>{ "status" }</dt><dd class="sev-error">{ "failed" }</dd>
                }
                if let Some(p) = &d.platform {
                    <dt>{ "platform" }</dt><dd>{ p }</dd>
                }
            </dl>
            { props.children.clone() }
            <h4>{ format!("Waited for ({})", d.dep_count) }</h4>
            { links(&d.deps, d.dep_count, &props.dispatch) }
            <h4>{ format!("Needed by ({})", d.dependant_count) }</h4>
            { links(&d.dependants, d.dependant_count, &props.dispatch) }
        </aside>
    }
}
