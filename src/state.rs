//! The page's state and the actions that change it. Components only draw
//! this and dispatch [`Action`]s; the worker's messages arrive as actions too.

use crate::export_protocol::{ExportFile, ExportResponse};
use crate::protocol::{CompareSettings, Finished, Progress, Response, RunId, Source, COMPARE_FIRST_ROWS};
use crate::shared::Shared;
use crate::shown::Shown;
use crate::sql_state::{SqlAction, SqlState};
use longpole_core::analysis::task_key::TaskKey;
use longpole_core::formats::evobench::view::StatRow;
use longpole_core::layout::graph::GraphLayout;
use longpole_core::layout::graph_camera::Camera;
use longpole_core::layout::timeline::RowBars;
use longpole_core::model::Nanos;
use longpole_core::view::compare::CompareView;
use longpole_core::view::compare_flame::DiffFlame;
use longpole_core::view::compare_timelines::CompareTimelines;
use longpole_core::view::table_page::{TablePage, TableQuery};
use longpole_core::view::what_if::{LeverRow, WhatIfView};
use longpole_core::view::{FlameLayout, TaskDetails};
use longpole_core::Summary;
use std::rc::Rc;
use std::sync::Arc;
use yew::Reducible;

/// What the page shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    /// Nothing opened yet: the drop zone and the samples.
    Idle,
    /// Files are being read.
    Reading {
        /// Their names.
        names: Vec<String>,
        /// Their total size, when known (not before a URL's server says).
        total: Option<u64>,
        /// The latest progress, once any came.
        progress: Option<Progress>,
    },
    /// The analysis is ready.
    Ready {
        /// The files' names.
        names: Vec<String>,
        /// What was found.
        summary: Shared<Summary>,
        /// What the views show, when the inputs make a run.
        view: Option<Shared<Shown>>,
        /// How long it took, ms.
        elapsed_ms: f64,
        /// The worker's memory after the analysis, bytes.
        memory_bytes: u64,
    },
    /// Two sides compared.
    Compared {
        /// What the compare screen shows (its table without rows: they
        /// stay in the worker, and `rows` holds those shown).
        view: Shared<CompareView>,
        /// The table's rows shown, as last asked of the worker.
        rows: Shared<TablePage>,
        /// The representative runs' timelines.
        timelines: Option<Shared<CompareTimelines>>,
        /// The differential flame graphs, one per measure, where the
        /// format has one (none otherwise).
        flames: Shared<Vec<DiffFlame>>,
        /// The runs side A's and side B's files hold.
        runs: (usize, usize),
        /// The settings it was made with.
        settings: CompareSettings,
        /// How long it took, ms.
        elapsed_ms: f64,
        /// Why the last settings asked for were refused, until the next result.
        refused: Option<String>,
    },
    /// Reading failed.
    Failed {
        /// The message, naming file, position and bytes.
        message: String,
    },
    /// The user stopped the reading.
    Cancelled,
}

/// The tabs of a ready run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    /// The flame-style chart over lanes.
    Timeline,
    /// The dependency graph.
    Graph,
    /// ya's report as tables.
    Tables,
    /// ya's report as text.
    Report,
    /// Every diagnostic.
    Diagnostics,
    /// An evobench run's flame graph.
    Flame,
    /// SQL over the run's tables.
    Sql,
}

/// How the user is exploring a ready run.
#[derive(Clone, Debug, PartialEq)]
pub struct Explore {
    /// The open tab.
    pub tab: Tab,
    /// Show the blocking chain instead of ya's critical path.
    pub chain: bool,
    /// The time window shown, ns (None: the whole run).
    pub window: Option<(Nanos, Nanos)>,
    /// The selected task.
    pub selected: Option<u32>,
    /// Its stable key, once the worker sent it with its details (for links).
    pub selected_key: Option<TaskKey>,
    /// Its details, once the worker sent them.
    pub details: Option<Shared<TaskDetails>>,
    /// The worker's last answer to which task a key names.
    pub found: Option<(TaskKey, Option<u32>)>,
    /// The one table shown (by its title) on the Tables tab; None: all.
    pub only_table: Option<String>,
    /// The timeline's bars for the current viewport.
    pub bars: Shared<Vec<RowBars>>,
    /// ya's report as text, once asked for.
    pub report_text: Option<Shared<str>>,
    /// The dependency graph, once laid out.
    pub graph: Option<Shared<GraphLayout>>,
    /// Folded groups (kinds) the user unfolded.
    pub unfold: Vec<u32>,
    /// Where the graph view looks; `None` until it opens on the path.
    pub graph_camera: Option<Camera>,
    /// The graph view's size, px, once measured.
    pub graph_size: (f64, f64),
    /// How the flame graph is shown.
    pub flame: FlameView,
    /// The last frames the worker laid out, with the timing kind and root
    /// they are for (shown until those of the current view come).
    pub flame_layout: Option<(u8, u32, Shared<FlameLayout>)>,
    /// The summary over runs of a statistic other than the mean, once asked for.
    pub summary: Option<(String, Shared<Vec<StatRow>>)>,
    /// Why the last export asked for was not made, until closed.
    pub export_refused: Option<String>,
    /// The download under way while the export worker makes it (the
    /// Parquet tables or the workbook).
    pub export_job: Option<ExportJob>,
    /// The left panel lists the levers instead of the path.
    pub levers_open: bool,
    /// The run's levers, once asked for.
    pub levers: Option<Shared<Vec<LeverRow>>>,
    /// The selected task's slack and drag, once the worker sent them.
    pub lever: Option<LeverRow>,
    /// How much faster the selected task is made, percent (`None`: as it
    /// was); kept while no task is selected yet (a link's, until its task
    /// is found).
    pub speedup: Option<u8>,
    /// The run replayed with the selected task `speedup` faster, once the
    /// worker sent it.
    pub what_if: Option<Shared<WhatIfView>>,
}

/// How far a download made by the export worker has come.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExportJob {
    /// The file being made.
    pub file: ExportFile,
    /// The latest progress of reading the inputs again, once any came.
    pub progress: Option<Progress>,
    /// The inputs are read: the tables are being written.
    pub writing: bool,
}

/// How the flame graph is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlameView {
    /// The timing kind's index (real, cpu, sys, ctx switches).
    pub kind: u8,
    /// The frame zoomed into (0: the whole run).
    pub root: u32,
    /// Root at the top.
    pub icicle: bool,
}

impl Default for Explore {
    fn default() -> Self {
        Explore {
            tab: Tab::Timeline,
            chain: false,
            window: None,
            selected: None,
            selected_key: None,
            details: None,
            found: None,
            only_table: None,
            bars: Shared::new(Vec::new()),
            report_text: None,
            graph: None,
            unfold: Vec::new(),
            graph_camera: None,
            graph_size: (900.0, 600.0),
            flame: FlameView::default(),
            flame_layout: None,
            summary: None,
            export_refused: None,
            export_job: None,
            levers_open: false,
            levers: None,
            lever: None,
            speedup: None,
            what_if: None,
        }
    }
}

/// The whole state.
#[derive(Clone, Debug, PartialEq)]
pub struct AppState {
    /// The run the page waits for (0 before the first).
    pub run: RunId,
    /// What is shown.
    pub phase: Phase,
    /// The keyboard help is open.
    pub help: bool,
    /// How the ready run is explored.
    pub explore: Explore,
    /// Where the run's inputs came from, as a link names them; empty for
    /// files opened or dropped (a link cannot carry those).
    pub sources: Vec<Source>,
    /// What of the page's link could not be followed, until the next run.
    pub notices: Vec<String>,
    /// The last "copy link": the link copied, or why it was not.
    pub copied: Option<Result<String, String>>,
    /// The SQL tab (kept from run to run).
    pub sql: SqlState,
}

impl Default for AppState {
    fn default() -> Self {
        AppState {
            run: 0,
            phase: Phase::Idle,
            help: false,
            explore: Explore::default(),
            sources: Vec::new(),
            notices: Vec::new(),
            copied: None,
            sql: SqlState::default(),
        }
    }
}

impl AppState {
    /// The view of the ready run, if any.
    pub fn view(&self) -> Option<&Shared<Shown>> {
        match &self.phase {
            Phase::Ready { view, .. } => view.as_ref(),
            _ => None,
        }
    }

    /// The time window shown: the chosen one, or the whole run.
    pub fn window(&self) -> Option<(Nanos, Nanos)> {
        self.explore.window.or_else(|| self.view().and_then(|v| v.window))
    }
}

/// Everything that changes the state.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// A run was sent to the worker.
    Started {
        /// Its id (the next after [`AppState::run`]).
        run: RunId,
        /// The files' names.
        names: Vec<String>,
        /// Their total size, when known.
        total: Option<u64>,
        /// Where they come from, as a link names them (empty: opened files).
        sources: Vec<Source>,
    },
    /// What of the page's link could not be followed.
    Notices(Vec<String>),
    /// The page's link was copied (or why it was not).
    Copied(Result<String, String>),
    /// The worker said something.
    Worker(Response),
    /// The page could not even start a run (e.g. a sample failed to load).
    Failed(String),
    /// Show or hide the keyboard help.
    ToggleHelp,
    /// Hide the keyboard help.
    CloseHelp,
    /// Hide why an export was not made.
    CloseExportRefused,
    /// Open a tab.
    Tab(Tab),
    /// Switch between ya's path and the blocking chain.
    ToggleChain,
    /// Show this time window (ns).
    Window(Nanos, Nanos),
    /// Zoom by `factor` (< 1 zooms in) around the point at `at` (0..1 across the window).
    Zoom {
        /// The factor.
        factor: f64,
        /// Where, as a fraction of the window.
        at: f64,
    },
    /// Move the window by a fraction of its width (negative: left).
    Pan(f64),
    /// Select a task (or nothing).
    Select(Option<u32>),
    /// Show only the table of this title on the Tables tab (None: all).
    OnlyTable(Option<String>),
    /// Unfold a folded group of the graph (a kind).
    Unfold(u32),
    /// Look at the graph from here, in a view of this size (px).
    GraphCamera(Camera, (f64, f64)),
    /// Show the flame graph this way.
    Flame(FlameView),
    /// List the levers (true) or the path (false) on the left.
    ShowLevers(bool),
    /// Make the selected task this much faster, percent (`None` or 0: as it was).
    SpeedUp(Option<u8>),
    /// The export worker started making this file of this run.
    ExportStarted(RunId, ExportFile),
    /// The export worker said something (or the page, for it, why it could not start).
    Exporting(ExportResponse),
    /// The user cancelled the export worker's download of this run.
    ExportCancelled(RunId),
    /// The SQL tab's engine or query moved on.
    Sql(SqlAction),
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            Action::Started { run, names, total, sources } => {
                next.run = run;
                next.phase = Phase::Reading { names, total, progress: None };
                next.sources = sources;
                next.notices.clear();
                next.copied = None;
            }
            Action::Notices(notices) => next.notices.extend(notices),
            Action::Copied(result) => next.copied = Some(result),
            Action::Worker(response) => match response {
                Response::Progress(p) if p.run == self.run => {
                    if let Phase::Reading { progress, .. } = &mut next.phase {
                        *progress = Some(p);
                    }
                }
                Response::Done(Finished { run, summary, view, bars, elapsed_ms, memory_bytes }) if run == self.run => {
                    let names = match &self.phase {
                        Phase::Reading { names, .. } => names.clone(),
                        _ => Vec::new(),
                    };
                    match view.map(|v| Shown::of(Arc::unwrap_or_clone(v))).transpose() {
                        Ok(view) => {
                            next.phase = Phase::Ready {
                                names,
                                summary: Shared::new(summary),
                                view: view.map(Shared::new),
                                elapsed_ms,
                                memory_bytes,
                            };
                            next.explore = Explore { bars: Shared::new(bars), ..Explore::default() };
                            // The last run's result and track are not this one's.
                            next.sql.result = None;
                            next.sql.track = None;
                        }
                        Err(message) => next.phase = Phase::Failed { message },
                    }
                }
                Response::Bars { run, rows, .. } if run == self.run => next.explore.bars = Shared::new(rows),
                Response::Graph { run, layout } if run == self.run => next.explore.graph = Some(Shared::new(*layout)),
                Response::Flame { run, kind, root, layout }
                    if run == self.run && (kind, root) == (self.explore.flame.kind, self.explore.flame.root) =>
                {
                    next.explore.flame_layout = Some((kind, root, Shared::new(*layout)))
                }
                Response::Summary { run, field, rows } if run == self.run => {
                    next.explore.summary = Some((field, Shared::new(rows)))
                }
                Response::ReportText { run, text } if run == self.run => {
                    next.explore.report_text = Some(Shared::from(text))
                }
                Response::Details { run, details, key }
                    if run == self.run && Some(details.task.id) == self.explore.selected =>
                {
                    next.explore.details = Some(Shared::new(*details));
                    next.explore.selected_key = Some(key);
                }
                Response::Located { run, key, task: Some(task) } if run == self.run => {
                    next.explore.found = Some((key, Some(task)));
                    // A link's or a host's speed-up is for the task it names.
                    let speedup = next.explore.speedup;
                    let mut selected = (*Rc::new(next).reduce(Action::Select(Some(task)))).clone();
                    selected.explore.speedup = speedup;
                    return Rc::new(selected);
                }
                Response::Levers { run, levers } if run == self.run => next.explore.levers = Some(Shared::new(levers)),
                Response::Lever { run, task, lever } if run == self.run && Some(task) == self.explore.selected => {
                    next.explore.lever = lever
                }
                Response::WhatIf { run, view: Some(view) }
                    if run == self.run
                        && Some(view.task) == self.explore.selected
                        && self.explore.speedup.is_some() =>
                {
                    next.explore.what_if = Some(Shared::new(*view))
                }
                Response::Located { run, key, task: None } if run == self.run => {
                    next.notices
                        .push(format!("The link selects the task {}, which this run does not have.", key_text(&key)));
                    next.explore.found = Some((key, None));
                }
                Response::Compared { run, mut view, timelines, flames, runs_a, runs_b, settings, elapsed_ms }
                    if run == self.run =>
                {
                    let first = std::mem::take(&mut view.table.rows);
                    let query = TableQuery { sort: None, search: String::new(), limit: COMPARE_FIRST_ROWS };
                    next.phase = Phase::Compared {
                        rows: Shared::new(TablePage { query, rows: first, matching: view.rows_total }),
                        view: Shared::new(*view),
                        timelines: timelines.map(|t| Shared::new(*t)),
                        flames: Shared::new(flames),
                        runs: (runs_a, runs_b),
                        settings,
                        elapsed_ms,
                        refused: None,
                    }
                }
                Response::CompareRows { run, page } if run == self.run => match &mut next.phase {
                    Phase::Compared { rows, .. } => *rows = Shared::new(*page),
                    _ => return self,
                },
                Response::CompareWindow { run, timelines: window } if run == self.run => {
                    if let Phase::Compared { timelines, .. } = &mut next.phase {
                        *timelines = Some(Shared::new(*window));
                    }
                }
                Response::CompareRefused { run, message } if run == self.run => match &mut next.phase {
                    Phase::Compared { refused, .. } => *refused = Some(message),
                    _ => next.phase = Phase::Failed { message },
                },
                Response::Failed { run, message } if run == self.run || run == 0 => {
                    next.phase = Phase::Failed { message }
                }
                Response::Cancelled { run } if run == self.run => next.phase = Phase::Cancelled,
                Response::ExportRefused { run, message } if run == self.run => {
                    next.explore.export_refused = Some(message)
                }
                // Messages of runs the page no longer waits for.
                _ => return self,
            },
            Action::Failed(message) => next.phase = Phase::Failed { message },
            Action::ToggleHelp => next.help = !next.help,
            Action::CloseHelp => next.help = false,
            Action::CloseExportRefused => next.explore.export_refused = None,
            Action::ExportStarted(run, file) if run == self.run => {
                next.explore.export_job = Some(ExportJob { file, ..ExportJob::default() });
                next.explore.export_refused = None;
            }
            Action::Exporting(response) if response.run() == Some(self.run) => {
                let job = next.explore.export_job.get_or_insert_with(ExportJob::default);
                match response {
                    ExportResponse::Progress(p) => job.progress = Some(p),
                    ExportResponse::Writing { .. } => job.writing = true,
                    ExportResponse::Refused { message, .. } | ExportResponse::Failed { message, .. } => {
                        next.explore.export_job = None;
                        next.explore.export_refused = Some(message);
                    }
                    ExportResponse::Done { .. } | ExportResponse::Ready => next.explore.export_job = None,
                }
            }
            Action::ExportCancelled(run) if run == self.run => next.explore.export_job = None,
            // A download of a run no longer shown.
            Action::ExportStarted(..) | Action::Exporting(_) | Action::ExportCancelled(_) => return self,
            Action::Tab(tab) => next.explore.tab = tab,
            Action::Sql(action) => next.sql.apply(action),
            Action::ToggleChain => {
                next.explore.chain = !next.explore.chain;
                next.explore.graph = None;
                next.explore.graph_camera = None;
            }
            Action::GraphCamera(camera, size) => {
                next.explore.graph_camera = Some(camera);
                next.explore.graph_size = size;
            }
            // On the Graph tab, the keys that move the timeline move the graph.
            Action::Zoom { factor, .. } if self.explore.tab == Tab::Graph => {
                let Some(c) = self.explore.graph_camera else { return self };
                let (w, h) = self.explore.graph_size;
                next.explore.graph_camera = Some(c.zoom_at(1.0 / factor, w / 2.0, h / 2.0));
            }
            Action::Pan(fraction) if self.explore.tab == Tab::Graph => {
                let Some(c) = self.explore.graph_camera else { return self };
                next.explore.graph_camera = Some(c.pan(-fraction * self.explore.graph_size.0, 0.0));
            }
            Action::Unfold(kind) => {
                if !next.explore.unfold.contains(&kind) {
                    next.explore.unfold.push(kind);
                    next.explore.graph = None;
                }
            }
            Action::Window(a, b) => next.explore.window = self.clamp(a, b),
            Action::Zoom { factor, at } => {
                let Some((a, b)) = self.window() else { return self };
                let span = (b - a) as f64;
                let pivot = a as f64 + span * at.clamp(0.0, 1.0);
                let new_span = (span * factor).max(1_000.0);
                let start = pivot - (pivot - a as f64) * new_span / span;
                next.explore.window = self.clamp(start as Nanos, (start + new_span) as Nanos);
            }
            Action::Pan(fraction) => {
                let Some((a, b)) = self.window() else { return self };
                let shift = ((b - a) as f64 * fraction) as Nanos;
                next.explore.window = self.clamp(a + shift, b + shift);
            }
            Action::Select(task) => {
                next.explore.selected = task;
                next.explore.details = None;
                next.explore.selected_key = None;
                if task != self.explore.selected {
                    next.explore.lever = None;
                    next.explore.speedup = None;
                    next.explore.what_if = None;
                }
                // The graph centres on a task selected in any view.
                let node =
                    self.explore.graph.as_ref().and_then(|g| g.nodes.iter().find(|n| task.is_some() && n.task == task));
                if let (Some(n), Some(c)) = (node, self.explore.graph_camera) {
                    let (w, h) = self.explore.graph_size;
                    next.explore.graph_camera = Some(c.centre_on(n, w, h));
                }
            }
            Action::Flame(view) => next.explore.flame = view,
            Action::ShowLevers(open) => next.explore.levers_open = open,
            Action::SpeedUp(speedup) => {
                next.explore.speedup = speedup.filter(|&s| s > 0).map(|s| s.min(100));
                if next.explore.speedup.is_none() {
                    next.explore.what_if = None;
                }
            }
            Action::OnlyTable(title) => next.explore.only_table = title,
        }
        Rc::new(next)
    }
}

/// A task's key as people read it: `uid "x" starting at 12 ns on lane "t"`.
fn key_text(key: &TaskKey) -> String {
    let mut text = format!("uid \"{}\"", key.uid);
    if let Some(start) = key.start {
        text.push_str(&format!(" starting at {start} ns"));
    }
    if let Some(lane) = &key.lane {
        text.push_str(&format!(" on lane \"{lane}\""));
    }
    text
}

impl AppState {
    /// A window kept inside the run (with a little margin), or None for the whole run.
    fn clamp(&self, a: Nanos, b: Nanos) -> Option<(Nanos, Nanos)> {
        let (lo, hi) = self.view().and_then(|v| v.window)?;
        let margin = (hi - lo) / 20;
        let (lo, hi) = (lo - margin, hi + margin);
        let span = (b - a).clamp(1_000, hi - lo);
        let start = a.clamp(lo, hi - span);
        if span >= hi - lo - 2 * margin && start <= lo + margin {
            return None;
        }
        Some((start, start + span))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use longpole_core::compare::{compare, Options};
    use longpole_core::report::compare::{keys_of, runs_of};
    use longpole_core::view::compare_timelines::Window;

    fn reduce(s: AppState, a: Action) -> AppState {
        (*Rc::new(s).reduce(a)).clone()
    }

    fn ready() -> AppState {
        let log = b"1000 prepare_start  7\n1500 resources_prepared  7\n1600 deploy A 7 1\n1700 started A h\n11000 finished A h OK 1\n";
        let input = longpole_core::ingest::read_bytes("a.log", log, 64).unwrap();
        let analysis = longpole_core::reconcile(vec![input]);
        let d = &analysis.datasets[0];
        let index = longpole_core::layout::timeline::TimelineIndex::new(&d.model);
        let view = longpole_core::view::RunView::of_ya(&d.model, d.format, &index);
        let summary = longpole_core::Summary::of(&analysis);
        let s = reduce(
            AppState::default(),
            Action::Started { run: 1, names: vec!["a.log".into()], total: Some(1), sources: Vec::new() },
        );
        reduce(
            s,
            Action::Worker(Response::Done(Finished {
                run: 1,
                summary,
                view: Some(Arc::new(view)),
                bars: Vec::new(),
                elapsed_ms: 1.0,
                memory_bytes: 0,
            })),
        )
    }

    #[test]
    fn zoom_pan_and_fit_stay_inside_the_run() {
        let s = ready();
        let (a, b) = s.window().unwrap();
        assert_eq!((a, b), (1_000_000_000, 11_000_000_000));
        let z = reduce(s.clone(), Action::Zoom { factor: 0.5, at: 0.5 });
        let (za, zb) = z.window().unwrap();
        assert_eq!(zb - za, (b - a) / 2);
        assert_eq!((za + zb) / 2, (a + b) / 2, "zoomed around the middle");
        let p = reduce(z.clone(), Action::Pan(-10.0));
        assert!(p.window().unwrap().0 >= a - (b - a) / 20, "panning stops near the start");
        let fit = reduce(z, Action::Window(a, b));
        assert_eq!(fit.explore.window, None, "the whole run is 'fit'");
    }

    #[test]
    fn a_found_key_selects_its_task_and_its_details_bring_the_key() {
        let key = TaskKey { uid: "A".into(), start: None, lane: None };
        let s = reduce(ready(), Action::Worker(Response::Located { run: 1, key: key.clone(), task: Some(0) }));
        assert_eq!(s.explore.selected, Some(0));
        assert_eq!(s.explore.found, Some((key.clone(), Some(0))));
        let missing = TaskKey { uid: "nope".into(), ..key.clone() };
        let s = reduce(s, Action::Worker(Response::Located { run: 1, key: missing.clone(), task: None }));
        assert_eq!(
            (s.explore.selected, s.explore.found.clone()),
            (Some(0), Some((missing, None))),
            "a key naming nothing keeps the selection"
        );
        let s = reduce(s, Action::Worker(Response::Located { run: 9, key: key.clone(), task: Some(1) }));
        assert_eq!(s.explore.selected, Some(0), "an old run's answer is ignored");
        let s = reduce(s, Action::OnlyTable(Some("Hosts".into())));
        assert_eq!(s.explore.only_table.as_deref(), Some("Hosts"));
    }

    #[test]
    fn a_comparison_is_shown_and_a_refused_setting_keeps_it() {
        let sides = || {
            let a = longpole_core::ingest::read_bytes("a.ninja_log", b"# ninja log v5\n0\t100\t0\tx.o\t1\n", 64);
            let b = longpole_core::ingest::read_bytes("b.ninja_log", b"# ninja log v5\n0\t200\t0\tx.o\t1\n", 64);
            let (a, b) = (longpole_core::reconcile(vec![a.unwrap()]), longpole_core::reconcile(vec![b.unwrap()]));
            let (ka, kb) = (keys_of(&a), keys_of(&b));
            let (ra, rb) = (runs_of(&a, &ka, &|_| None).unwrap(), runs_of(&b, &kb, &|_| None).unwrap());
            let view = Box::new(CompareView::of(&compare(&ra, &rb, &Options::default()).unwrap()));
            (view, longpole_core::view::compare_timelines::timelines(&ra[0], &rb[0], &[], &[]))
        };
        let view = || sides().0;
        let started =
            Action::Started { run: 1, names: vec!["A: a".into(), "B: b".into()], total: None, sources: Vec::new() };
        let refused = |run| Action::Worker(Response::CompareRefused { run, message: "no run 4".into() });
        let s = reduce(AppState::default(), started.clone());
        assert_eq!(reduce(s.clone(), refused(1)).phase, Phase::Failed { message: "no run 4".into() });
        let settings = CompareSettings::default();
        let compared = Response::Compared {
            run: 1,
            view: view(),
            timelines: None,
            flames: Vec::new(),
            runs_a: 1,
            runs_b: 1,
            settings,
            elapsed_ms: 1.0,
        };
        let s = reduce(s, Action::Worker(compared));
        let Phase::Compared { view: shown, rows, refused: None, .. } = &s.phase else { panic!("{:?}", s.phase) };
        assert_eq!(shown.wall_delta_ms, 100.0);
        // The table's rows are the page's, not the view's: the worker keeps them.
        assert_eq!((shown.table.rows.len(), rows.rows.len(), rows.matching, rows.query.limit), (0, 1, 1, 200));
        let page = |run, search: &str| {
            let query = TableQuery { sort: Some((1, true)), search: search.into(), limit: 400 };
            Action::Worker(Response::CompareRows {
                run,
                page: Box::new(TablePage { query, rows: Vec::new(), matching: 0 }),
            })
        };
        let s = reduce(s, page(1, "x.o"));
        assert!(matches!(&s.phase, Phase::Compared { rows, .. } if rows.query.search == "x.o" && rows.matching == 0));
        let s = reduce(s, page(7, "old"));
        assert!(
            matches!(&s.phase, Phase::Compared { rows, .. } if rows.query.search == "x.o"),
            "an old run's rows are ignored"
        );
        let s = reduce(s, refused(1));
        assert!(matches!(&s.phase, Phase::Compared { refused: Some(m), .. } if m == "no run 4"));
        assert!(
            matches!(reduce(s.clone(), refused(7)).phase, Phase::Compared { .. }),
            "an old run's refusal is ignored"
        );
        // Another window of the timelines replaces the one shown, and keeps the rest.
        let pair = sides().1;
        let window = Box::new(pair.window(&Window { from_ms: 50.0, to_ms: 150.0, ..pair.whole() }));
        let s = reduce(s, Action::Worker(Response::CompareWindow { run: 1, timelines: window }));
        let Phase::Compared { timelines: Some(t), refused: Some(_), .. } = &s.phase else { panic!("{:?}", s.phase) };
        assert_eq!((t.window.from_ms, t.window.to_ms), (50.0, 150.0));
    }

    #[test]
    fn a_speed_up_is_of_the_selected_task_and_a_link_s_waits_for_its_task() {
        let s = reduce(ready(), Action::SpeedUp(Some(40)));
        assert_eq!(s.explore.speedup, Some(40), "kept until the link's task is found");
        let key = TaskKey { uid: "A".into(), start: None, lane: None };
        let s = reduce(s, Action::Worker(Response::Located { run: 1, key, task: Some(0) }));
        assert_eq!((s.explore.selected, s.explore.speedup), (Some(0), Some(40)));
        assert_eq!(reduce(s.clone(), Action::Select(Some(0))).explore.speedup, Some(40), "the same task");
        assert_eq!(reduce(s.clone(), Action::Select(Some(1))).explore.speedup, None, "another task");
        assert_eq!(reduce(s.clone(), Action::SpeedUp(Some(0))).explore.speedup, None, "0 is as it was");
        assert_eq!(reduce(s, Action::SpeedUp(Some(250))).explore.speedup, Some(100));
    }

    #[test]
    fn messages_of_old_runs_are_ignored() {
        let s = reduce(
            AppState::default(),
            Action::Started { run: 1, names: vec!["a".into()], total: Some(10), sources: Vec::new() },
        );
        let s = reduce(s, Action::Started { run: 2, names: vec!["b".into()], total: Some(20), sources: Vec::new() });
        let s = reduce(s, Action::Worker(Response::Failed { run: 1, message: "old".into() }));
        assert!(matches!(s.phase, Phase::Reading { ref names, .. } if names == &["b"]));
        let s = reduce(s, Action::Worker(Response::Cancelled { run: 2 }));
        assert_eq!(s.phase, Phase::Cancelled);
    }

    #[test]
    fn the_export_workers_download_shows_its_progress_and_says_why_it_failed() {
        use crate::export_protocol::ExportResponse as E;
        let s = reduce(ready(), Action::ExportStarted(1, ExportFile::Workbook));
        assert_eq!(s.explore.export_job, Some(ExportJob { file: ExportFile::Workbook, ..ExportJob::default() }));
        let p = Progress {
            run: 1,
            file: 0,
            name: "a.log".into(),
            bytes_done: 5,
            bytes_total: Some(10),
            mb_per_s: 1.0,
            elapsed_ms: 5.0,
            format: None,
            lines: 1,
            diagnostics: 0,
        };
        let s = reduce(s, Action::Exporting(E::Progress(p.clone())));
        assert_eq!(s.explore.export_job.as_ref().and_then(|x| x.progress.clone()), Some(p));
        let s = reduce(s, Action::Exporting(E::Writing { run: 1 }));
        assert!(s.explore.export_job.as_ref().is_some_and(|x| x.writing && x.file == ExportFile::Workbook));
        // Another run's messages change nothing.
        let old = reduce(s.clone(), Action::Exporting(E::Failed { run: 7, message: "old".into() }));
        assert_eq!(old, s);
        let done = reduce(s.clone(), Action::Exporting(E::Done { run: 1 }));
        assert_eq!((done.explore.export_job.clone(), done.explore.export_refused.clone()), (None, None));
        let failed = reduce(s.clone(), Action::Exporting(E::Failed { run: 1, message: "a.log: line 3".into() }));
        assert_eq!(
            (failed.explore.export_job, failed.explore.export_refused.as_deref()),
            (None, Some("a.log: line 3"))
        );
        let cancelled = reduce(s, Action::ExportCancelled(1));
        assert_eq!(cancelled.explore.export_job, None);
    }
}
