//! The top bar: the name, "Open file" (the hidden file input behind it), help.

use web_sys::{File, HtmlInputElement};
use yew::prelude::*;

/// Properties of [`Header`].
#[derive(Properties, PartialEq)]
pub struct HeaderProps {
    /// The file input, so that the `o` key can open it.
    pub file_input: NodeRef,
    /// Files picked with the input.
    pub on_files: Callback<Vec<File>>,
    /// The help button.
    pub on_help: Callback<()>,
}

/// The files of an input element, in order.
pub fn files_of(list: Option<web_sys::FileList>) -> Vec<File> {
    list.map(|l| (0..l.length()).filter_map(|i| l.get(i)).collect()).unwrap_or_default()
}

/// The top bar.
#[component]
pub fn Header(props: &HeaderProps) -> Html {
    let onchange = {
        let on_files = props.on_files.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let files = files_of(input.files());
            // Clear it so that choosing the same file again is a change too.
            input.set_value("");
            on_files.emit(files);
        })
    };
    let on_help = props.on_help.reform(|_: MouseEvent| ());
    html! {
        <header class="topbar">
            <h1 class="brand">{ "longpole" }</h1>
            <span class="tagline">{ "find the long pole in any execution log" }</span>
            <span class="spacer"></span>
            <label class="button primary" title="Open one or more files (O)">
                { "Open file" }
                <input ref={props.file_input.clone()} type="file" multiple=true class="visually-hidden"
                    data-testid="file-input" {onchange} />
            </label>
            <button class="button" title="Keyboard shortcuts (?)" onclick={on_help} data-testid="help-button">{ "? Help" }</button>
        </header>
    }
}
