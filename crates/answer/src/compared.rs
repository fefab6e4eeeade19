//! Two sides compared, once side A (or the loaded run, for "Compare
//! with…") and side B are read: the core compares them exactly as
//! `longpole compare` does (the same keys, runs, picks and thresholds).
//! The sides stay read, so that another pick of runs or other thresholds
//! need no second reading, and the comparison's table and timelines stay
//! here, paged and windowed for the page.

use crate::loaded::Loaded;
use crate::protocol::{CompareSettings, Request, Response, RunId, COMPARE_FIRST_ROWS};
use crate::sink::Sink;
use longpole_core::compare::{compare, Comparison, Options, Run, TaskKeys};
use longpole_core::export;
use longpole_core::formats::{chrome_trace, evobench, starrocks_profile};
use longpole_core::layout::timeline::TimelineIndex;
use longpole_core::model::flame::FlameGraph;
use longpole_core::model::FormatId;
use longpole_core::report::compare::{compare_json_text, keys_of, runs_of};
use longpole_core::view::compare::CompareView;
use longpole_core::view::compare_flame::{diff_flames, DiffFlame};
use longpole_core::view::compare_timelines::{timelines, TimelinePair};
use longpole_core::view::table::Table;
use longpole_core::view::table_page::{order, page, raw_rows, TableQuery};
use longpole_core::Analysis;

/// Two sides read for a comparison, and its last result.
pub struct Compared {
    /// The comparison's run.
    run: RunId,
    /// Side A; `None`: the loaded run's analysis.
    a: Option<Analysis>,
    /// Side B.
    b: Analysis,
    /// The last comparison, for its export.
    last: Option<Comparison>,
    /// The last comparison's whole table, made when a page first asks
    /// for more than its first rows.
    table: Option<Table>,
    /// Its rows in the last order asked for: the sort and search (the
    /// query without its limit) and the rows.
    ordered: Option<(TableQuery, Vec<u32>)>,
    /// The differential flame graphs, one per measure, where both sides'
    /// format has one (none otherwise).
    flames: Vec<DiffFlame>,
    /// The last comparison's timelines, every task (windows are cut from them).
    timelines: Option<TimelinePair>,
}

/// The formats whose run view has a flame graph.
const WITH_FLAME: [FormatId; 3] = [evobench::ID, starrocks_profile::ID, chrome_trace::ID];

/// The flame graph of `x`'s first dataset, where its format has one.
fn flame_of(x: &Analysis) -> Option<std::sync::Arc<FlameGraph>> {
    let d = x.datasets.first().filter(|d| WITH_FLAME.contains(&d.format))?;
    x.view(d, &TimelineIndex::new(&d.model)).flame
}

/// The core's options for `settings`, or why they cannot be used.
fn options(settings: &CompareSettings) -> Result<Options, String> {
    let ok = |v: f64| v.is_finite() && v >= 0.0;
    if !ok(settings.min_relative) || !settings.min_delta_ms.is_none_or(ok) {
        return Err("the thresholds must be numbers of zero or more".to_owned());
    }
    Ok(Options::default()
        .with_min_delta(settings.min_delta_ms.map(|ms| (ms * 1e6).round() as i64))
        .with_min_relative(settings.min_relative))
}

/// The runs of side `x` (with its `keys`) that `pick` takes, and how many
/// it holds in all.
fn side<'a>(x: &'a Analysis, keys: &'a [TaskKeys], pick: Option<u32>) -> Result<(usize, Vec<Run<'a>>), String> {
    let all = runs_of(x, keys, &|_| None)?;
    match pick {
        None => Ok((all.len(), all)),
        Some(n) => Ok((all.len(), runs_of(x, keys, &|_| Some(n as usize))?)),
    }
}

/// A comparison, and the representative runs' timelines.
type Outcome = (Comparison, Option<TimelinePair>);

/// Compares `a`'s runs with `b`'s as `settings` say, as `longpole compare`
/// does; `compared` is given the comparison and the runs each side holds
/// before its pick (to send the screen) before the timelines of every
/// task are built.
fn compare_sides(
    a: &Analysis,
    b: &Analysis,
    settings: &CompareSettings,
    compared: &mut dyn FnMut(&Comparison, (usize, usize)),
) -> Result<Outcome, String> {
    let opts = options(settings)?;
    let (ka, kb) = (keys_of(a), keys_of(b));
    let (count_a, runs_a) = side(a, &ka, settings.pick_a)?;
    let (count_b, runs_b) = side(b, &kb, settings.pick_b)?;
    let c = compare(&runs_a, &runs_b, &opts)
        .ok_or_else(|| format!("side {} holds no run to compare", if runs_a.is_empty() { "A" } else { "B" }))?;
    compared(&c, (count_a, count_b));
    let representative = |runs: &[Run<'_>], name: &str| runs.iter().position(|r| r.name == name);
    let timelines =
        match (representative(&runs_a, &c.runs.representative_a), representative(&runs_b, &c.runs.representative_b)) {
            (Some(i), Some(j)) => Some(timelines(&runs_a[i], &runs_b[j], &c.critical_path.a, &c.critical_path.b)),
            _ => None,
        };
    Ok((c, timelines))
}

impl Compared {
    /// Sides `a` (`None`: the `loaded` run) and `b` of run `run`, not
    /// compared yet, with their differential flame graphs (one per
    /// measure: real, cpu and sys time, context switches; operator time; a
    /// trace's time).
    pub fn new(run: RunId, a: Option<Analysis>, b: Analysis, loaded: Option<&Loaded>) -> Compared {
        let flame_a = match &a {
            Some(a) => flame_of(a),
            None => loaded.and_then(|l| l.view.as_ref()?.flame.clone()),
        };
        let flames = flame_a.zip(flame_of(&b)).map_or_else(Vec::new, |(fa, fb)| diff_flames(&fa, &fb));
        Compared { run, a, b, last: None, table: None, ordered: None, flames, timelines: None }
    }

    /// Makes it run `run`'s: a page loaded again asks about the same sides
    /// under a run of its own.
    pub fn renumber(&mut self, run: RunId) {
        self.run = run;
    }

    /// Compares the sides with `settings` and sends the answer for the
    /// page: the screen first (`elapsed_ms` gives the time since the
    /// request), then the timelines' first window (the whole of both runs),
    /// once every task's timeline is built. The comparison is kept for its
    /// export, the timelines for other windows.
    pub fn answer(
        &mut self,
        loaded: Option<&Loaded>,
        settings: CompareSettings,
        elapsed_ms: &dyn Fn() -> f64,
        sink: &mut dyn Sink,
    ) {
        let (run, flames) = (self.run, self.flames.clone());
        let a = match (&self.a, loaded) {
            (Some(a), _) => a,
            (None, Some(l)) => &l.analysis,
            (None, None) => {
                let message = "the run compared as side A is no longer loaded; open it again".to_owned();
                return sink.send(&Response::CompareRefused { run, message });
            }
        };
        let mut screen = |comparison: &Comparison, (runs_a, runs_b): (usize, usize)| {
            let view = Box::new(CompareView::with_rows(comparison, COMPARE_FIRST_ROWS));
            let (flames, settings, elapsed_ms) = (flames.clone(), settings.clone(), elapsed_ms());
            sink.send(&Response::Compared { run, view, timelines: None, flames, runs_a, runs_b, settings, elapsed_ms });
        };
        match compare_sides(a, &self.b, &settings, &mut screen) {
            Ok((comparison, timelines)) => {
                self.last = Some(comparison);
                (self.table, self.ordered) = (None, None);
                if let Some(t) = &timelines {
                    sink.send(&Response::CompareWindow { run, timelines: Box::new(t.window(&t.whole())) });
                }
                self.timelines = timelines;
            }
            Err(message) => sink.send(&Response::CompareRefused { run, message }),
        }
    }

    /// Answers a question about the comparison (another comparison of
    /// the same sides, a page of its table, a window of its timelines, its
    /// exports) into `sink`; one about another run gets no answer.
    pub fn respond(
        &mut self,
        loaded: Option<&Loaded>,
        request: Request,
        elapsed_ms: &dyn Fn() -> f64,
        sink: &mut dyn Sink,
    ) {
        match request {
            Request::Recompare { run, settings } if run == self.run => self.answer(loaded, settings, elapsed_ms, sink),
            Request::CompareRows { run, query } if run == self.run => {
                let Some((table, ordered)) = self.ordered(&query) else { return };
                sink.send(&Response::CompareRows { run, page: Box::new(page(table, ordered, query)) });
            }
            Request::ExportCompareRows { run, query, csv } if run == self.run => {
                let Some((table, ordered)) = self.ordered(&query) else { return };
                let raw = raw_rows(ordered.iter().map(|&i| &table.rows[i as usize]));
                let headers: Vec<&str> = table.headers.iter().map(String::as_str).collect();
                if csv {
                    sink.file(run, &format!("{}.csv", table.id), "text/csv", export::csv(&headers, &raw).as_bytes());
                } else {
                    let json = export::json(&headers, &raw);
                    sink.file(run, &format!("{}.json", table.id), "application/json", json.as_bytes());
                }
            }
            Request::ExportComparison { run } if run == self.run => {
                let Some(c) = &self.last else { return };
                match compare_json_text(c) {
                    Ok(text) => sink.file(run, "longpole-compare.json", "application/json", (text + "\n").as_bytes()),
                    Err(e) => sink.send(&Response::CompareRefused {
                        run,
                        message: format!("longpole could not write the JSON: {e}"),
                    }),
                }
            }
            Request::CompareWindow { run, window } if run == self.run => {
                let Some(t) = &self.timelines else { return };
                sink.send(&Response::CompareWindow { run, timelines: Box::new(t.window(&window)) });
            }
            _ => {}
        }
    }

    /// The rows of the last comparison's table that `query`'s search keeps,
    /// in its order (kept for the next page of the same order), with the table.
    fn ordered(&mut self, query: &TableQuery) -> Option<(&Table, &[u32])> {
        if self.table.is_none() {
            self.table = Some(CompareView::table(self.last.as_ref()?));
        }
        let table = self.table.as_ref()?;
        let asked = TableQuery { limit: 0, ..query.clone() };
        if !matches!(&self.ordered, Some((q, _)) if *q == asked) {
            let rows = order(table, query.sort, &query.search);
            self.ordered = Some((asked, rows));
        }
        Some((table, self.ordered.as_ref().map(|o| o.1.as_slice())?))
    }
}
