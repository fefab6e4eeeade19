//! Keeps the app's shell for offline use: registers the service worker
//! (`sw.js`, beside the page, so its scope is the app's own directory)
//! where the browser allows one, and turns what it tells the page into a
//! [`ShellNotice`].

use crate::offline::{ShellEvent, ShellNotice};
use crate::worker_io::js_error;
use js_sys::Reflect;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{MessageEvent, ServiceWorkerContainer};
use yew::prelude::*;

/// The service worker's script, relative to the page so any base path works.
const SW_URL: &str = "./sw.js";

/// The page's own script as `boot.js` names it (`data-longpole-js`), relative to the app's directory.
fn page_script() -> Option<String> {
    let document = web_sys::window()?.document()?;
    document.query_selector("script[data-longpole-js]").ok()??.get_attribute("data-longpole-js")
}

/// The notice for one message of the service worker.
fn notice_of(data: JsValue, page_script: Option<&str>) -> ShellNotice {
    let Some(text) = data.as_string() else {
        return ShellNotice::BadMessage { error: "not JSON text".into() };
    };
    match serde_json::from_str::<ShellEvent>(&text) {
        Ok(event) => ShellNotice::of_event(event, page_script),
        Err(e) => ShellNotice::BadMessage { error: e.to_string() },
    }
}

/// Registers the service worker and listens to it; `None` where this
/// page cannot have one (a file:// page, an insecure context), which is
/// said once on the console.
fn start(set: UseStateSetter<Option<ShellNotice>>) -> Option<Listener> {
    let window = web_sys::window()?;
    let navigator = window.navigator();
    let has_container = Reflect::has(&navigator, &"serviceWorker".into()).unwrap_or(false);
    if !window.is_secure_context() || !has_container {
        let protocol = window.location().protocol().unwrap_or_default();
        web_sys::console::info_1(
            &format!(
                "longpole: no offline copy here: service workers need a secure context (https, or http on localhost), and this page is {protocol}"
            )
            .into(),
        );
        return None;
    }
    let container = navigator.service_worker();
    let on_message = {
        let (set, script) = (set.clone(), page_script());
        Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            set.set(Some(notice_of(e.data(), script.as_deref())))
        })
    };
    container.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    let registered = JsFuture::from(container.register(SW_URL));
    spawn_local(async move {
        if let Err(e) = registered.await {
            set.set(Some(ShellNotice::NotRegistered { reason: js_error(e) }));
        }
    });
    Some(Listener { container, _on_message: on_message })
}

/// The page's listener on its service worker's messages, removed when dropped.
struct Listener {
    container: ServiceWorkerContainer,
    /// The handler the container calls, alive as long as it is set.
    _on_message: Closure<dyn FnMut(MessageEvent)>,
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.container.set_onmessage(None);
    }
}

/// Starts the offline copy on first render; gives what the page should say about it.
#[hook]
pub fn use_offline_shell() -> UseStateHandle<Option<ShellNotice>> {
    let notice = use_state(|| None);
    {
        let set = notice.setter();
        use_effect_with((), move |_| {
            let listener = start(set);
            move || drop(listener)
        });
    }
    notice
}
