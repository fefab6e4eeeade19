//! Telling the `longpole open` server that gave the page its inputs that
//! the page is still open: while the link has a `token`, a request to
//! `_longpole/ping` (beside the page) with the token every
//! [`PING_EVERY_MS`]. The server stops a while after the last one
//! (docs/cli.md, "open"); without a token nothing is sent.

use crate::link;
use crate::protocol::TOKEN_HEADER;
use gloo_timers::callback::Interval;
use web_sys::{Headers, RequestInit};
use yew::prelude::*;

/// Time between two pings, ms. A hidden tab's timers may be slowed to one
/// a minute: the server waits longer than that before it stops.
pub const PING_EVERY_MS: u32 = 5_000;

/// Sends one ping with `token`; a failed one is only a missed beat.
fn ping(token: &str) {
    let Some(window) = web_sys::window() else { return };
    let init = RequestInit::new();
    if let Ok(headers) = Headers::new() {
        let _ = headers.set(TOKEN_HEADER, token);
        init.set_headers(&headers);
    }
    // The answer says nothing; its promise is left to settle.
    let _ = window.fetch_with_str_and_init("_longpole/ping", &init);
}

/// Pings the server while the page is open, if the page's link has a token.
#[hook]
pub fn use_open_ping() {
    use_effect_with((), |_| {
        let token = link::parse(&super::use_hash_view::page_hash()).ok().and_then(|l| l.token);
        let interval = token.map(|token| {
            ping(&token);
            Interval::new(PING_EVERY_MS, move || ping(&token))
        });
        // Dropping the interval clears it.
        move || drop(interval)
    });
}
