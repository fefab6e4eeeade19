//! The dependency graph: tasks in layers (what a task waited for on its
//! left), the path and its edges highlighted, copies as small nodes, big
//! graphs folded into groups per type that unfold on click.

use crate::hooks::AnalysisWorker;
use crate::protocol::{Request, RunId};
use crate::state::Action;
use longpole_core::layout::graph::{GraphLayout, NODE_H, NODE_W};
use longpole_core::render::palette;
use longpole_core::view::RunView;
use std::rc::Rc;
use web_sys::{Element, HtmlElement};
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
    let scroller = use_node_ref();
    {
        let (worker, run, chain, unfold, missing) =
            (props.worker.clone(), props.run, props.chain, props.unfold.clone(), props.layout.is_none());
        use_effect_with((run, chain, unfold.clone(), missing), move |_| {
            if missing {
                worker.send(&Request::Graph { run, unfold, chain, export: false }, &[]);
            }
        });
    }
    // Bring the selected task into view.
    {
        let (scroller, layout, selected) = (scroller.clone(), props.layout.clone(), props.selected);
        use_effect_with((selected, layout.as_ref().map(|l| l.nodes.len())), move |_| {
            let node = layout.as_ref().and_then(|l| l.nodes.iter().find(|n| n.task.is_some() && n.task == selected));
            if let (Some(n), Some(el)) = (node, scroller.cast::<HtmlElement>()) {
                let (w, h) = (f64::from(el.client_width()), f64::from(el.client_height()));
                el.set_scroll_left((n.x - w / 2.0).max(0.0) as i32);
                el.set_scroll_top((n.y - h / 2.0).max(0.0) as i32);
            }
        });
    }
    let Some(g) = props.layout.clone() else {
        return html! { <p class="muted" data-testid="graph-loading">{ "Laying out the graph…" }</p> };
    };
    let onclick = {
        let (g, dispatch) = (g.clone(), props.dispatch.clone());
        Callback::from(move |e: MouseEvent| {
            let index = e
                .target()
                .and_then(|t| wasm_bindgen::JsCast::dyn_into::<Element>(t).ok())
                .and_then(|el| el.closest("[data-node]").ok().flatten())
                .and_then(|el| el.get_attribute("data-node"))
                .and_then(|v| v.parse::<usize>().ok());
            match index.and_then(|i| g.nodes.get(i)) {
                Some(n) if n.task.is_some() => dispatch.emit(Action::Select(n.task)),
                Some(n) => dispatch.emit(Action::Unfold(n.kind)),
                None => {}
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
                <button class="button" onclick={export} data-testid="export-graph-svg" title="Save the graph as a standalone SVG file">{ "⤓ SVG" }</button>
            </div>
            <div class="graph-scroll" ref={scroller}>
                <svg class="graph" width={r(g.width + 20.0)} height={r(g.height + 20.0)} {onclick} data-testid="dep-graph">
                    <g class="edges">{ for edges }</g>
                    <g class="nodes">{ for nodes }</g>
                </svg>
            </div>
        </div>
    }
}
