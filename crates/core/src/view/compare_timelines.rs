//! The two timelines of the compare screen: each side's representative
//! run (the one whose path and wall time are compared), its tasks on their
//! lanes (a lane split into rows where tasks overlap) from the run's own
//! start, so that A and B stand one above the
//! other on one time axis. Every bar carries its normalised key, numbered
//! once for both sides, so that a task selected in one timeline finds the
//! same key in the other.
//!
//! Every task is kept ([`timelines`]); the page is sent a window of both
//! sides at once ([`CompareTimelines::window`]: one time span, so that
//! zooming one zooms both), culled by pixel as the main timeline is: on
//! each row, tasks narrower than a pixel that follow one another within a
//! pixel are one bar, counted, so a window of a million tasks is at most a
//! few bars per pixel and row.

use crate::compare::normalise::normalise;
use crate::compare::Run;
use crate::hash::FastMap;
use serde::{Deserialize, Serialize};

/// The width the page draws the time axis in, px: a window's pixel.
pub const PLOT_WIDTH: f64 = 850.0;

/// The key of a bar that stands for several tasks under a pixel.
pub const MERGED: u32 = u32::MAX;

/// Both sides' timelines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareTimelines {
    /// The keys the bars name, by number.
    pub keys: Vec<String>,
    /// Side A's representative run.
    pub a: SideTimeline,
    /// Side B's.
    pub b: SideTimeline,
    /// The window's start, ms from each run's start.
    pub from_ms: f64,
    /// Its end.
    pub to_ms: f64,
}

/// One side's timeline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideTimeline {
    /// The run's name.
    pub name: String,
    /// From its first start to its last end, ms.
    pub wall_ms: f64,
    /// The lanes that have bars, in the model's order, each on its rows.
    pub lanes: Vec<LaneRows>,
    /// Rows over all lanes.
    pub rows: u32,
    /// Its tasks in the window, in start order (every task, before a
    /// window is cut).
    pub bars: Vec<Bar>,
    /// Tasks drawn as part of a [`MERGED`] bar (under a pixel).
    pub merged: usize,
}

/// A lane and the rows its tasks take (a task goes on the first row of
/// its lane that is free when it starts).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LaneRows {
    /// The lane's name.
    pub name: String,
    /// Its first row.
    pub first_row: u32,
    /// Its rows.
    pub rows: u32,
}

/// One task.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bar {
    /// Its row over all lanes (see [`LaneRows`]).
    pub row: u32,
    /// Its start from the run's start, ms.
    pub start_ms: f64,
    /// Its end from the run's start, ms.
    pub end_ms: f64,
    /// Its key, an index of [`CompareTimelines::keys`]; [`MERGED`] for
    /// several tasks under a pixel.
    pub key: u32,
    /// The tasks it stands for (1 but for a merged bar).
    pub tasks: u32,
}

/// Numbers keys once for both sides.
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

/// The timeline of `run`, its keys numbered in `keys`.
fn side(run: &Run<'_>, keys: &mut Keys) -> SideTimeline {
    let m = run.model;
    let mut timed: Vec<(i64, i64, usize, usize)> = run
        .tasks
        .iter()
        .filter_map(|&id| {
            let t = m.task(id);
            Some((t.start.get()?, t.end.get()?, t.lane.index(), id.index()))
        })
        .collect();
    let start = timed.iter().map(|t| t.0).min().unwrap_or(0);
    let end = timed.iter().map(|t| t.1).max().unwrap_or(start);
    timed.sort_unstable_by_key(|t| (t.0, t.2, t.3));
    let mut lanes: Vec<usize> = timed.iter().map(|t| t.2).collect();
    lanes.sort_unstable();
    lanes.dedup();
    // Each lane's rows, by the end of their last task so far.
    let mut ends: Vec<Vec<i64>> = vec![Vec::new(); lanes.len()];
    let placed: Vec<(usize, usize)> = timed
        .iter()
        .map(|&(s, e, lane, _)| {
            let l = lanes.binary_search(&lane).unwrap_or(0);
            let rows = &mut ends[l];
            let r = match rows.iter().position(|&end| end <= s) {
                Some(r) => r,
                None => {
                    rows.push(s);
                    rows.len() - 1
                }
            };
            rows[r] = e.max(s);
            (l, r)
        })
        .collect();
    let mut first_row = Vec::with_capacity(lanes.len());
    let mut rows = 0u32;
    for e in &ends {
        first_row.push(rows);
        rows += e.len() as u32;
    }
    let ms = |ns: i64| (ns - start) as f64 / 1e6;
    let bars = timed
        .iter()
        .zip(&placed)
        .map(|(&(s, e, _, id), &(l, r))| Bar {
            row: first_row[l] + r as u32,
            start_ms: ms(s),
            end_ms: ms(e.max(s)),
            key: keys.number(&normalise(run.keys.keys.get(id).map_or("", String::as_str))),
            tasks: 1,
        })
        .collect();
    let lanes = lanes
        .iter()
        .enumerate()
        .map(|(l, &lane)| LaneRows {
            name: m.lanes()[lane].name.clone(),
            first_row: first_row[l],
            rows: ends[l].len() as u32,
        })
        .collect();
    SideTimeline { name: run.name.clone(), wall_ms: ms(end), lanes, rows, bars, merged: 0 }
}

/// The timelines of the runs `a` and `b`, every task, the window the whole
/// of the longer.
pub fn timelines(a: &Run<'_>, b: &Run<'_>) -> CompareTimelines {
    let mut keys = Keys::default();
    let (a, b) = (side(a, &mut keys), side(b, &mut keys));
    let to_ms = a.wall_ms.max(b.wall_ms);
    CompareTimelines { keys: keys.names, a, b, from_ms: 0.0, to_ms }
}

/// The tasks of `s` that overlap `from..=to`, those under `pixel` ms that
/// follow one another on a row within a pixel made one [`MERGED`] bar.
fn cut(s: &SideTimeline, from: f64, to: f64, pixel: f64) -> SideTimeline {
    let mut last: Vec<Option<usize>> = vec![None; s.rows as usize];
    let (mut bars, mut merged): (Vec<Bar>, usize) = (Vec::new(), 0);
    let visible = |b: &Bar| (b.start_ms.max(from), b.end_ms.min(to));
    for b in s.bars.iter().filter(|b| b.end_ms >= from && b.start_ms <= to) {
        let (start, end) = visible(b);
        let open = last.get(b.row as usize).copied().flatten();
        if let Some(o) = open.map(|i| &mut bars[i]).filter(|o| {
            let (os, oe) = visible(o);
            end - start < pixel && (o.tasks > 1 || oe - os < pixel) && start - o.end_ms < pixel
        }) {
            merged += if o.tasks == 1 { 2 } else { 1 };
            o.end_ms = o.end_ms.max(b.end_ms);
            o.tasks += 1;
            o.key = MERGED;
            continue;
        }
        if let Some(l) = last.get_mut(b.row as usize) {
            *l = Some(bars.len());
        }
        bars.push(b.clone());
    }
    SideTimeline { bars, merged, lanes: s.lanes.clone(), name: s.name.clone(), ..*s }
}

impl CompareTimelines {
    /// Both sides from `from_ms` to `to_ms` (clamped to the longer run),
    /// culled for [`PLOT_WIDTH`] pixels, with only the keys their bars
    /// name (numbered anew: a window is sent, not every key of a big run).
    pub fn window(&self, from_ms: f64, to_ms: f64) -> CompareTimelines {
        let longest = self.a.wall_ms.max(self.b.wall_ms);
        let from = from_ms.clamp(0.0, longest);
        let to = to_ms.clamp(from, longest);
        let pixel = (to - from) / PLOT_WIDTH;
        let (mut a, mut b) = (cut(&self.a, from, to, pixel), cut(&self.b, from, to, pixel));
        let mut keys = Keys::default();
        for bar in a.bars.iter_mut().chain(b.bars.iter_mut()).filter(|bar| bar.key != MERGED) {
            bar.key = keys.number(&self.keys[bar.key as usize]);
        }
        CompareTimelines { keys: keys.names, a, b, from_ms: from, to_ms: to }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::read_bytes;
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
        let t = timelines(&ra[0], &rb[0]);
        let bars = |s: &SideTimeline| -> Vec<(String, f64, f64)> {
            let mut v: Vec<_> = s.bars.iter().map(|b| (t.keys[b.key as usize].clone(), b.start_ms, b.end_ms)).collect();
            v.sort_by(|x, y| x.0.cmp(&y.0));
            v
        };
        assert_eq!(bars(&t.a), [("x.o".to_owned(), 0.0, 100.0), ("y.o".to_owned(), 50.0, 300.0)]);
        assert_eq!(bars(&t.b), [("w.o".to_owned(), 0.0, 120.0), ("x.o".to_owned(), 0.0, 50.0)]);
        assert_eq!((t.a.wall_ms, t.b.wall_ms, t.keys.len(), t.a.merged), (300.0, 120.0, 3, 0));
        // x.o and y.o overlap: two rows, whatever lanes they are on.
        assert_eq!(t.a.rows, 2);
        assert_ne!(t.a.bars[0].row, t.a.bars[1].row);
    }

    /// A side of one row: tasks of `(start, end)` ms, keys 0, 1, 2….
    fn row(tasks: &[(f64, f64)]) -> SideTimeline {
        let bars = tasks
            .iter()
            .enumerate()
            .map(|(i, &(s, e))| Bar { row: 0, start_ms: s, end_ms: e, key: i as u32, tasks: 1 })
            .collect();
        let lanes = vec![LaneRows { name: "l".into(), first_row: 0, rows: 1 }];
        SideTimeline { name: "r".into(), wall_ms: 850.0, lanes, rows: 1, bars, merged: 0 }
    }

    /// 850 ms on 850 px: a pixel is 1 ms. By hand: 0–0.4, 0.5–0.9 and
    /// 1.2–1.5 follow within a pixel and are one bar of 3 tasks (0–1.5);
    /// 3–3.5 starts 1.5 ms after: a bar of its own; 10–20 is wider than a
    /// pixel; 20–20.5 follows a wide bar: its own. Zoomed to 0–8.5 ms (a
    /// pixel 0.01 ms) every task is its own bar, 10–20 not in the window.
    #[test]
    fn a_window_merges_tasks_under_a_pixel() {
        let s = row(&[(0.0, 0.4), (0.5, 0.9), (1.2, 1.5), (3.0, 3.5), (10.0, 20.0), (20.0, 20.5)]);
        let keys = ["k0", "k1", "k2", "k3", "k4", "k5"].map(String::from).to_vec();
        let t = CompareTimelines { keys, a: s.clone(), b: s, from_ms: 0.0, to_ms: 850.0 };
        let whole = t.window(0.0, 850.0);
        fn key(w: &CompareTimelines, k: u32) -> &str {
            if k == MERGED {
                "merged"
            } else {
                w.keys[k as usize].as_str()
            }
        }
        let bars: Vec<(f64, f64, &str, u32)> =
            whole.a.bars.iter().map(|b| (b.start_ms, b.end_ms, key(&whole, b.key), b.tasks)).collect();
        assert_eq!(bars, [(0.0, 1.5, "merged", 3), (3.0, 3.5, "k3", 1), (10.0, 20.0, "k4", 1), (20.0, 20.5, "k5", 1)]);
        assert_eq!((whole.a.merged, whole.b.merged), (3, 3));
        // Only the keys the window's bars name are sent.
        assert_eq!(whole.keys, ["k3", "k4", "k5"]);
        let zoomed = t.window(0.0, 8.5);
        assert_eq!((zoomed.from_ms, zoomed.to_ms), (0.0, 8.5));
        assert_eq!(zoomed.keys, ["k0", "k1", "k2", "k3"]);
        assert_eq!(zoomed.a.bars.iter().map(|b| b.key).collect::<Vec<_>>(), [0, 1, 2, 3]);
        assert_eq!(zoomed.a.merged, 0);
        // Past the runs' end, the window is clamped to them.
        assert_eq!(t.window(800.0, 2000.0).to_ms, 850.0);
    }
}
