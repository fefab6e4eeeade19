//! The two timelines of the compare screen: each side's representative
//! run (the one whose path and wall time are compared), its tasks on their
//! lanes (a lane split into rows where tasks overlap, as on the main
//! timeline) from the run's own start, so that A and B stand one above the
//! other on one time axis. Every bar carries its normalised key, so that a
//! task selected in one timeline finds the same key in the other.
//!
//! Every task is kept ([`timelines`], a [`TimelinePair`]); the page is
//! sent a [`Window`] of both sides at once (one time span and one band of
//! rows, so that zooming one zooms both), culled by pixel in both
//! directions with the main timeline's culling
//! ([`crate::layout::timeline::cull_row`]): on a row, tasks under a pixel
//! that follow one another within a pixel are one counted bar; and where a
//! side's band has more rows than [`PLOT_ROWS`], its rows are packed into
//! that many pixel rows, each the union of its rows' bars
//! ([`crate::layout::timeline::pack_rows`]). A window is so at most a few
//! bars per pixel, whatever the run's size. The critical path's tasks and
//! the selected key's are drawn again on top, never lost in a packed row.

use crate::compare::normalise::normalise;
use crate::compare::Run;
use crate::hash::{FastMap, FastSet};
use crate::layout::timeline::{cull_row, first_fit, pack_rows, Bar as RowBar, RowKey, Viewport};
use crate::model::{Nanos, Role};
use serde::{Deserialize, Serialize};

/// The width the page draws the time axis in, px: a window's pixel.
pub const PLOT_WIDTH: f64 = 850.0;

/// The most rows of pixels a side is drawn in (2 px each in the page's
/// 240): a band with more rows has them packed.
pub const PLOT_ROWS: u32 = 120;

/// The key of a bar that stands for several tasks.
pub const MERGED: u32 = u32::MAX;

/// Both sides' timelines in a window: what the page draws.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareTimelines {
    /// The keys the bars name, by number.
    pub keys: Vec<String>,
    /// Side A's representative run.
    pub a: SideTimeline,
    /// Side B's.
    pub b: SideTimeline,
    /// The window it shows.
    pub window: Window,
}

/// What part of both timelines to show.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Window {
    /// The window's start, ms from each run's start.
    pub from_ms: f64,
    /// Its end.
    pub to_ms: f64,
    /// The band of rows shown, from its top, as a fraction of each side's rows.
    pub top: f64,
    /// Its bottom (1: the last row).
    pub bottom: f64,
    /// The selected key (normalised), drawn on top on both sides.
    pub selected: Option<String>,
}

/// One side's timeline in a window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideTimeline {
    /// The run's name.
    pub name: String,
    /// From its first start to its last end, ms.
    pub wall_ms: f64,
    /// The lanes in the band, each on its drawn rows.
    pub lanes: Vec<LaneRows>,
    /// Rows drawn (at most [`PLOT_ROWS`]).
    pub rows: u32,
    /// The side's rows in all, over all lanes.
    pub all_rows: u32,
    /// The band's rows each drawn row stands for (1: none packed).
    pub packed: u32,
    /// Its bars in the window and band, by drawn row and start.
    pub bars: Vec<Bar>,
    /// Bars drawn again on top: the critical path's tasks and the
    /// selected key's, by drawn row and start.
    pub marked: Vec<Bar>,
    /// Tasks in the window and band: the sum of the bars' `tasks`.
    pub tasks: usize,
    /// Of those, tasks drawn as part of a [`MERGED`] bar.
    pub merged: usize,
    /// The selected key's tasks in the whole run, and their total time,
    /// ms (none: no key selected).
    pub selected: Option<(usize, f64)>,
}

/// A lane and the drawn rows its tasks take.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LaneRows {
    /// The lane's name.
    pub name: String,
    /// Its first drawn row.
    pub first_row: u32,
    /// Its drawn rows (several lanes may share a packed row).
    pub rows: u32,
}

/// A task, or several under a pixel. Its fields travel under one letter
/// each: a window of a big run sends thousands of bars.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bar {
    /// Its drawn row.
    #[serde(rename = "r")]
    pub row: u32,
    /// Its start from the run's start, ms.
    #[serde(rename = "s")]
    pub start_ms: f64,
    /// Its end from the run's start, ms.
    #[serde(rename = "e")]
    pub end_ms: f64,
    /// Its key, an index of [`CompareTimelines::keys`]; [`MERGED`] for
    /// several tasks of more than one key.
    #[serde(rename = "k")]
    pub key: u32,
    /// The tasks it stands for.
    #[serde(rename = "n")]
    pub tasks: u32,
    /// It is (or holds) a task of the side's critical path.
    #[serde(rename = "p")]
    pub path: bool,
}

/// Numbers keys.
#[derive(Default)]
struct Keys {
    names: Vec<String>,
    index: FastMap<String, u32>,
}

impl Keys {
    fn number(&mut self, key: &str) -> u32 {
        if let Some(&i) = self.index.get(key) {
            return i;
        }
        let i = self.names.len() as u32;
        self.names.push(key.to_owned());
        self.index.insert(key.to_owned(), i);
        i
    }
}

/// A lane of a side: its name and rows.
#[derive(Clone, Debug, PartialEq)]
struct Lane {
    name: String,
    first_row: u32,
    rows: u32,
}

/// One side, every task: its rows over all lanes, each row's tasks by
/// start as the main timeline's bars (ns from the run's start, `task` the
/// key's number in [`TimelinePair`], `kind` 1 on the critical path).
#[derive(Clone, Debug, PartialEq)]
struct SideIndex {
    name: String,
    wall: Nanos,
    lanes: Vec<Lane>,
    rows: Vec<Vec<RowBar>>,
}

/// Both sides' timelines, every task: windows are cut from it.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelinePair {
    keys: Vec<String>,
    a: SideIndex,
    b: SideIndex,
}

/// The timeline of `run`, its keys numbered in `keys`, the tasks whose key
/// is in `path` marked.
fn side(run: &Run<'_>, keys: &mut Keys, path: &FastSet<String>) -> SideIndex {
    let m = run.model;
    let mut by_lane: FastMap<usize, Vec<RowKey>> = FastMap::default();
    let (mut start, mut end) = (Nanos::MAX, Nanos::MIN);
    for &id in &run.tasks {
        let t = m.task(id);
        if let (Some(s), Some(e)) = (t.start.get(), t.end.get()) {
            (start, end) = (start.min(s), end.max(e));
            by_lane.entry(t.lane.index()).or_default().push(RowKey::new(s, e, t.role == Role::Setup, id.0));
        }
    }
    let start = if start == Nanos::MAX { 0 } else { start };
    let mut lanes_used: Vec<usize> = by_lane.keys().copied().collect();
    lanes_used.sort_unstable();
    let (mut lanes, mut rows) = (Vec::with_capacity(lanes_used.len()), Vec::new());
    for lane in lanes_used {
        let lane_rows = first_fit(by_lane.get_mut(&lane).map_or(&mut [], Vec::as_mut_slice));
        lanes.push(Lane {
            name: m.lanes()[lane].name.clone(),
            first_row: rows.len() as u32,
            rows: lane_rows.len() as u32,
        });
        rows.extend(lane_rows.into_iter().map(|row| {
            row.into_iter()
                .map(|id| {
                    let t = m.task(crate::model::TaskId(id));
                    let (s, e) = (t.start.get().unwrap_or(start), t.end.get().unwrap_or(start));
                    let key = normalise(run.keys.keys.get(id as usize).map_or("", String::as_str));
                    let kind = u32::from(path.contains(key.as_ref()));
                    RowBar { task: Some(keys.number(&key)), start: s - start, end: e.max(s) - start, kind, count: 1 }
                })
                .collect()
        }));
    }
    SideIndex { name: run.name.clone(), wall: (end.max(start)) - start, lanes, rows }
}

/// The timelines of the runs `a` and `b`, every task; the tasks of the
/// keys of `path_a` (`path_b`) are marked as A's (B's) critical path.
pub fn timelines(a: &Run<'_>, b: &Run<'_>, path_a: &[String], path_b: &[String]) -> TimelinePair {
    let mut keys = Keys::default();
    let set = |p: &'_ [String]| -> FastSet<String> { p.iter().map(|k| normalise(k).into_owned()).collect() };
    let (pa, pb) = (set(path_a), set(path_b));
    let (a, b) = (side(a, &mut keys, &pa), side(b, &mut keys, &pb));
    TimelinePair { keys: keys.names, a, b }
}

/// Milliseconds of nanoseconds.
fn ms(ns: Nanos) -> f64 {
    ns as f64 / 1e6
}

/// The rows of a side with `rows` rows in the band `top..bottom` (fractions).
fn band(rows: usize, top: f64, bottom: f64) -> std::ops::Range<usize> {
    let first = ((top * rows as f64).floor() as usize).min(rows);
    let last = ((bottom * rows as f64).ceil() as usize).clamp(first, rows);
    first..last
}

/// Side `s` in `view` and `rows` (its band), the tasks of key `selected`
/// marked; keys renumbered in `keys` from `names`.
fn cut(
    s: &SideIndex,
    view: Viewport,
    rows: std::ops::Range<usize>,
    selected: Option<u32>,
    names: &[String],
    keys: &mut Keys,
) -> SideTimeline {
    let n = rows.len() as u64;
    let drawn = n.min(u64::from(PLOT_ROWS)).max(1);
    let packed = n.div_ceil(drawn).max(1) as u32;
    // The drawn row of a row of the band.
    let drawn_of = |r: usize| ((r - rows.start) as u64 * drawn / n.max(1)) as u32;
    let visible = |row: &[RowBar]| -> Vec<RowBar> {
        let first = row.partition_point(|b| b.end < view.start);
        cull_row(row[first..].iter().copied(), view)
    };
    let mut groups: Vec<Vec<Vec<RowBar>>> = vec![Vec::new(); drawn as usize];
    let mut marks: Vec<Vec<RowBar>> = vec![Vec::new(); drawn as usize];
    for r in rows.clone() {
        let row = &s.rows[r];
        let d = drawn_of(r) as usize;
        groups[d].push(visible(row));
        let first = row.partition_point(|b| b.end < view.start);
        let marked =
            row[first..].iter().take_while(|b| b.start <= view.end).filter(|b| b.kind == 1 || b.task == selected);
        marks[d].extend(marked.copied());
    }
    let mut out = |d: usize, b: RowBar, keep_key: Option<u32>| {
        let key = match b.task {
            Some(k) => keys.number(&names[k as usize]),
            None => keep_key.map_or(MERGED, |k| keys.number(&names[k as usize])),
        };
        Bar { row: d as u32, start_ms: ms(b.start), end_ms: ms(b.end), key, tasks: b.count, path: b.kind == 1 }
    };
    let (mut bars, mut marked) = (Vec::new(), Vec::new());
    let (mut tasks, mut merged) = (0usize, 0usize);
    for (d, g) in groups.into_iter().enumerate() {
        let row = if g.len() == 1 { g.into_iter().flatten().collect() } else { pack_rows(g, view) };
        for b in row {
            tasks += b.count as usize;
            if b.count > 1 {
                merged += b.count as usize;
            }
            bars.push(out(d, b, None));
        }
    }
    for (d, mut m) in marks.into_iter().enumerate() {
        // The path's and the selection's tasks apart, so that a merged bar keeps its mark.
        m.sort_unstable_by_key(|b| (b.task != selected, b.start));
        let split = m.partition_point(|b| b.task == selected && selected.is_some());
        let (sel, path) = m.split_at(split);
        marked.extend(cull_row(sel.iter().copied(), view).into_iter().map(|b| out(d, b, selected)));
        let path = cull_row(path.iter().copied(), view);
        marked.extend(path.into_iter().map(|b| out(d, RowBar { kind: 1, ..b }, None)));
    }
    let lanes = s
        .lanes
        .iter()
        .filter(|l| (l.first_row as usize) < rows.end && (l.first_row + l.rows) as usize > rows.start)
        .map(|l| {
            let first = drawn_of((l.first_row as usize).max(rows.start));
            let last = drawn_of(((l.first_row + l.rows) as usize).min(rows.end) - 1);
            LaneRows { name: l.name.clone(), first_row: first, rows: last - first + 1 }
        })
        .collect();
    let selected = selected.map(|k| {
        let of_key = s.rows.iter().flatten().filter(|b| b.task == Some(k));
        of_key.fold((0, 0.0), |(n, total), b| (n + 1, total + ms(b.end - b.start)))
    });
    SideTimeline {
        selected,
        name: s.name.clone(),
        wall_ms: ms(s.wall),
        lanes,
        rows: if n == 0 { 0 } else { drawn as u32 },
        all_rows: s.rows.len() as u32,
        packed,
        bars,
        marked,
        tasks,
        merged,
    }
}

impl TimelinePair {
    /// The whole of both runs, nothing selected.
    pub fn whole(&self) -> Window {
        Window { from_ms: 0.0, to_ms: ms(self.a.wall.max(self.b.wall)), top: 0.0, bottom: 1.0, selected: None }
    }

    /// Both sides in `w` (clamped to the longer run and to the rows),
    /// culled for [`PLOT_WIDTH`] × [`PLOT_ROWS`] pixels, with only the
    /// keys their bars name (numbered anew: a window is sent, not every
    /// key of a big run).
    pub fn window(&self, w: &Window) -> CompareTimelines {
        let longest = ms(self.a.wall.max(self.b.wall));
        let from = if w.from_ms.is_finite() { w.from_ms.clamp(0.0, longest) } else { 0.0 };
        let to = if w.to_ms.is_finite() { w.to_ms.clamp(from, longest) } else { longest };
        let top = if w.top.is_finite() { w.top.clamp(0.0, 1.0) } else { 0.0 };
        let bottom = if w.bottom.is_finite() { w.bottom.clamp(top, 1.0) } else { 1.0 };
        let ns = |ms: f64| (ms * 1e6).round() as Nanos;
        let view = Viewport { start: ns(from), end: ns(to), width: PLOT_WIDTH };
        let selected = w.selected.as_ref().and_then(|k| self.keys.iter().position(|x| x == k)).map(|i| i as u32);
        let mut keys = Keys::default();
        let a = cut(&self.a, view, band(self.a.rows.len(), top, bottom), selected, &self.keys, &mut keys);
        let b = cut(&self.b, view, band(self.b.rows.len(), top, bottom), selected, &self.keys, &mut keys);
        let window = Window { from_ms: from, to_ms: to, top, bottom, selected: w.selected.clone() };
        CompareTimelines { keys: keys.names, a, b, window }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::TaskKeys;
    use crate::ingest::read_bytes;
    use crate::model::{Model, ModelBuilder, Task, TaskId};
    use crate::report::compare::{keys_of, runs_of};

    /// Two ninja builds: their tasks from each build's own start, one key
    /// numbered once for both.
    #[test]
    fn each_side_starts_at_zero_and_shares_its_keys() {
        let a = b"# ninja log v5\n100\t200\t0\tx.o\t1\n150\t400\t0\ty.o\t2\n";
        let b = b"# ninja log v5\n0\t50\t0\tx.o\t1\n0\t120\t0\tw.o\t3\n";
        let a = crate::reconcile(vec![read_bytes("a.ninja_log", a, usize::MAX).unwrap()]);
        let b = crate::reconcile(vec![read_bytes("b.ninja_log", b, usize::MAX).unwrap()]);
        let (ka, kb) = (keys_of(&a), keys_of(&b));
        let (ra, rb) = (runs_of(&a, &ka, &|_| None).unwrap(), runs_of(&b, &kb, &|_| None).unwrap());
        let pair = timelines(&ra[0], &rb[0], &["y.o".to_owned()], &[]);
        let t = pair.window(&pair.whole());
        let bars = |s: &SideTimeline| -> Vec<(String, f64, f64, bool)> {
            let mut v: Vec<_> =
                s.bars.iter().map(|b| (t.keys[b.key as usize].clone(), b.start_ms, b.end_ms, b.path)).collect();
            v.sort_by(|x, y| x.0.cmp(&y.0));
            v
        };
        assert_eq!(bars(&t.a), [("x.o".to_owned(), 0.0, 100.0, false), ("y.o".to_owned(), 50.0, 300.0, true)]);
        assert_eq!(bars(&t.b), [("w.o".to_owned(), 0.0, 120.0, false), ("x.o".to_owned(), 0.0, 50.0, false)]);
        assert_eq!((t.a.wall_ms, t.b.wall_ms, t.keys.len(), t.a.merged), (300.0, 120.0, 3, 0));
        assert_eq!((t.window.from_ms, t.window.to_ms), (0.0, 300.0));
        // x.o and y.o overlap: two rows, whatever lanes they are on.
        assert_eq!((t.a.rows, t.a.packed), (2, 1));
        assert_ne!(t.a.bars[0].row, t.a.bars[1].row);
        // A's path (y.o) is drawn again on top.
        assert_eq!(t.a.marked.iter().map(|b| t.keys[b.key as usize].as_str()).collect::<Vec<_>>(), ["y.o"]);
    }

    /// A run of `tasks` `(lane, start ms, end ms, key)`, and its keys.
    fn model(tasks: &[(usize, f64, f64, String)]) -> (Model, TaskKeys) {
        let mut b = ModelBuilder::new();
        let kind = b.kind("K", None);
        let lanes: Vec<_> =
            (0..=tasks.iter().map(|t| t.0).max().unwrap_or(0)).map(|l| b.lane(&format!("h{l}"))).collect();
        for (lane, s, e, _) in tasks {
            let uid = b.sym("t");
            let ns = |ms: f64| (ms * 1e6).round() as Nanos;
            b.task(Task::new(uid, kind, Role::Work, lanes[*lane], Some(ns(*s)), Some(ns(*e))));
        }
        (b.build(), TaskKeys { keys: tasks.iter().map(|t| t.3.clone()).collect(), weights: None, executions: None })
    }

    fn run<'a>(m: &'a Model, keys: &'a TaskKeys) -> Run<'a> {
        Run { name: "r".into(), model: m, tasks: (0..m.tasks().len() as u32).map(TaskId).collect(), keys }
    }

    /// One row, 850 ms on 850 px: a pixel is 1 ms. By hand: 0–0.4, 0.5–0.9
    /// and 1.2–1.5 follow within a pixel and are one bar of 3 tasks
    /// (0–1.5); 3–3.5 starts 1.5 ms after: a bar of its own; 10–20 is wider
    /// than a pixel; 20–20.5 follows a wide bar: its own; 849–850 ends the
    /// run. Zoomed to 0–8.5 ms (a pixel 0.01 ms) every task is its own bar.
    #[test]
    fn a_window_merges_tasks_under_a_pixel() {
        let spans = [(0.0, 0.4), (0.5, 0.9), (1.2, 1.5), (3.0, 3.5), (10.0, 20.0), (20.0, 20.5), (849.0, 850.0)];
        let tasks: Vec<_> = spans.iter().enumerate().map(|(i, &(s, e))| (0, s, e, format!("k{i}"))).collect();
        let (m, k) = model(&tasks);
        let pair = timelines(&run(&m, &k), &run(&m, &k), &[], &[]);
        let whole = pair.window(&pair.whole());
        let key =
            |w: &CompareTimelines, k: u32| if k == MERGED { "merged".to_owned() } else { w.keys[k as usize].clone() };
        let bars: Vec<(f64, f64, String, u32)> =
            whole.a.bars.iter().map(|b| (b.start_ms, b.end_ms, key(&whole, b.key), b.tasks)).collect();
        let expected = [(0.0, 1.5, "merged", 3), (3.0, 3.5, "k3", 1), (10.0, 20.0, "k4", 1), (20.0, 20.5, "k5", 1)];
        assert_eq!(bars[..4], expected.map(|(s, e, k, n)| (s, e, k.to_owned(), n)));
        assert_eq!((whole.a.tasks, whole.a.merged, whole.b.merged), (7, 3, 3));
        // Only the keys the window's bars name are sent.
        assert_eq!(whole.keys, ["k3", "k4", "k5", "k6"]);
        let zoomed = pair.window(&Window { from_ms: 0.0, to_ms: 8.5, ..pair.whole() });
        assert_eq!((zoomed.window.from_ms, zoomed.window.to_ms), (0.0, 8.5));
        assert_eq!(zoomed.keys, ["k0", "k1", "k2", "k3"]);
        assert_eq!((zoomed.a.merged, zoomed.a.tasks), (0, 4));
        // Past the runs' end, the window is clamped to them.
        assert_eq!(pair.window(&Window { from_ms: 800.0, to_ms: 2000.0, ..pair.whole() }).window.to_ms, 850.0);
    }

    /// 60,000 tasks on 100 lanes of 3 overlapping rows (300 rows in all,
    /// `t{i}` on lane i % 100, every task 1 ms long, row r of a lane's
    /// tasks 0.4 ms apart), a path of 5 tasks.
    fn big() -> (Model, TaskKeys) {
        let tasks: Vec<_> = (0..60_000)
            .map(|i| {
                let (lane, n) = (i % 100, i / 100);
                let start = n as f64 * 1.0 / 3.0;
                (lane, start, start + 1.0, format!("t{i}"))
            })
            .collect();
        model(&tasks)
    }

    /// The bars of a window are bounded by its pixels, not by its tasks,
    /// every task is counted in them, and the path's and the selected
    /// key's tasks are drawn on top whatever is packed.
    #[test]
    fn a_big_run_is_bounded_by_pixels_and_every_task_counted() {
        let (m, k) = big();
        let path: Vec<String> = ["t5", "t30107", "t59999", "t42042", "t17"].map(String::from).to_vec();
        let pair = timelines(&run(&m, &k), &run(&m, &k), &path, &[]);
        let whole = pair.window(&Window { selected: Some("t31313".into()), ..pair.whole() });
        for s in [&whole.a, &whole.b] {
            assert_eq!(s.all_rows, 300, "3 rows a lane, found first-fit");
            assert_eq!((s.rows, s.packed), (PLOT_ROWS, 3));
            assert_eq!(s.tasks, 60_000, "every task is counted in a bar");
            let most = PLOT_ROWS as usize * PLOT_WIDTH as usize;
            assert!(s.bars.len() + s.marked.len() <= most, "{} bars", s.bars.len());
            // A drawn row is a union: its bars are a pixel apart at least.
            let pixel = (whole.window.to_ms - whole.window.from_ms) / PLOT_WIDTH;
            for w in s.bars.windows(2).filter(|w| w[0].row == w[1].row) {
                assert!(w[1].start_ms - w[0].end_ms >= pixel);
            }
        }
        let names = |s: &SideTimeline| -> Vec<String> {
            let mut v: Vec<String> = s.marked.iter().map(|b| whole.keys[b.key as usize].clone()).collect();
            v.sort();
            v
        };
        // A's path and the selection; B's path is empty.
        assert_eq!(names(&whole.a), ["t17", "t30107", "t31313", "t42042", "t5", "t59999"]);
        assert_eq!(names(&whole.b), ["t31313"]);
        assert_eq!((whole.a.selected, whole.b.selected), (Some((1, 1.0)), Some((1, 1.0))));
        assert!(whole.a.marked.iter().filter(|b| whole.keys[b.key as usize] != "t31313").all(|b| b.path));
        // Zoomed into 1 % of the time and 2 % of the rows (6 rows): nothing
        // packed, bars of one task each; the counts are the tasks there.
        let w = Window { from_ms: 100.0, to_ms: 120.0, top: 0.0, bottom: 0.02, selected: None };
        let zoomed = pair.window(&w);
        assert_eq!((zoomed.a.rows, zoomed.a.packed), (6, 1));
        // Lanes 0 and 1 (rows 0–5); a task of lane l starts at n / 3 ms with
        // i = 100 n + l: those overlapping 100–120 ms are n = 297..=360.
        assert_eq!(zoomed.a.tasks, 2 * 64);
        assert_eq!(zoomed.a.lanes.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(), ["h0", "h1"]);
        assert!(zoomed.a.bars.iter().all(|b| b.tasks == 1 && b.key != MERGED));
    }
}
