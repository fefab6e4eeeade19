//! A wheel listener that is not passive, so that a view can zoom on the
//! wheel while the page does not scroll meanwhile.

use gloo_events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::{Element, WheelEvent};
use yew::prelude::*;

/// Calls `handler` with each wheel event over `node` and the element, the
/// page's scrolling prevented; set up again whenever `deps` change.
#[hook]
pub fn use_wheel<D, F>(node: &NodeRef, deps: D, handler: F)
where
    D: PartialEq + 'static,
    F: Fn(&WheelEvent, &Element) + 'static,
{
    let node = node.clone();
    use_effect_with(deps, move |_| {
        let listener = node.cast::<Element>().map(|el| {
            EventListener::new_with_options(&el, "wheel", EventListenerOptions::enable_prevent_default(), move |e| {
                let Some(e) = e.dyn_ref::<WheelEvent>() else { return };
                let Some(target) = e.current_target().and_then(|t| t.dyn_into::<Element>().ok()) else { return };
                e.prevent_default();
                handler(e, &target);
            })
        });
        // Dropping the listener removes it.
        move || drop(listener)
    });
}
