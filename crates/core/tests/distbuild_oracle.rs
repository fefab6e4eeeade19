//! The distbuild reader against the simulator's true schedule: every run
//! task, copy and prepare phase of simulated builds, reconciled from lines in
//! shuffled order, at any chunk size.

use longpole_core::formats::distbuild::Log;
use longpole_core::formats::Parsed;
use longpole_core::ingest::read_bytes;
use longpole_distbuild_sim::{graph, simulate, Config, TrueCopy, TruePrepare, Truth};

fn simulated(cfg: &Config) -> (Vec<u8>, Truth) {
    let nodes = graph(cfg);
    let mut log = Vec::new();
    let truth = simulate(cfg, &nodes, &mut log).unwrap();
    (log, truth)
}

fn read(log: &[u8], chunk: usize) -> (Log, u64) {
    let input = read_bytes("sim.log", log, chunk).unwrap();
    let diagnostics = input.info.diagnostics.total();
    let Parsed::Distbuild(parsed) = input.parsed else { panic!("not read as a distbuild log") };
    (parsed, diagnostics)
}

fn check(cfg: &Config, chunks: &[usize]) {
    let (log, truth) = simulated(cfg);
    for &chunk in chunks {
        let (parsed, diagnostics) = read(&log, chunk);
        assert_eq!(diagnostics, 0, "a clean simulated log has no diagnostics");
        assert_eq!(parsed.window, Some(truth.window));
        assert_eq!(parsed.runs.len(), truth.runs.len());
        for run in &parsed.runs {
            let uid = parsed.uid(run.uid);
            let t = truth.runs.iter().find(|t| t.uid == uid).unwrap();
            assert_eq!(parsed.host(run.host), t.host, "{uid} host");
            assert_eq!(run.start, Some(t.start), "{uid} start (ya: the later of deployed/started in the file)");
            assert_eq!(run.end, Some(t.end), "{uid} end");
            assert_eq!(run.from_cache, t.cached, "{uid} cached");
            assert_eq!(parsed.failed(run), t.failed, "{uid} status");
        }
        let mut copies: Vec<TrueCopy> = parsed
            .copies
            .iter()
            .map(|c| TrueCopy {
                dep_uid: parsed.uid(c.dep_uid).to_owned(),
                uid: parsed.uid(c.uid).to_owned(),
                dest: parsed.host(c.dest_host).to_owned(),
                origin: c.origin_host.map(|h| parsed.host(h).to_owned()).unwrap_or_default(),
                start: c.start.unwrap(),
                end: c.end.unwrap(),
                size: c.size,
            })
            .collect();
        copies.sort();
        let mut want = truth.copies.clone();
        want.sort();
        assert_eq!(copies, want);
        let mut prepares: Vec<TruePrepare> = parsed
            .prepares
            .iter()
            .map(|p| TruePrepare {
                host: parsed.host(p.host).to_owned(),
                kind: p.kind.clone(),
                start: p.start.unwrap(),
                end: p.end,
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
