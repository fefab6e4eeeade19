//! The flame-style chart: lanes (hosts, threads) over wall time, a bar per
//! task, the chosen path outlined, joined by arrows, its waits hatched.
//!
//! Only the lanes scrolled into view are asked of the worker, for the
//! current time window and width; the worker merges bars under a pixel.
//! Wheel zooms around the cursor, dragging pans, a click selects.

use super::query_track::QueryTrack;
use crate::hooks::AnalysisWorker;
use crate::protocol::{Request, RunId, FIRST_HEIGHT, FIRST_WIDTH, LANE_MARGIN};
use crate::shared::Shared;
use crate::shown::Shown;
use crate::sql_state::Track;
use crate::state::Action;
use longpole_core::layout::timeline::{self, ticks, Bar, Frame, RowBars, Viewport};
use longpole_core::model::Nanos;
use longpole_core::numbers::duration_label;
use longpole_core::render::palette;
use longpole_core::view::what_if::WhatIfView;
use longpole_core::view::PathView;
use std::cell::Cell;
use std::fmt::Write;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

/// Properties of [`Timeline`].
#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    /// The run.
    pub run: RunId,
    /// What the run holds.
    pub view: Shared<Shown>,
    /// The bars of the visible lanes.
    pub bars: Shared<Vec<RowBars>>,
    /// The time window shown, ns.
    pub window: (Nanos, Nanos),
    /// Outline the blocking chain instead of ya's path.
    pub chain: bool,
    /// The selected task.
    pub selected: Option<u32>,
    /// The run replayed with the selected task faster: its path is drawn
    /// instead of the critical path, where its steps were as ghosts, and
    /// the replay's end beside the run's.
    #[prop_or_default]
    pub what_if: Option<Shared<WhatIfView>>,
    /// A SQL query's rows drawn above the lanes, if any.
    #[prop_or_default]
    pub track: Option<Shared<Track>>,
    /// The worker, to ask for bars and exports.
    pub worker: AnalysisWorker,
    /// Actions.
    pub dispatch: Callback<Action>,
}

fn r(x: f64) -> String {
    format!("{:.1}", (x * 10.0).round() / 10.0)
}

/// Properties of [`BarsLayer`].
#[derive(Properties, PartialEq)]
struct BarsLayerProps {
    view: Shared<Shown>,
    bars: Shared<Vec<RowBars>>,
    viewport: Viewport,
    selected: Option<u32>,
}

/// The bars: one SVG path per row and kind (a rectangle per bar in it), so
/// thousands of bars are a few hundred elements; the pointer finds bars by
/// position ([`bar_at`]). A component of its own, so hovering does not redraw them.
#[component]
fn BarsLayer(props: &BarsLayerProps) -> Html {
    let frame = Frame::new(&props.view.rows_per_lane);
    let (gx, viewport) = (frame.gutter, props.viewport);
    let x = |t: Nanos| (gx + viewport.x(t)).clamp(gx, gx + viewport.width);
    let h = r(frame.row - 2.0);
    let mut paths: Vec<Html> = Vec::new();
    let mut selected: Option<Html> = None;
    for row in props.bars.iter() {
        let y = r(frame.row_y(row.lane, row.row) + 1.0);
        let mut by_kind: Vec<(u32, String)> = Vec::new();
        for b in &row.bars {
            let (x0, x1) = (x(b.start), x(b.end));
            let w = r((x1 - x0).max(1.0));
            let d = match by_kind.iter_mut().find(|(k, _)| *k == b.kind) {
                Some((_, d)) => d,
                None => {
                    by_kind.push((b.kind, String::new()));
                    &mut by_kind.last_mut().expect("just pushed").1
                }
            };
            let _ = write!(d, "M{} {y}h{w}v{h}h-{w}z", r(x0));
            if b.task.is_some() && b.task == props.selected {
                selected = Some(
                    html! { <rect class="bar selected" x={r(x0)} y={y.clone()} width={w.clone()} height={h.clone()} /> },
                );
            }
        }
        for (kind, d) in by_kind {
            let k = props.view.kinds.get(kind as usize);
            let fill = palette::fill(k.and_then(|k| k.color.as_deref()), k.map_or("", |k| k.name.as_str()));
            paths.push(html! { <path class="bar" {d} fill={fill} /> });
        }
    }
    html! { <g class="bars">{ for paths }{ for selected }</g> }
}

/// The chart.
#[component]
pub fn Timeline(props: &TimelineProps) -> Html {
    let scroller = use_node_ref();
    let size = use_state(|| (FIRST_WIDTH, FIRST_HEIGHT, 0.0f64));
    let drag = use_mut_ref(|| None::<(f64, (Nanos, Nanos))>);
    let hover = use_state(|| None::<(f64, f64, String)>);
    let seq = use_mut_ref(|| Rc::new(Cell::new(0u32)));
    let frame = Frame::new(&props.view.rows_per_lane);
    let (width, height, top) = *size;
    let chart_w = (width - frame.gutter).max(200.0);
    let viewport = Viewport { start: props.window.0, end: props.window.1, width: chart_w };
    let lanes = frame.lanes_between(top - LANE_MARGIN, top + height + LANE_MARGIN);

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
    // Wheel: zoom around the cursor (Shift + wheel scrolls the lanes).
    {
        let (dispatch, gutter) = (props.dispatch.clone(), frame.gutter);
        crate::hooks::use_wheel(&scroller, (), move |e, target| {
            if e.shift_key() {
                target.set_scroll_top(target.scroll_top() + e.delta_y() as i32);
                return;
            }
            let rect = target.get_bounding_client_rect();
            let at = (f64::from(e.client_x()) - rect.left() - gutter) / (rect.width() - gutter).max(1.0);
            if (0.0..=1.0).contains(&at) {
                dispatch.emit(Action::Zoom { factor: 1.0015f64.powf(e.delta_y().clamp(-400.0, 400.0)), at });
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
    // What is under the pointer: a path step (its own element), else a bar found by position.
    let svg_ref = use_node_ref();
    let bar_at = {
        let (bars, svg_ref, frame) = (props.bars.clone(), svg_ref.clone(), frame.clone());
        Rc::new(move |e: &MouseEvent| -> Option<(Option<u32>, Option<Bar>, Option<String>)> {
            let target = e.target().and_then(|t| t.dyn_into::<Element>().ok())?;
            if let Some(task) = target.get_attribute("data-task").and_then(|v| v.parse::<u32>().ok()) {
                return Some((Some(task), None, target.get_attribute("data-tip")));
            }
            let rect = svg_ref.cast::<Element>()?.get_bounding_client_rect();
            let (x, y) = (f64::from(e.client_x()) - rect.left(), f64::from(e.client_y()) - rect.top());
            let b = *timeline::bar_at(&bars, &frame, viewport, x, y)?;
            Some((b.task, Some(b), None))
        })
    };
    let tip_of = {
        let (bar_at, view) = (bar_at.clone(), props.view.clone());
        move |e: &MouseEvent| -> Option<String> {
            let (_, bar, tip) = bar_at(e)?;
            if tip.is_some() {
                return tip;
            }
            let b = bar?;
            let kind = view.kinds.get(b.kind as usize).map_or("", |k| k.name.as_str());
            Some(match b.count {
                1 => format!("{kind} · {}", duration_label(b.end - b.start)),
                n => format!("{n} tasks · {}", duration_label(b.end - b.start)),
            })
        }
    };
    let onmousemove = {
        let (drag, dispatch, hover, svg_ref) = (drag.clone(), props.dispatch.clone(), hover.clone(), svg_ref.clone());
        Callback::from(move |e: MouseEvent| {
            let Some((x0, (a, b))) = *drag.borrow() else {
                let rect = svg_ref.cast::<Element>().map(|el| el.get_bounding_client_rect());
                let at = rect
                    .map_or((0.0, 0.0), |r| (f64::from(e.client_x()) - r.left(), f64::from(e.client_y()) - r.top()));
                let tip = tip_of(&e).map(|t| (at.0, at.1, t));
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
                dispatch.emit(Action::Select(bar_at(&e).and_then(|(task, _, _)| task)));
            }
        })
    };
    // Double-click fits a task in view.
    let ondblclick = {
        let (dispatch, bar_at, bars) = (props.dispatch.clone(), bar_at.clone(), props.bars.clone());
        Callback::from(move |e: MouseEvent| {
            let Some((Some(task), _, _)) = bar_at(&e) else { return };
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
    let what_if = props.what_if.as_ref().filter(|_| !props.chain);
    let path: &PathView = match what_if {
        Some(w) => &w.path,
        None if props.chain => &view.blocking_chain,
        None => &view.critical_path,
    };
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
    // The path: only steps in the visible lanes and time window; outlines
    // under 3 px, waits under 2 px and arrows under 6 px are too small to see
    // apart, so they join one shape each instead of being elements of their own.
    let lane_seen = |lane: u32| (lanes.start..lanes.end).contains(&(lane as usize));
    let in_window = |a: Nanos, b: Nanos| b >= viewport.start && a <= viewport.end;
    let (mut tiny, mut tiny_arrows) = (String::new(), String::new());
    let mut steps: Vec<Html> = Vec::new();
    for (i, step) in path.steps.iter().enumerate() {
        let (Some(start), Some(end)) = (step.start, step.end) else { continue };
        let prev = i.checked_sub(1).map(|p| &path.steps[p]).filter(|p| p.end.is_some());
        let seen = lane_seen(step.lane_index) || prev.is_some_and(|p| lane_seen(p.lane_index));
        let from = prev.and_then(|p| p.end).unwrap_or(start);
        if !seen || !in_window(from.min(start), end) {
            continue;
        }
        let y = frame.row_y(step.lane_index, step.row.unwrap_or(0));
        let (x0, x1) = (clamp(x(start)), clamp(x(end)));
        if x1 - x0 >= 3.0 {
            steps.push(html! {
                <rect class="path-step" x={r(x0)} y={r(y)} width={r(x1 - x0)} height={r(row_h)}
                    data-task={step.id.to_string()} data-tip={format!("{} · {}", step.label, duration_label(end - start))} />
            });
        } else {
            let _ =
                write!(tiny, "M{} {}h{}v{}h-{}z", r(x0), r(y), r((x1 - x0).max(1.0)), r(row_h), r((x1 - x0).max(1.0)));
        }
        let Some(prev) = prev else { continue };
        let prev_end = prev.end.unwrap_or(start);
        let (w0, w1) = (clamp(x(prev_end)), clamp(x(start)));
        if start > prev_end && w1 - w0 >= 2.0 {
            steps.push(html! {
                <g class="wait">
                    <rect x={r(w0)} y={r(y)} width={r(w1 - w0)} height={r(row_h)} fill="url(#wait)" />
                    <text x={r(w0 + 2.0)} y={r(y - 2.0)}>{ format!("wait {}", duration_label(start - prev_end)) }</text>
                </g>
            });
        }
        let (y0, y1) = (mid(prev.lane_index, prev.row), mid(step.lane_index, step.row));
        if (w1 - w0).hypot(y1 - y0) >= 6.0 {
            steps.push(html! {
                <line class="path-arrow" x1={r(w0)} y1={r(y0)} x2={r(w1)} y2={r(y1)} marker-end="url(#arrow)" />
            });
        } else {
            let _ = write!(tiny_arrows, "M{} {}L{} {}", r(w0), r(y0), r(w1), r(y1));
        }
    }
    if !tiny.is_empty() {
        steps.push(html! { <path class="path-step tiny" d={tiny} /> });
    }
    // The what-if: its moved steps' old places as faint outlines, and the
    // run's end and the replay's as lines.
    if let Some(w) = what_if {
        let mut ghosts = String::new();
        for (step, was) in w.path.steps.iter().zip(&w.was) {
            let Some((a, b)) = *was else { continue };
            if !lane_seen(step.lane_index) || !in_window(a, b) {
                continue;
            }
            let (x0, x1) = (clamp(x(a)), clamp(x(b)));
            let y = frame.row_y(step.lane_index, step.row.unwrap_or(0));
            let _ = write!(
                ghosts,
                "M{} {}h{}v{}h-{}z",
                r(x0),
                r(y),
                r((x1 - x0).max(1.0)),
                r(row_h),
                r((x1 - x0).max(1.0))
            );
        }
        if !ghosts.is_empty() {
            steps.push(html! { <path class="ghost" d={ghosts} data-testid="what-if-ghosts" /> });
        }
        for (class, end, testid, label) in [
            ("run-end", w.origin + w.wall, "run-end", "run's end"),
            ("what-if-end", w.origin + w.what_if_wall, "what-if-end", "what-if's end"),
        ] {
            if in_window(end, end) {
                let ex = r(x(end));
                steps.push(html! {
                    <g class={class} data-testid={testid}>
                        <line x1={ex.clone()} y1={r(frame.axis)} x2={ex.clone()} y2={r(svg_h)} />
                        <text x={r(x(end) - 4.0)} y={r(frame.axis + 12.0)} text-anchor="end">{ label }</text>
                    </g>
                });
            }
        }
    }
    if !tiny_arrows.is_empty() {
        steps.push(html! { <path class="path-arrow" d={tiny_arrows} /> });
    }

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
    // ya's builds have ya's path; other formats' paths are computed the same way.
    let ya = matches!(view.format, longpole_core::formats::ya::distbuild::ID | longpole_core::formats::ya::evlog::ID);
    html! {
        <div class="timeline">
            <div class="toolbar">
                if !view.without_paths() {
                    <div class="segmented" role="group" aria-label="Path shown">
                        <button class={classes!("button", (!props.chain).then_some("on"))} onclick={toggle.clone()} data-testid="show-critical-path"
                            title={if ya { "ya's critical path: the longest sum of durations" } else { "The critical path: the longest sum of durations through the dependencies" }}>
                            { if ya { "ya's critical path" } else { "critical path" } }</button>
                        <button class={classes!("button", props.chain.then_some("on"))} onclick={toggle} data-testid="show-blocking-chain"
                            title="What the build waited for: from the task that ended last, back through what became available last">{ "blocking chain" }</button>
                    </div>
                }
                <span class="window-label">{ format!("{} – {}", duration_label(viewport.start - origin), duration_label(viewport.end - origin)) }</span>
                <span class="spacer"></span>
                <button class="button" onclick={fit} title="Show the whole run">{ "Fit" }</button>
                <button class="button" onclick={export} data-testid="export-timeline-svg" title="Save the chart as a standalone SVG file">{ "⤓ SVG" }</button>
            </div>
            if let Some(track) = &props.track {
                <QueryTrack track={track.clone()} window={props.window} {origin} gutter={gx} width={chart_w}
                    selected={props.selected} dispatch={props.dispatch.clone()} />
            }
            <div class="chart-scroll" ref={scroller} {onscroll}>
                <svg class="chart" ref={svg_ref.clone()} width={r(gx + chart_w)} height={r(svg_h)} data-testid="timeline-chart"
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
