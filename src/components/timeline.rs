//! The flame-style chart: lanes (hosts, threads) over wall time, a bar per
//! task, the chosen path outlined, joined by arrows, its waits hatched.
//!
//! Only the lanes scrolled into view are asked of the worker, for the
//! current time window and width; the worker merges bars under a pixel.
//! Wheel zooms around the cursor, dragging pans, a click selects.

use crate::hooks::AnalysisWorker;
use crate::protocol::{Request, RunId};
use crate::state::Action;
use longpole_core::dump::duration_label;
use longpole_core::layout::timeline::{ticks, Frame, RowBars, Viewport};
use longpole_core::model::Nanos;
use longpole_core::render::palette;
use longpole_core::view::{PathView, RunView};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, WheelEvent};
use yew::prelude::*;

/// Properties of [`Timeline`].
#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    /// The run.
    pub run: RunId,
    /// What the run holds.
    pub view: Rc<RunView>,
    /// The bars of the visible lanes.
    pub bars: Rc<Vec<RowBars>>,
    /// The time window shown, ns.
    pub window: (Nanos, Nanos),
    /// Outline the blocking chain instead of ya's path.
    pub chain: bool,
    /// The selected task.
    pub selected: Option<u32>,
    /// The worker, to ask for bars and exports.
    pub worker: AnalysisWorker,
    /// Actions.
    pub dispatch: Callback<Action>,
}

/// Width of the chart area when it cannot be measured yet, px.
const DEFAULT_WIDTH: f64 = 900.0;

fn r(x: f64) -> String {
    format!("{:.1}", (x * 10.0).round() / 10.0)
}

/// Properties of [`BarsLayer`].
#[derive(Properties, PartialEq)]
struct BarsLayerProps {
    view: Rc<RunView>,
    bars: Rc<Vec<RowBars>>,
    viewport: Viewport,
    selected: Option<u32>,
}

/// The bars: one rect per bar, each with its place in `bars` (`data-i`).
/// A component of its own, so hovering (a tooltip) does not redraw them.
#[component]
fn BarsLayer(props: &BarsLayerProps) -> Html {
    let frame = Frame::new(&props.view.rows_per_lane);
    let (gx, viewport) = (frame.gutter, props.viewport);
    let x = |t: Nanos| (gx + viewport.x(t)).clamp(gx, gx + viewport.width);
    let bar_h = r(frame.row - 2.0);
    let rects = props.bars.iter().enumerate().flat_map(|(ri, row)| {
        let y = r(frame.row_y(row.lane, row.row) + 1.0);
        let (bar_h, view, selected) = (bar_h.clone(), &props.view, props.selected);
        row.bars.iter().enumerate().map(move |(bi, b)| {
            let (x0, x1) = (x(b.start), x(b.end));
            let kind = view.kinds.get(b.kind as usize);
            let fill = palette::fill(kind.and_then(|k| k.color.as_deref()), kind.map_or("", |k| k.name.as_str()));
            let on = b.task.is_some() && b.task == selected;
            html! {
                <rect class={classes!("bar", on.then_some("selected"))} x={r(x0)} y={y.clone()} width={r((x1 - x0).max(1.0))}
                    height={bar_h.clone()} fill={fill} data-i={format!("{ri}.{bi}")} />
            }
        })
    });
    html! { <g class="bars">{ for rects }</g> }
}

/// The chart.
#[component]
pub fn Timeline(props: &TimelineProps) -> Html {
    let scroller = use_node_ref();
    let size = use_state(|| (DEFAULT_WIDTH, 600.0, 0.0f64));
    let drag = use_mut_ref(|| None::<(f64, (Nanos, Nanos))>);
    let hover = use_state(|| None::<(f64, f64, String)>);
    let seq = use_mut_ref(|| Rc::new(Cell::new(0u32)));
    let frame = Frame::new(&props.view.rows_per_lane);
    let (width, height, top) = *size;
    let chart_w = (width - frame.gutter).max(200.0);
    let viewport = Viewport { start: props.window.0, end: props.window.1, width: chart_w };
    let lanes = frame.lanes_between(top - 200.0, top + height + 200.0);

    // Measure the scroller after each render; keep its size and scroll in state.
    {
        let (scroller, size) = (scroller.clone(), size.clone());
        use_effect(move || {
            if let Some(el) = scroller.cast::<HtmlElement>() {
                let now = (f64::from(el.client_width()), f64::from(el.client_height()), f64::from(el.scroll_top()));
                if (now.0 - size.0).abs() > 1.0 || (now.1 - size.1).abs() > 1.0 {
                    size.set((now.0, now.1, size.2));
                }
            }
        });
    }
    // Ask for the bars of what is in view.
    {
        let (worker, run, seq) = (props.worker.clone(), props.run, seq.borrow().clone());
        let key = (props.window, chart_w as i64, lanes.start, lanes.end, run);
        use_effect_with(key, move |&(_, _, first, last, _)| {
            seq.set(seq.get() + 1);
            worker.send(&Request::Bars { run, seq: seq.get(), viewport, lanes: (first, last) }, &[]);
        });
    }
    // Wheel: zoom around the cursor (not passive, so the page does not scroll meanwhile).
    {
        let (scroller, dispatch, gutter) = (scroller.clone(), props.dispatch.clone(), frame.gutter);
        use_effect_with((), move |_| {
            let el = scroller.cast::<Element>();
            let listener = Closure::<dyn FnMut(WheelEvent)>::new(move |e: WheelEvent| {
                let Some(target) = e.current_target().and_then(|t| t.dyn_into::<Element>().ok()) else { return };
                e.prevent_default();
                if e.shift_key() {
                    // Shift + wheel scrolls the lanes.
                    target.set_scroll_top(target.scroll_top() + e.delta_y() as i32);
                    return;
                }
                let rect = target.get_bounding_client_rect();
                let at = (f64::from(e.client_x()) - rect.left() - gutter) / (rect.width() - gutter).max(1.0);
                if !(0.0..=1.0).contains(&at) {
                    return;
                }
                dispatch.emit(Action::Zoom { factor: 1.0015f64.powf(e.delta_y().clamp(-400.0, 400.0)), at });
            });
            let options = web_sys::AddEventListenerOptions::new();
            options.set_passive(false);
            if let Some(el) = &el {
                let _ = el.add_event_listener_with_callback_and_add_event_listener_options(
                    "wheel",
                    listener.as_ref().unchecked_ref(),
                    &options,
                );
            }
            move || {
                if let Some(el) = &el {
                    let _ = el.remove_event_listener_with_callback("wheel", listener.as_ref().unchecked_ref());
                }
            }
        });
    }

    let onscroll = {
        let size = size.clone();
        Callback::from(move |e: Event| {
            let el: HtmlElement = e.target_unchecked_into();
            size.set((size.0, size.1, f64::from(el.scroll_top())));
        })
    };
    let onmousedown = {
        let (drag, window) = (drag.clone(), props.window);
        Callback::from(move |e: MouseEvent| {
            if e.button() == 0 {
                *drag.borrow_mut() = Some((f64::from(e.client_x()), window));
            }
        })
    };
    // The bar under the pointer: rects carry `data-i="<row>.<bar>"` into props.bars.
    let bar_at = {
        let bars = props.bars.clone();
        Rc::new(move |e: &MouseEvent| {
            let target = e.target().and_then(|t| t.dyn_into::<Element>().ok())?;
            if let Some(task) = target.get_attribute("data-task").and_then(|v| v.parse::<u32>().ok()) {
                return Some((Some(task), target.get_attribute("data-tip").unwrap_or_default()));
            }
            let i = target.get_attribute("data-i")?;
            let (row, bar) = i.split_once('.')?;
            let b = bars.get(row.parse::<usize>().ok()?)?.bars.get(bar.parse::<usize>().ok()?)?;
            Some((b.task, String::new()))
        })
    };
    let tip_of = {
        let (bars, view) = (props.bars.clone(), props.view.clone());
        move |e: &MouseEvent| -> Option<String> {
            let target = e.target().and_then(|t| t.dyn_into::<Element>().ok())?;
            if let Some(tip) = target.get_attribute("data-tip") {
                return Some(tip);
            }
            let i = target.get_attribute("data-i")?;
            let (row, bar) = i.split_once('.')?;
            let b = bars.get(row.parse::<usize>().ok()?)?.bars.get(bar.parse::<usize>().ok()?)?;
            let kind = view.kinds.get(b.kind as usize).map_or("", |k| k.name.as_str());
            Some(match b.count {
                1 => format!("{kind} · {}", duration_label(b.end - b.start)),
                n => format!("{n} tasks · {}", duration_label(b.end - b.start)),
            })
        }
    };
    let onmousemove = {
        let (drag, dispatch, hover) = (drag.clone(), props.dispatch.clone(), hover.clone());
        Callback::from(move |e: MouseEvent| {
            let Some((x0, (a, b))) = *drag.borrow() else {
                let tip = tip_of(&e).map(|t| (f64::from(e.offset_x()), f64::from(e.offset_y()), t));
                if tip.as_ref().map(|t| &t.2) != hover.as_ref().map(|t| &t.2) {
                    hover.set(tip);
                }
                return;
            };
            let dx = f64::from(e.client_x()) - x0;
            if dx.abs() >= 3.0 {
                let shift = (-dx * (b - a) as f64 / chart_w) as Nanos;
                dispatch.emit(Action::Window(a + shift, b + shift));
            }
        })
    };
    let onmouseup = {
        let (drag, dispatch, bar_at) = (drag.clone(), props.dispatch.clone(), bar_at.clone());
        Callback::from(move |e: MouseEvent| {
            let Some((x0, _)) = drag.borrow_mut().take() else { return };
            if (f64::from(e.client_x()) - x0).abs() < 3.0 {
                dispatch.emit(Action::Select(bar_at(&e).and_then(|(task, _)| task)));
            }
        })
    };
    // Double-click fits a task in view.
    let ondblclick = {
        let (dispatch, bar_at, bars) = (props.dispatch.clone(), bar_at.clone(), props.bars.clone());
        Callback::from(move |e: MouseEvent| {
            let Some((Some(task), _)) = bar_at(&e) else { return };
            let bar = bars.iter().flat_map(|r| r.bars.iter()).find(|b| b.task == Some(task));
            if let Some(b) = bar {
                let pad = ((b.end - b.start) / 4).max(1_000);
                dispatch.emit(Action::Window(b.start - pad, b.end + pad));
            }
        })
    };
    let onmouseleave = {
        let (drag, hover) = (drag.clone(), hover.clone());
        Callback::from(move |_: MouseEvent| {
            *drag.borrow_mut() = None;
            hover.set(None);
        })
    };

    let view = &props.view;
    let gx = frame.gutter;
    let x = |t: Nanos| gx + viewport.x(t);
    let clamp = |v: f64| v.clamp(gx, gx + chart_w);
    let origin = view.window.map_or(viewport.start, |w| w.0);
    let path: &PathView = if props.chain { &view.blocking_chain } else { &view.critical_path };
    let svg_h = frame.height();
    let row_h = frame.row;

    let axis = ticks(viewport, origin).into_iter().map(|(t, label)| {
        let tx = r(x(t));
        html! {
            <g class="tick">
                <line x1={tx.clone()} y1={r(frame.axis - 4.0)} x2={tx.clone()} y2={r(svg_h)} />
                <text x={r(x(t) + 2.0)} y="14">{ label }</text>
            </g>
        }
    });
    let lane_labels = (lanes.start..lanes.end.min(view.lanes.len())).map(|lane| {
        let y = frame.lane_y(lane as u32);
        let name = &view.lanes[lane];
        html! {
            <g class="lane">
                <line x1="0" y1={r(y - frame.gap / 2.0)} x2={r(gx + chart_w)} y2={r(y - frame.gap / 2.0)} />
                <text x="4" y={r(y + row_h - 3.0)}><title>{ name }</title>{ name }</text>
            </g>
        }
    });
    let tooltip = hover.as_ref().map(|(hx, hy, text)| {
        let w = 7.0 * text.chars().count() as f64 + 10.0;
        let tx = if hx + 14.0 + w > gx + chart_w { hx - w - 8.0 } else { hx + 14.0 };
        html! {
            <g class="tooltip" transform={format!("translate({},{})", r(tx.max(0.0)), r(hy + 12.0))}>
                <rect width={r(w)} height="20" rx="3" />
                <text x="5" y="14">{ text }</text>
            </g>
        }
    });
    let mid = |lane: u32, row: Option<u32>| frame.row_y(lane, row.unwrap_or(0)) + row_h / 2.0;
    let steps = path.steps.iter().enumerate().filter_map(|(i, step)| {
        let (start, end) = (step.start?, step.end?);
        let y = frame.row_y(step.lane_index, step.row.unwrap_or(0));
        let outline = html! {
            <rect class="path-step" x={r(clamp(x(start)))} y={r(y)} width={r((clamp(x(end)) - clamp(x(start))).max(2.0))} height={r(row_h)}
                data-task={step.id.to_string()} data-tip={format!("{} · {}", step.label, duration_label(end - start))} />
        };
        let link = i.checked_sub(1).map(|p| &path.steps[p]).and_then(|prev| {
            let prev_end = prev.end?;
            let wait = (start > prev_end).then(|| {
                let (w0, w1) = (clamp(x(prev_end)), clamp(x(start)));
                html! {
                    <g class="wait">
                        <rect x={r(w0)} y={r(y)} width={r((w1 - w0).max(1.0))} height={r(row_h)} fill="url(#wait)" />
                        <text x={r(w0 + 2.0)} y={r(y - 2.0)}>{ format!("wait {}", duration_label(start - prev_end)) }</text>
                    </g>
                }
            });
            Some(html! {
                <>
                    { for wait }
                    <line class="path-arrow" x1={r(clamp(x(prev_end)))} y1={r(mid(prev.lane_index, prev.row))}
                        x2={r(clamp(x(start)))} y2={r(mid(step.lane_index, step.row))} marker-end="url(#arrow)" />
                </>
            })
        });
        Some(html! { <>{ outline }{ for link }</> })
    });

    let export = {
        let (worker, run, chain) = (props.worker.clone(), props.run, props.chain);
        Callback::from(move |_: MouseEvent| {
            worker.send(&Request::ExportSvg { run, viewport, chain }, &[]);
        })
    };
    let (dispatch, full) = (props.dispatch.clone(), view.window);
    let fit = Callback::from(move |_: MouseEvent| {
        if let Some((a, b)) = full {
            dispatch.emit(Action::Window(a, b));
        }
    });
    let toggle = props.dispatch.reform(|_: MouseEvent| Action::ToggleChain);
    html! {
        <div class="timeline">
            <div class="toolbar">
                <div class="segmented" role="group" aria-label="Path shown">
                    <button class={classes!("button", (!props.chain).then_some("on"))} onclick={toggle.clone()} data-testid="show-critical-path"
                        title="ya's critical path: the longest sum of durations">{ "ya's critical path" }</button>
                    <button class={classes!("button", props.chain.then_some("on"))} onclick={toggle} data-testid="show-blocking-chain"
                        title="What the build waited for: from the task that ended last, back through what became available last">{ "blocking chain" }</button>
                </div>
                <span class="window-label">{ format!("{} – {}", duration_label(viewport.start - origin), duration_label(viewport.end - origin)) }</span>
                <span class="spacer"></span>
                <button class="button" onclick={fit} title="Show the whole run">{ "Fit" }</button>
                <button class="button" onclick={export} data-testid="export-timeline-svg" title="Save the chart as a standalone SVG file">{ "⤓ SVG" }</button>
            </div>
            <div class="chart-scroll" ref={scroller} {onscroll}>
                <svg class="chart" width={r(gx + chart_w)} height={r(svg_h)} data-testid="timeline-chart"
                    {onmousedown} {onmousemove} {onmouseup} {ondblclick} {onmouseleave}>
                    <defs>
                        <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                            <path class="arrow-head" d="M0,0 L10,5 L0,10 z" />
                        </marker>
                        <pattern id="wait" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                            <line class="hatch" x1="0" y1="0" x2="0" y2="6" />
                        </pattern>
                    </defs>
                    <g class="axis">{ for axis }</g>
                    <g class="lanes">{ for lane_labels }</g>
                    <BarsLayer view={props.view.clone()} bars={props.bars.clone()} {viewport} selected={props.selected} />
                    <g class="path">{ for steps }</g>
                    { for tooltip }
                </svg>
            </div>
        </div>
    }
}
