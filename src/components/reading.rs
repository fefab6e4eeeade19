//! While files are read: the progress bar, the numbers, and Cancel.

use crate::format::{bytes, eta_ms, group, millis, rate};
use crate::protocol::Progress;
use yew::prelude::*;

/// Properties of [`Reading`].
#[derive(Properties, PartialEq)]
pub struct ReadingProps {
    /// The files' names.
    pub names: Vec<String>,
    /// Their total size.
    pub total: u64,
    /// The latest progress.
    pub progress: Option<Progress>,
    /// The Cancel button.
    pub on_cancel: Callback<()>,
}

/// The progress panel.
#[component]
pub fn Reading(props: &ReadingProps) -> Html {
    let p = props.progress.as_ref();
    let done = p.map_or(0, |p| p.bytes_done);
    let percent = if props.total > 0 { done as f64 * 100.0 / props.total as f64 } else { 0.0 };
    let eta = p.and_then(|p| eta_ms(p.bytes_done, p.bytes_total, p.elapsed_ms));
    let on_cancel = props.on_cancel.reform(|_: MouseEvent| ());
    html! {
        <section class="reading" data-testid="reading" aria-live="polite">
            <p class="reading-files">{ "Reading " }<strong>{ props.names.join(", ") }</strong></p>
            <progress data-testid="progress" max="100" value={format!("{percent:.1}")}></progress>
            <p class="reading-numbers">
                <span>{ format!("{} of {} ({percent:.0}%)", bytes(done), bytes(props.total)) }</span>
                if let Some(p) = p {
                    <span>{ rate(p.mb_per_s) }</span>
                    if let Some(eta) = eta {
                        <span>{ format!("{} left", millis(eta)) }</span>
                    }
                    if let Some(f) = &p.format {
                        <span>{ "format: " }<strong data-testid="reading-format">{ f }</strong></span>
                    }
                    <span>{ format!("{} lines", group(p.lines)) }</span>
                    <span>{ format!("{} diagnostics", group(p.diagnostics)) }</span>
                }
            </p>
            <button class="button" onclick={on_cancel} data-testid="cancel" title="Stop reading (Esc)">{ "Cancel" }</button>
        </section>
    }
}
