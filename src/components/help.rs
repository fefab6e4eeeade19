//! The keyboard help overlay.

use yew::prelude::*;

/// Properties of [`Help`].
#[derive(Properties, PartialEq)]
pub struct HelpProps {
    /// Close it.
    pub on_close: Callback<()>,
}

const KEYS: &[(&str, &str)] = &[
    ("O", "open files"),
    ("L", "copy a link to this view"),
    ("C", "compare this run (side A) with other files (side B)"),
    ("V", "list the levers (or the path) on the left"),
    ("[ ]", "the selected task's speed-up, 10 % less or more"),
    ("?", "show or hide this help"),
    ("Esc", "close this help, or cancel reading"),
];

/// The definitions of the replay, slack and drag, in full.
const DOC: &str = "https://github.com/longpole/longpole/blob/main/docs/whatif.md";

/// The help overlay.
#[component]
pub fn Help(props: &HelpProps) -> Html {
    let on_close = props.on_close.reform(|_: MouseEvent| ());
    html! {
        <div class="overlay" role="dialog" aria-label="Keyboard shortcuts" data-testid="help">
            <div class="overlay-box">
                <h2>{ "Keyboard shortcuts" }</h2>
                <dl class="keys">
                    { for KEYS.iter().map(|(k, what)| html! { <><dt><kbd>{ *k }</kbd></dt><dd>{ *what }</dd></> }) }
                </dl>
                <h3 id="what-if">{ "Levers and the what-if" }</h3>
                <dl class="definitions" data-testid="definitions">
                    <dt>{ "replay" }</dt>
                    <dd>{ "The run's schedule played again with some tasks' durations changed: each task starts as long after the end of the last of its dependencies as it did in the run." }</dd>
                    <dt>{ "slack" }</dt>
                    <dd>{ "How much later a task could end without the run ending later. 0 on the critical path." }</dd>
                    <dt>{ "drag" }</dt>
                    <dd>{ "The wall time saved if the task took no time: fixing it saves at most this, since another chain becomes the long pole." }</dd>
                    <dt>{ "next pole" }</dt>
                    <dd>{ "The first task of the new path, once this one takes no time, that was not on the path before." }</dd>
                </dl>
                <p>{ "Select a task and move its speed-up slider: the run is replayed with the task that much faster, and the timeline shows the new path, the old places as faint outlines. " }
                    <a href={DOC} target="_blank" rel="noopener">{ "More in docs/whatif.md" }</a></p>
                <p>{ "Files are read in your browser, in a background worker: nothing is uploaded." }</p>
                <button class="button" onclick={on_close}>{ "Close" }</button>
            </div>
        </div>
    }
}
