//! The distbuild reader against the simulator's true schedule: every run
//! task, copy and prepare phase of simulated builds, reconciled from lines in
//! shuffled order, at any chunk size, as tasks of the model.

use longpole_core::ingest::read_bytes;
use longpole_core::model::{Model, Role, TaskId, NANOS_PER_MS};
use longpole_distbuild_sim::{graph, simulate, Config, TrueCopy, TruePrepare, TrueRun, Truth};

fn simulated(cfg: &Config) -> (Vec<u8>, Truth) {
    let nodes = graph(cfg);
    let mut log = Vec::new();
    let truth = simulate(cfg, &nodes, &mut log).unwrap();
    (log, truth)
}

fn read(log: &[u8], chunk: usize) -> (Model, u64) {
    let input = read_bytes("sim.log", log, chunk).unwrap();
    let diagnostics = input.info.diagnostics.total();
    (longpole_core::reconcile(vec![input]).datasets.remove(0).model, diagnostics)
}

fn ms(t: Option<i64>) -> i64 {
    t.unwrap() / NANOS_PER_MS
}

fn check(cfg: &Config, chunks: &[usize]) {
    let (log, truth) = simulated(cfg);
    for &chunk in chunks {
        let (m, diagnostics) = read(&log, chunk);
        assert_eq!(diagnostics, 0, "a clean simulated log has no diagnostics");
        assert_eq!(m.window().map(|(a, b)| (a / NANOS_PER_MS, b / NANOS_PER_MS)), Some(truth.window));
        let ids = || (0..m.tasks().len() as u32).map(TaskId);
        let lane = |t: TaskId| m.lanes()[m.task(t).lane.index()].name.clone();
        let mut runs: Vec<TrueRun> = ids()
            .filter(|&t| m.task(t).role == Role::Work)
            .map(|t| TrueRun {
                uid: m.uid(t).to_owned(),
                host: lane(t),
                start: ms(m.task(t).start.get()),
                end: ms(m.task(t).end.get()),
                cached: m.task(t).cached,
                failed: m.task(t).failed,
            })
            .collect();
        runs.sort_by(|a, b| a.uid.cmp(&b.uid));
        let mut want = truth.runs.clone();
        want.sort_by(|a, b| a.uid.cmp(&b.uid));
        assert_eq!(runs, want, "run tasks (start: the later of deployed/started in the file)");
        let mut copies: Vec<TrueCopy> = ids()
            .filter(|&t| m.task(t).role == Role::Transfer)
            .map(|t| TrueCopy {
                dep_uid: m.uid(t).to_owned(),
                uid: m.str(m.target(t).unwrap()).to_owned(),
                dest: lane(t),
                origin: m.lanes()[m.origin(t).unwrap().index()].name.clone(),
                start: ms(m.task(t).start.get()),
                end: ms(m.task(t).end.get()),
                size: m.bytes(t).unwrap(),
            })
            .collect();
        copies.sort();
        let mut want = truth.copies.clone();
        want.sort();
        assert_eq!(copies, want);
        let mut prepares: Vec<TruePrepare> = ids()
            .filter(|&t| m.task(t).role == Role::Setup)
            .map(|t| TruePrepare {
                host: lane(t),
                kind: m.uid(t).to_owned(),
                start: ms(m.task(t).start.get()),
                end: ms(m.task(t).end.get()),
            })
            .collect();
        prepares.sort();
        let mut want = truth.prepares.clone();
        want.sort();
        assert_eq!(prepares, want);
    }
}

#[test]
fn small_builds_reconcile_exactly_at_every_chunk_size() {
    for seed in 1..=3 {
        let cfg = Config { nodes: 150, hosts: 6, seed, ..Config::default() };
        check(&cfg, &[1, 7, 4096, usize::MAX]);
    }
}

#[test]
fn a_larger_build_reconciles_exactly() {
    let cfg = Config { nodes: 5_000, hosts: 40, seed: 42, shuffle_ms: 2_000, ..Config::default() };
    check(&cfg, &[4096, 1 << 20]);
}
