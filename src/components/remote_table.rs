//! A table that stays in the worker (a comparison's, a row per key:
//! hundreds of thousands for big builds): the page draws the rows it last
//! asked for and asks again when the sort, the search or "show more"
//! changes what is shown; its exports are written by the worker. Drawn
//! with the same pieces as every other table ([`TableFrame`]).

use super::data_table::TableFrame;
use crate::hooks::AnalysisWorker;
use crate::protocol::{Request, RunId, COMPARE_FIRST_ROWS};
use crate::shared::Shared;
use crate::state::Action;
use longpole_core::view::table::{Row, Table};
use longpole_core::view::table_page::{TablePage, TableQuery};
use yew::prelude::*;

/// Properties of [`RemoteTable`].
#[derive(Properties, PartialEq)]
pub struct RemoteTableProps {
    /// The comparison's run, whose worker holds the rows.
    pub run: RunId,
    /// The table's id, title and headers (a table without rows: they are
    /// in `rows`).
    pub table: Table,
    /// The rows last received.
    pub rows: Shared<TablePage>,
    /// The search, lower-case.
    pub search: String,
    /// The worker.
    pub worker: AnalysisWorker,
    /// Actions.
    pub dispatch: Callback<Action>,
}

/// The table.
#[component]
pub fn RemoteTable(props: &RemoteTableProps) -> Html {
    let sort = use_state(|| None::<(usize, bool)>);
    let shown = use_state(|| COMPARE_FIRST_ROWS);
    let wanted = TableQuery { sort: *sort, search: props.search.clone(), limit: *shown };
    {
        let (worker, run, have) = (props.worker.clone(), props.run, props.rows.query.clone());
        // Also when other rows arrive: a new comparison's first rows, or
        // the answer to an older question.
        use_effect_with((wanted.clone(), have), move |(wanted, have)| {
            if wanted != have {
                worker.send(&Request::CompareRows { run, query: wanted.clone() }, &[]);
            }
        });
    }
    let export = |csv: bool| {
        let (worker, run, query) = (props.worker.clone(), props.run, wanted.clone());
        Callback::from(move |_: MouseEvent| {
            worker.send(&Request::ExportCompareRows { run, query: query.clone(), csv }, &[]);
        })
    };
    let page = &props.rows;
    let rows: Vec<&Row> = page.rows.iter().collect();
    let t = &props.table;
    let frame = TableFrame {
        id: &t.id,
        title: &t.title,
        headers: &t.headers,
        unit: &|col| page.rows.iter().find_map(|r| r.cells.get(col).and_then(|c| c.unit)),
        sort: sort.clone(),
        rows: &rows,
        matching: page.matching,
        selected: None,
        dispatch: &props.dispatch,
        on_csv: export(true),
        on_json: export(false),
        shown: shown.clone(),
        busy: page.query != wanted,
    };
    frame.html()
}
