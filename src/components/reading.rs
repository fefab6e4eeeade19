//! While files are read: the progress bar, the numbers, and Cancel.

use crate::format::{bytes, eta_ms, group, millis, rate};
use crate::protocol::Progress;
use yew::prelude::*;

/// Properties of [`Reading`].
#[derive(Properties, PartialEq)]
pub struct ReadingProps {
    /// The files' names.
    pub names: Vec<String>,
    /// Their total size, when known.
    pub total: Option<u64>,
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
    // A server may not say how big its file is (or say its compressed size):
    // then only the bytes read are shown.
    let total = p.map_or(props.total, |p| p.bytes_total).filter(|&t| t >= done);
    let percent = total.map(|t| if t > 0 { done as f64 * 100.0 / t as f64 } else { 0.0 });
    let eta = p.and_then(|p| eta_ms(p.bytes_done, total?, p.elapsed_ms));
    let on_cancel = props.on_cancel.reform(|_: MouseEvent| ());
    html! {
        <section class="reading" data-testid="reading" aria-live="polite">
            <p class="reading-files">{ "Reading " }<strong>{ props.names.join(", ") }</strong></p>
            if let Some(percent) = percent {
                <progress data-testid="progress" max="100" value={format!("{percent:.1}")}></progress>
            } else {
                <progress data-testid="progress"></progress>
            }
            <p class="reading-numbers">
                if let (Some(t), Some(percent)) = (total, percent) {
                    <span data-testid="reading-bytes">{ format!("{} of {} ({percent:.0}%)", bytes(done), bytes(t)) }</span>
                } else {
                    <span data-testid="reading-bytes">{ format!("{} read (size not known)", bytes(done)) }</span>
                }
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
