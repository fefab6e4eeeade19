//! A run that failed: what went wrong, and that another file can be opened.

use yew::prelude::*;

/// Properties of [`ErrorPanel`].
#[derive(Properties, PartialEq)]
pub struct ErrorPanelProps {
    /// The message (it names the file, the position and the offending bytes).
    pub message: String,
}

/// The error panel.
#[component]
pub fn ErrorPanel(props: &ErrorPanelProps) -> Html {
    html! {
        <section class="error-panel" role="alert">
            <h2>{ "Could not read this input" }</h2>
            <p class="error-message" data-testid="error">{ &props.message }</p>
            <p class="hint">{ "Drop or open another file to try again." }</p>
        </section>
    }
}
