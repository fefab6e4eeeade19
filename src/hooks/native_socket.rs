//! The page's line to a `longpole open --native` server (docs/native.md):
//! when the link says `native=1`, the analysis worker's requests go over
//! the server's WebSocket, with the link's token as the subprotocol
//! `longpole.<token>`, and its answers come back as the worker's JSON; a
//! made file comes as a JSON header and then a binary frame of its bytes.

use super::worker_link::Link;
use crate::link;
use crate::protocol::FILE_MESSAGE;
use crate::state::Action;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{BinaryType, CloseEvent, MessageEvent, WebSocket};
use yew::Callback;

/// The socket's path on the server (the CLI's `socket::PATH`).
const PATH: &str = "_longpole/ws";

/// The token of the page's link if the link says its server analyses the
/// inputs (`native=1`).
pub fn native_token() -> Option<String> {
    let hash = web_sys::window()?.location().hash().ok()?;
    link::parse(&hash).ok().filter(|l| l.native)?.token
}

/// An open socket and its handlers (removed when dropped).
pub struct NativeSocket {
    socket: WebSocket,
    _handlers: [Closure<dyn FnMut(JsValue)>; 3],
}

impl Drop for NativeSocket {
    fn drop(&mut self) {
        self.socket.set_onopen(None);
        self.socket.set_onmessage(None);
        self.socket.set_onclose(None);
        let _ = self.socket.close();
    }
}

/// A made file's header, until its bytes come.
struct Header {
    name: String,
    mime: String,
}

/// Opens the socket of the server that served this page with `token`;
/// `link` is told once it is open, each answer but a file goes to
/// `on_json`, and a failure to `dispatch`.
pub fn open(
    token: &str,
    link: Rc<RefCell<Link>>,
    on_json: Rc<dyn Fn(String)>,
    dispatch: Callback<Action>,
) -> Result<NativeSocket, String> {
    let location = web_sys::window().ok_or("no window")?.location();
    let scheme = if location.protocol().ok().as_deref() == Some("https:") { "wss" } else { "ws" };
    let host = location.host().map_err(|_| "the page has no host")?;
    let url = format!("{scheme}://{host}/{PATH}");
    let socket = WebSocket::new_with_str(&url, &format!("longpole.{token}"))
        .map_err(|_| format!("this browser could not open the longpole process's socket ({url})"))?;
    socket.set_binary_type(BinaryType::Arraybuffer);
    let on_open = {
        let link = link.clone();
        Closure::<dyn FnMut(JsValue)>::new(move |_| link.borrow_mut().ready())
    };
    let on_message = {
        let (dispatch, header) = (dispatch.clone(), RefCell::new(None::<Header>));
        Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
            let data = event.unchecked_into::<MessageEvent>().data();
            let Some(text) = data.as_string() else {
                let bytes = js_sys::Uint8Array::new(&data);
                let saved = match header.borrow_mut().take() {
                    Some(h) => crate::download::download_array(&h.name, &h.mime, &bytes),
                    None => Err("the longpole process sent a file without its name; please report this".into()),
                };
                if let Err(e) = saved {
                    dispatch.emit(Action::Failed(e));
                }
                return;
            };
            match file_header(&text) {
                Some(h) => *header.borrow_mut() = Some(h),
                None => on_json(text),
            }
        })
    };
    let on_close = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
        let code = event.unchecked_into::<CloseEvent>().code();
        dispatch.emit(Action::Failed(format!(
            "the connection to the longpole process closed (code {code}): it may have stopped, or this page is not \
             the one it opened; run longpole open again"
        )));
    });
    socket.set_onopen(Some(on_open.as_ref().unchecked_ref()));
    socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    socket.set_onclose(Some(on_close.as_ref().unchecked_ref()));
    link.borrow_mut().socket = Some(socket.clone());
    Ok(NativeSocket { socket, _handlers: [on_open, on_message, on_close] })
}

/// The name and type of a made file whose bytes come next, if `text` is its header.
fn file_header(text: &str) -> Option<Header> {
    // The server writes the type first; other answers (a run's view of
    // megabytes) are not decoded twice.
    if !text.starts_with(&format!("{{\"type\":\"{FILE_MESSAGE}\"")) {
        return None;
    }
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    if v.get("type")?.as_str()? != FILE_MESSAGE {
        return None;
    }
    let field = |k: &str| v.get(k).and_then(|x| x.as_str()).unwrap_or_default().to_owned();
    Some(Header { name: field("name"), mime: field("mime") })
}
