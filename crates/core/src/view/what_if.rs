//! The page's levers and what-if: a run's replay
//! ([`crate::analysis::replay`]) prepared once, its levers as rows, one
//! task's slack and drag, and a step of the speed-up slider, the run
//! replayed with that task faster (as `longpole whatif` replays it,
//! [`crate::report::whatif`]) and its new path with where its tasks were.

use crate::analysis::drag::{Drags, Lever};
use crate::analysis::replay::Replay;
use crate::layout::timeline::TimelineIndex;
use crate::model::{Model, Nanos, TaskId};
use crate::report::levers::{positions, replay_of, OTHERS, SHOWN};
use crate::report::whatif::faster_by;
use crate::run::Dataset;
use crate::view::{task_row, PathView, TaskRow};
use serde::{Deserialize, Serialize};

/// One lever as the page lists it, ns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeverRow {
    /// The task's id in the model.
    pub id: u32,
    /// What to show.
    pub label: String,
    /// Its lane's name.
    pub lane: String,
    /// Its duration.
    pub duration: Nanos,
    /// How much later it could end without the run ending later.
    pub slack: Nanos,
    /// The wall time saved if it took no time.
    pub drag: Nanos,
    /// The wall time saved if it took half its time.
    pub saved_if_halved: Nanos,
    /// The first task of the path, once it takes no time, that was not on
    /// it before.
    pub next_pole: Option<String>,
}

/// A step of the slider: the run replayed with one task faster.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WhatIfView {
    /// The task made faster.
    pub task: u32,
    /// How much faster, percent (100: it takes no time).
    pub speedup: u8,
    /// Its duration in the run, ns.
    pub before: Nanos,
    /// Its duration in the replay, ns.
    pub after: Nanos,
    /// The run's start, ns (its wall times are from it).
    pub origin: Nanos,
    /// The run's wall time, ns.
    pub wall: Nanos,
    /// The replay's wall time, ns.
    pub what_if_wall: Nanos,
    /// `wall - what_if_wall`, ns.
    pub saved: Nanos,
    /// The replay's path, its steps at their replayed times.
    pub path: PathView,
    /// Each step's start and end in the run, where the replay moved it.
    pub was: Vec<Option<(Nanos, Nanos)>>,
}

/// The factor a speed-up of `speedup` percent multiplies a duration by
/// (40: 0.6; 100: 0).
pub fn factor(speedup: u8) -> f64 {
    f64::from(100 - speedup.min(100)) / 100.0
}

/// A run's replay, prepared once: each slider step replays from it.
#[derive(Debug)]
pub struct WhatIfs {
    replay: Replay,
    /// The run's wall time.
    wall: Nanos,
    /// Each model task's position.
    pos: Vec<Option<u32>>,
}

impl WhatIfs {
    /// The replay of `d`'s run (its last, for a log of several builds);
    /// `None` when it records no dependencies.
    pub fn of(d: &Dataset) -> Option<WhatIfs> {
        let replay = replay_of(d)?;
        let ends = replay.ends(replay.durations());
        let pos = positions(&d.model, &replay);
        Some(WhatIfs { wall: replay.wall(&ends), replay, pos })
    }

    /// `lever` as a row of `model`.
    fn row(model: &Model, lever: &Lever) -> LeverRow {
        LeverRow {
            id: lever.task.0,
            label: model.label(lever.task).into_owned(),
            lane: model.lanes()[model.task(lever.task).lane.index()].name.clone(),
            duration: lever.duration,
            slack: lever.slack,
            drag: lever.drag,
            saved_if_halved: lever.saved_if_halved,
            next_pole: lever.next_pole.map(|t| model.label(t).into_owned()),
        }
    }

    /// The levers `longpole analyze` lists: the [`SHOWN`] largest drags of
    /// the path's tasks and the [`OTHERS`] longest others.
    pub fn levers(&self, model: &Model) -> Vec<LeverRow> {
        Drags::new(&self.replay).levers(OTHERS).iter().take(SHOWN).map(|l| WhatIfs::row(model, l)).collect()
    }

    /// `task`'s figures (`None`: it is not replayed, a phase or a task
    /// without both times).
    pub fn lever(&self, model: &Model, task: TaskId) -> Option<LeverRow> {
        let p = (*self.pos.get(task.index())?)? as usize;
        Some(WhatIfs::row(model, &Drags::new(&self.replay).lever(p)))
    }

    /// The run replayed with `task` `speedup` percent faster (`None`: it
    /// is not replayed).
    pub fn step(&self, model: &Model, index: &TimelineIndex, task: TaskId, speedup: u8) -> Option<WhatIfView> {
        let p = (*self.pos.get(task.index())?)? as usize;
        let r = &self.replay;
        let after = faster_by(r.duration(p), factor(speedup));
        let mut durations = r.durations().to_vec();
        durations[p] = after;
        let ends = r.ends(&durations);
        let what_if_wall = r.wall(&ends);
        let duration = |q: usize| if q == p { after } else { r.duration(q) };
        let path = r.path(&ends);
        let mut was = Vec::with_capacity(path.len());
        let steps: Vec<TaskRow> = path
            .iter()
            .map(|&q| {
                let mut row = task_row(model, index, r.task(q), 0);
                let (start, end) = (ends[q] - duration(q), ends[q]);
                was.push(row.start.zip(row.end).filter(|&w| w != (start, end)));
                (row.start, row.end) = (Some(start), Some(end));
                row
            })
            .collect();
        let total = match (path.first(), path.last()) {
            (Some(&a), Some(&b)) => ends[b] - (ends[a] - duration(a)),
            _ => 0,
        };
        Some(WhatIfView {
            task: task.0,
            speedup,
            before: r.duration(p),
            after,
            origin: r.window().0,
            wall: self.wall,
            what_if_wall,
            saved: self.wall - what_if_wall,
            path: PathView { total, steps, breakdown: Vec::new() },
            was,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::whatif::{what_if, Faster};

    /// A ya build of three tasks: A (1 s) then B (4 s) after it, and C
    /// (2 s) beside them; the log's own times, not the replay's.
    fn run() -> crate::run::Analysis {
        let graph = br#"{"graph":[
            {"uid":"A","cmds":[{"cmd_args":["cc","a"]}],"deps":[],"kv":{"p":"CC"}},
            {"uid":"B","cmds":[{"cmd_args":["ld","b"]}],"deps":["A"],"kv":{"p":"LD"}},
            {"uid":"C","cmds":[{"cmd_args":["cc","c"]}],"deps":[],"kv":{"p":"CC"}}]}"#;
        let log = b"0 prepare_start  7\n100 resources_prepared  7\n\
            1000 deploy A 7 1\n1000 started A h1\n2000 finished A h1 OK 1\n\
            1000 deploy C 7 1\n1000 started C h2\n3000 finished C h2 OK 1\n\
            2000 deploy B 7 1\n2000 started B h1\n6000 finished B h1 OK 1\n";
        let inputs = vec![
            crate::ingest::read_bytes("execution.log", log, 64).unwrap(),
            crate::ingest::read_bytes("graph.json", graph, 64).unwrap(),
        ];
        crate::reconcile(inputs)
    }

    #[test]
    fn a_step_gives_the_cli_what_if_and_the_old_positions() {
        let analysis = run();
        let d = &analysis.datasets[0];
        let index = TimelineIndex::new(&d.model);
        let w = WhatIfs::of(d).expect("a build with dependencies");
        let b = (0..d.model.tasks().len() as u32).map(TaskId).find(|&t| d.model.uid(t) == "B").unwrap();
        for speedup in [0u8, 40, 75, 100] {
            let step = w.step(&d.model, &index, b, speedup).unwrap();
            let cli = what_if(&analysis, &[Faster { key: "B".into(), factor: factor(speedup) }]).unwrap();
            let ms = |n: Nanos| n as f64 / 1e6;
            assert_eq!(ms(step.wall), cli["wall_ms"].as_f64().unwrap(), "{speedup}");
            assert_eq!(ms(step.what_if_wall), cli["what_if_wall_ms"].as_f64().unwrap(), "{speedup}");
            assert_eq!(ms(step.saved), cli["saved_ms"].as_f64().unwrap(), "{speedup}");
            let names: Vec<&str> =
                cli["critical_path"]["tasks"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
            assert_eq!(step.path.steps.iter().map(|s| s.label.as_str()).collect::<Vec<_>>(), names);
        }
        assert_eq!(w.step(&d.model, &index, b, 40).unwrap().saved, 1_600_000_000, "B 2.4 s");
        // B (4 s, after A) 60 % faster takes 1.6 s: A then B end at 3.6 s,
        // after C, and the run (log from 0 to 6 s) ends 2.4 s sooner.
        let step = w.step(&d.model, &index, b, 60).unwrap();
        assert_eq!((step.before, step.after, step.saved), (4_000_000_000, 1_600_000_000, 2_400_000_000));
        let moved = step.path.steps.iter().zip(&step.was).find(|(s, _)| s.id == b.0).unwrap();
        assert_eq!(moved.1, &Some((2_000_000_000, 6_000_000_000)), "B's old place is its ghost");
        assert_eq!((moved.0.start, moved.0.end), (Some(2_000_000_000), Some(3_600_000_000)));
    }

    #[test]
    fn levers_and_a_task_s_figures() {
        let analysis = run();
        let d = &analysis.datasets[0];
        let w = WhatIfs::of(d).unwrap();
        let levers = w.levers(&d.model);
        // B's drag: without it the run ends when C does (3 s), 3 s sooner;
        // A's: 1 s; C, beside them with 3 s to spare, none.
        let by_uid = |uid: &str| levers.iter().find(|l| d.model.uid(TaskId(l.id)) == uid).unwrap();
        assert_eq!((by_uid("B").drag, by_uid("B").slack), (3_000_000_000, 0));
        assert_eq!(by_uid("A").drag, 1_000_000_000);
        let c = (0..3).map(TaskId).find(|&t| d.model.uid(t) == "C").unwrap();
        let lever = w.lever(&d.model, c).unwrap();
        assert_eq!((lever.drag, lever.slack), (0, 3_000_000_000));
        assert_eq!(levers[0].id, by_uid("B").id, "the largest drag first");
        assert_eq!(factor(40), 0.6);
        assert_eq!(factor(100), 0.0);
    }
}
