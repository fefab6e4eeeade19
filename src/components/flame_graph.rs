//! A run's flame graph (or icicle): an evobench run's call paths, a
//! profile's operators, a trace's stacks; each frame as wide as its total
//! for the chosen measure, the hottest path outlined. A click zooms into a
//! frame; the breadcrumb zooms out. The worker keeps the graph and sends
//! the frames laid out, with what they show ([`FlameLayout`]).

use super::measure_pick::MeasurePick;
use crate::hooks::AnalysisWorker;
use crate::protocol::{Export, Request, RunId};
use crate::shared::Shared;
use crate::state::{Action, FlameView};
use longpole_core::render::flame_svg::{fit_label, frame_fill, FRAME_H, WIDTH};
use longpole_core::view::FlameLayout;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Properties of [`FlameGraph`].
#[derive(Properties, PartialEq)]
pub struct FlameGraphProps {
    /// The run.
    pub run: RunId,
    /// How it is shown.
    pub flame: FlameView,
    /// The last frames laid out, with the timing kind and root they are for.
    pub layout: Option<(u8, u32, Shared<FlameLayout>)>,
    /// The worker.
    pub worker: AnalysisWorker,
    /// Actions.
    pub dispatch: Callback<Action>,
}

/// The flame graph view.
#[component]
pub fn FlameGraph(props: &FlameGraphProps) -> Html {
    let f = props.flame;
    {
        let laid_out = props.layout.as_ref().map(|(kind, root, _)| (*kind, *root));
        let (worker, run, missing) = (props.worker.clone(), props.run, laid_out != Some((f.kind, f.root)));
        use_effect_with((run, f.kind, f.root, missing), move |&(run, kind, root, missing)| {
            if missing {
                worker.send(&Request::Flame { run, kind, root, icicle: false, export: false }, &[]);
            }
        });
    }
    let Some(layout) = props.layout.as_ref().map(|(_, _, l)| &**l) else {
        return html! { <p class="muted">{ "Laying out the flame graph…" }</p> };
    };
    let m = usize::from(f.kind);
    let Some(measure) = layout.measures.get(m) else { return html! {} };
    let show = |v: Option<u64>| v.map_or("-".to_owned(), |v| measure.unit.show(v));
    let set = |view: FlameView| props.dispatch.reform(move |_: MouseEvent| Action::Flame(view));
    let measures: Vec<(AttrValue, AttrValue)> =
        layout.measures.iter().map(|k| (k.name.clone().into(), k.title.clone().into())).collect();
    let pick = props.dispatch.reform(move |i: usize| Action::Flame(FlameView { kind: i as u8, root: 0, ..f }));
    let (worker, run) = (props.worker.clone(), props.run);
    let export_svg = {
        let worker = worker.clone();
        Callback::from(move |_: MouseEvent| {
            worker.send(&Request::Flame { run, kind: f.kind, root: f.root, icicle: f.icicle, export: true }, &[]);
        })
    };
    let export_folded = Callback::from(move |_: MouseEvent| {
        worker.send(&Request::Export { run, what: Export::Folded(f.kind) }, &[]);
    });
    let root_total = layout.root_total.unwrap_or(0);
    let frames = &layout.frames;
    // One listener for every frame (a deep trace lays out 100,000 and more):
    // the frame clicked is the nearest `g` with a `data-node`.
    let on_frame = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: MouseEvent| {
            let node = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|el| el.closest("g[data-node]").ok().flatten())
                .and_then(|g| g.get_attribute("data-node"))
                .and_then(|n| n.parse::<u32>().ok());
            if let Some(root) = node {
                dispatch.emit(Action::Flame(FlameView { root, ..f }));
            }
        })
    };
    let body = if frames.is_empty() {
        html! { <p class="muted" data-testid="flame-empty">{ format!("This run has no {} values.", measure.title) }</p> }
    } else {
        let depth = frames.iter().map(|fr| fr.place.depth + 1).max().unwrap_or(1);
        let h = f64::from(depth) * FRAME_H;
        html! {
            <svg class="flame" viewBox={format!("0 0 {WIDTH} {h}")} width="100%" role="img" data-testid="flame-graph"
                aria-label={format!("flame graph of {}", measure.title)} onclick={on_frame}>
                { for frames.iter().map(|n| {
                    let b = &n.place;
                    let y = if f.icicle { f64::from(b.depth) * FRAME_H } else { h - f64::from(b.depth + 1) * FRAME_H };
                    let (x, w) = (b.x * WIDTH, (b.width * WIDTH).max(0.5));
                    let total = show(n.total);
                    let own = show(n.self_time);
                    let share = n.total.unwrap_or(0) as f64 * 100.0 / root_total.max(1) as f64;
                    html! {
                        <g class={classes!("frame", b.hot.then_some("hot"))} data-node={b.node.to_string()} data-testid="flame-frame"
                            data-name={n.name.clone()} data-hot={b.hot.to_string()}>
                            <title>{ format!("{}\ntotal {total} ({share:.1}%), self {own}", if n.path.is_empty() { &n.name } else { &n.path }) }</title>
                            <rect x={format!("{x:.1}")} y={format!("{y:.1}")} width={format!("{w:.1}")} height={format!("{}", FRAME_H - 1.0)}
                                fill={frame_fill(&n.name, n.grouping)} />
                            if let Some(label) = fit_label(&n.name, w - 6.0) {
                                <text x={format!("{:.1}", x + 3.0)} y={format!("{:.1}", y + 12.5)}>{ label }</text>
                            }
                        </g>
                    }
                }) }
            </svg>
        }
    };
    html! {
        <div class="flame-view">
            <div class="toolbar">
                <MeasurePick {measures} on={m} hook="flame-kind-" {pick} />
                <div class="segmented" role="group" aria-label="Direction">
                    <button class={classes!("button", (!f.icicle).then_some("on"))} onclick={set(FlameView { icicle: false, ..f })}
                        data-testid="flame-direction-flame" title="The run at the bottom, callees above">{ "flame" }</button>
                    <button class={classes!("button", f.icicle.then_some("on"))} onclick={set(FlameView { icicle: true, ..f })}
                        data-testid="flame-direction-icicle" title="The run at the top, callees below">{ "icicle" }</button>
                </div>
                <span class="spacer"></span>
                <button class="button" onclick={export_folded} data-testid="export-folded" title="Folded stacks for inferno or FlameGraph">{ "⤓ folded" }</button>
                <button class="button" onclick={export_svg} data-testid="export-flame-svg">{ "⤓ SVG" }</button>
            </div>
            <p class="crumbs" data-testid="flame-crumbs">
                <button class="link" onclick={set(FlameView { root: 0, ..f })} disabled={f.root == 0}>{ "all" }</button>
                { for layout.crumbs.iter().map(|c| html! { <>{ " › " }<span>{ c }</span></> }) }
                { format!(" · {} · hottest path outlined · click a frame to zoom", show(Some(root_total))) }
            </p>
            { body }
            if layout.warning_count > 0 {
                <details class="flame-warnings"><summary>{ format!("{} frames whose children exceed them (self time shown as 0)", layout.warning_count) }</summary>
                    <ul>{ for layout.warnings.iter().map(|w| html! { <li>{ w }</li> }) }</ul>
                </details>
            }
        </div>
    }
}
