//! The two timelines of the compare screen: each side's representative
//! run (the one whose path and wall time are compared), its tasks on their
//! lanes (a lane split into rows where tasks overlap) from the run's own
//! start, so that A and B stand one above the
//! other on one time axis. Every bar carries its normalised key, numbered
//! once for both sides, so that a task selected in one timeline finds the
//! same key in the other.

use crate::compare::normalise::normalise;
use crate::compare::Run;
use crate::hash::FastMap;
use serde::{Deserialize, Serialize};

/// The most bars a side sends (its longest tasks); the rest are counted.
pub const MAX_BARS: usize = 5_000;

/// Both sides' timelines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareTimelines {
    /// The keys the bars name, by number.
    pub keys: Vec<String>,
    /// Side A's representative run.
    pub a: SideTimeline,
    /// Side B's.
    pub b: SideTimeline,
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
    /// Its tasks (the longest [`MAX_BARS`]), in start order.
    pub bars: Vec<Bar>,
    /// Tasks with times that are not drawn (shorter than every bar drawn).
    pub left_out: usize,
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
    /// Its key, an index of [`CompareTimelines::keys`].
    pub key: u32,
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
    let left_out = timed.len().saturating_sub(MAX_BARS);
    if left_out > 0 {
        timed.select_nth_unstable_by_key(MAX_BARS - 1, |t| std::cmp::Reverse(t.1 - t.0));
        timed.truncate(MAX_BARS);
    }
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
    SideTimeline { name: run.name.clone(), wall_ms: ms(end), lanes, rows, bars, left_out }
}

/// The timelines of the runs `a` and `b`.
pub fn timelines(a: &Run<'_>, b: &Run<'_>) -> CompareTimelines {
    let mut keys = Keys::default();
    let (a, b) = (side(a, &mut keys), side(b, &mut keys));
    CompareTimelines { keys: keys.names, a, b }
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
        assert_eq!((t.a.wall_ms, t.b.wall_ms, t.keys.len(), t.a.left_out), (300.0, 120.0, 3, 0));
        // x.o and y.o overlap: two rows, whatever lanes they are on.
        assert_eq!(t.a.rows, 2);
        assert_ne!(t.a.bars[0].row, t.a.bars[1].row);
    }
}
