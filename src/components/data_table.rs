//! A table of a run's view (the core's [`Table`]: every format describes
//! its tables as data): sortable by any column, filtered by a search,
//! paged, exportable as CSV and JSON. One component draws every table
//! held in the page; [`super::remote_table`] draws one that stays in the
//! worker with the same pieces ([`TableFrame`]).

use crate::download::download;
use crate::state::Action;
use longpole_core::export;
use longpole_core::view::table::{Row, Table, Unit};
use longpole_core::view::table_page::{order, raw_rows};
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

/// Rows drawn at first, and added by each "show more".
pub const PAGE: usize = 200;

/// A table: sortable by any column, searchable, paged, exportable as CSV and JSON.
#[component]
pub fn DataTable(props: &DataTableProps) -> Html {
    let sort = use_state(|| props.table.sort);
    let shown = use_state(|| PAGE);
    let t = &props.table;
    let ordered = order(t, *sort, &props.search);
    // What an export writes is made when it is asked for, not at each drawing.
    let export = |csv: bool| {
        let (table, sort, search) = (t.clone(), *sort, props.search.clone());
        Callback::from(move |_: MouseEvent| {
            let raw = raw_rows(order(&table, sort, &search).iter().map(|&i| &table.rows[i as usize]));
            let headers: Vec<&str> = table.headers.iter().map(String::as_str).collect();
            let _ = if csv {
                download(&format!("{}.csv", table.id), "text/csv", &export::csv(&headers, &raw))
            } else {
                download(&format!("{}.json", table.id), "application/json", &export::json(&headers, &raw))
            };
        })
    };
    let rows: Vec<&Row> = ordered.iter().take(*shown).map(|&i| &t.rows[i as usize]).collect();
    let frame = TableFrame {
        id: &t.id,
        title: &t.title,
        headers: &t.headers,
        unit: &|col| t.unit(col),
        sort: sort.clone(),
        rows: &rows,
        matching: ordered.len(),
        selected: props.selected,
        dispatch: &props.dispatch,
        on_csv: export(true),
        on_json: export(false),
        shown: shown.clone(),
        busy: false,
    };
    frame.html()
}

/// What a table shows, wherever its rows are kept: its title, headers and
/// sort, the rows drawn, how many the search keeps, and what its buttons do.
pub struct TableFrame<'a> {
    /// Its id: the page's test hook and the export's file name.
    pub id: &'a str,
    /// Its title.
    pub title: &'a str,
    /// Column headers.
    pub headers: &'a [String],
    /// The unit a column is exported in.
    pub unit: &'a dyn Fn(usize) -> Option<Unit>,
    /// The column sorted by, and whether descending; a click on a header sets it.
    pub sort: UseStateHandle<Option<(usize, bool)>>,
    /// The rows drawn.
    pub rows: &'a [&'a Row],
    /// The rows the search keeps.
    pub matching: usize,
    /// The selected task.
    pub selected: Option<u32>,
    /// Actions.
    pub dispatch: &'a Callback<Action>,
    /// The CSV export.
    pub on_csv: Callback<MouseEvent>,
    /// The JSON export.
    pub on_json: Callback<MouseEvent>,
    /// How many rows are asked for; "show more" adds a page.
    pub shown: UseStateHandle<usize>,
    /// The rows drawn are not yet those asked for.
    pub busy: bool,
}

impl TableFrame<'_> {
    /// The table's markup.
    pub fn html(&self) -> Html {
        let id = self.id;
        let more = self.matching.saturating_sub(self.rows.len());
        let sorted = *self.sort;
        let on_more = {
            let shown = self.shown.clone();
            Callback::from(move |_: MouseEvent| shown.set(*shown + PAGE))
        };
        html! {
            <section class="table-section" data-testid={format!("table-{id}")} aria-busy={self.busy.to_string()}>
                <header>
                    <h3>{ self.title }<span class="muted">{ format!(" {} rows", self.matching) }</span></h3>
                    <span class="spacer"></span>
                    <button class="button small" onclick={self.on_csv.clone()} data-testid={format!("export-{id}-csv")}>{ "⤓ CSV" }</button>
                    <button class="button small" onclick={self.on_json.clone()} data-testid={format!("export-{id}-json")}>{ "⤓ JSON" }</button>
                </header>
                <table class="data">
                    <thead><tr>
                        { for self.headers.iter().enumerate().map(|(i, h)| {
                            let mark = match sorted { Some((c, true)) if c == i => " ▼", Some((c, false)) if c == i => " ▲", _ => "" };
                            let desc = !matches!(sorted, Some((c, true)) if c == i);
                            let sort = self.sort.clone();
                            let onclick = Callback::from(move |_: MouseEvent| sort.set(Some((i, desc))));
                            let title = match (self.unit)(i) {
                                Some(unit) => format!("Sort · exported in {}", unit.label()),
                                None => "Sort".to_owned(),
                            };
                            html! { <th><button class="sort" {onclick} {title}>{ format!("{h}{mark}") }</button></th> }
                        }) }
                    </tr></thead>
                    <tbody>
                        { for self.rows.iter().map(|r| {
                            let onclick = r.task.map(|id| self.dispatch.reform(move |_: MouseEvent| Action::Select(Some(id))));
                            let selected = r.task.is_some() && r.task == self.selected;
                            html! {
                                <tr class={classes!(r.task.is_some().then_some("clickable"), selected.then_some("selected"))} {onclick}>
                                    { for r.cells.iter().map(|c| html! { <td class={classes!(c.is_num().then_some("num"))}>{ &c.show }</td> }) }
                                </tr>
                            }
                        }) }
                    </tbody>
                </table>
                if more > 0 {
                    <button class="button small" data-testid={format!("more-{id}")} onclick={on_more}>
                        { format!("show {} more of {}", PAGE.min(more), more) }
                    </button>
                }
            </section>
        }
    }
}
