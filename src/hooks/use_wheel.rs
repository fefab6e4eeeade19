//! A wheel listener that is not passive, so that a view can zoom on the
//! wheel while the page does not scroll meanwhile.

use wasm_bindgen::closure::Closure;
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
        let el = node.cast::<Element>();
        let listener = Closure::<dyn FnMut(WheelEvent)>::new(move |e: WheelEvent| {
            let Some(target) = e.current_target().and_then(|t| t.dyn_into::<Element>().ok()) else { return };
            e.prevent_default();
            handler(&e, &target);
        });
        let options = web_sys::AddEventListenerOptions::new();
        options.set_passive(false);
        if let Some(el) = &el {
            // Adding a listener to a live element does not fail.
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
