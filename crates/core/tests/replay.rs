//! The replay's invariants (issue 36), as property tests over simulated
//! distbuild builds and over the runs with dependencies kept in
//! the repository's test data (the hand-made distbuild logs of
//! `tests/data/`, real CMake and Meson ninja builds of `fixtures/`):
//!
//! - **identity**: replayed unchanged, every task starts and ends where
//!   the log says, and the wall time is `analyze`'s;
//! - **monotone**: shortening tasks never lengthens the run;
//! - **slack**: lengthening a task by up to its slack leaves the wall
//!   time as it was, and by more lengthens it by exactly the excess;
//! - **drag**: a task's drag is what a full replay without it saves, from
//!   0 to its duration, and 0 where it has slack;
//! - **swap** and **same walls**: A against B and B against A give
//!   opposite changes, and a comparison's wall times are `analyze`'s.

mod support;

use longpole_core::analysis::drag::Drags;
use longpole_core::analysis::replay::Replay;
use longpole_core::analysis::replay_change::Player;
use longpole_core::analysis::slack::replay_slack;
use longpole_core::compare::result::Comparison;
use longpole_core::compare::{compare, Options};
use longpole_core::ingest::read_bytes;
use longpole_core::model::{Nanos, TaskId};
use longpole_core::report::analysis_json;
use longpole_core::report::compare::{keys_of, runs_of};
use longpole_core::Analysis;
use longpole_distbuild_sim::{graph, renamed, simulate, write_graph_json, Config, Rerun};
use proptest::prelude::*;
use std::path::PathBuf;

/// A simulated build of `nodes` nodes on `hosts` hosts, run with `rerun`
/// (`rename`: the uids renamed, as another graph.json of the same build).
fn simulated(nodes: usize, hosts: usize, seed: u64, rerun: Rerun, rename: bool) -> Analysis {
    let cfg = Config { nodes, hosts, seed, rerun: Some(rerun), ..Config::default() };
    let g = graph(&cfg);
    let g = if rename { renamed(&g, seed) } else { g };
    let (mut log, mut graph_json) = (Vec::new(), Vec::new());
    simulate(&cfg, &g, &mut log).unwrap();
    write_graph_json(&g, &mut graph_json).unwrap();
    let inputs = vec![
        read_bytes("build.log", &log, usize::MAX).unwrap(),
        read_bytes("graph.json", &graph_json, usize::MAX).unwrap(),
    ];
    longpole_core::reconcile(inputs)
}

/// A file of `tests/fixtures/`, or of the repository's test data
/// (`tests/data/`) for a path under `data/`.
fn fixture(rel: &str) -> Vec<u8> {
    match rel.strip_prefix("data/") {
        Some(rel) => support::bytes(rel),
        None => std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(rel)).unwrap(),
    }
}

/// The runs with dependencies kept in `fixtures/`.
fn fixtures() -> Vec<(&'static str, Analysis)> {
    let read = |files: &[(&str, &str)]| {
        longpole_core::reconcile(
            files.iter().map(|(name, rel)| read_bytes(name, &fixture(rel), 4096).unwrap()).collect(),
        )
    };
    let graph = ("graph.json", "corpus-distbuild-graph.json");
    let ninja = |dir: &str| -> Vec<(String, String)> {
        [".ninja_log", "build.ninja", ".ninja_deps"]
            .iter()
            .map(|f| (f.to_string(), format!("ninja/{dir}/{f}")))
            .collect()
    };
    let owned = |v: &[(String, String)]| read(&v.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect::<Vec<_>>());
    let mut cmake = ninja("cmake-chain");
    cmake.push(("rules.ninja".into(), "ninja/cmake-chain/rules.ninja".into()));
    vec![
        ("distbuild example", read(&[("example.log", "data/distbuild/example.log"), graph])),
        ("distbuild edge", read(&[("edge.log", "data/distbuild/edge.log"), graph])),
        ("cmake", owned(&cmake)),
        ("meson", owned(&ninja("meson-chain"))),
    ]
}

/// The replay of `a`'s first dataset, all of its tasks.
fn replay_of(a: &Analysis) -> Replay {
    let d = &a.datasets[0];
    let all: Vec<TaskId> = (0..d.model.tasks().len() as u32).map(TaskId).collect();
    Replay::of_run(&d.model, &all)
}

/// Identity: against the log's own times and `analyze`'s wall time.
fn check_identity(a: &Analysis, at: &str) {
    let r = replay_of(a);
    assert!(r.has_deps(), "{at}: no dependencies");
    let m = &a.datasets[0].model;
    let ends = r.ends(r.durations());
    let starts = r.starts(&ends, r.durations());
    for p in 0..r.len() {
        let t = m.task(r.task(p));
        assert_eq!((Some(starts[p]), Some(ends[p])), (t.start.get(), t.end.get()), "{at}: {}", m.label(r.task(p)));
    }
    let wall_ms = analysis_json(a)["wall_ms"].as_f64().unwrap();
    assert_eq!(r.wall(&ends) as f64 / 1e6, wall_ms, "{at}");
}

/// Monotone, slack and drag at the positions `picks` chooses.
fn check_changes(r: &Replay, picks: &[(usize, u64)], at: &str) {
    let base = r.ends(r.durations());
    let wall = r.wall(&base);
    let slack = replay_slack(r, r.durations(), &base);
    // Monotone: shortening all picked tasks at once never lengthens the run.
    let mut shorter = r.durations().to_vec();
    for &(p, cut) in picks {
        let p = p % r.len();
        shorter[p] -= (cut as Nanos) % (shorter[p] + 1);
    }
    assert!(r.wall(&r.ends(&shorter)) <= wall, "{at}: shortened, the run got longer");
    // Several changes played at once, only what moves, are a full replay's,
    // shorter and longer; and the run comes back after them.
    let mut player = Player::new(r, &base);
    let at_once = |durations: &[Nanos]| -> Vec<(usize, Nanos)> {
        picks.iter().map(|&(p, _)| (p % r.len(), durations[p % r.len()])).collect()
    };
    assert_eq!(player.play_all(&at_once(&shorter)), r.wall(&r.ends(&shorter)), "{at}: shorter, at once");
    let longer: Vec<Nanos> = r.durations().iter().map(|&d| d + 1 + d / 3).collect();
    assert_eq!(
        player.play_all(&at_once(&longer)),
        r.wall(&r.ends(&{
            let mut some = r.durations().to_vec();
            picks.iter().for_each(|&(p, _)| some[p % r.len()] = longer[p % r.len()]);
            some
        })),
        "{at}: longer, at once"
    );
    assert_eq!(player.play_all(&[]), wall, "{at}: put back");
    let drags = Drags::new(r);
    for &(p, extra) in picks {
        let p = p % r.len();
        // Slack: up to it, no change; past it, the excess.
        let s = slack[p];
        assert!(s >= 0, "{at}: negative slack");
        let mut longer = r.durations().to_vec();
        longer[p] += s.min(extra as Nanos);
        assert_eq!(r.wall(&r.ends(&longer)), wall, "{at}: lengthened within its slack {s}");
        longer[p] = r.duration(p) + s + 1 + (extra % 1000) as Nanos;
        assert_eq!(r.wall(&r.ends(&longer)), wall + 1 + (extra % 1000) as Nanos, "{at}: lengthened past its slack");
        // Drag: a full replay without the task.
        let mut zero = r.durations().to_vec();
        zero[p] = 0;
        let lever = drags.lever(p);
        assert_eq!(lever.drag, wall - r.wall(&r.ends(&zero)), "{at}: drag");
        if s == 0 && r.duration(p) > 0 {
            // The next pole is off the old path and on a path of the run
            // without the task (no slack there); halving saves what a full
            // replay says.
            if let Some(next) = lever.next_pole {
                let q = (0..r.len()).find(|&q| r.task(q) == next).unwrap();
                assert!(!drags.path().contains(&q), "{at}: next pole on the old path");
                assert_eq!(replay_slack(r, &zero, &r.ends(&zero))[q], 0, "{at}: next pole with slack");
            }
            let mut half = r.durations().to_vec();
            half[p] = r.duration(p) / 2;
            assert_eq!(lever.saved_if_halved, wall - r.wall(&r.ends(&half)), "{at}: saved if halved");
        }
        assert!((0..=r.duration(p)).contains(&lever.drag), "{at}: drag {}", lever.drag);
        assert!(lever.saved_if_halved <= lever.drag && lever.saved_if_halved >= 0, "{at}");
        if s > 0 {
            assert_eq!(lever.drag, 0, "{at}: drag with slack");
        }
    }
    // On the path, no slack; every path task's drag and saving if halved
    // (worked out from the chains around it) are those of full replays.
    assert!(drags.path().iter().all(|&p| slack[p] == 0), "{at}: slack on the path");
    for &p in drags.path() {
        let lever = drags.lever(p);
        let without = |d: Nanos| {
            let mut changed = r.durations().to_vec();
            changed[p] = d;
            wall - r.wall(&r.ends(&changed))
        };
        assert_eq!(
            (lever.drag, lever.saved_if_halved),
            (without(0), without(r.duration(p) / 2)),
            "{at}: path task {p}"
        );
    }
}

fn compared(a: &Analysis, b: &Analysis) -> Comparison {
    let (ka, kb) = (keys_of(a), keys_of(b));
    let (ra, rb) = (runs_of(a, &ka, &|_| None).unwrap(), runs_of(b, &kb, &|_| None).unwrap());
    compare(&ra, &rb, &Options::default()).unwrap()
}

#[test]
fn every_fixture_replays_itself_and_keeps_the_invariants() {
    for (at, a) in fixtures() {
        check_identity(&a, at);
        let r = replay_of(&a);
        let picks: Vec<(usize, u64)> = (0..r.len()).map(|p| (p, 37 + p as u64 * 1_000_003)).collect();
        check_changes(&r, &picks, at);
        // The what-if of a run against itself is the run.
        let c = compared(&a, &a);
        assert_eq!(c.attribution.what_if_wall_ms, c.wall_ms.a, "{at}");
        assert_eq!(Some(c.wall_ms.a), analysis_json(&a)["wall_ms"].as_f64(), "{at}");
    }
}

/// The measurement of issue 36: B is A with one path task 5x slower (its
/// uids renamed). B replayed with A's durations must come back to about
/// A's wall time, not stay at B's: the copies made for a task wait for the
/// task's other dependencies, as they did in the run, and so move with them.
#[test]
fn a_build_with_a_path_task_slowed_replays_back_to_its_own_wall() {
    let (nodes, hosts, seed) = (3000, 24, 1);
    let same = Rerun { seed: 7, jitter: 0.0, slow: vec![] };
    let a = simulated(nodes, hosts, seed, same.clone(), false);
    // A's longest run task on its path, as a node of the build graph.
    let path = analysis_json(&a)["critical_path"]["tasks"].as_array().unwrap().clone();
    let longest =
        path.iter().filter(|t| t["kind"] == "run").max_by_key(|t| t["duration_ms"].as_i64().unwrap()).unwrap();
    let g = graph(&Config { nodes, hosts, seed, ..Config::default() });
    let node = g.iter().position(|n| n.uid == longest["uid"].as_str().unwrap()).unwrap();
    let b = simulated(nodes, hosts, seed, Rerun { slow: vec![(node, 5.0)], ..same }, true);
    let (ab, ba) = (compared(&a, &b), compared(&b, &a));
    let slowed = 4.0 * longest["duration_ms"].as_f64().unwrap();
    assert!(ab.wall_ms.b - ab.wall_ms.a > slowed / 2.0, "the slowed task moved B's wall: {:?}", ab.wall_ms);
    let back = ab.attribution.what_if_wall_ms;
    assert!(
        (back - ab.wall_ms.a).abs() < 0.02 * ab.wall_ms.a,
        "B with A's durations: {back} ms, A: {} ms",
        ab.wall_ms.a
    );
    // And the other way round: A with B's durations takes about B's wall.
    let forth = ba.attribution.what_if_wall_ms;
    assert!(
        (forth - ab.wall_ms.b).abs() < 0.02 * ab.wall_ms.b,
        "A with B's durations: {forth} ms, B: {} ms",
        ab.wall_ms.b
    );
    // The slowed key leads the table, and going back saves about B's loss.
    let top = &ab.tasks[0];
    let saving = top.saving_if_back_ms.unwrap();
    assert!((saving - ab.wall_ms.delta).abs() < 0.02 * ab.wall_ms.b, "{}: saving if back {saving} ms", top.key);
    // Unchanged, a run replays itself exactly.
    assert_eq!(compared(&a, &a).attribution.what_if_wall_ms, ab.wall_ms.a);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn simulated_builds_replay_themselves_and_keep_the_invariants(
        seed in 1u64..1_000,
        nodes in 40usize..400,
        hosts in 1usize..12,
        picks in proptest::collection::vec((0usize..10_000, 0u64..5_000_000_000), 1..6),
    ) {
        let a = simulated(nodes, hosts, seed, Rerun { seed: seed + 1, jitter: 0.01, slow: vec![] }, false);
        let at = format!("seed {seed}, {nodes} nodes, {hosts} hosts");
        check_identity(&a, &at);
        check_changes(&replay_of(&a), &picks, &at);
    }

    #[test]
    fn comparisons_swap_and_keep_analyze_s_walls(seed in 1u64..1_000, nodes in 40usize..300, slow in 0usize..40) {
        let a = simulated(nodes, 4, seed, Rerun { seed: seed + 1, jitter: 0.01, slow: vec![] }, false);
        let b = simulated(nodes, 4, seed, Rerun { seed: seed + 2, jitter: 0.01, slow: vec![(slow % nodes, 5.0)] }, true);
        let (ab, ba) = (compared(&a, &b), compared(&b, &a));
        let wall = |x: &Analysis| analysis_json(x)["wall_ms"].as_f64();
        prop_assert_eq!((Some(ab.wall_ms.a), Some(ab.wall_ms.b)), (wall(&a), wall(&b)));
        prop_assert_eq!((ba.wall_ms.a, ba.wall_ms.b), (ab.wall_ms.b, ab.wall_ms.a));
        let (x, y) = (&ab.attribution, &ba.attribution);
        prop_assert_eq!(ab.wall_ms.delta, -ba.wall_ms.delta);
        prop_assert!((x.shared_path_ms + y.shared_path_ms).abs() < 1e-6);
        prop_assert!((x.path_changes_ms + y.path_changes_ms).abs() < 1e-6);
        prop_assert!((x.waiting_ms + y.waiting_ms).abs() < 1e-6);
        // A key of one task a side that got slower saves, going back, at
        // least nothing and at most what it lost (a shorter task never
        // lengthens the run, nor moves it by more than it shrank).
        for t in ab.tasks.iter().filter(|t| t.a_count == 1.0 && t.b_count == 1.0 && t.delta_ms > 0.0) {
            if let Some(saved) = t.saving_if_back_ms {
                prop_assert!(saved >= 0.0 && saved <= t.delta_ms + 1e-6, "{}: {} of {}", t.key, saved, t.delta_ms);
            }
        }
        // Against itself, the what-if is the run, to the nanosecond.
        prop_assert_eq!(compared(&a, &a).attribution.what_if_wall_ms, ab.wall_ms.a);
    }
}
