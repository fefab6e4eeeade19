//! Side A's and side B's timelines one above the other, on one time axis
//! from each run's start; a click on a task selects its key in both, so
//! that the same task is seen before and after.

use longpole_core::numbers::duration_label;
use longpole_core::view::compare_timelines::{CompareTimelines, SideTimeline};
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Properties of [`CompareTimelinesView`].
#[derive(Properties, PartialEq)]
pub struct CompareTimelinesProps {
    /// Both timelines.
    pub timelines: crate::shared::Shared<CompareTimelines>,
}

/// The drawing's width, px.
const WIDTH: f64 = 1000.0;
/// The lanes' label gutter, px.
const GUTTER: f64 = 150.0;
/// One side's lanes' height at most, px.
const SIDE_HEIGHT: f64 = 240.0;
/// Space for a side's title above its lanes, px.
const TITLE: f64 = 18.0;

/// One side's lanes and bars, from `top`; `x` places a time (ms).
fn side(label: &str, s: &SideTimeline, top: f64, x: &dyn Fn(f64) -> f64, selected: Option<u32>) -> Html {
    // Many rows share the side's height: thin rows, with no gap below 3 px.
    let row = (SIDE_HEIGHT / f64::from(s.rows.max(1))).min(14.0);
    let bar_height = if row > 3.0 { row - 1.0 } else { row };
    let y = |lane: u32| top + TITLE + f64::from(lane) * row;
    let title = format!(
        "{label}: {} · {}{}",
        s.name,
        duration_label((s.wall_ms * 1e6) as i64),
        if s.left_out > 0 { format!(" · {} shortest tasks not drawn", s.left_out) } else { String::new() }
    );
    html! {
        <g class="side">
            <text x="0" y={(top + 12.0).to_string()} class="side-title">{ title }</text>
            // A lane is named where its rows leave room for the text.
            { for s.lanes.iter().filter(|l| f64::from(l.rows) * row >= 9.0).map(|l| html! {
                <text x={(GUTTER - 4.0).to_string()} y={(y(l.first_row) + row.max(9.0) - 2.0).to_string()} class="lane" text-anchor="end">{ &l.name }</text>
            }) }
            { for s.bars.iter().map(|b| {
                let width = (x(b.end_ms) - x(b.start_ms)).max(0.5);
                html! {
                    <rect x={format!("{:.1}", x(b.start_ms))} y={format!("{:.2}", y(b.row))} width={format!("{width:.1}")}
                        height={format!("{bar_height:.2}")} data-key={b.key.to_string()}
                        class={classes!("bar", (Some(b.key) == selected).then_some("hot"))} />
                }
            }) }
        </g>
    }
}

/// The two timelines.
#[component]
pub fn CompareTimelinesView(props: &CompareTimelinesProps) -> Html {
    let selected = use_state(|| None::<u32>);
    let t = &props.timelines;
    let longest = t.a.wall_ms.max(t.b.wall_ms).max(1e-6);
    let x = move |ms: f64| GUTTER + ms / longest * (WIDTH - GUTTER);
    let height = 2.0 * (SIDE_HEIGHT + TITLE) + 40.0;
    let onclick = {
        let selected = selected.clone();
        Callback::from(move |e: MouseEvent| {
            let key = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|el| el.get_attribute("data-key"))
                .and_then(|k| k.parse().ok());
            selected.set(key);
        })
    };
    let ticks = (0..=4).map(|i| longest * f64::from(i) / 4.0);
    // Each side's total time under the selected key.
    let total = |s: &SideTimeline, key: u32| -> Option<f64> {
        let v: Vec<f64> = s.bars.iter().filter(|b| b.key == key).map(|b| b.end_ms - b.start_ms).collect();
        (!v.is_empty()).then(|| v.iter().sum())
    };
    let shown = |ms: Option<f64>| ms.map_or("not drawn".to_owned(), |ms| duration_label((ms * 1e6) as i64));
    html! {
        <section class="compare-timelines" data-testid="compare-timelines">
            <h3>{ "Timelines from each run's start" }</h3>
            <p class="muted">
                if let Some(key) = *selected {
                    <span data-testid="compare-timeline-selected">
                        { t.keys.get(key as usize).cloned().unwrap_or_default() }
                        { format!(" — A: {}, B: {}", shown(total(&t.a, key)), shown(total(&t.b, key))) }
                    </span>
                } else {
                    { "Click a task to find its key on both sides." }
                }
            </p>
            <svg class="compare-timeline" viewBox={format!("0 0 {WIDTH} {height}")} width="100%" {onclick} role="img"
                aria-label="Side A's and side B's timelines on one time axis">
                { side("A", &t.a, 0.0, &x, *selected) }
                { side("B", &t.b, SIDE_HEIGHT + TITLE + 10.0, &x, *selected) }
                { for ticks.map(|ms| html! {
                    <text x={format!("{:.1}", x(ms))} y={(height - 6.0).to_string()} class="tick" text-anchor="middle">
                        { duration_label((ms * 1e6) as i64) }
                    </text>
                }) }
            </svg>
        </section>
    }
}
