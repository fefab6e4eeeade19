//! Side A's and side B's timelines one above the other, on one time axis
//! from each run's start; a click on a task selects its key in both, so
//! that the same task is seen before and after. Zooming and panning move
//! both at once: the worker cuts the window from every task, culled by
//! pixel (tasks under a pixel, one after another, are one bar).

use crate::hooks::AnalysisWorker;
use crate::protocol::{Request, RunId};
use longpole_core::numbers::duration_label;
use longpole_core::view::compare_timelines::{CompareTimelines, SideTimeline, MERGED, PLOT_WIDTH};
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Properties of [`CompareTimelinesView`].
#[derive(Properties, PartialEq)]
pub struct CompareTimelinesProps {
    /// Both timelines, in their window.
    pub timelines: crate::shared::Shared<CompareTimelines>,
    /// The comparison's run.
    pub run: RunId,
    /// The worker, which cuts other windows.
    pub worker: AnalysisWorker,
}

/// The lanes' label gutter, px.
const GUTTER: f64 = 150.0;
/// The drawing's width, px: the gutter and the time axis.
const WIDTH: f64 = GUTTER + PLOT_WIDTH;
/// One side's lanes' height at most, px.
const SIDE_HEIGHT: f64 = 240.0;
/// Space for a side's title above its lanes, px.
const TITLE: f64 = 18.0;

/// One side's lanes and bars, from `top`; `x` places a time (ms), within the window.
fn side(label: &str, s: &SideTimeline, top: f64, x: &dyn Fn(f64) -> f64, selected: Option<u32>) -> Html {
    // Many rows share the side's height: thin rows, with no gap below 3 px.
    let row = (SIDE_HEIGHT / f64::from(s.rows.max(1))).min(14.0);
    let bar_height = if row > 3.0 { row - 1.0 } else { row };
    let y = |lane: u32| top + TITLE + f64::from(lane) * row;
    let title = format!(
        "{label}: {} · {}{}",
        s.name,
        duration_label((s.wall_ms * 1e6) as i64),
        if s.merged > 0 { format!(" · {} tasks under a pixel drawn together", s.merged) } else { String::new() }
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
                let merged = b.key == MERGED;
                html! {
                    <rect x={format!("{:.1}", x(b.start_ms))} y={format!("{:.2}", y(b.row))} width={format!("{width:.1}")}
                        height={format!("{bar_height:.2}")} data-key={(!merged).then(|| b.key.to_string())}
                        data-tasks={merged.then(|| b.tasks.to_string())}
                        class={classes!("bar", merged.then_some("merged"), (Some(b.key) == selected).then_some("hot"))} />
                }
            }) }
        </g>
    }
}

/// The two timelines.
#[component]
pub fn CompareTimelinesView(props: &CompareTimelinesProps) -> Html {
    // The key selected, by name: each window numbers its keys anew.
    let selected = use_state(|| None::<String>);
    let t = &props.timelines;
    let (from, to) = (t.from_ms, t.to_ms.max(t.from_ms + 1e-6));
    let longest = t.a.wall_ms.max(t.b.wall_ms);
    // A time's place, clamped to the window (a bar across its edge is cut there).
    let x = move |ms: f64| GUTTER + (ms.clamp(from, to) - from) / (to - from) * PLOT_WIDTH;
    let show = {
        let (worker, run) = (props.worker.clone(), props.run);
        move |from_ms: f64, to_ms: f64| {
            let worker = worker.clone();
            Callback::from(move |_: MouseEvent| {
                worker.send(&Request::CompareWindow { run, from_ms, to_ms }, &[]);
            })
        }
    };
    let (span, mid) = (to - from, (from + to) / 2.0);
    let zoom_in = show(mid - span / 4.0, mid + span / 4.0);
    let zoom_out = show((mid - span).max(0.0), (mid + span).min(longest));
    let left = show((from - span / 2.0).max(0.0), (from - span / 2.0).max(0.0) + span);
    let right = show((to + span / 2.0).min(longest) - span, (to + span / 2.0).min(longest));
    let whole = show(0.0, longest);
    let height = 2.0 * (SIDE_HEIGHT + TITLE) + 40.0;
    let onclick = {
        let (selected, timelines) = (selected.clone(), props.timelines.clone());
        Callback::from(move |e: MouseEvent| {
            let key = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|el| el.get_attribute("data-key"))
                .and_then(|k| k.parse::<usize>().ok())
                .and_then(|k| timelines.keys.get(k).cloned());
            selected.set(key);
        })
    };
    // Its number in this window, where a bar of it is drawn.
    let number = selected.as_ref().and_then(|k| t.keys.iter().position(|x| x == k)).map(|i| i as u32);
    let ticks = (0..=4).map(|i| from + span * f64::from(i) / 4.0);
    // Each side's total time under the selected key.
    let total = |s: &SideTimeline, key: u32| -> Option<f64> {
        let v: Vec<f64> = s.bars.iter().filter(|b| b.key == key).map(|b| b.end_ms - b.start_ms).collect();
        (!v.is_empty()).then(|| v.iter().sum())
    };
    let shown = |ms: Option<f64>| ms.map_or("not drawn".to_owned(), |ms| duration_label((ms * 1e6) as i64));
    html! {
        <section class="compare-timelines" data-testid="compare-timelines">
            <h3>{ "Timelines from each run's start" }</h3>
            <div class="segmented" role="group" aria-label="Both timelines' window">
                <button class="button" onclick={left} title="Earlier" data-testid="compare-pan-left">{ "◀" }</button>
                <button class="button" onclick={zoom_in} title="Zoom in (both)" data-testid="compare-zoom-in">{ "+" }</button>
                <button class="button" onclick={zoom_out} title="Zoom out (both)" data-testid="compare-zoom-out">{ "−" }</button>
                <button class="button" onclick={right} title="Later" data-testid="compare-pan-right">{ "▶" }</button>
                <button class="button" onclick={whole} title="Both runs whole" data-testid="compare-zoom-whole">{ "whole" }</button>
            </div>
            <p class="muted">
                if let Some(name) = (*selected).clone() {
                    <span data-testid="compare-timeline-selected">
                        { name }
                        { match number {
                            Some(key) => format!(" — A: {}, B: {}", shown(total(&t.a, key)), shown(total(&t.b, key))),
                            None => " — not in this window".to_owned(),
                        } }
                    </span>
                } else {
                    { "Click a task to find its key on both sides." }
                }
            </p>
            <svg class="compare-timeline" data-from-ms={from.to_string()} data-to-ms={to.to_string()} viewBox={format!("0 0 {WIDTH} {height}")} width="100%" {onclick} role="img"
                aria-label="Side A's and side B's timelines on one time axis">
                { side("A", &t.a, 0.0, &x, number) }
                { side("B", &t.b, SIDE_HEIGHT + TITLE + 10.0, &x, number) }
                { for ticks.map(|ms| html! {
                    <text x={format!("{:.1}", x(ms))} y={(height - 6.0).to_string()} class="tick" text-anchor="middle">
                        { duration_label((ms * 1e6) as i64) }
                    </text>
                }) }
            </svg>
        </section>
    }
}
