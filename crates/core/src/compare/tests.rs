//! The comparison on small runs whose answers are worked out by hand.

use super::result::Comparison;
use super::{compare, Options, Run, TaskKeys};
use crate::model::{Model, ModelBuilder, Role, Task, TaskId};

/// A task: (uid, start, end, dependencies by index, cached).
type Spec<'a> = (&'a str, i64, i64, &'a [u32], bool);

/// A model of these tasks (times in ms) on one lane, keyed by uid.
fn model(tasks: &[Spec<'_>]) -> (Model, TaskKeys) {
    let mut b = ModelBuilder::new();
    let (lane, kind) = (b.lane("l"), b.kind("k", None));
    for &(uid, start, end, _, cached) in tasks {
        let uid = b.sym(uid);
        let mut t = Task::new(uid, kind, Role::Work, lane, Some(start * 1_000_000), Some(end * 1_000_000));
        t.cached = cached;
        b.task(t);
    }
    for (i, &(_, _, _, deps, _)) in tasks.iter().enumerate() {
        for &d in deps {
            b.depends(TaskId(i as u32), TaskId(d));
        }
    }
    let keys = tasks.iter().map(|t| t.0.to_owned()).collect();
    (b.build(), TaskKeys { keys, weights: None, executions: None })
}

fn run<'a>(m: &'a Model, keys: &'a TaskKeys) -> Run<'a> {
    Run { name: "r".into(), model: m, tasks: (0..m.tasks().len() as u32).map(TaskId).collect(), keys }
}

fn task<'c>(c: &'c Comparison, key: &str) -> &'c super::result::TaskChange {
    c.tasks.iter().find(|t| t.key == key).unwrap()
}

/// A: x 0–100, y 100–300 after x, z 0–50. B: x the same, y (renamed y2,
/// still after x) 110–410, z 0–50 from a cache, w 0–20 new.
///
/// By hand: A's wall 300 = path x + y (300) + waiting 0; B's 410 = x + y
/// (400) + the 10 ms y waited. Change +110 = +100 on the shared path + 0
/// path changes + 10 waiting. Replayed with A's times, B takes 100 + 10 +
/// 200 = 310: durations explain 100.
#[test]
fn a_small_change_is_split_replayed_and_matched_by_hand() {
    let (ma, ka) = model(&[("x", 0, 100, &[], false), ("y", 100, 300, &[0], false), ("z", 0, 50, &[], false)]);
    let (mb, kb) = model(&[
        ("x", 0, 100, &[], false),
        ("y2", 110, 410, &[0], false),
        ("z", 0, 50, &[], true),
        ("w", 0, 20, &[], false),
    ]);
    let c = compare(&[run(&ma, &ka)], &[run(&mb, &kb)], &Options::default()).unwrap();
    assert_eq!((c.wall_ms.a, c.wall_ms.b, c.wall_ms.delta), (300.0, 410.0, 110.0));
    let a = &c.attribution;
    assert_eq!((a.shared_path_ms, a.path_changes_ms, a.waiting_ms), (100.0, 0.0, 10.0));
    assert_eq!((a.what_if_wall_ms, a.explained_by_durations_ms), (310.0, 100.0));
    assert_eq!(
        (c.critical_path.a.clone(), c.critical_path.b.clone()),
        (vec!["x".into(), "y".into()], vec!["x".into(), "y".into()])
    );
    // y2 is y: it waits for x and nothing else is left to match.
    assert_eq!((c.matched, c.matched_by_structure, c.only_a, c.only_b), (3, 1, 0, 1));
    let y = task(&c, "y");
    assert_eq!((y.status, y.delta_ms, y.on_path, y.wall_effect_ms, y.rank), ("changed", 100.0, "both", 100.0, Some(1)));
    assert_eq!(y.b_key.as_deref(), Some("y2"));
    // A cache hit is a status change, not a speed-up.
    let z = task(&c, "z");
    assert_eq!(
        (z.status, z.a_outcome.as_deref(), z.b_outcome.as_deref()),
        ("status-changed", Some("executed"), Some("cached"))
    );
    assert_eq!(task(&c, "w").status, "only-b");
    assert_eq!(task(&c, "x").status, "within-noise");
    assert_eq!(task(&c, "x").rank, None);
    assert_eq!(c.matched_totals_ms.delta, 100.0);
}

/// A: a 0–100, b 100–200 after a, c 0–20 (slack 180). B: c takes 0–300 and
/// b waits for it too: c is newly critical, and the path moved from a to c.
#[test]
fn a_task_whose_slack_fell_to_zero_is_newly_critical() {
    let (ma, ka) = model(&[("a", 0, 100, &[], false), ("b", 100, 200, &[0], false), ("c", 0, 20, &[], false)]);
    let (mb, kb) = model(&[("a", 0, 100, &[], false), ("b", 300, 400, &[0, 2], false), ("c", 0, 300, &[], false)]);
    let c = compare(&[run(&ma, &ka)], &[run(&mb, &kb)], &Options::default()).unwrap();
    assert_eq!(c.critical_path.b, ["c", "b"]);
    let steps: Vec<(&str, &str, bool)> =
        c.critical_path.aligned.iter().map(|s| (s.key.as_str(), s.on, s.newly_critical)).collect();
    assert_eq!(steps, [("a", "a", false), ("c", "b", true), ("b", "both", false)]);
    // +200 = c entered (300) − a left (100); b the same; no waiting.
    let a = &c.attribution;
    assert_eq!((a.shared_path_ms, a.path_changes_ms, a.waiting_ms), (0.0, 200.0, 0.0));
    assert_eq!(c.tasks[0].key, "c");
    assert_eq!(c.tasks[0].wall_effect_ms, 300.0);
}

/// Thresholds: 10 ms and 5 % by default here; a 4 ms change of a 10 ms task
/// (40 %) is under the absolute one, a 20 ms change of a 1 s task (2 %)
/// under the relative one.
#[test]
fn a_change_counts_only_past_both_thresholds() {
    let (ma, ka) = model(&[("small", 0, 10, &[], false), ("big", 0, 1000, &[], false), ("both", 0, 100, &[], false)]);
    let (mb, kb) = model(&[("small", 0, 14, &[], false), ("big", 0, 1020, &[], false), ("both", 0, 130, &[], false)]);
    let opts = Options::default().with_min_delta(Some(10_000_000));
    let c = compare(&[run(&ma, &ka)], &[run(&mb, &kb)], &opts).unwrap();
    let status = |k: &str| task(&c, k).status;
    assert_eq!((status("small"), status("big"), status("both")), ("within-noise", "within-noise", "changed"));
    assert_eq!(c.noise.min_delta_ms, 10.0);
}

/// Repeated tasks of one key (a pool's slices, a probe's calls) are one
/// group: their times summed, their number counted; and a key in A only is
/// `only-a`, its delta its whole time taken away, with no wall effect off the path.
#[test]
fn repeated_tasks_are_one_group_with_a_count() {
    let (ma, ka) = model(&[
        ("x", 0, 10, &[], false),
        ("x", 10, 30, &[], false),
        ("x", 30, 60, &[], false),
        ("gone", 0, 5, &[], false),
    ]);
    let (mb, kb) = model(&[("x", 0, 40, &[], false), ("x", 40, 100, &[], false)]);
    let c = compare(&[run(&ma, &ka)], &[run(&mb, &kb)], &Options::default()).unwrap();
    let x = task(&c, "x");
    assert_eq!((x.a_ms, x.b_ms, x.a_count, x.b_count), (Some(60.0), Some(100.0), 3.0, 2.0));
    let gone = task(&c, "gone");
    assert_eq!((gone.status, gone.delta_ms, gone.on_path, gone.wall_effect_ms), ("only-a", -5.0, "none", 0.0));
    assert_eq!((c.matched, c.only_a, c.only_b), (1, 1, 0));
    assert_eq!(c.matched_totals_ms.delta, 40.0);
}

/// A run's chain steps to the dependency that became available last,
/// which need not be the one without slack. A: s 0–10; p 50–200 after s
/// (idle 40 ms, so available at 160); q 0–190; r 200–300 after p and q.
/// The chain is q, r (q available at 190, after p's 160), yet q has 10 ms
/// of slack (r could have started at 200 with q ending there). B: q takes
/// 200 ms, its slack falls to zero, and it is on B's chain too.
///
/// By hand: q is on both paths, so it did not become critical: it never
/// counts as newly critical, though its slack fell from 10 ms to 0 (past
/// the default threshold of 0.3 ms).
#[test]
fn a_task_on_as_path_is_never_newly_critical_in_b() {
    let a_tasks: [Spec<'_>; 4] = [
        ("s", 0, 10, &[], false),
        ("p", 50, 200, &[0], false),
        ("q", 0, 190, &[], false),
        ("r", 200, 300, &[1, 2], false),
    ];
    let mut b_tasks = a_tasks;
    b_tasks[2] = ("q", 0, 200, &[], false);
    let ((ma, ka), (mb, kb)) = (model(&a_tasks), model(&b_tasks));
    let (ra, rb) = (run(&ma, &ka), run(&mb, &kb));
    // The case is the one that went wrong: slack in A past the threshold, none in B.
    let (da, db) = (super::digest::Digest::of(&ra), super::digest::Digest::of(&rb));
    assert_eq!((da.group("q").unwrap().slack, db.group("q").unwrap().slack), (10_000_000, 0));
    let c = compare(&[ra], &[rb], &Options::default()).unwrap();
    assert_eq!(c.noise.min_delta_ms, 0.3);
    assert_eq!(c.critical_path.a, ["q", "r"]);
    assert_eq!(c.critical_path.b, ["q", "r"]);
    let q = task(&c, "q");
    assert_eq!((q.on_path, q.newly_critical, q.delta_ms), ("both", false, 10.0));
    assert!(c.critical_path.aligned.iter().all(|s| !s.newly_critical));
}
