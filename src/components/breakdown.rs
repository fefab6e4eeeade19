//! The strip under the chart: how much of the path is prepare, copy, each
//! run type, and waiting.

use crate::shared::Shared;
use crate::shown::Shown;
use longpole_core::numbers::duration_label;
use longpole_core::render::palette;
use longpole_core::view::PathView;
use yew::prelude::*;

/// Properties of [`Breakdown`].
#[derive(Properties, PartialEq)]
pub struct BreakdownProps {
    /// The path.
    pub path: PathView,
    /// The run (for kind colours).
    pub view: Shared<Shown>,
}

/// The breakdown strip.
#[component]
pub fn Breakdown(props: &BreakdownProps) -> Html {
    let total: i64 = props.path.breakdown.iter().map(|s| s.time).sum::<i64>().max(1);
    let color = |part: &str| match part {
        "waiting" => palette::WAITING,
        "prepare" => palette::fill(Some("gray"), part),
        "copy" => palette::fill(Some("brown"), part),
        _ => {
            let k = props.view.kinds.iter().find(|k| k.name == part);
            palette::fill(k.and_then(|k| k.color.as_deref()), part)
        }
    };
    html! {
        <div class="breakdown" data-testid="breakdown">
            <svg class="strip" viewBox="0 0 1000 14" preserveAspectRatio="none" role="img" aria-label="Where the path's time went">
                { for props.path.breakdown.iter().scan(0.0, |x, s| {
                    let w = s.time as f64 * 1000.0 / total as f64;
                    let at = *x;
                    *x += w;
                    Some(html! { <rect x={format!("{at:.1}")} y="0" width={format!("{w:.1}")} height="14" fill={color(&s.part)}
                        class={classes!((s.part == "waiting").then_some("waiting"))}><title>{ format!("{} {}", s.part, duration_label(s.time)) }</title></rect> })
                }) }
            </svg>
            <p class="legend">
                { for props.path.breakdown.iter().filter(|s| s.time > 0).map(|s| html! {
                    <span><svg class="swatch" width="10" height="10"><rect width="10" height="10" fill={color(&s.part)} /></svg>
                        { format!(" {} {:.0}% ({})", s.part, s.time as f64 * 100.0 / total as f64, duration_label(s.time)) }</span>
                }) }
            </p>
        </div>
    }
}
