//! Before a file is opened: what can be dropped, the samples, and two
//! sides to compare.

use super::compare_pick::ComparePick;
use crate::samples::{Sample, SAMPLES};
use longpole_core::formats::REGISTRY;
use yew::prelude::*;

/// Properties of [`Landing`].
#[derive(Properties, PartialEq)]
pub struct LandingProps {
    /// A sample button was pressed.
    pub on_sample: Callback<Sample>,
    /// Two sides' files to compare (A, B).
    pub on_compare: Callback<(Vec<web_sys::File>, Vec<web_sys::File>)>,
}

/// The drop zone with the formats and the samples.
#[component]
pub fn Landing(props: &LandingProps) -> Html {
    html! {
        <section class="landing" data-testid="landing">
            <p class="drop-hint">{ "Drop an execution log here — nothing leaves your browser" }</p>
            <p class="formats" data-testid="landing-formats">{ "Reads: " }{ formats_line() }</p>
            <p class="formats">{ "(.gz .bz2 .zst are fine)" }</p>
            <p class="samples">
                { "Try a sample: " }
                { for SAMPLES.iter().map(|s| {
                    let on_sample = props.on_sample.clone();
                    let sample = *s;
                    html! {
                        <button class="button" title={s.credit} data-testid={format!("sample-{}", s.id)}
                            onclick={Callback::from(move |_| on_sample.emit(sample))}>{ s.label }</button>
                    }
                }) }
            </p>
            <ComparePick on_compare={props.on_compare.clone()} />
        </section>
    }
}

/// Every format the registry reads, by its title, in the registry's order.
fn formats_line() -> String {
    REGISTRY.iter().map(|f| f.id().title()).collect::<Vec<_>>().join(" · ")
}
