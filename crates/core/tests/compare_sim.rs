//! Comparing two runs of one simulated build (same graph, other schedule
//! and jitter, chosen nodes slowed by a chosen factor): the slowed nodes
//! come first, the wall time's change is put on them, and a slowdown that
//! moves the critical path is seen to move it. At several seeds and sizes,
//! and with the second run's uids renamed (another graph.json of the same
//! build). What the comparison must find is what the simulator injected.

use longpole_core::compare::chain::chain;
use longpole_core::compare::digest::Digest;
use longpole_core::compare::result::Comparison;
use longpole_core::compare::{compare, Options, Run, TaskKeys};
use longpole_core::ingest::read_bytes;
use longpole_core::model::{Role, TaskId};
use longpole_core::report::compare::{keys_of, runs_of};
use longpole_core::Analysis;
use longpole_distbuild_sim::{graph, renamed, simulate, write_graph_json, Config, Node, Rerun};

/// One run of the build: its log and graph.json, read and reconciled, and
/// what the simulator says each node took, ms.
fn run(cfg: &Config, nodes: &[Node], rerun: Rerun) -> (Analysis, Vec<i64>) {
    let cfg = Config { rerun: Some(rerun), ..cfg.clone() };
    let (mut log, mut graph_json) = (Vec::new(), Vec::new());
    let truth = simulate(&cfg, nodes, &mut log).unwrap();
    write_graph_json(nodes, &mut graph_json).unwrap();
    let inputs = vec![
        read_bytes("build.log", &log, usize::MAX).unwrap(),
        read_bytes("graph.json", &graph_json, usize::MAX).unwrap(),
    ];
    (longpole_core::reconcile(inputs), truth.runs.iter().map(|r| r.end - r.start).collect())
}

fn compared(a: &Analysis, b: &Analysis) -> Comparison {
    let (ka, kb) = (keys_of(a), keys_of(b));
    let (ra, rb) = (runs_of(a, &ka, &|_| None).unwrap(), runs_of(b, &kb, &|_| None).unwrap());
    compare(&ra, &rb, &Options::default()).unwrap()
}

/// The build without cache hits or failures (a status change is not a
/// slowdown), on a slot for every node: nothing queues, so its time is its
/// dependencies' (with slots short, any change reshuffles the whole
/// schedule, and a node's slowdown is lost in the queueing).
fn config(nodes: usize, seed: u64) -> Config {
    Config { nodes, hosts: nodes / 8 + 1, slots_per_host: 8, seed, cache_hits: 0.0, failures: 0.0, ..Config::default() }
}

/// The index of the node a run task of `a` ran, by its uid.
fn node_of(nodes: &[Node], uid: &str) -> usize {
    nodes.iter().position(|n| n.uid == uid).unwrap()
}

/// The key a node has in a comparison: its type and its description.
fn key_of(a: &Analysis, uid: &str) -> String {
    let d = &a.datasets[0];
    let keys = d.kind.compare_keys(&d.model);
    let id = (0..d.model.tasks().len() as u32).map(TaskId).find(|&id| d.model.uid(id) == uid).unwrap();
    keys[id.index()].clone()
}

/// The longest run task on `a`'s path (as a comparison takes it).
fn longest_on_path(a: &Analysis) -> String {
    let m = &a.datasets[0].model;
    let id = chain(m, &|_| true)
        .iter()
        .copied()
        .filter(|&t| m.task(t).role == Role::Work)
        .max_by_key(|&t| m.task(t).duration())
        .unwrap();
    m.uid(id).to_owned()
}

#[test]
fn a_slowed_task_on_the_path_ranks_first_and_takes_the_wall_time_s_change() {
    for (nodes, seed) in [(300, 1), (300, 2), (1_500, 3), (3_000, 4)] {
        for rename in [false, true] {
            let cfg = config(nodes, seed);
            let g = graph(&cfg);
            let (a, took_a) = run(&cfg, &g, Rerun { seed: 100 + seed, jitter: 0.002, slow: vec![] });
            let slowed = node_of(&g, &longest_on_path(&a));
            let gb = if rename { renamed(&g, seed) } else { g.clone() };
            let (b, took_b) = run(&cfg, &gb, Rerun { seed: 200 + seed, jitter: 0.002, slow: vec![(slowed, 10.0)] });
            let c = compared(&a, &b);
            let key = key_of(&a, &g[slowed].uid);
            let at = format!("{nodes} nodes, seed {seed}, renamed {rename}");
            assert_eq!(c.tasks[0].key, key, "{at}: {:#?}", &c.tasks[..3]);
            assert_eq!(c.tasks[0].status, "changed", "{at}");
            assert_eq!(c.tasks[0].on_path, "both", "{at}");
            assert_eq!(c.only_a + c.only_b, 0, "{at}");
            // The slowed node's part is what the simulator made it take longer.
            let injected = (took_b[slowed] - took_a[slowed]) as f64;
            assert!((c.tasks[0].wall_effect_ms - injected).abs() < 1e-6, "{at}: {c:#?}");
            // The parts add up to the change, and the slowed node's part is
            // the change, within 1 % (the rest: the other hosts and jitter).
            let at_ = &c.attribution;
            let sum = at_.shared_path_ms + at_.path_changes_ms + at_.waiting_ms;
            assert!((sum - c.wall_ms.delta).abs() < 1e-6, "{at}: {sum} vs {}", c.wall_ms.delta);
            let effect = c.tasks[0].wall_effect_ms;
            assert!(
                (effect - c.wall_ms.delta).abs() <= 0.01 * c.wall_ms.delta.abs(),
                "{at}: the slowed node took {effect} ms of {} ms",
                c.wall_ms.delta
            );
        }
    }
}

/// The off-path run task of `a` with the most work of those with at least
/// 5 s of slack (room to end later), its uid and its slack (ms).
fn off_path(a: &Analysis) -> (String, f64) {
    let d = &a.datasets[0];
    let m = &d.model;
    let keys = d.kind.compare_keys(m);
    let all: Vec<TaskId> = (0..m.tasks().len() as u32).map(TaskId).collect();
    let task_keys = TaskKeys { keys: keys.clone(), weights: None, executions: None };
    let digest = Digest::of(&Run { name: "a".into(), model: m, tasks: all.clone(), keys: &task_keys });
    let on_path: Vec<&str> = digest.path.iter().map(|s| digest.key(s.key)).collect();
    let id = all
        .iter()
        .copied()
        .filter(|&t| m.task(t).role == Role::Work && !on_path.contains(&keys[t.index()].as_str()))
        .filter(|&t| digest.group(&keys[t.index()]).unwrap().slack >= 5_000_000_000)
        .max_by_key(|&t| m.task(t).duration())
        .unwrap();
    (m.uid(id).to_owned(), digest.group(&keys[id.index()]).unwrap().slack as f64 / 1e6)
}

#[test]
fn a_slowdown_that_moves_the_path_is_found_as_a_path_change() {
    for (nodes, seed) in [(300, 5), (1_500, 6), (3_000, 7)] {
        for rename in [false, true] {
            let cfg = config(nodes, seed);
            let g = graph(&cfg);
            let (a, took_a) = run(&cfg, &g, Rerun { seed: 100 + seed, jitter: 0.002, slow: vec![] });
            let (uid, slack) = off_path(&a);
            let slowed = node_of(&g, &uid);
            // Slowed past its slack by 20 s: it must end the build later.
            let factor = 1.0 + (slack + 20_000.0) / took_a[slowed] as f64;
            let gb = if rename { renamed(&g, seed) } else { g.clone() };
            let (b, took_b) = run(&cfg, &gb, Rerun { seed: 200 + seed, jitter: 0.002, slow: vec![(slowed, factor)] });
            let c = compared(&a, &b);
            let key = key_of(&a, &uid);
            let at = format!("{nodes} nodes, seed {seed}, renamed {rename}");
            let top = &c.tasks[0];
            assert_eq!((top.key.as_str(), top.on_path, top.newly_critical), (key.as_str(), "b", true), "{at}");
            // It entered the path with all of its time.
            assert!((top.wall_effect_ms - took_b[slowed] as f64).abs() < 1e-6, "{at}");
            let step = c.critical_path.aligned.iter().find(|s| s.key == key).unwrap();
            assert_eq!((step.on, step.newly_critical), ("b", true), "{at}");
            assert!(c.attribution.path_changes_ms > 10_000.0, "{at}: {:?}", c.attribution);
            let sum = c.attribution.shared_path_ms + c.attribution.path_changes_ms + c.attribution.waiting_ms;
            assert!((sum - c.wall_ms.delta).abs() < 1e-6, "{at}");
        }
    }
}

/// Five runs a side, B's machine 10 % slower throughout and one node 40 %
/// slower on top: the speed factor is found and divided out, the node is
/// the one significant change (Welch's test, after Benjamini–Hochberg),
/// and the rest is within noise.
#[test]
fn with_several_runs_a_side_the_speed_factor_goes_and_the_slowed_node_is_significant() {
    let cfg = config(300, 11);
    let g = graph(&cfg);
    let (first, took) = run(&cfg, &g, Rerun { seed: 1, jitter: 0.03, slow: vec![] });
    let uid = longest_on_path(&first);
    let slowed = node_of(&g, &uid);
    let key = key_of(&first, &uid);
    assert!(took[slowed] > 0);
    let everything = |f: f64| (0..g.len()).map(|i| (i, f)).collect::<Vec<_>>();
    let side_a: Vec<Analysis> =
        (0..5).map(|s| run(&cfg, &g, Rerun { seed: 10 + s, jitter: 0.03, slow: vec![] }).0).collect();
    let side_b: Vec<Analysis> = (0..5)
        .map(|s| {
            let mut slow = everything(1.1);
            slow.push((slowed, 1.4));
            run(&cfg, &g, Rerun { seed: 20 + s, jitter: 0.03, slow }).0
        })
        .collect();
    let keys = |side: &[Analysis]| side.iter().map(keys_of).collect::<Vec<_>>();
    let (ka, kb) = (keys(&side_a), keys(&side_b));
    let c = compare(&side_runs(&side_a, &ka), &side_runs(&side_b, &kb), &Options::default()).unwrap();
    assert_eq!(c.noise.mode, "tests");
    assert!((c.noise.speed_factor - 1.1).abs() < 0.01, "{}", c.noise.speed_factor);
    let changed: Vec<&str> = c.tasks.iter().filter(|t| t.status == "changed").map(|t| t.key.as_str()).collect();
    assert_eq!(changed, [key.as_str()]);
    let top = &c.tasks[0];
    assert_eq!(top.tests().test, Some("welch"));
    assert!(top.tests().q.unwrap() < 0.05);
    // The interval of the change after the speed factor holds 40 %.
    let [lo, hi] = top.tests().relative_ci.unwrap();
    assert!(lo < 0.4 && 0.4 < hi, "{lo} {hi}");
    // Most of the rest can be told unchanged: a change past the thresholds would have been found.
    let unchanged = c.tasks.iter().filter(|t| t.tests().verdict == Some("unchanged")).count();
    assert!(unchanged > c.tasks.len() / 2, "{unchanged} of {}", c.tasks.len());
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
}

/// Every run of every analysis of a side.
fn side_runs<'a>(side: &'a [Analysis], keys: &'a [Vec<TaskKeys>]) -> Vec<Run<'a>> {
    side.iter().zip(keys).flat_map(|(a, k)| runs_of(a, k, &|_| None).unwrap()).collect()
}
