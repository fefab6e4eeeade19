//! Embed mode: the page inside a `<longpole-view>` element's frame
//! (`embed.js`). The frame's hash says what to show and which host origins
//! may talk to it ([`config`]); a host talks over a `MessagePort` it hands
//! over once ([`channel`]), in versioned messages ([`message`]) that
//! [`hook`] turns into the page's actions and answers from its state.

pub mod channel;
pub mod config;
pub mod hook;
pub mod message;

pub use config::Config;
pub use hook::{use_embed, Page};

/// The embed settings of this page's hash, if it is in embed mode.
pub fn from_location() -> Option<Config> {
    let hash = web_sys::window()?.location().hash().ok()?;
    config::parse(&hash)
}

/// The full app's address for the same inputs and view ("open in
/// longpole"): this page, with the link's hash of the run shown.
pub fn full_app_url(state: &crate::state::AppState) -> Option<String> {
    use crate::link::{encode, Selection, ViewState};
    let location = web_sys::window()?.location();
    let page = format!("{}{}", location.origin().ok()?, location.pathname().ok()?);
    let e = &state.explore;
    let view = ViewState {
        tab: Some(e.tab),
        window: e.window,
        select: e.selected_key.clone().filter(|_| e.selected.is_some()).map(Selection::Key),
        chain: e.chain,
        flame: e.flame,
        speedup: e.speedup,
        sql: None,
        track: false,
    };
    Some(format!("{page}{}", encode(&state.sources, false, &view)))
}
