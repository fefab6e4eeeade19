//! The timeline: tasks as bars on their lanes, over wall time.
//!
//! A lane (a host, a thread) runs several tasks at once, so each lane is
//! split into rows by first-fit interval partitioning: a task goes to the
//! first row that is free at its start. [`TimelineIndex`] does that once;
//! [`TimelineIndex::bars`] then answers a viewport (a time window at a
//! resolution) with only the bars that are visible, merging runs of bars
//! narrower than a pixel into one, so a million tasks draw as a few
//! thousand rectangles at any zoom.

pub use super::lane_rows::RowKey;
use super::lane_rows::{fit_sorted, lane_rows};
use crate::model::{Model, Nanos, TaskId};
use serde::{Deserialize, Serialize};

/// Rows of every lane, tasks sorted by start in each row.
#[derive(Clone, Debug, Default)]
pub struct TimelineIndex {
    /// `rows[lane][row]`: the tasks of that row, by start; they do not overlap.
    rows: Vec<Vec<Vec<TaskId>>>,
    /// The row of each task (`u32::MAX` for tasks without both times).
    row_of: Vec<u32>,
}

/// A bar, or several merged bars, of one row.
///
/// Serialized as the array `[task, start, end, kind, count]`: a first
/// chart sends tens of thousands of bars, and field names would be half
/// of their JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "BarArray", into = "BarArray")]
pub struct Bar {
    /// The task, when the bar is one task.
    pub task: Option<u32>,
    /// Start, ns.
    pub start: Nanos,
    /// End, ns.
    pub end: Nanos,
    /// The kind (of the first task, for merged bars).
    pub kind: u32,
    /// How many tasks the bar stands for.
    pub count: u32,
}

/// The bars of one row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowBars {
    /// The lane.
    pub lane: u32,
    /// The row within the lane.
    pub row: u32,
    /// Its visible bars, by start.
    pub bars: Vec<Bar>,
}

/// A [`Bar`]'s serialized form.
type BarArray = (Option<u32>, Nanos, Nanos, u32, u32);

impl From<BarArray> for Bar {
    fn from((task, start, end, kind, count): BarArray) -> Self {
        Bar { task, start, end, kind, count }
    }
}

impl From<Bar> for BarArray {
    fn from(b: Bar) -> Self {
        (b.task, b.start, b.end, b.kind, b.count)
    }
}

/// What part of the timeline to lay out.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Viewport {
    /// First time shown, ns.
    pub start: Nanos,
    /// Last time shown, ns.
    pub end: Nanos,
    /// Width in pixels.
    pub width: f64,
}

impl Viewport {
    /// Nanoseconds per pixel.
    pub fn ns_per_px(&self) -> f64 {
        (self.end - self.start).max(1) as f64 / self.width.max(1.0)
    }

    /// The x pixel of a time.
    pub fn x(&self, t: Nanos) -> f64 {
        (t - self.start) as f64 / self.ns_per_px()
    }
}

impl TimelineIndex {
    /// Splits every lane into rows. Phases (build stages) get their own rows
    /// on their lane like any task.
    pub fn new(model: &Model) -> Self {
        Self::of_tasks(model, (0..model.tasks().len() as u32).map(TaskId))
    }

    /// Splits the lanes of `tasks` (of `model`) into rows; a task not in
    /// `tasks` is not on the timeline.
    pub fn of_tasks(model: &Model, tasks: impl Iterator<Item = TaskId> + Clone) -> Self {
        let (rows, row_of) = lane_rows(model, tasks);
        TimelineIndex { rows, row_of }
    }

    /// Rows per lane.
    pub fn rows_per_lane(&self) -> Vec<u32> {
        self.rows.iter().map(|r| r.len().max(1) as u32).collect()
    }

    /// The row of a task within its lane, if it is on the timeline.
    pub fn row(&self, task: TaskId) -> Option<u32> {
        self.row_of.get(task.index()).copied().filter(|&r| r != u32::MAX)
    }

    /// The visible bars of the rows of `lanes`, for a viewport.
    pub fn bars(&self, model: &Model, view: Viewport, lanes: std::ops::Range<usize>) -> Vec<RowBars> {
        let mut out = Vec::new();
        for lane in lanes.start.min(self.rows.len())..lanes.end.min(self.rows.len()) {
            for (row, tasks) in self.rows[lane].iter().enumerate() {
                // Rows do not overlap, so ends grow with starts: find the first task ending in view.
                let first = tasks.partition_point(|&t| model.task(t).end.get().unwrap_or(0) < view.start);
                let bars = cull_row(
                    tasks[first..].iter().map(|&t| {
                        let task = model.task(t);
                        let (start, end) = (task.start.get().unwrap_or(0), task.end.get().unwrap_or(0));
                        Bar { task: Some(t.0), start, end, kind: task.kind.0, count: 1 }
                    }),
                    view,
                );
                out.push(RowBars { lane: lane as u32, row: row as u32, bars });
            }
        }
        out
    }
}

/// Splits the tasks of one lane into rows by first-fit interval
/// partitioning (a task goes to the row that was free first at its
/// start): each row's task ids, by start; a row's tasks do not overlap.
pub fn first_fit(keys: &mut [RowKey]) -> Vec<Vec<u32>> {
    keys.sort_unstable();
    let mut rows: Vec<Vec<u32>> = Vec::new();
    fit_sorted(keys.iter().copied(), |t, row| {
        if rows.len() <= row as usize {
            rows.push(Vec::new());
        }
        rows[row as usize].push(t);
    });
    rows
}

/// The bars of one row's tasks (one bar each, by start, from the first
/// that ends in view) for `view`: those past its end left out, and a run
/// of bars narrower than a pixel that follow one another within a pixel
/// made one bar, counted (its task `None`). A row of a million tasks is a
/// few bars per pixel.
pub fn cull_row(tasks: impl IntoIterator<Item = Bar>, view: Viewport) -> Vec<Bar> {
    let px = view.ns_per_px();
    let mut bars: Vec<Bar> = Vec::new();
    for b in tasks {
        if b.start > view.end {
            break;
        }
        let narrow = ((b.end - b.start) as f64) < px;
        match bars.last_mut() {
            // Join a narrow bar to the bar before when they touch within a pixel
            // and that one is narrow or merged too.
            Some(last)
                if narrow
                    && ((b.start - last.end) as f64) < px
                    && (last.count > 1 || ((last.end - last.start) as f64) < px) =>
            {
                last.end = last.end.max(b.end);
                last.count += b.count;
                last.task = None;
            }
            _ => bars.push(b),
        }
    }
    bars
}

/// Several rows' bars (each from [`cull_row`]) drawn as one row of pixels:
/// their union, bars that overlap or follow within a pixel made one,
/// counted, so that the row has fewer bars than pixels with a gap between
/// every two. A bar of one task keeps it.
pub fn pack_rows(rows: impl IntoIterator<Item = Vec<Bar>>, view: Viewport) -> Vec<Bar> {
    let px = view.ns_per_px();
    let mut all: Vec<Bar> = rows.into_iter().flatten().collect();
    all.sort_unstable_by_key(|b| (b.start, b.end));
    let mut bars: Vec<Bar> = Vec::new();
    for b in all {
        match bars.last_mut() {
            Some(last) if ((b.start - last.end) as f64) < px => {
                last.end = last.end.max(b.end);
                last.count += b.count;
                last.task = None;
            }
            _ => bars.push(b),
        }
    }
    bars
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ModelBuilder, Role, Task};

    fn model(spans: &[(&str, i64, i64)]) -> Model {
        let mut b = ModelBuilder::new();
        let kind = b.kind("K", None);
        for &(lane, start, end) in spans {
            let lane = b.lane(lane);
            let uid = b.sym("t");
            b.task(Task::new(uid, kind, Role::Work, lane, Some(start), Some(end)));
        }
        b.build()
    }

    #[test]
    fn bars_travel_as_arrays() {
        let bars = [
            Bar { task: Some(7), start: -5, end: 1_732_000_000_000_000_000, kind: 2, count: 1 },
            Bar { task: None, start: 0, end: 10, kind: 0, count: 3 },
        ];
        let json = serde_json::to_string(&bars).unwrap();
        assert_eq!(json, "[[7,-5,1732000000000000000,2,1],[null,0,10,0,3]]");
        assert_eq!(serde_json::from_str::<Vec<Bar>>(&json).unwrap(), bars);
    }

    #[test]
    fn the_bar_under_the_pointer_is_found() {
        let m = model(&[("h", 0, 100), ("h", 300, 400), ("g", 0, 1000)]);
        let idx = TimelineIndex::new(&m);
        let view = Viewport { start: 0, end: 1000, width: 100.0 };
        let rows = idx.bars(&m, view, 0..2);
        let frame = Frame::new(&idx.rows_per_lane());
        let y = frame.row_y(0, 0) + 2.0;
        assert_eq!(bar_at(&rows, &frame, view, frame.gutter + 35.0, y).and_then(|b| b.task), Some(1));
        assert_eq!(bar_at(&rows, &frame, view, frame.gutter + 20.0, y), None);
        assert_eq!(
            bar_at(&rows, &frame, view, frame.gutter + 5.0, frame.row_y(1, 0) + 2.0).and_then(|b| b.task),
            Some(2)
        );
    }

    #[test]
    fn an_instant_takes_no_room_from_a_task_starting_with_it() {
        let m = model(&[("h", 0, 10), ("h", 10, 20), ("h", 10, 10), ("h", 20, 20), ("h", 20, 30)]);
        assert_eq!(TimelineIndex::new(&m).rows_per_lane(), vec![1]);
    }

    #[test]
    fn overlapping_tasks_go_to_rows_first_fit() {
        let m = model(&[("h", 0, 10), ("h", 5, 15), ("h", 10, 20), ("g", 0, 1)]);
        let idx = TimelineIndex::new(&m);
        assert_eq!(idx.rows_per_lane(), vec![2, 1]);
        assert_eq!([0, 1, 2].map(|i| idx.row(TaskId(i))), [Some(0), Some(1), Some(0)]);
    }

    #[test]
    fn narrow_bars_merge_and_only_visible_ones_come() {
        // 1000 tasks of 1 ns, then one long task.
        let mut spans: Vec<(&str, i64, i64)> = (0..1000).map(|i| ("h", i * 2, i * 2 + 1)).collect();
        spans.push(("h", 3000, 4000));
        let m = model(&spans);
        let idx = TimelineIndex::new(&m);
        let all = idx.bars(&m, Viewport { start: 0, end: 4000, width: 400.0 }, 0..1);
        let bars = &all[0].bars;
        assert_eq!(bars.len(), 2, "{bars:?}");
        assert_eq!((bars[0].count, bars[0].task), (1000, None));
        assert_eq!((bars[1].start, bars[1].task), (3000, Some(1000)));
        let zoomed = idx.bars(&m, Viewport { start: 100, end: 110, width: 1000.0 }, 0..1);
        assert_eq!(zoomed[0].bars.len(), 6, "tasks 49..=54 touch the window");
        assert!(zoomed[0].bars.iter().all(|b| b.count == 1));
    }
}

/// Where rows sit vertically: the chart's fixed geometry.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// Height of the time axis at the top, px.
    pub axis: f64,
    /// Width of the lane labels on the left, px.
    pub gutter: f64,
    /// Height of one row, px.
    pub row: f64,
    /// Space between two lanes, px.
    pub gap: f64,
    /// y of the top of each lane, px, and the total height last.
    lane_top: Vec<f64>,
}

impl Frame {
    /// The frame of lanes with these row counts.
    pub fn new(rows_per_lane: &[u32]) -> Self {
        let (axis, row, gap) = (24.0, 14.0, 6.0);
        let mut lane_top = Vec::with_capacity(rows_per_lane.len() + 1);
        let mut y = axis;
        for &r in rows_per_lane {
            lane_top.push(y);
            y += f64::from(r.max(1)) * row + gap;
        }
        lane_top.push(y);
        Frame { axis, gutter: 180.0, row, gap, lane_top }
    }

    /// y of the top of a row.
    pub fn row_y(&self, lane: u32, row: u32) -> f64 {
        self.lane_top.get(lane as usize).copied().unwrap_or(0.0) + f64::from(row) * self.row
    }

    /// y of the top of a lane.
    pub fn lane_y(&self, lane: u32) -> f64 {
        self.lane_top.get(lane as usize).copied().unwrap_or(0.0)
    }

    /// Total height, px.
    pub fn height(&self) -> f64 {
        self.lane_top.last().copied().unwrap_or(self.axis)
    }

    /// The lanes that intersect the band `top..bottom` (px).
    pub fn lanes_between(&self, top: f64, bottom: f64) -> std::ops::Range<usize> {
        let lanes = self.lane_top.len().saturating_sub(1);
        let first = self.lane_top[..lanes].partition_point(|&y| y <= top).saturating_sub(1);
        let last = self.lane_top[..lanes].partition_point(|&y| y < bottom);
        first..last.max(first)
    }
}

/// The bar under the point (`x`, `y`) of the chart (px, the frame's
/// coordinates), within a pixel's tolerance in time.
pub fn bar_at<'a>(rows: &'a [RowBars], frame: &Frame, view: Viewport, x: f64, y: f64) -> Option<&'a Bar> {
    let row = rows.iter().find(|r| {
        let top = frame.row_y(r.lane, r.row);
        (top..top + frame.row).contains(&y)
    })?;
    let px = view.ns_per_px();
    let t = view.start as f64 + (x - frame.gutter) * px;
    let i = row.bars.partition_point(|b| (b.end as f64) + px < t);
    row.bars.get(i).filter(|b| (b.start as f64) - px <= t)
}

/// Tick marks for a time axis: (time, label) pairs, about one per 100 px.
pub fn ticks(view: Viewport, origin: Nanos) -> Vec<(Nanos, String)> {
    let span = (view.end - view.start).max(1) as f64;
    let target = span / (view.width / 100.0).max(1.0);
    let steps: [f64; 22] =
        [1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 2e6, 5e6, 1e7, 2e7, 5e7, 1e8, 2e8, 5e8, 1e9, 2e9, 5e9, 1e10];
    let mut step = steps.iter().copied().find(|&s| s >= target).unwrap_or(60e9);
    while step < target {
        step *= 2.0;
    }
    let step = step as Nanos;
    let first = ((view.start - origin).div_euclid(step) + 1) * step + origin;
    let mut out = Vec::new();
    let mut t = first;
    while t <= view.end && out.len() < 200 {
        out.push((t, crate::numbers::duration_label(t - origin)));
        t += step;
    }
    out
}
