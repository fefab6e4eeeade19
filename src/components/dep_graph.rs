//! The dependency graph: tasks in layers (what a task waited for on its
//! left), the path and its edges highlighted, copies as small nodes, big
//! graphs folded into groups per type that unfold on click. It opens on the
//! path ([`Camera::opening`]); the wheel zooms around the cursor, a drag
//! pans, `W`/`S`/`A`/`D` zoom and pan (the state applies them), Fit shows
//! everything and a double click fits a node. Only what the view shows is
//! drawn ([`graph_view`]), the edges as two paths, so a view of a big
//! graph costs what is on screen.

use crate::hooks::AnalysisWorker;
use crate::protocol::{Request, RunId};
use crate::shared::Shared;
use crate::shown::Shown;
use crate::state::Action;
use longpole_core::layout::graph::{GraphLayout, NODE_H, NODE_W};
use longpole_core::layout::graph_camera::Camera;
use longpole_core::layout::graph_view::{self, graph_view, GraphView};
use longpole_core::render::palette;
use web_sys::Element;
use yew::prelude::*;

/// Properties of [`DepGraph`].
#[derive(Properties, PartialEq)]
pub struct DepGraphProps {
    /// The run.
    pub run: RunId,
    /// What the run holds.
    pub view: Shared<Shown>,
    /// The layout, once the worker sent it.
    pub layout: Option<Shared<GraphLayout>>,
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
        use_effect_with((layout.as_ref().map(Shared::as_ptr), opened), move |_| {
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
        let (g, dispatch, drag, camera) = (g.clone(), props.dispatch.clone(), drag.clone(), props.camera);
        Callback::from(move |e: MouseEvent| {
            // The end of a drag is not a click.
            if drag.borrow_mut().take().is_some_and(|d| d.3) {
                return;
            }
            match node_under(&e, &g, camera).and_then(|i| g.nodes.get(i)) {
                Some(n) if n.task.is_some() => dispatch.emit(Action::Select(n.task)),
                Some(n) => dispatch.emit(Action::Unfold(n.kind)),
                None => {}
            }
        })
    };
    let ondblclick = {
        let (g, dispatch, frame, camera) = (g.clone(), props.dispatch.clone(), frame.clone(), props.camera);
        Callback::from(move |e: MouseEvent| {
            if let (Some(n), Some(size)) = (node_under(&e, &g, camera).and_then(|i| g.nodes.get(i)), size_of(&frame)) {
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
    let size = size_of(&frame);
    let (view_box, shown) = match (props.camera, size) {
        (Some(c), Some((w, h))) => (c.view_box(w, h), graph_view(&g, c, w, h)),
        // Not measured yet: the whole layout, drawn once the camera opens.
        _ => (format!("0 0 {} {}", r(g.width + 20.0), r(g.height + 20.0)), GraphView::default()),
    };
    let fill_of = |kind: u32| {
        let kind = view.kinds.get(kind as usize);
        palette::fill(kind.and_then(|k| k.color.as_deref()), kind.map_or("", |k| k.name.as_str()))
    };
    let node = |i: u32| {
        let n = &g.nodes[i as usize];
        let fill = fill_of(n.kind);
        let class = classes!(
            "node",
            n.on_path.then_some("on-path"),
            n.task.is_none().then_some("group"),
            (n.task.is_some() && n.task == props.selected).then_some("selected")
        );
        if n.small {
            return html! { <circle key={i} {class} cx={r(n.x)} cy={r(n.y)} r="4" fill={fill} data-node={i.to_string()} /> };
        }
        html! {
            <g key={i} {class} data-node={i.to_string()} data-task={n.task.map(|t| t.to_string())}>
                <rect x={r(n.x - NODE_W / 2.0)} y={r(n.y - NODE_H / 2.0)} width={r(NODE_W)} height={r(NODE_H)} rx="4" fill={fill} />
                if shown.labels {
                    <text x={r(n.x - NODE_W / 2.0 + 4.0)} y={r(n.y + 3.5)}>{ &n.label }</text>
                }
            </g>
        }
    };
    // Nodes drawn as blocks: the selected one still gets its own element, on top.
    let selected = (!shown.blocks.is_empty())
        .then(|| props.selected.and_then(|t| g.nodes.iter().position(|n| n.task == Some(t))))
        .flatten()
        .and_then(|i| u32::try_from(i).ok())
        .filter(|i| !shown.nodes.contains(i));
    let nodes = shown.nodes.iter().copied().chain(selected).map(node);
    let blocks = shown.blocks.iter().map(|b| {
        html! { <path class={classes!("block", b.group.then_some("group"), b.on_path.then_some("on-path"))} fill={fill_of(b.kind)} d={b.d.clone()} /> }
    });
    html! {
        <div class="dep-graph">
            <div class="toolbar">
                <span class="muted" data-testid="graph-summary">{ format!("{} nodes, {} edges", g.nodes.len(), g.edges.len()) }
                    if g.hidden > 0 {
                        { format!(" · {} tasks folded into groups (dashed): click a group to unfold it", crate::format::group(g.hidden as u64)) }
                    }
                    if shown.edges < shown.edges_in_view {
                        <span data-testid="graph-edges-left-out">
                            { format!(" · {} of the {} edges in view drawn (those between tasks in view first): zoom in for the rest", crate::format::group(shown.edges as u64), crate::format::group(shown.edges_in_view as u64)) }
                        </span>
                    }
                </span>
                <span class="spacer"></span>
                <button class="button" onclick={fit} data-testid="graph-fit" title="Show the whole graph (double-click a node to fit it)">{ "Fit" }</button>
                <button class="button" onclick={export} data-testid="export-graph-svg" title="Save the graph as a standalone SVG file">{ "⤓ SVG" }</button>
            </div>
            <div class="graph-frame" ref={frame}>
                <svg class="graph" width="100%" height="100%" viewBox={view_box} {onclick} {ondblclick} {onmousedown} {onmousemove}
                    data-testid="dep-graph" data-scale={props.camera.map(|c| format!("{:.4}", c.scale))}>
                    <g class="edges" data-drawn={shown.edges.to_string()}>
                        <path class="edge" d={shown.faint} />
                        <path class="edge on-path" d={shown.path} />
                    </g>
                    <g class="blocks">{ for blocks }</g>
                    <g class="nodes" data-drawn={(shown.nodes.len() + shown.blocks.iter().map(|b| b.count).sum::<usize>()).to_string()}>{ for nodes }</g>
                </svg>
            </div>
        </div>
    }
}

/// The index of the node under the pointer, if any: its element's, or,
/// for nodes drawn as blocks, the one at the pointer's place in the layout.
fn node_under(e: &MouseEvent, g: &GraphLayout, camera: Option<Camera>) -> Option<usize> {
    element_node(e).or_else(|| {
        let c = camera?;
        let svg = e.current_target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<Element>(t).ok())?;
        let rect = svg.get_bounding_client_rect();
        let (px, py) = (f64::from(e.client_x()) - rect.left(), f64::from(e.client_y()) - rect.top());
        graph_view::node_at(g, c.x + px / c.scale, c.y + py / c.scale)
    })
}

/// The index of the node whose element is under the pointer, if any.
fn element_node(e: &MouseEvent) -> Option<usize> {
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
