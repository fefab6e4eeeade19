//! The SQL tab: DuckDB over the run's tables (docs/sql.md). The schema
//! beside the editor, the format's example queries and the history above
//! it, the result below: paged, sorted by a click on a column (the query
//! runs again, sorted, in the engine), saved as CSV; a row with a
//! `task_id` selects its task. A folder of fleet tables can be added.
//! The engine loads the first time the tab opens ([`SqlEngine::open`]).

use crate::hooks::SqlEngine;
use crate::protocol::RunId;
use crate::sql_state::{EngineStatus, SqlAction, SqlState, PAGE_ROWS};
use crate::state::Action;
use longpole_core::numbers::group;
use serde_json::Value;
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

/// Properties of [`SqlTab`].
#[derive(Properties, PartialEq)]
pub struct SqlTabProps {
    /// The run whose tables are queried.
    pub run: RunId,
    /// The run's format, for its example queries.
    pub format: AttrValue,
    /// The tab's state.
    pub state: SqlState,
    /// The engine.
    pub engine: SqlEngine,
    /// The selected task.
    pub selected: Option<u32>,
    /// Actions.
    pub dispatch: Callback<Action>,
}

/// The example queries: the fleet cookbook's that one run answers, then
/// the format's own.
fn examples(format: &str) -> Vec<(&'static str, &'static str)> {
    let mut list = vec![
        ("The longest tasks", "SELECT uid, kind, lane, duration_us / 1000 AS duration_ms, on_critical_path\nFROM tasks\nORDER BY duration_us DESC NULLS LAST\nLIMIT 20"),
        ("Time per kind", "SELECT kind, count(*) AS tasks, sum(duration_us) / 1000 AS total_ms,\n       quantile_cont(duration_us, 0.9) / 1000 AS p90_ms\nFROM tasks\nGROUP BY kind\nORDER BY total_ms DESC NULLS LAST"),
        ("Critical path with its gaps", "SELECT p.step, p.task_key, p.lane, p.duration_us / 1000 AS duration_ms, p.gap_before_us / 1000 AS gap_ms\nFROM critical_path p\nORDER BY p.step"),
        ("Busiest lanes", "SELECT lane, count(*) AS tasks, sum(duration_us) / 1000 AS busy_ms\nFROM tasks\nGROUP BY lane\nORDER BY busy_ms DESC NULLS LAST\nLIMIT 20"),
        ("Share of the wall on the path", "SELECT format, critical_path_us / wall_us AS path_share\nFROM runs\nWHERE critical_path_us IS NOT NULL AND wall_us > 0"),
        ("Least slack off the path", "SELECT uid, kind, lane, slack_us / 1000 AS slack_ms\nFROM tasks\nWHERE NOT on_critical_path AND slack_us IS NOT NULL\nORDER BY slack_us\nLIMIT 20"),
        ("The path as a track", "SELECT uid AS name, lane, task_id, start_offset_us / 1000 AS start_ms,\n       (start_offset_us + duration_us) / 1000 AS end_ms\nFROM tasks\nWHERE on_critical_path"),
    ];
    list.extend(match format {
        "ghc-eventlog" => vec![("Garbage collections per generation", "SELECT * FROM ghc_eventlog_gc"), ("Threads by run time", "SELECT * FROM ghc_eventlog_threads ORDER BY run_time_ms DESC NULLS LAST")],
        "starrocks" => vec![("Operators by time", "SELECT * FROM tasks WHERE role <> 'phase' ORDER BY duration_us DESC NULLS LAST LIMIT 50")],
        "monetdb-mal" => vec![("The most expensive instructions", "SELECT kind, count(*) AS calls, sum(duration_us) / 1000 AS total_ms\nFROM tasks\nGROUP BY kind\nORDER BY total_ms DESC\nLIMIT 20")],
        "spark" => vec![("Stages by their slowest task", "SELECT kind, max(duration_us) / 1000 AS slowest_ms, median(duration_us) / 1000 AS median_ms,\n       max(duration_us) / nullif(median(duration_us), 0) AS skew\nFROM tasks\nGROUP BY kind\nORDER BY skew DESC NULLS LAST")],
        _ => Vec::new(),
    });
    list
}

/// One cell of a result: numbers right-aligned, NULL shown as such.
fn cell(v: &Value) -> Html {
    match v {
        Value::Null => html! { <td class="null">{ "NULL" }</td> },
        Value::Number(n) => html! { <td class="num">{ n.to_string() }</td> },
        Value::String(s) => html! { <td>{ s.clone() }</td> },
        other => html! { <td>{ other.to_string() }</td> },
    }
}

/// The SQL tab.
#[component]
pub fn SqlTab(props: &SqlTabProps) -> Html {
    let s = &props.state;
    {
        let (engine, run) = (props.engine.clone(), props.run);
        use_effect_with(run, move |&run| engine.open(run));
    }
    let run_query = {
        let (engine, text) = (props.engine.clone(), s.text.clone());
        Callback::from(move |_: ()| engine.run(text.clone(), None))
    };
    let oninput = props.dispatch.reform(|e: InputEvent| {
        let area: HtmlTextAreaElement = e.target_unchecked_into();
        Action::Sql(SqlAction::Text(area.value()))
    });
    let onkeydown = {
        let run_query = run_query.clone();
        Callback::from(move |e: KeyboardEvent| {
            // Ctrl+Enter (⌘+Enter) runs; other keys stay the editor's.
            if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) {
                e.prevent_default();
                run_query.emit(());
            }
            e.stop_propagation();
        })
    };
    let pick = |list: Vec<String>| {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            if let Some(q) = select.value().parse::<usize>().ok().and_then(|i| list.get(i)) {
                dispatch.emit(Action::Sql(SqlAction::Text(q.clone())));
            }
            select.set_value("");
        })
    };
    let examples = examples(&props.format);
    let on_example = pick(examples.iter().map(|(_, q)| (*q).to_owned()).collect());
    let on_history = pick(s.history.clone());
    let on_folder = {
        let engine = props.engine.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let files: Vec<web_sys::File> =
                input.files().map_or_else(Vec::new, |list| (0..list.length()).filter_map(|i| list.get(i)).collect());
            if !files.is_empty() {
                engine.add_folder(files);
            }
        })
    };
    let ready = matches!(s.engine, EngineStatus::Ready(_));
    let status = match &s.engine {
        EngineStatus::Idle | EngineStatus::Ready(_) => Html::default(),
        EngineStatus::Loading(what) => html! { <p class="notice" role="status" data-testid="sql-loading">{ what }</p> },
        EngineStatus::Failed(why) => {
            let (engine, run) = (props.engine.clone(), props.run);
            html! {
                <p class="notice error" role="alert" data-testid="sql-failed">{ format!("The SQL tab could not start: {why} ") }
                    <button class="button small" onclick={Callback::from(move |_: MouseEvent| engine.open(run))}>{ "Try again" }</button>
                </p>
            }
        }
    };
    let schema = html! {
        <aside class="sql-schema" data-testid="sql-schema" aria-label="Tables">
            <h3>{ "Tables" }</h3>
            { for s.tables.iter().map(|t| {
                let (dispatch, name) = (props.dispatch.clone(), t.table.clone());
                let onclick = Callback::from(move |e: MouseEvent| {
                    e.prevent_default();
                    dispatch.emit(Action::Sql(SqlAction::Text(format!("SELECT * FROM {name} LIMIT 100"))));
                });
                html! {
                    <details>
                        <summary><a href="#" {onclick} title="Query this table" data-table={t.table.clone()}>{ &t.table }</a></summary>
                        <ul>{ for t.columns.iter().map(|c| html! { <li>{ &c.name }{ " " }<span class="muted">{ c.data_type.to_lowercase() }</span></li> }) }</ul>
                    </details>
                }
            }) }
        </aside>
    };
    let result = s.result.as_ref().map(|r| {
        let task_col = r.head.columns.iter().position(|c| c.name == "task_id");
        let header = |(i, c): (usize, &crate::sql_state::ColumnSchema)| {
            let (engine, query, name) = (props.engine.clone(), r.query.clone(), c.name.clone());
            let desc = match &r.sort {
                Some((by, desc)) if *by == c.name => !*desc,
                _ => true,
            };
            let mark = match &r.sort {
                Some((by, true)) if *by == c.name => " ▼",
                Some((by, false)) if *by == c.name => " ▲",
                _ => "",
            };
            let onclick = Callback::from(move |_: MouseEvent| engine.run(query.clone(), Some((name.clone(), desc))));
            html! { <th {onclick} class="sortable" title={format!("{} — click to sort", c.data_type)} data-col={i.to_string()}>{ format!("{}{mark}", c.name) }</th> }
        };
        let row = |values: &Vec<Value>| {
            let task = task_col.and_then(|i| values.get(i)).and_then(Value::as_u64).map(|t| t as u32);
            let onclick = task.map(|t| props.dispatch.reform(move |_: MouseEvent| Action::Select(Some(t))));
            let class = classes!(task.is_some().then_some("clickable"), (task.is_some() && task == props.selected).then_some("selected"));
            html! { <tr {class} {onclick}>{ for values.iter().map(cell) }</tr> }
        };
        let (from, to) = (r.offset, (r.offset + r.rows.len() as u64).min(r.head.row_count));
        let page = |offset: u64| {
            let engine = props.engine.clone();
            Callback::from(move |_: MouseEvent| engine.page(offset))
        };
        let csv = {
            let engine = props.engine.clone();
            Callback::from(move |_: MouseEvent| engine.save_csv())
        };
        let drawable = r.head.track_columns().is_some();
        let draw = {
            let (engine, query, dispatch) = (props.engine.clone(), r.query.clone(), props.dispatch.clone());
            Callback::from(move |_: MouseEvent| {
                engine.draw(query.clone());
                dispatch.emit(Action::Tab(crate::state::Tab::Timeline));
            })
        };
        html! {
            <>
                <p class="sql-meta">
                    { format!("{} rows in {:.0} ms", group(r.head.row_count), r.head.elapsed_ms) }
                    if r.head.row_count > 0 {
                        { format!(" · rows {}–{}", group(from + 1), group(to)) }
                    }
                    <button class="button small" disabled={r.offset == 0} onclick={page(r.offset.saturating_sub(PAGE_ROWS as u64))} data-testid="sql-prev">{ "‹ Previous" }</button>
                    <button class="button small" disabled={to >= r.head.row_count} onclick={page(r.offset + PAGE_ROWS as u64)} data-testid="sql-next">{ "Next ›" }</button>
                    <button class="button small" onclick={csv} data-testid="sql-csv" title="Every row of the result, as CSV">{ "⤓ CSV" }</button>
                    <button class="button small" onclick={draw} disabled={!drawable} data-testid="sql-track"
                        title={if drawable { "Draw the rows on the timeline, a bar per row" } else { "A track needs columns named start_ms, end_ms (ms from the run's start), lane and name" }}>
                        { "Draw on the timeline" }</button>
                </p>
                <div class="sql-result-scroll">
                    <table class="data sql-result" data-testid="sql-result" data-row-count={r.head.row_count.to_string()}>
                        <thead><tr>{ for r.head.columns.iter().enumerate().map(header) }</tr></thead>
                        <tbody>{ for r.rows.iter().map(row) }</tbody>
                    </table>
                </div>
            </>
        }
    });
    html! {
        <section class="sql" data-testid="sql" data-answers={s.answers.to_string()}>
            { status }
            <div class="sql-body">
                { schema }
                <div class="sql-main">
                    <div class="sql-tools">
                        <select onchange={on_example} data-testid="sql-examples" aria-label="Example queries">
                            <option value="" selected=true>{ "Examples…" }</option>
                            { for examples.iter().enumerate().map(|(i, (title, _))| html! { <option value={i.to_string()}>{ *title }</option> }) }
                        </select>
                        <select onchange={on_history} data-testid="sql-history" aria-label="History" disabled={s.history.is_empty()}>
                            <option value="" selected=true>{ format!("History ({})", s.history.len()) }</option>
                            { for s.history.iter().enumerate().map(|(i, q)| html! { <option value={i.to_string()} title={q.clone()}>{ q.lines().next().unwrap_or("").chars().take(80).collect::<String>() }</option> }) }
                        </select>
                        <label class="button small" title="A folder written by longpole export --to parquet: query its runs here">
                            { "Add fleet tables…" }
                            <input type="file" class="hidden" webkitdirectory=true multiple=true onchange={on_folder} data-testid="sql-folder" />
                        </label>
                    </div>
                    <textarea class="sql-editor" data-testid="sql-editor" spellcheck="false" rows="7" value={s.text.clone()}
                        {oninput} {onkeydown} aria-label="SQL query" placeholder="SELECT … FROM tasks" />
                    <p>
                        <button class="button" disabled={!ready || s.running} onclick={run_query.reform(|_: MouseEvent| ())} data-testid="sql-run"
                            title="Run the query (Ctrl+Enter)">{ if s.running { "Running…" } else { "Run ▶" } }</button>
                        <span class="muted">{ " Ctrl+Enter runs · DuckDB's SQL · " }</span>
                    </p>
                    if let Some(error) = &s.error {
                        <pre class="sql-error" role="alert" data-testid="sql-error">{ error }</pre>
                    }
                    { result.unwrap_or_default() }
                </div>
            </div>
        </section>
    }
}
