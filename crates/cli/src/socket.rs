//! The WebSocket of `longpole open --native`, at `/_longpole/ws`: the
//! upgrade is answered only for the server's own page (its `Origin` is the
//! server's, and it offers the run's token as the subprotocol
//! `longpole.<token>`, compared in constant time and echoed), anything
//! else gets 403 before the upgrade. Then each text frame is one of the
//! page's requests, as JSON, and each answer is a text frame of the same
//! JSON the worker posts; a made file is a text frame of JSON `{type:
//! "File", run, name, mime}` and then a binary frame of its bytes.

use crate::native::Native;
use crate::{http, token};
use longpole_answer::protocol::{Request, Response, RunId, FILE_MESSAGE};
use longpole_answer::Sink;
use tiny_http::{ReadWrite, Request as HttpRequest, Response as HttpResponse};
use tungstenite::handshake::derive_accept_key;
use tungstenite::protocol::Role;
use tungstenite::{Message, WebSocket};

/// The socket's path.
pub const PATH: &str = "_longpole/ws";
/// What the page's subprotocol starts with, before the token.
const PROTOCOL: &str = "longpole.";

/// The socket of one page.
type Socket = WebSocket<Box<dyn ReadWrite + Send>>;

/// Why an upgrade request is refused, or the subprotocol to echo and the
/// accept key: the request must be a WebSocket upgrade from `origin` (the
/// page's own) offering `longpole.<token>`.
fn checked(request: &HttpRequest, origin: &str, token: &str) -> Result<(String, String), &'static str> {
    if request.method() != &tiny_http::Method::Get
        || !http::header(request, "Upgrade").is_some_and(|u| u.eq_ignore_ascii_case("websocket"))
        || http::header(request, "Sec-WebSocket-Version") != Some("13")
    {
        return Err("only a WebSocket upgrade is answered here");
    }
    if http::header(request, "Origin") != Some(origin) {
        return Err("the socket answers only the page this server served");
    }
    let offered = http::header(request, "Sec-WebSocket-Protocol").unwrap_or_default();
    let Some(protocol) =
        offered.split(',').map(str::trim).find(|p| p.strip_prefix(PROTOCOL).is_some_and(|t| token::same(t, token)))
    else {
        return Err("the socket needs the token of the page longpole open opened");
    };
    let key = http::header(request, "Sec-WebSocket-Key").ok_or("a WebSocket upgrade has a key")?;
    Ok((protocol.to_owned(), derive_accept_key(key.as_bytes())))
}

/// Answers an upgrade request to [`PATH`]: refused with 403 unless it is
/// the page's ([`checked`]); else the page's requests are answered by
/// `native` until the page closes the socket, `seen` told of each. Gives
/// whether the socket was opened.
pub fn serve(request: HttpRequest, origin: &str, token: &str, native: &Native, seen: &dyn Fn()) -> bool {
    let (protocol, accept) = match checked(&request, origin, token) {
        Ok(ok) => ok,
        Err(why) => {
            http::refuse(request, 403, why);
            return false;
        }
    };
    let mut response = HttpResponse::empty(101);
    response.add_header(http::header_of("Sec-WebSocket-Accept", &accept));
    response.add_header(http::header_of("Sec-WebSocket-Protocol", &protocol));
    let stream = request.upgrade("websocket", response);
    let mut socket = WebSocket::from_raw_socket(stream, Role::Server, None);
    // A closed or broken socket ends the page's session here.
    while let Ok(message) = socket.read() {
        // A close is answered by the next read, which then ends the loop.
        let Message::Text(text) = message else { continue };
        seen();
        let mut sink = Frames { socket: &mut socket, broken: false };
        match serde_json::from_str::<Request>(text.as_str()) {
            Ok(request) => native.answer(request, &mut sink),
            Err(e) => sink.send(&Response::Failed {
                run: 0,
                message: format!("longpole could not read the page's request ({e}); please report this"),
            }),
        }
        if sink.broken {
            break;
        }
    }
    true
}

/// Answers sent as frames; once a frame cannot be sent, the rest are dropped.
struct Frames<'a> {
    socket: &'a mut Socket,
    broken: bool,
}

impl Frames<'_> {
    fn frame(&mut self, message: Message) {
        if !self.broken && self.socket.send(message).is_err() {
            self.broken = true;
        }
    }
}

impl Sink for Frames<'_> {
    fn send(&mut self, response: &Response) {
        let json = response.to_json().unwrap_or_else(|e| e.failure_json("longpole"));
        self.frame(Message::text(json));
    }

    fn file(&mut self, run: RunId, name: &str, mime: &str, bytes: &[u8]) {
        let header = serde_json::json!({ "type": FILE_MESSAGE, "run": run, "name": name, "mime": mime });
        self.frame(Message::text(header.to_string()));
        self.frame(Message::binary(bytes.to_vec()));
    }
}

#[cfg(test)]
#[path = "socket_tests.rs"]
mod tests;
