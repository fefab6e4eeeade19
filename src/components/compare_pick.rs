//! Picking or dropping the files of two sides to compare: side A (before)
//! and side B (after), each one run or several (a log with its graph.json,
//! several runs' logs).

use super::header::{files_of, picked};
use web_sys::File;
use yew::prelude::*;

/// Properties of [`ComparePick`].
#[derive(Properties, PartialEq)]
pub struct ComparePickProps {
    /// Both sides' files, once "Compare" is pressed.
    pub on_compare: Callback<(Vec<File>, Vec<File>)>,
}

/// One side's drop zone and file input.
fn side(id: &str, title: &str, files: &UseStateHandle<Vec<File>>) -> Html {
    let set = {
        let files = files.clone();
        Callback::from(move |f: Vec<File>| {
            if !f.is_empty() {
                files.set(f)
            }
        })
    };
    let ondragover = Callback::from(|e: DragEvent| e.prevent_default());
    let ondrop = {
        let set = set.clone();
        Callback::from(move |e: DragEvent| {
            // Dropped here, the files are this side's, not a run to open.
            e.prevent_default();
            e.stop_propagation();
            set.emit(files_of(e.data_transfer().and_then(|d| d.files())));
        })
    };
    let names: Vec<String> = files.iter().map(File::name).collect();
    html! {
        <label class="compare-side" {ondragover} {ondrop} data-testid={format!("compare-side-{id}")}>
            <strong>{ title }</strong>
            <span class="muted">{ if names.is_empty() { "drop or pick files".to_owned() } else { names.join(", ") } }</span>
            <input type="file" multiple=true class="visually-hidden" data-testid={format!("compare-{id}-input")}
                onchange={picked(set)} />
        </label>
    }
}

/// The two sides and "Compare".
#[component]
pub fn ComparePick(props: &ComparePickProps) -> Html {
    let a = use_state(Vec::<File>::new);
    let b = use_state(Vec::<File>::new);
    let ready = !a.is_empty() && !b.is_empty();
    let onclick = {
        let (a, b, on_compare) = (a.clone(), b.clone(), props.on_compare.clone());
        Callback::from(move |_: MouseEvent| on_compare.emit(((*a).clone(), (*b).clone())))
    };
    html! {
        <section class="compare-pick" data-testid="compare-pick">
            <p>{ "Or compare two runs — what got slower, how the critical path moved, whether it is noise:" }</p>
            <div class="compare-sides">
                { side("a", "A (before)", &a) }
                { side("b", "B (after)", &b) }
                <button class="button primary" disabled={!ready} {onclick} data-testid="compare-sides-go">{ "Compare" }</button>
            </div>
        </section>
    }
}
