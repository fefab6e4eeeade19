//! Keeps the app's shell for offline use: registers the service worker
//! (`sw.js`, beside the page, so its scope is the app's own directory)
//! where the browser allows one, and turns what it tells the page into a
//! [`ShellNotice`].
//!
//! It registers only once the page has been quiet (no run being read) for
//! [`QUIET_MS`]: on a first visit the worker's install fetches and checks
//! the whole shell, and on two cores that took a core from the first run
//! (a dbt run of 5,000 models drawn 1.2 s after it was given, 0.8 s with
//! the install out of the way; docs/numbers.md).

use crate::offline::{ShellEvent, ShellNotice};
use crate::worker_io::js_error;
use gloo_timers::callback::Timeout;
use js_sys::Reflect;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{MessageEvent, ServiceWorkerContainer};
use yew::prelude::*;

/// The service worker's script, relative to the page so any base path works.
const SW_URL: &str = "./sw.js";
/// How long the page is quiet before the service worker is registered, ms.
const QUIET_MS: u32 = 2000;

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

/// Starts the offline copy once the page has been quiet a while (`busy`:
/// a run is being read); gives what the page should say about it.
#[hook]
pub fn use_offline_shell(busy: bool) -> UseStateHandle<Option<ShellNotice>> {
    let notice = use_state(|| None);
    // `Some` once registration was tried (holding the listener where there is one).
    let started = use_mut_ref(|| None::<Option<Listener>>);
    {
        let set = notice.setter();
        use_effect_with(busy, move |busy| {
            let timer = (!*busy && started.borrow().is_none())
                .then(|| Timeout::new(QUIET_MS, move || *started.borrow_mut() = Some(start(set))));
            move || drop(timer)
        });
    }
    notice
}
