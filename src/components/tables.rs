//! ya's `--stat` report as tables: sortable by any column, filtered by one
//! search over uid, name and host, each exportable as CSV and JSON.

use crate::download::download;
use crate::state::Action;
use longpole_core::dump::{duration_label, ms};
use longpole_core::export;
use longpole_core::view::{RunView, TaskRow};
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// One cell: what to show, what to export, how to sort.
#[derive(Clone, PartialEq)]
struct Cell {
    show: String,
    raw: String,
    key: Key,
}

#[derive(Clone, PartialEq, PartialOrd)]
enum Key {
    Num(f64),
    Text(String),
}

#[derive(Clone, PartialEq)]
struct Row {
    cells: Vec<Cell>,
    task: Option<u32>,
    haystack: String,
}

#[derive(Clone, PartialEq)]
struct Table {
    id: &'static str,
    title: &'static str,
    headers: Vec<&'static str>,
    rows: Vec<Row>,
}

fn text(s: &str) -> Cell {
    Cell { show: s.to_owned(), raw: s.to_owned(), key: Key::Text(s.to_lowercase()) }
}

fn time(ns: Option<i64>, origin: i64) -> Cell {
    match ns {
        Some(t) => Cell { show: format!("+{}", duration_label(t - origin)), raw: ms(t), key: Key::Num(t as f64) },
        None => Cell { show: "–".into(), raw: String::new(), key: Key::Num(f64::NEG_INFINITY) },
    }
}

fn span(ns: i64) -> Cell {
    Cell { show: duration_label(ns), raw: ms(ns), key: Key::Num(ns as f64) }
}

fn count(n: u64) -> Cell {
    Cell { show: crate::format::group(n), raw: n.to_string(), key: Key::Num(n as f64) }
}

fn task_rows(rows: &[TaskRow], origin: i64, with_size: bool) -> Vec<Row> {
    rows.iter()
        .map(|r| {
            let d = match (r.start, r.end) {
                (Some(a), Some(b)) => b - a,
                _ => 0,
            };
            let mut cells = vec![span(d), text(&r.task_type), text(&r.uid), text(&r.label), text(&r.lane)];
            if with_size {
                cells.push(text(r.from_lane.as_deref().unwrap_or("")));
                cells.push(r.bytes.map_or_else(|| text(""), count));
            }
            cells.push(time(r.start, origin));
            cells.push(time(r.end, origin));
            Row { cells, task: Some(r.id), haystack: format!("{} {} {}", r.uid, r.label, r.lane).to_lowercase() }
        })
        .collect()
}

fn tables(v: &RunView) -> Vec<Table> {
    let origin = v.window.map_or(0, |w| w.0);
    let task_headers = vec!["duration", "type", "uid", "name", "host", "started", "finished"];
    vec![
        Table {
            id: "critical-path",
            title: "Critical path (ya)",
            headers: task_headers.clone(),
            rows: task_rows(&v.critical_path.steps, origin, false),
        },
        Table {
            id: "blocking-chain",
            title: "Blocking chain",
            headers: task_headers.clone(),
            rows: task_rows(&v.blocking_chain.steps, origin, false),
        },
        Table {
            id: "longest",
            title: "Longest tasks",
            headers: task_headers,
            rows: task_rows(&v.longest, origin, false),
        },
        Table {
            id: "biggest-copies",
            title: "Biggest copies",
            headers: vec!["duration", "type", "uid", "name", "to host", "from host", "bytes", "started", "finished"],
            rows: task_rows(&v.biggest_copies, origin, true),
        },
        Table {
            id: "by-type",
            title: "Time by type",
            headers: vec!["type", "count", "total", "average"],
            rows: v
                .by_type
                .iter()
                .map(|t| Row {
                    cells: vec![
                        text(&t.task_type),
                        count(t.count),
                        span(t.total),
                        span(t.total / t.count.max(1) as i64),
                    ],
                    task: None,
                    haystack: t.task_type.to_lowercase(),
                })
                .collect(),
        },
        Table {
            id: "stages",
            title: "Wall time by stage",
            headers: vec!["stage", "time"],
            rows: v
                .stages
                .iter()
                .map(|(s, t)| Row { cells: vec![text(s), span(*t)], task: None, haystack: s.clone() })
                .collect(),
        },
    ]
}

/// Properties of [`DataTable`].
#[derive(Properties, PartialEq)]
struct DataTableProps {
    table: Table,
    search: String,
    selected: Option<u32>,
    dispatch: Callback<Action>,
}

#[component]
fn DataTable(props: &DataTableProps) -> Html {
    let sort = use_state(|| None::<(usize, bool)>);
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
                    { for rows.iter().map(|r| {
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
        </section>
    }
}

/// Properties of [`Tables`].
#[derive(Properties, PartialEq)]
pub struct TablesProps {
    /// The run.
    pub view: Rc<RunView>,
    /// The selected task.
    pub selected: Option<u32>,
    /// Actions.
    pub dispatch: Callback<Action>,
}

/// The tables of the report.
#[component]
pub fn Tables(props: &TablesProps) -> Html {
    let search = use_state(String::new);
    let oninput = {
        let search = search.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            search.set(input.value().to_lowercase());
        })
    };
    let v = &props.view;
    let (failed, tests, run) = v.totals;
    let pct = |x: i64| if run == 0 { 100.0 } else { x as f64 * 100.0 / run as f64 };
    html! {
        <div class="tables">
            <div class="toolbar">
                <input type="search" class="search" placeholder="Search uid, name or host  (/)" aria-label="Search tasks"
                    data-testid="table-search" {oninput} />
            </div>
            <p class="cache" data-testid="cache-line">{ &v.cache_line }</p>
            <p class="totals">{ format!("Failed tasks: {} ({:.2}%) · test tasks: {} ({:.2}%) · all run tasks: {}",
                duration_label(failed), pct(failed), duration_label(tests), pct(tests), duration_label(run)) }</p>
            { for tables(v).into_iter().map(|t| html! {
                <DataTable table={t} search={(*search).clone()} selected={props.selected} dispatch={props.dispatch.clone()} />
            }) }
        </div>
    }
}
