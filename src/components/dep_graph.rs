//! The dependency graph: tasks in layers (what a task waited for on its
//! left), the path and its edges highlighted, copies as small nodes, big
//! graphs folded into groups per type that unfold on click. It opens on the
//! path ([`Camera::opening`]); the wheel zooms around the cursor, a drag
//! pans, `W`/`S`/`A`/`D` zoom and pan (the state applies them), Fit shows
//! everything and a double click fits a node.

use crate::hooks::AnalysisWorker;
use crate::protocol::{Request, RunId};
use crate::state::Action;
use longpole_core::layout::graph::{GraphLayout, NODE_H, NODE_W};
use longpole_core::layout::graph_camera::Camera;
use longpole_core::render::palette;
use longpole_core::view::RunView;
use std::rc::Rc;
use web_sys::Element;
use yew::prelude::*;

/// Properties of [`DepGraph`].
#[derive(Properties, PartialEq)]
pub struct DepGraphProps {
    /// The run.
    pub run: RunId,
    /// What the run holds.
    pub view: Rc<RunView>,
    /// The layout, once the worker sent it.
    pub layout: Option<Rc<GraphLayout>>,
    /// Around the blocking chain instead of ya's path.
    pub chain: bool,
    /// Unfolded groups.
    pub unfold: Vec<u32>,
    /// Where the view looks, once it opened.
    pub camera: Option<Camera>,
    /// The selected task.
    pub selected: Option<u32>,
    /// The worker.
    pub worker: AnalysisWorker,
    /// Actions.
    pub dispatch: Callback<Action>,
}

fn r(x: f64) -> String {
    format!("{:.1}", (x * 10.0).round() / 10.0)
}

/// The graph view.
#[component]
pub fn DepGraph(props: &DepGraphProps) -> Html {
    let frame = use_node_ref();
    {
        let (worker, run, chain, unfold, missing) =
            (props.worker.clone(), props.run, props.chain, props.unfold.clone(), props.layout.is_none());
        use_effect_with((run, chain, unfold.clone(), missing), move |_| {
            if missing {
                worker.send(&Request::Graph { run, unfold, chain, export: false }, &[]);
            }
        });
    }
    // Open on the path once the layout is here and the view measured.
    {
        let (frame, layout, dispatch, opened) =
            (frame.clone(), props.layout.clone(), props.dispatch.clone(), props.camera.is_some());
        use_effect_with((layout.as_ref().map(Rc::as_ptr), opened), move |_| {
            if let (Some(g), Some(size), false) = (layout, size_of(&frame), opened) {
                dispatch.emit(Action::GraphCamera(Camera::opening(&g, size.0, size.1), size));
            }
        });
    }
    // The wheel zooms around the cursor.
    {
        let (camera, dispatch, frame2) = (props.camera, props.dispatch.clone(), frame.clone());
        crate::hooks::use_wheel(&frame, camera, move |e, target| {
            let (Some(c), Some(size)) = (camera, size_of(&frame2)) else { return };
            let rect = target.get_bounding_client_rect();
            let (x, y) = (f64::from(e.client_x()) - rect.left(), f64::from(e.client_y()) - rect.top());
            let factor = 1.0015f64.powf(-e.delta_y().clamp(-400.0, 400.0));
            dispatch.emit(Action::GraphCamera(c.zoom_at(factor, x, y), size));
        });
    }
    let Some(g) = props.layout.clone() else {
        return html! { <p class="muted" data-testid="graph-loading">{ "Laying out the graph…" }</p> };
    };
    let drag = use_mut_ref(|| None::<(f64, f64, Camera, bool)>);
    let onclick = {
        let (g, dispatch, drag) = (g.clone(), props.dispatch.clone(), drag.clone());
        Callback::from(move |e: MouseEvent| {
            // The end of a drag is not a click.
            if drag.borrow_mut().take().is_some_and(|d| d.3) {
                return;
            }
            match node_at(&e).and_then(|i| g.nodes.get(i)) {
                Some(n) if n.task.is_some() => dispatch.emit(Action::Select(n.task)),
                Some(n) => dispatch.emit(Action::Unfold(n.kind)),
                None => {}
            }
        })
    };
    let ondblclick = {
        let (g, dispatch, frame) = (g.clone(), props.dispatch.clone(), frame.clone());
        Callback::from(move |e: MouseEvent| {
            if let (Some(n), Some(size)) = (node_at(&e).and_then(|i| g.nodes.get(i)), size_of(&frame)) {
                dispatch.emit(Action::GraphCamera(Camera::on_node(n, size.0, size.1), size));
            }
        })
    };
    let onmousedown = {
        let (drag, camera) = (drag.clone(), props.camera);
        Callback::from(move |e: MouseEvent| {
            if let (0, Some(c)) = (e.button(), camera) {
                *drag.borrow_mut() = Some((f64::from(e.client_x()), f64::from(e.client_y()), c, false));
            }
        })
    };
    let onmousemove = {
        let (drag, dispatch, frame) = (drag.clone(), props.dispatch.clone(), frame.clone());
        Callback::from(move |e: MouseEvent| {
            let mut d = drag.borrow_mut();
            let Some((x0, y0, c, moved)) = d.as_mut() else { return };
            if e.buttons() & 1 == 0 {
                *d = None;
                return;
            }
            let (dx, dy) = (f64::from(e.client_x()) - *x0, f64::from(e.client_y()) - *y0);
            if *moved || dx.abs() + dy.abs() >= 3.0 {
                *moved = true;
                if let Some(size) = size_of(&frame) {
                    dispatch.emit(Action::GraphCamera(c.pan(dx, dy), size));
                }
            }
        })
    };
    let fit = {
        let (g, dispatch, frame) = (g.clone(), props.dispatch.clone(), frame.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(size) = size_of(&frame) {
                dispatch.emit(Action::GraphCamera(Camera::everything(&g, size.0, size.1), size));
            }
        })
    };
    let export = {
        let (worker, run, chain, unfold) = (props.worker.clone(), props.run, props.chain, props.unfold.clone());
        Callback::from(move |_: MouseEvent| {
            worker.send(&Request::Graph { run, unfold: unfold.clone(), chain, export: true }, &[]);
        })
    };
    let view = &props.view;
    let view_box = match (props.camera, size_of(&frame)) {
        (Some(c), Some((w, h))) => c.view_box(w, h),
        _ => format!("0 0 {} {}", r(g.width + 20.0), r(g.height + 20.0)),
    };
    let edges = g.edges.iter().map(|e| {
        let (a, b) = (&g.nodes[e.from as usize], &g.nodes[e.to as usize]);
        let x1 = a.x - if a.small { 4.0 } else { NODE_W / 2.0 };
        let x2 = b.x + if b.small { 4.0 } else { NODE_W / 2.0 };
        let mid = (x1 + x2) / 2.0;
        let d = format!("M{} {} C{} {} {} {} {} {}", r(x1), r(a.y), r(mid), r(a.y), r(mid), r(b.y), r(x2), r(b.y));
        html! { <path class={classes!("edge", e.on_path.then_some("on-path"))} {d} /> }
    });
    let nodes = g.nodes.iter().enumerate().map(|(i, n)| {
        let kind = view.kinds.get(n.kind as usize);
        let fill = palette::fill(kind.and_then(|k| k.color.as_deref()), kind.map_or("", |k| k.name.as_str()));
        let class = classes!("node", n.on_path.then_some("on-path"), n.task.is_none().then_some("group"), (n.task.is_some() && n.task == props.selected).then_some("selected"));
        if n.small {
            return html! { <circle {class} cx={r(n.x)} cy={r(n.y)} r="4" fill={fill} data-node={i.to_string()} /> };
        }
        html! {
            <g {class} data-node={i.to_string()} data-task={n.task.map(|t| t.to_string())}>
                <rect x={r(n.x - NODE_W / 2.0)} y={r(n.y - NODE_H / 2.0)} width={r(NODE_W)} height={r(NODE_H)} rx="4" fill={fill} />
                <text x={r(n.x - NODE_W / 2.0 + 4.0)} y={r(n.y + 3.5)}>{ &n.label }</text>
            </g>
        }
    });
    html! {
        <div class="dep-graph">
            <div class="toolbar">
                <span class="muted" data-testid="graph-summary">{ format!("{} nodes, {} edges", g.nodes.len(), g.edges.len()) }
                    if g.hidden > 0 {
                        { format!(" · {} tasks folded into groups (dashed): click a group to unfold it", crate::format::group(g.hidden as u64)) }
                    }
                </span>
                <span class="spacer"></span>
                <button class="button" onclick={fit} data-testid="graph-fit" title="Show the whole graph (double-click a node to fit it)">{ "Fit" }</button>
                <button class="button" onclick={export} data-testid="export-graph-svg" title="Save the graph as a standalone SVG file">{ "⤓ SVG" }</button>
            </div>
            <div class="graph-frame" ref={frame}>
                <svg class="graph" width="100%" height="100%" viewBox={view_box} {onclick} {ondblclick} {onmousedown} {onmousemove}
                    data-testid="dep-graph" data-scale={props.camera.map(|c| format!("{:.4}", c.scale))}>
                    <g class="edges">{ for edges }</g>
                    <g class="nodes">{ for nodes }</g>
                </svg>
            </div>
        </div>
    }
}

/// The index of the node under the pointer, if any.
fn node_at(e: &MouseEvent) -> Option<usize> {
    e.target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<Element>(t).ok())
        .and_then(|el| el.closest("[data-node]").ok().flatten())
        .and_then(|el| el.get_attribute("data-node"))
        .and_then(|v| v.parse::<usize>().ok())
}

/// The view's size in px, once it is laid out.
pub fn size_of(frame: &NodeRef) -> Option<(f64, f64)> {
    let el = frame.cast::<Element>()?;
    let (w, h) = (f64::from(el.client_width()), f64::from(el.client_height()));
    (w > 0.0 && h > 0.0).then_some((w, h))
}
