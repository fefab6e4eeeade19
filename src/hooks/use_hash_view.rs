//! The URL hash keeps the view: the tab, the time window and the selected
//! task (`#tab=graph&window=1732000000000000000,1732000060000000000&task=42`),
//! so a reload or a shared link, with the same file, lands in the same place.

use crate::state::{Action, Tab};
use yew::prelude::*;

const TABS: [(Tab, &str); 6] = [
    (Tab::Timeline, "timeline"),
    (Tab::Graph, "graph"),
    (Tab::Flame, "flame"),
    (Tab::Tables, "tables"),
    (Tab::Report, "report"),
    (Tab::Diagnostics, "diagnostics"),
];

/// The hash of a view.
pub fn encode(tab: Tab, window: Option<(i64, i64)>, task: Option<u32>) -> String {
    let mut parts = vec![format!("tab={}", TABS.iter().find(|(t, _)| *t == tab).map_or("timeline", |(_, n)| n))];
    if let Some((a, b)) = window {
        parts.push(format!("window={a},{b}"));
    }
    if let Some(t) = task {
        parts.push(format!("task={t}"));
    }
    format!("#{}", parts.join("&"))
}

/// The actions that restore the view a hash describes.
pub fn decode(hash: &str) -> Vec<Action> {
    let mut actions = Vec::new();
    for part in hash.trim_start_matches('#').split('&') {
        let Some((key, value)) = part.split_once('=') else { continue };
        match key {
            "tab" => actions.extend(TABS.iter().find(|(_, n)| *n == value).map(|(t, _)| Action::Tab(*t))),
            "window" => {
                if let Some((a, b)) = value.split_once(',').and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
                {
                    actions.push(Action::Window(a, b));
                }
            }
            "task" => actions.extend(value.parse().ok().map(|t| Action::Select(Some(t)))),
            _ => {}
        }
    }
    actions
}

/// What of the page the hash keeps.
#[derive(Clone, Copy, PartialEq)]
pub struct HashView {
    /// The run shown (0: none).
    pub run: u32,
    /// A run is shown with its views.
    pub ready: bool,
    /// The open tab.
    pub tab: Tab,
    /// The chosen time window.
    pub window: Option<(i64, i64)>,
    /// The selected task.
    pub task: Option<u32>,
}

/// Writes the view into the hash as it changes, and restores it from the
/// hash when a run is first shown.
#[hook]
pub fn use_hash_view(view: HashView, dispatch: Callback<Action>) {
    use_effect_with((view.run, view.ready), move |&(_, ready)| {
        if ready {
            let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
            for action in decode(&hash) {
                dispatch.emit(action);
            }
        }
    });
    use_effect_with(view, move |v| {
        if v.ready {
            if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
                let _ = history.replace_state_with_url(
                    &wasm_bindgen::JsValue::NULL,
                    "",
                    Some(&encode(v.tab, v.window, v.task)),
                );
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_survives_its_hash() {
        let hash = encode(Tab::Graph, Some((5, 90)), Some(42));
        assert_eq!(hash, "#tab=graph&window=5,90&task=42");
        assert_eq!(decode(&hash), vec![Action::Tab(Tab::Graph), Action::Window(5, 90), Action::Select(Some(42))]);
        assert!(decode("#nonsense&tab=nope&window=x").is_empty());
    }
}
