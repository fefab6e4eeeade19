//! What fixing a task would save, under the replay
//! ([`crate::analysis::replay`]).
//!
//! - **Slack**: how much later a task could end without the run ending
//!   later ([`replay_slack`]); 0 on the path.
//! - **Drag**: the wall time saved if the task took no time.
//! - **Saving if halved**: the wall time saved if it took half its time.
//! - **Next pole**: the first task of the path after the task took no
//!   time that was not on the path before.
//!
//! A task with slack cannot change the wall time by getting shorter (the
//! longest chain through it ends before the run does, and the rest of the
//! run is unchanged), so its drag is 0 without a replay.

use super::detour::Detours;
use super::replay::Replay;
use super::replay_change::Player;
use super::slack::replay_slack;
use crate::model::{Nanos, TaskId};
use std::cell::OnceCell;

/// One task's figures, ns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lever {
    /// The task.
    pub task: TaskId,
    /// Its duration.
    pub duration: Nanos,
    /// Its slack.
    pub slack: Nanos,
    /// The wall time saved if it took no time.
    pub drag: Nanos,
    /// The wall time saved if it took half its time.
    pub saved_if_halved: Nanos,
    /// The first task of the path, after it took no time, that was not on
    /// the path before (`None`: no new task, or no replay was needed).
    pub next_pole: Option<TaskId>,
}

/// A run's replay with what every drag needs: its ends, slack and path.
#[derive(Debug)]
pub struct Drags<'a> {
    replay: &'a Replay,
    ends: Vec<Nanos>,
    slack: Vec<Nanos>,
    on_path: Vec<bool>,
    path: Vec<usize>,
    wall: Nanos,
    /// The last end of the run as it was.
    last: Nanos,
    /// The detours around the path, made when a path task's figures are first asked for.
    detours: OnceCell<Detours>,
}

impl<'a> Drags<'a> {
    /// The run of `replay` as it was.
    pub fn new(replay: &'a Replay) -> Drags<'a> {
        let ends = replay.ends(replay.durations());
        let slack = replay_slack(replay, replay.durations(), &ends);
        let path = replay.path(&ends);
        let mut on_path = vec![false; replay.len()];
        path.iter().for_each(|&p| on_path[p] = true);
        let last = ends.iter().copied().max().unwrap_or(0);
        Drags { wall: replay.wall(&ends), last, replay, ends, slack, on_path, path, detours: OnceCell::new() }
    }

    /// The run's path, as positions of the replay, first first.
    pub fn path(&self) -> &[usize] {
        &self.path
    }

    /// Position `p`'s slack, ns.
    pub fn slack(&self, p: usize) -> Nanos {
        self.slack[p]
    }

    /// Position `p`'s figures.
    pub fn lever(&self, p: usize) -> Lever {
        self.levers_at([p]).remove(0)
    }

    /// The figures of positions `ps`, in their order: the player is made
    /// once for all of them, the detours once for this run's drags.
    pub fn levers_at(&self, ps: impl IntoIterator<Item = usize>) -> Vec<Lever> {
        let mut player = None;
        ps.into_iter()
            .map(|p| {
                let detours = self.on_path[p]
                    .then(|| self.detours.get_or_init(|| Detours::new(self.replay, &self.ends, &self.path)));
                self.lever_with(&mut player, detours, p)
            })
            .collect()
    }

    /// Position `p`'s figures: a path task's from the `detours` around the
    /// path, any other's played on `player` (made when first needed).
    fn lever_with<'s>(&'s self, player: &mut Option<Player<'s>>, detours: Option<&Detours>, p: usize) -> Lever {
        let (task, duration, slack) = (self.replay.task(p), self.replay.duration(p), self.slack[p]);
        if slack > 0 || duration == 0 {
            return Lever { task, duration, slack, drag: 0, saved_if_halved: 0, next_pole: None };
        }
        let on_path = self.path.binary_search(&p).ok();
        if let (Some(i), Some(detours)) = (on_path, detours) {
            let last = self.last;
            let without = detours.longest_without(i);
            let saved = |by: Nanos| by.min(without.map_or(by, |w| last - w));
            let next_pole = without
                .filter(|&w| w > last - duration)
                .and_then(|_| detours.first_off_path(i))
                .map(|q| self.replay.task(q));
            return Lever {
                task,
                duration,
                slack,
                drag: saved(duration),
                saved_if_halved: saved(duration - duration / 2),
                next_pole,
            };
        }
        let player = player.get_or_insert_with(|| Player::new(self.replay, &self.ends));
        let drag = self.wall - player.play(p, 0);
        let next_pole = player.path().into_iter().find(|&q| !self.on_path[q]).map(|q| self.replay.task(q));
        let saved_if_halved = self.wall - player.play(p, duration / 2);
        Lever { task, duration, slack, drag, saved_if_halved, next_pole }
    }

    /// The figures of every path task and of the `others` longest tasks
    /// off the path, by drag (largest first), then duration, then position.
    pub fn levers(&self, others: usize) -> Vec<Lever> {
        let mut off: Vec<usize> = (0..self.replay.len()).filter(|&p| !self.on_path[p]).collect();
        let longest = |p: &usize| (std::cmp::Reverse(self.replay.duration(*p)), *p);
        if off.len() > others {
            off.select_nth_unstable_by_key(others, longest);
            off.truncate(others);
        }
        let ps: Vec<usize> = self.path.iter().chain(&off).copied().collect();
        let mut out: Vec<(usize, Lever)> = ps.iter().copied().zip(self.levers_at(ps.iter().copied())).collect();
        out.sort_by_key(|(p, l)| (std::cmp::Reverse(l.drag), std::cmp::Reverse(l.duration), *p));
        out.into_iter().map(|(_, l)| l).collect()
    }
}
