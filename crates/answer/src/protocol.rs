//! The messages between the page and its analysis worker (or the
//! `longpole open --native` process, over a WebSocket: the same JSON).
//!
//! Both directions carry JSON text, so the types stay plain Rust and
//! testable natively. A request that reads files also carries the `File`
//! objects themselves beside the JSON (files are not serialisable; they are
//! structured-cloned by `postMessage`). Every message names its run: the
//! page ignores anything from a run it no longer waits for.

use longpole_core::analysis::task_key::TaskKey;
use longpole_core::export::run::Target;
use longpole_core::formats::evobench::view::StatRow;
use longpole_core::layout::graph::GraphLayout;
use longpole_core::layout::timeline::{Frame, RowBars, Viewport};
use longpole_core::view::compare::CompareView;
use longpole_core::view::compare_flame::DiffFlame;
use longpole_core::view::compare_timelines::{CompareTimelines, Window};
use longpole_core::view::table_page::{TablePage, TableQuery};
use longpole_core::view::what_if::{LeverRow, WhatIfView};
use longpole_core::view::{FlameLayout, RunView, TaskDetails};
use longpole_core::Summary;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Identifies one analysis request; the page counts them up from 1.
pub type RunId = u32;

/// The `type` of the worker's one message that is not JSON: a made file,
/// `{type, run, name, mime, bytes}` with its bytes a `Uint8Array` whose
/// buffer is moved, not copied (a JSON array of numbers took four times
/// the file's size, and an export of hundreds of MB stopped the worker).
/// Over `longpole open --native`'s WebSocket it is a text frame of JSON
/// `{type, run, name, mime}` and then a binary frame of the bytes.
pub const FILE_MESSAGE: &str = "File";

/// The timeline's width before it has measured itself, px.
pub const FIRST_WIDTH: f64 = 900.0;
/// The timeline's height before it has measured itself, px.
pub const FIRST_HEIGHT: f64 = 600.0;
/// Lanes asked for beyond the visible ones, above and below, px.
pub const LANE_MARGIN: f64 = 200.0;

/// What the timeline shows of a run on its first render (the whole run,
/// [`FIRST_WIDTH`] by [`FIRST_HEIGHT`], scrolled to the top): the viewport
/// and the lanes. The worker sends these bars with its result, so the chart
/// draws without asking; None when the run has no time window.
pub fn first_bars(view: &RunView) -> Option<(Viewport, std::ops::Range<usize>)> {
    let (start, end) = view.window?;
    let frame = Frame::new(&view.rows_per_lane);
    let width = (FIRST_WIDTH - frame.gutter).max(200.0);
    Some((Viewport { start, end, width }, frame.lanes_between(-LANE_MARGIN, FIRST_HEIGHT + LANE_MARGIN)))
}

/// One input a link names (the app's `link.rs`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// Its URL, as the link gives it (absolute, or relative to the page).
    pub url: String,
    /// The SHA-256 its bytes must have, lowercase hex, if the link says.
    pub sha256: Option<String>,
    /// The token a `longpole open` server wants with the request (the
    /// link's `token`), sent as the header [`TOKEN_HEADER`].
    #[serde(default)]
    pub token: Option<String>,
}

/// The header that carries a link's `token` back to the `longpole open`
/// server that gave it (docs/cli.md, "open").
pub const TOKEN_HEADER: &str = "X-Longpole-Token";

/// Page → worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Request {
    /// Read the files sent alongside this message, in order, and analyse them together.
    Analyze {
        /// The run this starts.
        run: RunId,
        /// The most WebAssembly memory the run may need, bytes; `None` for
        /// [`longpole_core::memory_budget::WASM_LIMIT`] (tests lower it).
        #[serde(default)]
        memory_limit: Option<u64>,
    },
    /// Fetch these URLs (absolute) and analyse them together, as files
    /// sent with [`Request::Analyze`] are.
    AnalyzeUrls {
        /// The run this starts.
        run: RunId,
        /// The inputs, in order, each with the digest to check, if any.
        sources: Vec<Source>,
        /// As for [`Request::Analyze`].
        #[serde(default)]
        memory_limit: Option<u64>,
    },
    /// Read the build graph sent alongside, for the worker that started
    /// this one (the app's `graph_worker.rs`); not sent by the page.
    ReadGraph,
    /// Stop the run, if it is still going.
    Cancel {
        /// The run to stop.
        run: RunId,
    },
    /// The timeline's bars of some lanes in a viewport.
    Bars {
        /// The run.
        run: RunId,
        /// Echoed back, so the page keeps only the newest answer.
        seq: u32,
        /// The time window and width.
        viewport: Viewport,
        /// First lane and one past the last.
        lanes: (usize, usize),
    },
    /// Everything about one task, for the details panel.
    Details {
        /// The run.
        run: RunId,
        /// The task's id.
        task: u32,
    },
    /// ya's report as text.
    ReportText {
        /// The run.
        run: RunId,
    },
    /// The run's levers (`longpole analyze`'s): the tasks whose fixing
    /// would save the most.
    Levers {
        /// The run.
        run: RunId,
    },
    /// One task's slack and drag.
    Lever {
        /// The run.
        run: RunId,
        /// The task's id.
        task: u32,
    },
    /// The run replayed with one task faster: a step of the slider.
    WhatIf {
        /// The run.
        run: RunId,
        /// The task's id.
        task: u32,
        /// How much faster, percent (100: it takes no time).
        speedup: u8,
    },
    /// The task a stable key names (a link's selection).
    Locate {
        /// The run.
        run: RunId,
        /// The key.
        key: TaskKey,
    },
    /// The dependency graph, laid out around a path.
    Graph {
        /// The run.
        run: RunId,
        /// Kinds whose folded group to unfold.
        unfold: Vec<u32>,
        /// Around the blocking chain instead of ya's path.
        chain: bool,
        /// As a standalone SVG file (a [`Response::Svg`]) instead of a layout.
        export: bool,
    },
    /// The timeline as a standalone SVG file.
    ExportSvg {
        /// The run.
        run: RunId,
        /// The time window and width.
        viewport: Viewport,
        /// Highlight the blocking chain instead of ya's path.
        chain: bool,
    },
    /// The flame graph of an evobench run, laid out.
    Flame {
        /// The run.
        run: RunId,
        /// The timing kind (its index: real, cpu, sys, ctx switches).
        kind: u8,
        /// The frame shown as the whole width.
        root: u32,
        /// Root at the top.
        icicle: bool,
        /// As a standalone SVG file (a [`Response::Svg`]) instead of a layout.
        export: bool,
    },
    /// An evobench run's statistics or stacks as a file: its bytes are moved
    /// to the page in a message of their own ([`FILE_MESSAGE`]), or the
    /// worker answers [`Response::ExportRefused`].
    Export {
        /// The run.
        run: RunId,
        /// What to export.
        what: Export,
    },
    /// The summary over evobench runs of another per-run statistic.
    Summary {
        /// The run.
        run: RunId,
        /// The per-run statistic (`mean`, `median`, `p90`...).
        field: String,
    },
    /// The loaded run's SQL tables, for the SQL tab: each posted as a file
    /// (`TABLE.arrow`, an Arrow IPC stream), then [`Response::SqlTables`].
    /// The files sent alongside are the run's inputs again, read for the
    /// run's id (their SHA-256). The web worker's own (the native server
    /// does not answer it).
    SqlTables {
        /// The run.
        run: RunId,
    },
    /// Compare side A's runs with side B's: read the files sent alongside
    /// (side A's first), or only side B's when side A is the loaded run.
    CompareFiles {
        /// The run this starts.
        run: RunId,
        /// How many of the files are side A's; `None`: side A is the run
        /// the worker has loaded ("Compare with…"), and every file is B's.
        a_files: Option<u32>,
        /// Which runs, and when a change counts.
        settings: CompareSettings,
        /// As for [`Request::Analyze`].
        #[serde(default)]
        memory_limit: Option<u64>,
    },
    /// Compare the sides already read again, with other settings.
    Recompare {
        /// The comparison's run.
        run: RunId,
        /// Which runs, and when a change counts.
        settings: CompareSettings,
    },
    /// The last comparison as `longpole compare --format json` writes it,
    /// as a file ([`FILE_MESSAGE`]).
    ExportComparison {
        /// The comparison's run.
        run: RunId,
    },
    /// Rows of the last comparison's table, which stays in the worker:
    /// those a search keeps, in a column's order, the first `limit`.
    CompareRows {
        /// The comparison's run.
        run: RunId,
        /// Which rows.
        query: TableQuery,
    },
    /// Every row of the last comparison's table that `query`'s search keeps,
    /// in its order, as CSV or JSON, as a file ([`FILE_MESSAGE`]).
    ExportCompareRows {
        /// The comparison's run.
        run: RunId,
        /// The order and the search (the limit is not used).
        query: TableQuery,
        /// CSV; else JSON.
        csv: bool,
    },
    /// Both timelines of the last comparison in a window (a time span
    /// from each run's start, a band of rows, the selected key), culled by
    /// pixel.
    CompareWindow {
        /// The comparison's run.
        run: RunId,
        /// The window.
        window: Window,
    },
}

/// The comparison table's rows sent with a comparison; the page asks for
/// the rest ([`Request::CompareRows`]): a big build's comparison has a row
/// per key, hundreds of thousands, too many to send and read back at once.
pub const COMPARE_FIRST_ROWS: usize = 200;

/// How a comparison of two sides is made: which run of each side, and
/// when a change counts (as `longpole compare`'s `FILE#N`,
/// `--min-delta-ms` and `--min-relative`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareSettings {
    /// Side A's run (from 1) in each of its datasets; `None`: all its runs.
    pub pick_a: Option<u32>,
    /// Side B's run.
    pub pick_b: Option<u32>,
    /// The absolute threshold, ms; `None`: the default (0.1 % of A's wall time).
    pub min_delta_ms: Option<f64>,
    /// The relative threshold (0.05 is 5 %).
    pub min_relative: f64,
}

impl Default for CompareSettings {
    fn default() -> Self {
        CompareSettings { pick_a: None, pick_b: None, min_delta_ms: None, min_relative: 0.05 }
    }
}

/// What an [`Request::Export`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Export {
    /// The run in another tool's format (Chrome trace, speedscope, folded
    /// stacks, SVG, single-file HTML report).
    Run(Target),
    /// Folded stacks (inferno / FlameGraph) of one timing kind (its index).
    Folded(u8),
    /// Every timing kind's statistics as CSV. (The workbook is the export
    /// worker's: the app's `ExportFile::Workbook`.)
    StatisticsCsv,
}

/// How far a run has come.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// The run.
    pub run: RunId,
    /// Index of the file being read.
    pub file: usize,
    /// Its name.
    pub name: String,
    /// Bytes read over all files.
    pub bytes_done: u64,
    /// Bytes of all files, when known (a URL's server may not say).
    pub bytes_total: Option<u64>,
    /// Read speed so far, in MB/s (10^6 bytes).
    pub mb_per_s: f64,
    /// Milliseconds since the run began.
    pub elapsed_ms: f64,
    /// The current file's format, once detected (its short name).
    pub format: Option<String>,
    /// Lines read in the current file.
    pub lines: u64,
    /// Diagnostics so far, over all files.
    pub diagnostics: u64,
}

/// Worker → page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Response {
    /// The worker has started and listens.
    Ready,
    /// A result of the worker's warm-up (the app's `warm_up.rs`) as JSON, sent so
    /// that the page warms up its decoding of results on it, then drops it.
    /// (A struct variant: an internally tagged enum cannot carry a bare
    /// string, and serde refuses to encode one.)
    WarmedUp {
        /// The result, itself a [`Response`]'s JSON.
        json: String,
    },
    /// A run moved on.
    Progress(Progress),
    /// A run finished.
    Done(Finished),
    /// Bars for a viewport.
    Bars {
        /// The run.
        run: RunId,
        /// The request's sequence number.
        seq: u32,
        /// The viewport they were laid out for.
        viewport: Viewport,
        /// The bars, per row.
        rows: Vec<RowBars>,
    },
    /// A task's details.
    Details {
        /// The run.
        run: RunId,
        /// The details.
        details: Box<TaskDetails>,
        /// The task's stable key, for links.
        key: TaskKey,
    },
    /// The task a key names, if the run has it.
    Located {
        /// The run.
        run: RunId,
        /// The key asked for.
        key: TaskKey,
        /// The task, if any.
        task: Option<u32>,
    },
    /// ya's report as text.
    ReportText {
        /// The run.
        run: RunId,
        /// The report.
        text: String,
    },
    /// The run's levers, largest drag first (none: the run records no
    /// dependencies).
    Levers {
        /// The run.
        run: RunId,
        /// The levers.
        levers: Vec<LeverRow>,
    },
    /// One task's slack and drag.
    Lever {
        /// The run.
        run: RunId,
        /// The task asked about.
        task: u32,
        /// Its figures (`None`: the replay leaves it out).
        lever: Option<LeverRow>,
    },
    /// A step of the slider.
    WhatIf {
        /// The run.
        run: RunId,
        /// The replay (`None`: the task is not replayed).
        view: Option<Box<WhatIfView>>,
    },
    /// The laid-out dependency graph.
    Graph {
        /// The run.
        run: RunId,
        /// The layout.
        layout: Box<GraphLayout>,
    },
    /// An exported SVG file.
    Svg {
        /// The run.
        run: RunId,
        /// The file's name.
        name: String,
        /// The file's text.
        text: String,
    },
    /// A laid-out flame graph.
    Flame {
        /// The run.
        run: RunId,
        /// The timing kind it was laid out for.
        kind: u8,
        /// Its root.
        root: u32,
        /// The frames, with what the page shows of them.
        layout: Box<FlameLayout>,
    },
    /// The end of [`Request::SqlTables`].
    SqlTables {
        /// The run.
        run: RunId,
        /// Why its tables were not made, if they were not.
        failed: Option<String>,
    },
    /// An export the worker will not make (too big for a browser tab); the
    /// run stays on screen.
    ExportRefused {
        /// The run.
        run: RunId,
        /// Why, and how to make the file instead.
        message: String,
    },
    /// The summary over runs of one per-run statistic.
    Summary {
        /// The run.
        run: RunId,
        /// The statistic, as asked.
        field: String,
        /// One row per path present in every run.
        rows: Vec<StatRow>,
    },
    /// Two sides compared.
    Compared {
        /// The run.
        run: RunId,
        /// What the compare screen shows.
        view: Box<CompareView>,
        /// The representative runs' timelines.
        timelines: Option<Box<CompareTimelines>>,
        /// The differential flame graphs, one per measure, where the
        /// format has one (none otherwise).
        flames: Vec<DiffFlame>,
        /// The runs side A's files hold (before a pick).
        runs_a: usize,
        /// The runs side B's files hold.
        runs_b: usize,
        /// The settings it was made with.
        settings: CompareSettings,
        /// Milliseconds from the request to the result.
        elapsed_ms: f64,
    },
    /// Rows of the last comparison's table ([`Request::CompareRows`]).
    CompareRows {
        /// The run.
        run: RunId,
        /// The rows asked for.
        page: Box<TablePage>,
    },
    /// Another window of the last comparison's timelines.
    CompareWindow {
        /// The run.
        run: RunId,
        /// Both timelines in the window.
        timelines: Box<CompareTimelines>,
    },
    /// Two sides could not be compared with these settings (a run that is
    /// not there, a side without runs); the sides stay read.
    CompareRefused {
        /// The run.
        run: RunId,
        /// Why.
        message: String,
    },
    /// A run could not finish: an input is not (or no longer) a readable format.
    Failed {
        /// The run.
        run: RunId,
        /// What went wrong, naming the file, the position and the bytes.
        message: String,
    },
    /// A run stopped because it was cancelled or replaced by a newer one.
    Cancelled {
        /// The run.
        run: RunId,
    },
}

/// A message that could not be encoded: which one, for which run, and why.
#[derive(Debug)]
pub struct EncodeError {
    /// The message: a response's kind, or a request as written in Rust
    /// (requests are small and carry their run).
    pub what: String,
    /// The run it belonged to, where the message has one.
    pub run: Option<RunId>,
    /// What serde said.
    pub cause: serde_json::Error,
}

impl std::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "could not encode the message {}", self.what)?;
        if let Some(run) = self.run {
            write!(f, " of run {run}")?;
        }
        write!(f, ": {}", self.cause)
    }
}

impl std::error::Error for EncodeError {}

impl EncodeError {
    /// A [`Response::Failed`] in its place, as JSON, said by `who` (`longpole's
    /// analysis worker`), built as a JSON value (whose text form cannot fail).
    pub fn failure_json(&self, who: &str) -> String {
        let message = format!("{who} {self}; please report this");
        serde_json::json!({ "type": "Failed", "run": self.run.unwrap_or(0), "message": message }).to_string()
    }
}

impl Request {
    /// Encodes for `postMessage`.
    pub fn to_json(&self) -> Result<String, EncodeError> {
        serde_json::to_string(self).map_err(|cause| EncodeError { what: format!("{self:?}"), run: None, cause })
    }
}

/// A finished run, as [`Response::Done`] sends it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finished {
    /// The run.
    pub run: RunId,
    /// What was found.
    pub summary: Summary,
    /// What the views show of the first run, when there is one.
    /// Shared with the worker's copy ([`crate::Loaded`]): sending it
    /// makes no second one (a scheduler-heavy GHC log's view is tens of MB).
    pub view: Option<Arc<RunView>>,
    /// The timeline's bars for its first render ([`first_bars`]).
    pub bars: Vec<RowBars>,
    /// Milliseconds from the request to the result.
    pub elapsed_ms: f64,
    /// The worker's WebAssembly memory after the analysis, bytes.
    pub memory_bytes: u64,
}

impl Response {
    /// Encodes for `postMessage`.
    pub fn to_json(&self) -> Result<String, EncodeError> {
        serde_json::to_string(self).map_err(|cause| {
            // Its variant's name: the Debug text up to the first delimiter
            // (only on this error path, so its cost does not matter).
            let debug = format!("{self:?}");
            let what = debug[..debug.find(|c: char| !c.is_alphanumeric()).unwrap_or(debug.len())].to_owned();
            EncodeError { what, run: self.run(), cause }
        })
    }

    /// Decodes a message of [`Response::to_json`]'s. A tagged enum is read
    /// by buffering the whole message before its variant's fields are
    /// decoded; a finished run's message, megabytes for a big run, is
    /// decoded straight into its fields when its tag comes first (as
    /// `to_json` writes it): a 1.6 MB one crosses from the worker in 13 ms
    /// instead of 16 ms (`tests/web_messages.rs`).
    pub fn from_json(json: &str) -> serde_json::Result<Response> {
        if json.starts_with(r#"{"type":"Done","#) {
            // Its tag is another field to the struct, and is passed over.
            return serde_json::from_str(json).map(Response::Done);
        }
        serde_json::from_str(json)
    }

    /// The run the response belongs to; none for the worker's own messages.
    pub fn run(&self) -> Option<RunId> {
        match self {
            Response::Ready | Response::WarmedUp { .. } => None,
            Response::Progress(p) => Some(p.run),
            Response::Done(Finished { run, .. })
            | Response::Bars { run, .. }
            | Response::Details { run, .. }
            | Response::Located { run, .. }
            | Response::ReportText { run, .. }
            | Response::Levers { run, .. }
            | Response::Lever { run, .. }
            | Response::WhatIf { run, .. }
            | Response::Graph { run, .. }
            | Response::Svg { run, .. }
            | Response::Flame { run, .. }
            | Response::ExportRefused { run, .. }
            | Response::SqlTables { run, .. }
            | Response::Summary { run, .. }
            | Response::Compared { run, .. }
            | Response::CompareRows { run, .. }
            | Response::CompareWindow { run, .. }
            | Response::CompareRefused { run, .. }
            | Response::Failed { run, .. }
            | Response::Cancelled { run } => Some(*run),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_through_json() {
        let r = Request::Analyze { run: 3, memory_limit: Some(1 << 20) };
        assert_eq!(serde_json::from_str::<Request>(&r.to_json().unwrap()).unwrap(), r);
        let settings = CompareSettings { pick_a: Some(2), min_delta_ms: Some(0.5), ..CompareSettings::default() };
        let r = Request::CompareFiles { run: 4, a_files: Some(2), settings, memory_limit: None };
        assert_eq!(serde_json::from_str::<Request>(&r.to_json().unwrap()).unwrap(), r);
        let p = Response::Progress(Progress {
            run: 3,
            file: 0,
            name: "a.log".into(),
            bytes_done: 10,
            bytes_total: Some(20),
            mb_per_s: 1.5,
            elapsed_ms: 4.0,
            format: Some("distbuild".into()),
            lines: 2,
            diagnostics: 0,
        });
        assert_eq!(serde_json::from_str::<Response>(&p.to_json().unwrap()).unwrap(), p);
        let input =
            longpole_core::ingest::read_bytes("x.log", b"1000 prepare_start  7\n1500 resources_prepared  7\n", 7)
                .unwrap();
        let summary = Summary::of(&longpole_core::reconcile(vec![input]));
        let done = Response::Done(Finished {
            run: 3,
            summary,
            view: None,
            bars: Vec::new(),
            elapsed_ms: 1.0,
            memory_bytes: 0,
        });
        assert_eq!(serde_json::from_str::<Response>(&done.to_json().unwrap()).unwrap(), done);
        assert_eq!(Response::from_json(&done.to_json().unwrap()).unwrap(), done);
        // The warm-up wraps a result in a message of its own: it must encode
        // too (as a tuple variant it did not, and the idle page said so).
        let warmed = Response::WarmedUp { json: done.to_json().unwrap() };
        assert_eq!(serde_json::from_str::<Response>(&warmed.to_json().unwrap()).unwrap(), warmed);
    }

    #[test]
    fn a_finished_run_decodes_straight_into_its_fields_as_any_message_would() {
        let log =
            b"1000 prepare_start  7\n1500 resources_prepared  7\n2000 run_started t1 7 cpp\n2600 run_finished t1 7 0\n";
        let run = longpole_core::reconcile(vec![longpole_core::ingest::read_bytes("x.log", log, 7).unwrap()]);
        let done = crate::Loaded::of(9, run).done(12.5, 1 << 30);
        let Response::Done(Finished { view: Some(view), bars, .. }) = &done else { panic!("no view: {done:?}") };
        assert!(!view.critical_path.steps.is_empty() && !bars.is_empty(), "{done:?}");
        let json = done.to_json().unwrap();
        assert!(json.starts_with(r#"{"type":"Done","#), "{json}");
        assert_eq!(Response::from_json(&json).unwrap(), done);
        assert_eq!(Response::from_json(&json).unwrap(), serde_json::from_str::<Response>(&json).unwrap());
        // With its tag last, the same message decodes as any other.
        let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
        let tag = value.as_object_mut().unwrap().remove("type").unwrap();
        value.as_object_mut().unwrap().insert("type".into(), tag);
        let moved = value.to_string();
        assert!(!moved.starts_with(r#"{"type""#));
        assert_eq!(Response::from_json(&moved).unwrap(), done);
        // A message that is not JSON is an error, not a panic.
        assert!(Response::from_json(r#"{"type":"Done","run":"#).is_err());
    }

    /// A map keyed by something other than text cannot be JSON.
    #[derive(Debug)]
    struct TupleKeys;

    impl Serialize for TupleKeys {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut m = s.serialize_map(Some(1))?;
            m.serialize_entry(&(1, 2), &3)?;
            m.end()
        }
    }

    #[test]
    fn an_encoding_failure_names_the_message_and_its_run() {
        let e = serde_json::to_string(&TupleKeys).unwrap_err();
        let failed = EncodeError { what: "Done".into(), run: Some(7), cause: e };
        assert_eq!(failed.to_string(), "could not encode the message Done of run 7: key must be a string");
        let json: serde_json::Value = serde_json::from_str(&failed.failure_json("longpole")).unwrap();
        assert_eq!(json["run"], 7);
        assert_eq!(
            json["message"],
            "longpole could not encode the message Done of run 7: key must be a string; please report this"
        );
        let r = Response::Cancelled { run: 4 };
        assert_eq!(r.run(), Some(4));
    }
}
