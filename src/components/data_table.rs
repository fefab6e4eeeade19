//! A table of a run's view (the core's [`Table`]: every format describes
//! its tables as data): sortable by any column, filtered by a search,
//! paged, exportable as CSV and JSON. One component draws every table.

use crate::download::download;
use crate::state::Action;
use longpole_core::export;
use longpole_core::view::table::{Row, Table};
use yew::prelude::*;

/// Properties of [`DataTable`].
#[derive(Properties, PartialEq)]
pub struct DataTableProps {
    /// The table.
    pub table: Table,
    /// The search, lower-case; rows whose haystack lacks it are hidden.
    pub search: String,
    /// The selected task.
    pub selected: Option<u32>,
    /// Actions.
    pub dispatch: Callback<Action>,
}

/// Headers as the exports take them.
fn names(headers: &[String]) -> Vec<&str> {
    headers.iter().map(String::as_str).collect()
}

/// Rows drawn at first, and added by each "show more".
const PAGE: usize = 200;

/// A table: sortable by any column, searchable, paged, exportable as CSV and JSON.
#[component]
pub fn DataTable(props: &DataTableProps) -> Html {
    let sort = use_state(|| props.table.sort);
    let shown = use_state(|| PAGE);
    let t = &props.table;
    let mut rows: Vec<&Row> =
        t.rows.iter().filter(|r| props.search.is_empty() || r.haystack.contains(&props.search)).collect();
    if let Some((col, desc)) = *sort {
        rows.sort_by(|a, b| {
            let o = a.cells[col].order(&b.cells[col]);
            if desc {
                o.reverse()
            } else {
                o
            }
        });
    }
    let raw: Vec<Vec<String>> = rows.iter().map(|r| r.cells.iter().map(|c| c.raw().to_owned()).collect()).collect();
    let (headers, id) = (t.headers.clone(), t.id.clone());
    let csv = {
        let (id, headers, raw) = (id.clone(), headers.clone(), raw.clone());
        Callback::from(move |_: MouseEvent| {
            let _ = download(&format!("{id}.csv"), "text/csv", &export::csv(&names(&headers), &raw));
        })
    };
    let json = {
        let id = id.clone();
        Callback::from(move |_: MouseEvent| {
            let _ = download(&format!("{id}.json"), "application/json", &export::json(&names(&headers), &raw));
        })
    };
    html! {
        <section class="table-section" data-testid={format!("table-{id}")}>
            <header>
                <h3>{ &t.title }<span class="muted">{ format!(" {} rows", rows.len()) }</span></h3>
                <span class="spacer"></span>
                <button class="button small" onclick={csv} data-testid={format!("export-{id}-csv")}>{ "⤓ CSV" }</button>
                <button class="button small" onclick={json} data-testid={format!("export-{id}-json")}>{ "⤓ JSON" }</button>
            </header>
            <table class="data">
                <thead><tr>
                    { for t.headers.iter().enumerate().map(|(i, h)| {
                        let mark = match *sort { Some((c, true)) if c == i => " ▼", Some((c, false)) if c == i => " ▲", _ => "" };
                        let sort = sort.clone();
                        let onclick = Callback::from(move |_: MouseEvent| {
                            let desc = !matches!(*sort, Some((c, true)) if c == i);
                            sort.set(Some((i, desc)));
                        });
                        let title = match t.unit(i) {
                            Some(unit) => format!("Sort · exported in {}", unit.label()),
                            None => "Sort".to_owned(),
                        };
                        html! { <th><button class="sort" {onclick} {title}>{ format!("{h}{mark}") }</button></th> }
                    }) }
                </tr></thead>
                <tbody>
                    { for rows.iter().take(*shown).map(|r| {
                        let onclick = r.task.map(|id| props.dispatch.reform(move |_: MouseEvent| Action::Select(Some(id))));
                        let selected = r.task.is_some() && r.task == props.selected;
                        html! {
                            <tr class={classes!(r.task.is_some().then_some("clickable"), selected.then_some("selected"))} {onclick}>
                                { for r.cells.iter().map(|c| html! { <td class={classes!(c.is_num().then_some("num"))}>{ &c.show }</td> }) }
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
            if rows.len() > *shown {
                <button class="button small" data-testid={format!("more-{id}")}
                    onclick={let shown = shown.clone(); Callback::from(move |_: MouseEvent| shown.set(*shown + PAGE))}>
                    { format!("show {} more of {}", PAGE.min(rows.len() - *shown), rows.len() - *shown) }
                </button>
            }
        </section>
    }
}
