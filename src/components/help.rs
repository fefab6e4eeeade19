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
    ("?", "show or hide this help"),
    ("Esc", "close this help, or cancel reading"),
];

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
                <p>{ "Files are read in your browser, in a background worker: nothing is uploaded." }</p>
                <button class="button" onclick={on_close}>{ "Close" }</button>
            </div>
        </div>
    }
}
