//! A table of numbers: sortable by any column, filtered by a search,
//! paged, each exportable as CSV and JSON. The report tables of every format
//! are made of these.

use crate::download::download;
use crate::state::Action;
use longpole_core::export;
use longpole_core::numbers::{duration_label, ms};
use yew::prelude::*;

/// One cell: what to show, what to export, how to sort.
#[derive(Clone, PartialEq)]
pub struct Cell {
    /// What the cell shows.
    pub show: String,
    /// What an export writes.
    pub raw: String,
    /// How it sorts.
    pub key: Key,
}

/// A sort key.
#[derive(Clone, PartialEq, PartialOrd)]
pub enum Key {
    /// Sorts as a number.
    Num(f64),
    /// Sorts as lower-case text.
    Text(String),
}

/// One row.
#[derive(Clone, PartialEq)]
pub struct Row {
    /// Its cells, one per header.
    pub cells: Vec<Cell>,
    /// The task a click selects, if any.
    pub task: Option<u32>,
    /// What the search looks in, lower-case.
    pub haystack: String,
}

/// A table.
#[derive(Clone, PartialEq)]
pub struct Table {
    /// Its id, for test hooks and export file names.
    pub id: &'static str,
    /// Its title.
    pub title: &'static str,
    /// Column headers.
    pub headers: Vec<&'static str>,
    /// Rows, in their natural order.
    pub rows: Vec<Row>,
}

/// A text cell.
pub fn text(s: &str) -> Cell {
    Cell { show: s.to_owned(), raw: s.to_owned(), key: Key::Text(s.to_lowercase()) }
}

/// A time cell, shown from `origin`.
pub fn time(ns: Option<i64>, origin: i64) -> Cell {
    match ns {
        Some(t) => Cell { show: format!("+{}", duration_label(t - origin)), raw: ms(t), key: Key::Num(t as f64) },
        None => Cell { show: "–".into(), raw: String::new(), key: Key::Num(f64::NEG_INFINITY) },
    }
}

/// A duration cell.
pub fn span(ns: i64) -> Cell {
    Cell { show: duration_label(ns), raw: ms(ns), key: Key::Num(ns as f64) }
}

/// A count cell.
pub fn count(n: u64) -> Cell {
    Cell { show: crate::format::group(n), raw: n.to_string(), key: Key::Num(n as f64) }
}

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

/// Rows drawn at first, and added by each "show more".
const PAGE: usize = 200;

/// A table: sortable by any column, searchable, paged, exportable as CSV and JSON.
#[component]
pub fn DataTable(props: &DataTableProps) -> Html {
    let sort = use_state(|| None::<(usize, bool)>);
    let shown = use_state(|| PAGE);
    let t = &props.table;
    let mut rows: Vec<&Row> =
        t.rows.iter().filter(|r| props.search.is_empty() || r.haystack.contains(&props.search)).collect();
    if let Some((col, desc)) = *sort {
        rows.sort_by(|a, b| {
            let o = a.cells[col].key.partial_cmp(&b.cells[col].key).unwrap_or(std::cmp::Ordering::Equal);
            if desc {
                o.reverse()
            } else {
                o
            }
        });
    }
    let raw: Vec<Vec<String>> = rows.iter().map(|r| r.cells.iter().map(|c| c.raw.clone()).collect()).collect();
    let (headers, id) = (t.headers.clone(), t.id);
    let csv = {
        let (headers, raw) = (headers.clone(), raw.clone());
        Callback::from(move |_: MouseEvent| {
            let _ = download(&format!("{id}.csv"), "text/csv", &export::csv(&headers, &raw));
        })
    };
    let json = Callback::from(move |_: MouseEvent| {
        let _ = download(&format!("{id}.json"), "application/json", &export::json(&headers, &raw));
    });
    html! {
        <section class="table-section" data-testid={format!("table-{id}")}>
            <header>
                <h3>{ t.title }<span class="muted">{ format!(" {} rows", rows.len()) }</span></h3>
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
                        html! { <th><button class="sort" {onclick} title="Sort">{ format!("{h}{mark}") }</button></th> }
                    }) }
                </tr></thead>
                <tbody>
                    { for rows.iter().take(*shown).map(|r| {
                        let onclick = r.task.map(|id| props.dispatch.reform(move |_: MouseEvent| Action::Select(Some(id))));
                        let selected = r.task.is_some() && r.task == props.selected;
                        html! {
                            <tr class={classes!(r.task.is_some().then_some("clickable"), selected.then_some("selected"))} {onclick}>
                                { for r.cells.iter().map(|c| html! { <td class={classes!(matches!(c.key, Key::Num(_)).then_some("num"))}>{ &c.show }</td> }) }
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
