//! The SQL tab's state: the engine's load, the tables it holds, the
//! editor's query and history, and the last result (its columns, its row
//! count and the page of rows shown; the rows themselves stay in the
//! engine, as Arrow). It outlives a run: the engine, the query and the
//! history stay when another run is opened, and only its tables change.

use crate::shared::Shared;
use serde::Deserialize;
use serde_json::Value;

/// Rows shown per page of a result.
pub const PAGE_ROWS: usize = 100;

/// Queries kept in the history, newest first.
pub const HISTORY: usize = 50;

/// Rows a track draws at most (the first of the result).
pub const TRACK_ROWS: usize = 5_000;

/// How far the engine is.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum EngineStatus {
    /// Not loaded: the SQL tab was never opened.
    #[default]
    Idle,
    /// Loading: what it is doing now.
    Loading(String),
    /// Ready, with the tables of this run (0: a folder of fleet tables only).
    Ready(u32),
    /// It could not load, or the run's tables could not be made; why.
    Failed(String),
}

/// A table the engine holds, with its columns, for the schema beside the editor.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct TableSchema {
    /// Its name.
    pub table: String,
    /// Its columns.
    pub columns: Vec<ColumnSchema>,
}

/// A column: its name and its SQL type.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct ColumnSchema {
    /// Its name.
    pub name: String,
    /// Its type, as the engine names it.
    #[serde(rename = "type")]
    pub data_type: String,
}

/// What a query gave, as the engine describes it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ResultHead {
    /// The columns.
    pub columns: Vec<ColumnSchema>,
    /// All rows, not only those shown.
    pub row_count: u64,
    /// How long the query took in the engine, ms.
    pub elapsed_ms: f64,
}

/// A query's result as shown.
#[derive(Clone, Debug, PartialEq)]
pub struct SqlResult {
    /// The query that made it.
    pub query: String,
    /// Its head.
    pub head: ResultHead,
    /// The column it is sorted by, and whether descending.
    pub sort: Option<(String, bool)>,
    /// The first row shown (a multiple of [`PAGE_ROWS`]).
    pub offset: u64,
    /// The rows shown.
    pub rows: Vec<Vec<Value>>,
}

impl ResultHead {
    /// The columns a track needs, by index: `start_ms` and `end_ms` (ms
    /// from the run's start), `lane` and `name` (case-insensitive), when
    /// all four are there.
    pub fn track_columns(&self) -> Option<[usize; 4]> {
        let find = |name: &str| self.columns.iter().position(|c| c.name.eq_ignore_ascii_case(name));
        Some([find("start_ms")?, find("end_ms")?, find("lane")?, find("name")?])
    }
}

/// A query's rows drawn on the timeline, as Perfetto draws a debug track:
/// a row per lane, a bar per result row.
#[derive(Clone, Debug, PartialEq)]
pub struct Track {
    /// The query that made it.
    pub query: String,
    /// Its lanes, in the order they first come.
    pub lanes: Vec<String>,
    /// Its bars.
    pub bars: Vec<TrackBar>,
    /// The result's rows, all of them (only the first [`TRACK_ROWS`] are drawn).
    pub rows: u64,
}

/// One bar of a track.
#[derive(Clone, Debug, PartialEq)]
pub struct TrackBar {
    /// Its lane's index in [`Track::lanes`].
    pub lane: u32,
    /// Its name.
    pub name: String,
    /// Its start and end, ms from the run's start.
    pub start_ms: f64,
    /// Its end.
    pub end_ms: f64,
    /// The task it selects (the row's `task_id`), if any.
    pub task: Option<u32>,
}

impl Track {
    /// The track of `query`'s `rows` under `head`, or why it cannot be drawn.
    pub fn of(query: String, head: &ResultHead, rows: &[Vec<Value>]) -> Result<Track, String> {
        let [start, end, lane, name] = head.track_columns().ok_or(
            "a track needs columns named start_ms and end_ms (ms from the run's start), lane and name".to_owned(),
        )?;
        let task = head.columns.iter().position(|c| c.name.eq_ignore_ascii_case("task_id"));
        let text = |v: Option<&Value>| match v {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Null) | None => String::new(),
            Some(other) => other.to_string(),
        };
        let mut lanes: Vec<String> = Vec::new();
        let mut bars = Vec::with_capacity(rows.len());
        for row in rows {
            let (Some(a), Some(b)) = (row.get(start).and_then(Value::as_f64), row.get(end).and_then(Value::as_f64))
            else {
                continue;
            };
            let lane_name = text(row.get(lane));
            let lane = match lanes.iter().position(|l| *l == lane_name) {
                Some(i) => i,
                None => {
                    lanes.push(lane_name);
                    lanes.len() - 1
                }
            };
            let task = task.and_then(|i| row.get(i)).and_then(Value::as_u64).and_then(|t| u32::try_from(t).ok());
            bars.push(TrackBar {
                lane: lane as u32,
                name: text(row.get(name)),
                start_ms: a.min(b),
                end_ms: a.max(b),
                task,
            });
        }
        Ok(Track { query, lanes, bars, rows: head.row_count })
    }
}

/// The SQL tab's whole state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SqlState {
    /// The engine.
    pub engine: EngineStatus,
    /// Its tables.
    pub tables: Vec<TableSchema>,
    /// The query in the editor.
    pub text: String,
    /// Queries run, newest first, each once.
    pub history: Vec<String>,
    /// A query is running.
    pub running: bool,
    /// The last result.
    pub result: Option<SqlResult>,
    /// The last query's error, DuckDB's own message (with the position).
    pub error: Option<String>,
    /// The query drawn on the timeline, if any.
    pub track: Option<Shared<Track>>,
    /// Queries answered so far, with rows or an error (the tab's
    /// `data-answers`, which scripts wait on).
    pub answers: u64,
}

/// What changes the SQL tab's state.
#[derive(Clone, Debug, PartialEq)]
pub enum SqlAction {
    /// The engine's load moved on.
    Loading(String),
    /// The engine holds these tables, those of run `run` (0: none).
    Ready(u32, Vec<TableSchema>),
    /// The engine or the run's tables failed; why.
    Failed(String),
    /// The editor's text changed.
    Text(String),
    /// A query was sent.
    Running(String),
    /// It answered: the head and the first rows, sorted as said.
    Answered(String, ResultHead, Option<(String, bool)>, Vec<Vec<Value>>),
    /// Another page of the result: from `offset`, these rows.
    Page(u64, Vec<Vec<Value>>),
    /// It failed: DuckDB's message.
    Error(String),
    /// Draw this track on the timeline (`None`: take it away).
    Track(Option<Shared<Track>>),
}

impl SqlState {
    /// The state after `action`.
    pub fn apply(&mut self, action: SqlAction) {
        match action {
            SqlAction::Loading(what) => self.engine = EngineStatus::Loading(what),
            SqlAction::Ready(run, tables) => {
                self.engine = EngineStatus::Ready(run);
                if self.text.is_empty() {
                    self.text = default_query(&tables);
                }
                self.tables = tables;
            }
            SqlAction::Failed(message) => {
                self.engine = EngineStatus::Failed(message);
                self.running = false;
            }
            SqlAction::Text(text) => self.text = text,
            SqlAction::Running(query) => {
                self.running = true;
                self.history.retain(|q| *q != query);
                self.history.insert(0, query);
                self.history.truncate(HISTORY);
            }
            SqlAction::Answered(query, head, sort, rows) => {
                self.running = false;
                self.answers += 1;
                self.error = None;
                self.result = Some(SqlResult { query, head, sort, offset: 0, rows });
            }
            SqlAction::Page(offset, rows) => {
                if let Some(r) = &mut self.result {
                    r.offset = offset;
                    r.rows = rows;
                }
            }
            SqlAction::Error(message) => {
                self.running = false;
                self.answers += 1;
                self.error = Some(message);
            }
            SqlAction::Track(track) => self.track = track,
        }
    }
}

/// The query the editor starts with: the run's longest tasks, when it has
/// the fleet's `tasks` table.
fn default_query(tables: &[TableSchema]) -> String {
    if tables.iter().any(|t| t.table == "tasks") {
        "SELECT uid, kind, lane, duration_us / 1000 AS duration_ms, on_critical_path\nFROM tasks\nORDER BY duration_us DESC NULLS LAST\nLIMIT 20".into()
    } else {
        tables.first().map_or_else(String::new, |t| format!("SELECT * FROM {} LIMIT 20", t.table))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(names: &[&str]) -> ResultHead {
        let columns = names.iter().map(|n| ColumnSchema { name: (*n).into(), data_type: "Int64".into() }).collect();
        ResultHead { columns, row_count: 3, elapsed_ms: 1.0 }
    }

    #[test]
    fn history_keeps_each_query_once_newest_first() {
        let mut s = SqlState::default();
        for q in ["a", "b", "a"] {
            s.apply(SqlAction::Running(q.into()));
        }
        assert_eq!(s.history, ["a", "b"]);
        assert!(s.running);
        s.apply(SqlAction::Error("Parser Error".into()));
        assert_eq!((s.running, s.error.as_deref()), (false, Some("Parser Error")));
        s.apply(SqlAction::Answered("a".into(), head(&["x"]), None, vec![vec![Value::from(1)]]));
        assert_eq!(s.error, None, "an answer clears the last error");
    }

    #[test]
    fn the_editor_starts_on_the_tasks_and_keeps_what_was_typed() {
        let tasks = TableSchema { table: "tasks".into(), columns: Vec::new() };
        let mut s = SqlState::default();
        s.apply(SqlAction::Ready(1, vec![tasks.clone()]));
        assert!(s.text.contains("FROM tasks"));
        s.apply(SqlAction::Text("SELECT 1".into()));
        s.apply(SqlAction::Ready(2, vec![tasks]));
        assert_eq!((s.text.as_str(), &s.engine), ("SELECT 1", &EngineStatus::Ready(2)));
    }

    #[test]
    fn a_track_needs_a_start_an_end_a_lane_and_a_name() {
        assert_eq!(head(&["Name", "lane", "start_ms", "end_ms"]).track_columns(), Some([2, 3, 1, 0]));
        assert_eq!(head(&["name", "lane", "start_ms"]).track_columns(), None);
        assert!(Track::of("q".into(), &head(&["name", "lane"]), &[]).unwrap_err().contains("start_ms"));
    }

    #[test]
    fn a_tracks_bars_keep_their_lanes_in_order_and_skip_rows_without_times() {
        let h = head(&["name", "lane", "start_ms", "end_ms", "task_id"]);
        let row =
            |n: &str, l: &str, a: Value, b: f64, t: Value| vec![Value::from(n), Value::from(l), a, Value::from(b), t];
        let rows = [
            row("a", "h2", Value::from(5.0), 1.0, Value::from(3)),
            row("b", "h1", Value::from(0.0), 2.0, Value::Null),
            row("c", "h2", Value::Null, 2.0, Value::Null),
        ];
        let t = Track::of("q".into(), &h, &rows).unwrap();
        assert_eq!(t.lanes, ["h2", "h1"]);
        assert_eq!(t.bars.len(), 2, "a row without a start is not drawn");
        assert_eq!((t.bars[0].start_ms, t.bars[0].end_ms, t.bars[0].task), (1.0, 5.0, Some(3)));
        assert_eq!((t.bars[1].lane, t.bars[1].task), (1, None));
    }
}
