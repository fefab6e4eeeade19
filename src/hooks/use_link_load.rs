//! Loading what the page's link names (`#src=…`, see [`crate::link`]): once
//! when the page starts, and again when the hash is changed to name other
//! inputs. Other inputs may be on origins the page's Content-Security-Policy
//! does not allow yet (`boot.js` writes it from the hash as the page
//! starts), so that change reloads the page.

use crate::link::{self, Source};
use crate::state::Action;
use gloo_events::EventListener;
use yew::prelude::*;

/// `source`'s URL made absolute against the page's, if it is a URL.
pub fn absolute(source: &Source) -> Result<Source, String> {
    let base = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
    let url = web_sys::Url::new_with_base(&source.url, &base)
        .map_err(|_| format!("the link's src \"{}\" is not a URL", source.url))?;
    Ok(Source { url: url.href(), sha256: source.sha256.clone(), token: source.token.clone() })
}

/// On the first render, starts loading what the hash names
/// (`on_sources`, with the sources as the link gives them and absolute; or,
/// when it names side B's inputs too, `on_compare` with both sides
/// absolute); a link that cannot be followed is a failure shown on the
/// page. Later, a hash that names other sources than `current` reloads the
/// page.
#[hook]
pub fn use_link_load(
    current: Vec<Source>,
    on_sources: Callback<(Vec<Source>, Vec<Source>)>,
    on_compare: Callback<(Vec<Source>, Vec<Source>)>,
    dispatch: Callback<Action>,
) {
    let latest = use_mut_ref(Vec::new);
    *latest.borrow_mut() = current;
    use_effect_with((), move |_| {
        match link::parse(&super::use_hash_view::page_hash()) {
            Ok(link) if link.sources.is_empty() => {}
            Ok(link) => {
                let all = |s: &[Source]| s.iter().map(absolute).collect::<Result<Vec<_>, _>>();
                match (all(&link.sources), all(&link.vs)) {
                    (Ok(a), Ok(b)) if !b.is_empty() => on_compare.emit((a, b)),
                    (Ok(absolute), Ok(_)) => on_sources.emit((link.sources, absolute)),
                    (Err(message), _) | (_, Err(message)) => dispatch.emit(Action::Failed(message)),
                }
            }
            Err(e) => dispatch.emit(Action::Failed(e.to_string())),
        }
        let listener = web_sys::window().map(|w| {
            EventListener::new(&w, "hashchange", move |_| {
                let named = link::parse(&super::use_hash_view::page_hash()).map(|l| l.sources);
                if named.as_ref().ok() != Some(&*latest.borrow()) {
                    if let Some(w) = web_sys::window() {
                        let _ = w.location().reload();
                    }
                }
            })
        });
        // Dropping the listener removes it.
        move || drop(listener)
    });
}
