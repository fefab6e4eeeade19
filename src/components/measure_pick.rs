//! The measure a flame graph is drawn by (real, cpu, sys time, context
//! switches; operator time), as a row of buttons: the run's flame graph
//! and the compare screen's differential one pick it the same way.

use yew::prelude::*;

/// Properties of [`MeasurePick`].
#[derive(Properties, PartialEq)]
pub struct MeasurePickProps {
    /// Each measure's short name (for its test hook) and title, in order.
    pub measures: Vec<(AttrValue, AttrValue)>,
    /// The measure shown (its index).
    pub on: usize,
    /// Each button's test hook is this followed by the measure's name.
    pub hook: AttrValue,
    /// Called with the index of the measure picked.
    pub pick: Callback<usize>,
}

/// The buttons, the measure shown pressed.
#[component]
pub fn MeasurePick(props: &MeasurePickProps) -> Html {
    html! {
        <div class="segmented" role="group" aria-label="Timing kind">
            { for props.measures.iter().enumerate().map(|(i, (name, title))| {
                let pick = props.pick.reform(move |_: MouseEvent| i);
                html! {
                    <button class={classes!("button", (i == props.on).then_some("on"))} onclick={pick}
                        data-testid={format!("{}{name}", props.hook)}>{ title.clone() }</button>
                }
            }) }
        </div>
    }
}
