//! The top bar: the name, "Copy link to this view", "Compare with…" (when
//! a run is loaded), "Open file" (the hidden file inputs behind them), help.

use crate::state::Action;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{File, HtmlInputElement};
use yew::prelude::*;

/// What a link to the page can carry of the run shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linkable {
    /// No run is shown.
    Nothing,
    /// The run's files were opened or dropped: a link keeps the view only.
    ViewOnly,
    /// The run's inputs came by URL: a link reopens them and the view.
    Everything,
}

/// Copies the page's link (its hash keeps the view) to the clipboard and
/// says how it went ([`Action::Copied`]).
pub fn copy_link(dispatch: Callback<Action>) {
    let Some(window) = web_sys::window() else { return };
    let href = window.location().href().unwrap_or_default();
    let written = window.navigator().clipboard().write_text(&href);
    spawn_local(async move {
        let result = JsFuture::from(written)
            .await
            .map(|_| href)
            .map_err(|e| format!("the browser did not let the page copy the link ({})", crate::worker_io::js_error(e)));
        dispatch.emit(Action::Copied(result));
    });
}

/// Properties of [`Header`].
#[derive(Properties, PartialEq)]
pub struct HeaderProps {
    /// The file input, so that the `o` key can open it.
    pub file_input: NodeRef,
    /// Files picked with the input.
    pub on_files: Callback<Vec<File>>,
    /// The help button.
    pub on_help: Callback<()>,
    /// What a link carries of the run shown.
    pub linkable: Linkable,
    /// The last copy of the link, or why it failed.
    pub copied: Option<Result<String, String>>,
    /// The "Copy link to this view" button.
    pub on_copy: Callback<()>,
    /// The file input of "Compare with…", so that the `c` key can open it.
    pub compare_input: NodeRef,
    /// Files picked as side B to compare the loaded run with; `None`
    /// hides the button (no run is loaded).
    #[prop_or_default]
    pub on_compare: Option<Callback<Vec<File>>>,
}

/// A file input's change: its files, the input cleared so that choosing
/// the same files again is a change too.
pub fn picked(on_files: Callback<Vec<File>>) -> Callback<Event> {
    Callback::from(move |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        let files = files_of(input.files());
        input.set_value("");
        on_files.emit(files);
    })
}

/// What a link to the page carries, as the button's tooltip says it.
const VIEW_ONLY: &str = "The link keeps the view; the file you opened is not in it and must be opened again";

/// The files of an input element, in order.
pub fn files_of(list: Option<web_sys::FileList>) -> Vec<File> {
    list.map(|l| (0..l.length()).filter_map(|i| l.get(i)).collect()).unwrap_or_default()
}

/// The top bar.
#[component]
pub fn Header(props: &HeaderProps) -> Html {
    let onchange = picked(props.on_files.clone());
    let on_help = props.on_help.reform(|_: MouseEvent| ());
    let on_copy = props.on_copy.reform(|_: MouseEvent| ());
    let title = match props.linkable {
        Linkable::Nothing => "Open a file first: a link shows a run",
        Linkable::ViewOnly => VIEW_ONLY,
        Linkable::Everything => "A link that opens the same file at this very view, for anyone (L)",
    };
    let feedback = match (&props.copied, props.linkable) {
        (Some(Ok(_)), Linkable::ViewOnly) => {
            Some(("Link copied: it keeps the view; the file must be opened again", false))
        }
        (Some(Ok(_)), _) => Some(("Link copied", false)),
        (Some(Err(e)), _) => Some((e.as_str(), true)),
        (None, _) => None,
    };
    html! {
        <header class="topbar">
            <h1 class="brand">{ "longpole" }</h1>
            <span class="tagline">{ "find the long pole in any execution log" }</span>
            <span class="spacer"></span>
            if let Some((text, failed)) = feedback {
                <span class={classes!("copy-feedback", failed.then_some("failed"))} role="status" data-testid="copy-feedback">{ text }</span>
            }
            <button class="button" {title} onclick={on_copy} disabled={props.linkable == Linkable::Nothing}
                data-testid="copy-link">{ "Copy link to this view" }</button>
            if let Some(on_compare) = props.on_compare.clone() {
                <label class="button" title="Pick the files of another run (side B, after) to compare this one (side A, before) with (C)"
                    data-testid="compare-with">
                    { "Compare with…" }
                    <input ref={props.compare_input.clone()} type="file" multiple=true class="visually-hidden"
                        data-testid="compare-input" onchange={picked(on_compare)} />
                </label>
            }
            <label class="button primary" title="Open one or more files (O)">
                { "Open file" }
                <input ref={props.file_input.clone()} type="file" multiple=true class="visually-hidden"
                    data-testid="file-input" {onchange} />
            </label>
            <button class="button" title="Keyboard shortcuts (?)" onclick={on_help} data-testid="help-button">{ "? Help" }</button>
        </header>
    }
}
