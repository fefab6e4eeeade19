//! Side A's and side B's timelines one above the other, on one time axis
//! from each run's start; a click on a task selects its key in both, so
//! that the same task is seen before and after. Zooming and panning move
//! both at once, as on the main timeline (wheel zooms around the pointer,
//! dragging pans, W/S zoom and A/D pan; Shift + wheel scrolls the rows):
//! the worker cuts each window from every task, culled by pixel along time
//! and across rows, so that a run of any size draws a few bars per pixel.

use crate::hooks::{use_keys, use_wheel, AnalysisWorker};
use crate::protocol::{Request, RunId};
use longpole_core::numbers::duration_label;
use longpole_core::view::compare_timelines::{Bar, CompareTimelines, SideTimeline, Window, MERGED, PLOT_WIDTH};
use std::fmt::Write;
use std::rc::Rc;
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
/// One side's lanes' height at most, px (`PLOT_ROWS` rows of 2 px).
const SIDE_HEIGHT: f64 = 240.0;
/// Space for a side's title above its lanes, px.
const TITLE: f64 = 18.0;
/// The smallest band of rows a zoom reaches, as a fraction of the rows.
const MIN_BAND: f64 = 1e-4;

/// Asks the worker for the window a step makes of the last one.
type Show = Rc<dyn Fn(&dyn Fn(&Window) -> Window)>;

/// `w` moved back into the runs (`longest` ms) and the rows, as the worker clamps it.
fn clamped(mut w: Window, longest: f64) -> Window {
    let span = (w.to_ms - w.from_ms).clamp(longest.min(1e-3), longest.max(1e-3));
    w.from_ms = w.from_ms.clamp(0.0, (longest - span).max(0.0));
    w.to_ms = (w.from_ms + span).min(longest);
    let band = (w.bottom - w.top).clamp(MIN_BAND, 1.0);
    w.top = w.top.clamp(0.0, 1.0 - band);
    w.bottom = (w.top + band).min(1.0);
    w
}

/// `w` zoomed by `factor` (< 1 zooms in) around the time at `at` (0..1 across it).
fn zoomed(w: &Window, factor: f64, at: f64) -> Window {
    let span = w.to_ms - w.from_ms;
    let pivot = w.from_ms + span * at.clamp(0.0, 1.0);
    let new_span = span * factor;
    let from_ms = pivot - (pivot - w.from_ms) * factor;
    Window { from_ms, to_ms: from_ms + new_span, ..w.clone() }
}

/// `w` moved by `fraction` of its span.
fn panned(w: &Window, fraction: f64) -> Window {
    let shift = (w.to_ms - w.from_ms) * fraction;
    Window { from_ms: w.from_ms + shift, to_ms: w.to_ms + shift, ..w.clone() }
}

/// `w`'s band of rows zoomed by `factor` around its middle, then moved by
/// `shift` of its height.
fn rows_moved(w: &Window, factor: f64, shift: f64) -> Window {
    let (band, mid) = (w.bottom - w.top, (w.top + w.bottom) / 2.0);
    let band_after = (band * factor).clamp(MIN_BAND, 1.0);
    let top = mid - band_after / 2.0 + band_after * shift;
    Window { top, bottom: top + band_after, ..w.clone() }
}

/// One side's lanes and bars, from `top`; `x` places a time (ms), within the window.
fn side(label: &str, s: &SideTimeline, top: f64, x: &dyn Fn(f64) -> f64, selected: Option<u32>) -> Html {
    let row = (SIDE_HEIGHT / f64::from(s.rows.max(1))).min(14.0);
    let bar_height = if row > 3.0 { row - 1.0 } else { row };
    let y = |r: u32| top + TITLE + f64::from(r) * row;
    let packed =
        if s.packed > 1 { format!(" · {} rows, {} to a pixel row", s.all_rows, s.packed) } else { String::new() };
    let merged =
        if s.merged > 0 { format!(" · {} of them under a pixel, drawn together", s.merged) } else { String::new() };
    let title = format!(
        "{label}: {} · {} · {} tasks in view{merged}{packed}",
        s.name,
        duration_label((s.wall_ms * 1e6) as i64),
        s.tasks
    );
    let rect = |b: &Bar, class: Classes| {
        let width = (x(b.end_ms) - x(b.start_ms)).max(0.5);
        html! {
            <rect x={format!("{:.1}", x(b.start_ms))} y={format!("{:.2}", y(b.row))} width={format!("{width:.1}")}
                height={format!("{bar_height:.2}")} data-key={(b.key != MERGED).then(|| b.key.to_string())}
                data-tasks={(b.tasks > 1).then(|| b.tasks.to_string())} {class} />
        }
    };
    // Bars that name no key (merged) are one path, as the path's outline
    // is: a big run's window is then a few elements, not thousands.
    let outline = |bars: &mut dyn Iterator<Item = &Bar>| -> (String, u32) {
        let (mut d, mut tasks) = (String::new(), 0);
        for b in bars {
            let (x0, width) = (x(b.start_ms), (x(b.end_ms) - x(b.start_ms)).max(0.5));
            let _ = write!(d, "M{x0:.1} {:.2}h{width:.1}v{bar_height:.2}h{:.1}z", y(b.row), -width);
            tasks += b.tasks;
        }
        (d, tasks)
    };
    let (merged_d, merged_tasks) = outline(&mut s.bars.iter().filter(|b| b.key == MERGED));
    let hot = |b: &Bar| selected.is_some() && Some(b.key) == selected;
    let (path_d, _) = outline(&mut s.marked.iter().filter(|b| !hot(b)));
    html! {
        <g class="side" data-rows={s.rows.to_string()} data-packed={s.packed.to_string()} data-tasks={s.tasks.to_string()}>
            <text x="0" y={(top + 12.0).to_string()} class="side-title">{ title }</text>
            // A lane is named where its rows leave room for the text.
            { for s.lanes.iter().filter(|l| f64::from(l.rows) * row >= 9.0).map(|l| html! {
                <text x={(GUTTER - 4.0).to_string()} y={(y(l.first_row) + row.max(9.0) - 2.0).to_string()} class="lane" text-anchor="end">{ &l.name }</text>
            }) }
            <path class="bar merged" d={merged_d} data-tasks={merged_tasks.to_string()} />
            { for s.bars.iter().filter(|b| b.key != MERGED).map(|b| rect(b, classes!("bar"))) }
            <path class="bar marked path" d={path_d} />
            { for s.marked.iter().filter(|b| hot(b)).map(|b| rect(b, classes!("bar", "marked", "hot"))) }
        </g>
    }
}

/// The two timelines.
#[component]
pub fn CompareTimelinesView(props: &CompareTimelinesProps) -> Html {
    let t = &props.timelines;
    let shown = t.window.clone();
    let longest = t.a.wall_ms.max(t.b.wall_ms);
    // The last window asked for, until the worker answers it: a second
    // step before the answer starts from it.
    let want = use_mut_ref(|| None::<Window>);
    if want.borrow().as_ref() == Some(&shown) {
        *want.borrow_mut() = None;
    }
    let drag = use_mut_ref(|| None::<(f64, Window)>);
    let plot = use_node_ref();
    let show: Show = {
        let (worker, run, want, shown) = (props.worker.clone(), props.run, want.clone(), shown.clone());
        Rc::new(move |step: &dyn Fn(&Window) -> Window| {
            let base = want.borrow().clone().unwrap_or_else(|| shown.clone());
            let next = clamped(step(&base), longest);
            if next != base {
                *want.borrow_mut() = Some(next.clone());
                worker.send(&Request::CompareWindow { run, window: next }, &[]);
            }
        })
    };
    let button = |step: fn(&Window) -> Window| {
        let show = show.clone();
        Callback::from(move |_: MouseEvent| show(&step))
    };
    {
        let show = show.clone();
        use_keys(Callback::from(move |key: String| match key.as_str() {
            "w" | "W" => show(&|w| zoomed(w, 0.8, 0.5)),
            "s" | "S" => show(&|w| zoomed(w, 1.25, 0.5)),
            "a" | "A" => show(&|w| panned(w, -0.2)),
            "d" | "D" => show(&|w| panned(w, 0.2)),
            _ => {}
        }));
    }
    // Wheel: zoom both around the pointer's time; Shift + wheel scrolls the rows.
    {
        let show = show.clone();
        use_wheel(&plot, shown.clone(), move |e, target| {
            let dy = e.delta_y().clamp(-400.0, 400.0);
            if e.shift_key() {
                show(&|w| rows_moved(w, 1.0, dy / SIDE_HEIGHT));
                return;
            }
            let rect = target.get_bounding_client_rect();
            let scale = rect.width() / WIDTH;
            let at = (f64::from(e.client_x()) - rect.left() - GUTTER * scale) / (PLOT_WIDTH * scale).max(1.0);
            if (0.0..=1.0).contains(&at) {
                show(&|w| zoomed(w, 1.0015f64.powf(dy), at));
            }
        });
    }
    let (from, to) = (shown.from_ms, shown.to_ms.max(shown.from_ms + 1e-6));
    // A time's place, clamped to the window (a bar across its edge is cut there).
    let x = move |ms: f64| GUTTER + (ms.clamp(from, to) - from) / (to - from) * PLOT_WIDTH;
    let height = 2.0 * (SIDE_HEIGHT + TITLE) + 40.0;
    let onmousedown = {
        let (drag, shown) = (drag.clone(), shown.clone());
        Callback::from(move |e: MouseEvent| {
            if e.button() == 0 {
                *drag.borrow_mut() = Some((f64::from(e.client_x()), shown.clone()));
            }
        })
    };
    // Dragging pans both by the pointer's move.
    let onmousemove = {
        let (drag, show, plot) = (drag.clone(), show.clone(), plot.clone());
        Callback::from(move |e: MouseEvent| {
            let Some((x0, start)) = drag.borrow().clone() else { return };
            let dx = f64::from(e.client_x()) - x0;
            let width = plot.cast::<web_sys::Element>().map_or(WIDTH, |el| el.get_bounding_client_rect().width());
            if dx.abs() >= 3.0 {
                let fraction = -dx / (PLOT_WIDTH * width / WIDTH).max(1.0);
                show(&|_| panned(&start, fraction));
            }
        })
    };
    // A click (not a drag) selects the key under it in both, or nothing.
    let onmouseup = {
        let (drag, show, keys) = (drag.clone(), show.clone(), props.timelines.clone());
        Callback::from(move |e: MouseEvent| {
            let Some((x0, _)) = drag.borrow_mut().take() else { return };
            if (f64::from(e.client_x()) - x0).abs() >= 3.0 {
                return;
            }
            let key = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|el| el.get_attribute("data-key"))
                .and_then(|k| k.parse::<usize>().ok())
                .and_then(|k| keys.keys.get(k).cloned());
            show(&|w| Window { selected: key.clone(), ..w.clone() });
        })
    };
    let onmouseleave = {
        let drag = drag.clone();
        Callback::from(move |_: MouseEvent| *drag.borrow_mut() = None)
    };
    // The selected key's number in this window.
    let number = shown.selected.as_ref().and_then(|k| t.keys.iter().position(|x| x == k)).map(|i| i as u32);
    let span = to - from;
    let ticks = (0..=4).map(|i| from + span * f64::from(i) / 4.0);
    let total = |s: &SideTimeline| match s.selected {
        Some((0, _)) | None => "not in this run".to_owned(),
        Some((n, ms)) => format!("{} ({n} task{})", duration_label((ms * 1e6) as i64), if n == 1 { "" } else { "s" }),
    };
    let rows_shown = shown.top > 0.0 || shown.bottom < 1.0;
    html! {
        <section class="compare-timelines" data-testid="compare-timelines">
            <h3>{ "Timelines from each run's start" }</h3>
            <div class="segmented" role="group" aria-label="Both timelines' window">
                <button class="button" onclick={button(|w| panned(w, -0.5))} title="Earlier (A)" data-testid="compare-pan-left">{ "◀" }</button>
                <button class="button" onclick={button(|w| zoomed(w, 0.5, 0.5))} title="Zoom in, both (W)" data-testid="compare-zoom-in">{ "+" }</button>
                <button class="button" onclick={button(|w| zoomed(w, 2.0, 0.5))} title="Zoom out, both (S)" data-testid="compare-zoom-out">{ "−" }</button>
                <button class="button" onclick={button(|w| panned(w, 0.5))} title="Later (D)" data-testid="compare-pan-right">{ "▶" }</button>
                <button class="button" onclick={button(|w| rows_moved(w, 0.5, 0.0))} title="Fewer rows, taller" data-testid="compare-rows-in">{ "rows +" }</button>
                <button class="button" onclick={button(|w| rows_moved(w, 2.0, 0.0))} title="More rows, thinner" data-testid="compare-rows-out">{ "rows −" }</button>
                <button class="button" onclick={button(|w| rows_moved(w, 1.0, -0.5))} title="Rows above (Shift + wheel)" data-testid="compare-rows-up">{ "⇡" }</button>
                <button class="button" onclick={button(|w| rows_moved(w, 1.0, 0.5))} title="Rows below (Shift + wheel)" data-testid="compare-rows-down">{ "⇣" }</button>
                <button class="button" title="Both runs whole, every row" data-testid="compare-zoom-whole"
                    onclick={button(|w| Window { from_ms: 0.0, to_ms: f64::INFINITY, top: 0.0, bottom: 1.0, ..w.clone() })}>{ "whole" }</button>
            </div>
            <p class="muted">
                if let Some(name) = shown.selected.clone() {
                    <span data-testid="compare-timeline-selected">
                        { name }{ format!(" — A: {}; B: {}", total(&t.a), total(&t.b)) }
                    </span>
                } else {
                    { "Click a task to find its key on both sides; the critical path is outlined. Wheel or W/S zoom, drag or A/D pan, Shift + wheel scrolls the rows." }
                }
                if rows_shown {
                    { format!(" Rows {:.0}–{:.0}% of each side.", shown.top * 100.0, shown.bottom * 100.0) }
                }
            </p>
            <svg class="compare-timeline" ref={plot} data-from-ms={from.to_string()} data-to-ms={to.to_string()}
                data-top={shown.top.to_string()} data-bottom={shown.bottom.to_string()}
                viewBox={format!("0 0 {WIDTH} {height}")} width="100%" {onmousedown} {onmousemove} {onmouseup} {onmouseleave}
                role="img" aria-label="Side A's and side B's timelines on one time axis">
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
