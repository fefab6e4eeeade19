//! The frame's end of the embed protocol in the browser: it says `ready`
//! to its parent window (only at the origins the hash allows), takes the
//! `MessagePort` the host hands over in its one `connect` message (only
//! from the parent window and an allowed origin: everything else is
//! ignored), and posts replies and events on that port.

use gloo_events::EventListener;
use js_sys::{Array, ArrayBuffer, Object, Reflect};
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Blob, File, MessageEvent, MessagePort};

/// The host's port, once handed over; messages posted before are dropped
/// (the host hears the state then by asking).
#[derive(Clone, Default)]
pub struct Port(Rc<RefCell<Option<MessagePort>>>);

impl Port {
    /// Posts `message` (JSON) to the host; false if there is no host yet
    /// or the message could not be posted.
    pub fn post(&self, message: &Value) -> bool {
        let Some(port) = self.0.borrow().clone() else { return false };
        match js_sys::JSON::parse(&message.to_string()) {
            Ok(value) => port.post_message(&value).is_ok(),
            Err(_) => false,
        }
    }

    /// Whether a host is connected.
    pub fn connected(&self) -> bool {
        self.0.borrow().is_some()
    }
}

/// Says `ready` to the parent window at each allowed origin (a parent at
/// another origin never sees it), and hands the port of the first
/// `connect` from the parent at an allowed origin to `port`: then
/// `on_connect` runs, and `on_message` gets each message on that port.
/// Returns the listener, to be dropped when the page goes.
pub fn open(
    origins: Vec<String>,
    port: Port,
    on_connect: Rc<dyn Fn()>,
    on_message: Rc<dyn Fn(JsValue)>,
) -> Option<EventListener> {
    let window = web_sys::window()?;
    let parent = window.parent().ok().flatten()?;
    if Object::is(&parent, &window) {
        return None;
    }
    let hello = js_sys::JSON::parse(r#"{"longpole":1,"type":"ready"}"#).ok()?;
    let listener = {
        let (parent, origins) = (parent.clone(), origins.clone());
        EventListener::new(&window, "message", move |event| {
            let Some(event) = event.dyn_ref::<MessageEvent>() else { return };
            let from_parent = event.source().is_some_and(|s| Object::is(&s, &parent));
            if !from_parent || !origins.contains(&event.origin()) || port.connected() {
                return;
            }
            let data = event.data();
            let field = |k: &str| Reflect::get(&data, &JsValue::from_str(k)).ok();
            let is_connect = field("longpole").and_then(|v| v.as_f64()) == Some(1.0)
                && field("type").and_then(|v| v.as_string()).as_deref() == Some("connect");
            let Some(p) = event.ports().get(0).dyn_into::<MessagePort>().ok().filter(|_| is_connect) else { return };
            let on_message = on_message.clone();
            let handler = EventListener::new(&p, "message", move |e| {
                if let Some(e) = e.dyn_ref::<MessageEvent>() {
                    on_message(e.data())
                }
            });
            // The port lives as long as the page: so does its handler. A
            // port listened to with addEventListener starts only when told.
            handler.forget();
            p.start();
            *port.0.borrow_mut() = Some(p);
            on_connect();
        })
    };
    for origin in &origins {
        // An origin the parent does not have drops the hello silently.
        let _ = parent.post_message(&hello, origin);
    }
    Some(listener)
}

/// The files of a `load` request's message, made `File`s (as a drop gives
/// them) from a `File`, `Blob`, `ArrayBuffer` or typed array each; or
/// which one is not bytes.
pub fn files(message: &JsValue) -> Result<Vec<File>, String> {
    let list = Reflect::get(message, &JsValue::from_str("files"))
        .ok()
        .and_then(|l| l.dyn_into::<Array>().ok())
        .ok_or("a load request without a `files` array")?;
    let mut files = Vec::with_capacity(list.length() as usize);
    for (i, entry) in list.iter().enumerate() {
        let name = Reflect::get(&entry, &JsValue::from_str("name")).ok().and_then(|n| n.as_string());
        let name = name.ok_or(format!("file {} has no name", i + 1))?;
        let data = Reflect::get(&entry, &JsValue::from_str("data")).unwrap_or(JsValue::UNDEFINED);
        let bytes =
            data.is_instance_of::<Blob>() || data.is_instance_of::<ArrayBuffer>() || ArrayBuffer::is_view(&data);
        if !bytes {
            return Err(format!("{name}: its data is not a File, a Blob, an ArrayBuffer or a typed array"));
        }
        let file = File::new_with_blob_sequence(&Array::of1(&data), &name)
            .map_err(|_| format!("{name}: the browser could not make a file of its bytes"))?;
        files.push(file);
    }
    if files.is_empty() {
        return Err("a load request with no files".into());
    }
    Ok(files)
}
