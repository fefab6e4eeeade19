//! Page-wide keyboard shortcuts, as in Perfetto and speedscope.

use gloo_events::EventListener;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

/// Calls `on_key` with the key of every keydown outside text fields.
///
/// The listener is installed once; it always calls the `on_key` of the
/// latest render, so the callback may capture current state.
#[hook]
pub fn use_keys(on_key: Callback<String>) {
    let latest = use_mut_ref(|| on_key.clone());
    *latest.borrow_mut() = on_key;
    use_effect_with((), move |_| {
        let document = web_sys::window().and_then(|w| w.document());
        let listener = document.map(|d| {
            EventListener::new(&d, "keydown", move |e| {
                let Some(e) = e.dyn_ref::<KeyboardEvent>() else { return };
                if e.ctrl_key() || e.meta_key() || e.alt_key() {
                    return;
                }
                let typing = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
                if !typing {
                    let on_key = latest.borrow().clone();
                    on_key.emit(e.key());
                }
            })
        });
        // Dropping the listener removes it.
        move || drop(listener)
    });
}
