//! evobench logs of the corpus through the whole pipeline: the evaluator's
//! real-time statistics matched row for row and field for field, the
//! report (text and JSON) and the model snapshotted and the same at every
//! chunk size, and the flame graph, the exports and the several-runs level.

use longpole_core::formats::evobench::analysis::{summary, Field, FlameGraph, PathMode, Table};
use longpole_core::formats::evobench::reconcile::EvobenchRun;
use longpole_core::formats::evobench::TimingKind;
use longpole_core::ingest::read_bytes;
use longpole_core::report::{analysis_json, analysis_text};
use serde_json::Value;
use support::{check_format, check_inputs, named};

mod support;

const OLD: &str = "bench-v1-sum_of_fibs.log";
const CURRENT: &str = "generated-current-format/evobench.log.zstd";

fn table(rel: &str) -> Table {
    let input = read_bytes("unknown", &support::bytes(&format!("evobench/{rel}")), 4096).unwrap();
    assert_eq!(input.info.format, longpole_core::formats::evobench::ID);
    let Some(log) = input.parsed.read::<longpole_core::formats::evobench::Log>() else { panic!("{rel}") };
    Table::of(log)
}

#[test]
fn real_time_matches_the_evaluator_exactly() {
    for (log, reference) in [(OLD, "bench-v1-sum_of_fibs.log"), (CURRENT, "evobench.log.zstd")] {
        let expected: Vec<Value> =
            serde_json::from_slice(&support::bytes(&format!("evobench/reference/{reference}.real-time.json"))).unwrap();
        let ours: Vec<Value> = table(log)
            .rows
            .iter()
            .map(|r| {
                let s = r.stats[TimingKind::Real.index()].as_ref();
                let f = |g: &dyn Fn(&longpole_core::formats::evobench::analysis::Stats) -> u64| s.map(g);
                serde_json::json!({
                    "path": r.path, "count": r.count(TimingKind::Real),
                    "sum": f(&|s| s.sum), "mean": f(&|s| s.mean), "stdev": f(&|s| s.stdev),
                    "median": f(&|s| s.median), "p90": f(&|s| s.percentile(90)), "p99": f(&|s| s.percentile(99)),
                })
            })
            .collect();
        for (i, (o, e)) in ours.iter().zip(&expected).enumerate() {
            assert_eq!(o, e, "{log}: row {i}");
        }
        assert_eq!(ours.len(), expected.len(), "{log}: rows");
    }
}

/// The text report, the JSON and the task dump of a log.
fn reports(analysis: &longpole_core::reconcile::Analysis) -> Vec<String> {
    let dump = longpole_core::dump::tasks(&analysis.datasets[0].model);
    vec![analysis_text(analysis), serde_json::to_string_pretty(&analysis_json(analysis)).unwrap(), dump]
}

/// A corpus log, read under the name `unknown`.
fn log(rel: &str) -> [support::File; 1] {
    [named("unknown", support::bytes(&format!("evobench/{rel}")))]
}

#[test]
fn old_dialect_report() {
    check_format!(log(OLD), reports => "old_text", "old_json", "old_tasks");
}

#[test]
fn current_format_report() {
    let [text, json, dump]: [String; 3] = check_inputs(&log(CURRENT), 1, reports).try_into().unwrap();
    insta::assert_snapshot!("current_text", text);
    insta::assert_snapshot!("current_json", json);
    let lines: Vec<&str> = dump.lines().collect();
    let head = [&lines[..100], &lines[lines.len() - 1..]].concat().join("\n");
    insta::assert_snapshot!("current_tasks_head", head);
}

#[test]
fn every_closed_scope_is_a_task_on_its_thread_lane() {
    let analysis =
        longpole_core::reconcile(vec![read_bytes("l", &support::bytes(&format!("evobench/{CURRENT}")), 4096).unwrap()]);
    let d = &analysis.datasets[0];
    let m = &d.model;
    assert_eq!(m.lanes().iter().map(|l| l.name.as_str()).collect::<Vec<_>>(), ["thread00"]);
    // 6220 TS/TE pairs, the thread scope and the process scope.
    assert_eq!(m.tasks().len(), 6222);
    let Some(run) = d.detail::<EvobenchRun>() else { panic!() };
    assert_eq!(run.log.records, [40, 1, 0, 6220, 6220, 1, 1, 1, 370]);
    assert!(run.log.ended && !run.log.old_dialect);
}

#[test]
fn the_flame_graph_has_self_times_and_a_hottest_path() {
    let analysis =
        longpole_core::reconcile(vec![read_bytes("l", &support::bytes(&format!("evobench/{CURRENT}")), 4096).unwrap()]);
    let Some(run) = analysis.datasets[0].detail::<EvobenchRun>() else { panic!() };
    let g: FlameGraph = run.flame();
    let real = TimingKind::Real.index();
    let hot: Vec<&str> =
        g.hottest_path(TimingKind::Real.index()).iter().map(|&n| g.nodes[n as usize].name.as_str()).collect();
    assert_eq!(hot[..4], ["all", "thread", "main|main", "sum_of_fibs|all"]);
    for n in &g.nodes {
        let children: u64 = n.children.iter().filter_map(|&c| g.nodes[c as usize].total[real]).sum();
        if let (Some(t), Some(s)) = (n.total[real], n.self_time[real]) {
            assert_eq!(s, t.saturating_sub(children), "{}", n.path);
        }
    }
    let folded = longpole_core::export::flame::folded(&g, TimingKind::Real.index());
    insta::assert_snapshot!("current_folded_real", folded);
}

#[test]
fn several_runs_summarise() {
    let (old, current) = (table(OLD), table(CURRENT));
    let tables = [&old, &current, &old, &current];
    let rows = summary(&tables, Field::Mean);
    // Only paths both programs have; no KeyValue rows.
    let paths: Vec<&str> = rows.iter().filter(|r| r.mode == PathMode::Probe).map(|r| r.path.as_str()).collect();
    assert_eq!(paths, ["-", "main|fib", "main|main"]);
    assert!(rows.iter().all(|r| !r.path.contains('=')));
    let main = rows.iter().find(|r| r.path == "main|main").unwrap();
    let s = main.stats[0].as_ref().unwrap();
    assert_eq!((s.count, s.percentile(0), s.percentile(100)), (4, 1_095_123_663, 10_398_060_212));
}
