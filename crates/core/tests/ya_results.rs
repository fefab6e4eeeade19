//! ya's own results on the corpus logs, reproduced: the tasks with their
//! times and dependencies in ya's order, the critical path, its total and
//! the wall time, dumped as ya's state is in `*.ya-result.txt`.
//!
//! The build graph is the one the corpus README gives (A and B compile,
//! C links them), as `tests/fixtures/corpus-distbuild-graph.json`.

use longpole_core::analysis::critical_path::ya_path;
use longpole_core::ingest::read_bytes;
use longpole_core::model::{Model, Role, TaskId, NANOS_PER_MS};
use std::path::PathBuf;

use support::data as corpus;

mod support;

fn class(role: Role) -> &'static str {
    match role {
        Role::Work => "RunTask",
        Role::Transfer => "CopyTask",
        Role::Setup => "PrepareTask",
        Role::Phase => "Stage",
    }
}

fn ms(t: Option<i64>) -> String {
    t.map_or("?".to_owned(), |t| (t / NANOS_PER_MS).to_string())
}

/// The model as ya dumps its state: `Class uid host start end duration [deps]`.
fn ya_state(model: &Model) -> String {
    let line = |id: TaskId| {
        let t = model.task(id);
        format!(
            "{} {} {} {} {} {}",
            class(t.role),
            model.uid(id),
            model.lanes()[t.lane.index()].name,
            ms(t.start.get()),
            ms(t.end.get()),
            ms(t.duration())
        )
    };
    let mut out = String::new();
    // ya lists prepare tasks, then copies, then run tasks, each in model order.
    let rank = |r: Role| match r {
        Role::Setup => 0,
        Role::Transfer => 1,
        Role::Work => 2,
        Role::Phase => 3,
    };
    let mut order: Vec<TaskId> = (0..model.tasks().len() as u32).map(TaskId).collect();
    order.sort_by_key(|&t| (rank(model.task(t).role), t));
    for id in order {
        let deps: Vec<String> =
            model.deps(id).iter().map(|&d| format!("'{}@{}'", model.uid(d), class(model.task(d).role))).collect();
        out += &format!("{} [{}]\n", line(id), deps.join(", "));
    }
    let (path, cycles) = ya_path(model);
    assert!(cycles.is_empty());
    out += &format!("critical_time {}\n", path.total / NANOS_PER_MS);
    for &t in &path.tasks {
        out += &format!("   {}\n", line(t));
    }
    out += &format!("total_time_elapsed {}\n", model.wall().unwrap() / NANOS_PER_MS);
    out
}

fn check(log: &str, expected: &str, deviations: &[(&str, &str)]) {
    let graph =
        std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/corpus-distbuild-graph.json"))
            .unwrap();
    let log_bytes = std::fs::read(corpus(log)).unwrap();
    for chunk in [1, 7, 4096, usize::MAX] {
        let inputs =
            vec![read_bytes(log, &log_bytes, chunk).unwrap(), read_bytes("graph.json", &graph, chunk).unwrap()];
        let analysis = longpole_core::reconcile(inputs);
        let ours = ya_state(&analysis.datasets[0].model);
        let mut want: String = std::fs::read_to_string(corpus(expected))
            .unwrap()
            .lines()
            .filter(|l| {
                ["PrepareTask", "CopyTask", "RunTask", "critical_time", "   ", "total_time"]
                    .iter()
                    .any(|p| l.starts_with(p))
            })
            .map(|l| format!("{l}\n"))
            .collect();
        for (ya, longpole) in deviations {
            assert!(want.contains(ya), "{expected} has {ya}");
            want = want.replace(ya, longpole);
        }
        assert_eq!(ours, want, "{log} at chunk size {chunk}");
    }
}

#[test]
fn example_log_gives_yas_result() {
    check("distbuild/example.log", "distbuild/example.ya-result.txt", &[]);
}

#[test]
fn edge_log_gives_yas_result_but_for_the_missing_prepare_start() {
    // ya starts worker 9's prepare task at 0; longpole reports the start as unknown.
    check(
        "distbuild/edge.log",
        "distbuild/edge.ya-result.txt",
        &[("resources worker-9 0 1400 1400 []", "resources worker-9 ? 1400 ? []")],
    );
}
