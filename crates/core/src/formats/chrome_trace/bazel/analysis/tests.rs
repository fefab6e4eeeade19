//! The summary and suggestions on a hand-written profile with workers,
//! remote caching and execution, major collections and merged events —
//! what the corpus profiles do not show. Every figure below is read off the
//! events.

use super::suggest::suggestions;
use super::summary::summary;
use crate::formats::chrome_trace::reconcile::ChromeRun;
use crate::ingest::read_bytes;

const PROFILE: &str = r#"{"traceEvents":[
{"name":"thread_name","ph":"M","pid":1,"tid":0,"args":{"name":"Critical Path"}},
{"name":"thread_name","ph":"M","pid":1,"tid":5,"args":{"name":"skyframe-evaluator 0"}},
{"name":"thread_name","ph":"M","pid":1,"tid":6,"args":{"name":"skyframe-evaluator 1"}},
{"name":"thread_name","ph":"M","pid":1,"tid":11,"args":{"name":"Garbage Collector"}},
{"cat":"build phase marker","name":"Launch Blaze","ph":"X","ts":-1000,"dur":1000,"pid":1,"tid":7},
{"cat":"build phase marker","name":"Initialize command","ph":"i","ts":0,"pid":1,"tid":7},
{"cat":"build phase marker","name":"Build artifacts","ph":"i","ts":1000,"pid":1,"tid":7},
{"cat":"action processing","name":"A","ph":"X","ts":1000,"dur":9999000,"pid":1,"tid":5,"args":{"mnemonic":"CppCompile"}},
{"cat":"borrowing a worker","name":"worker","ph":"X","ts":1000,"dur":2000000,"pid":1,"tid":5},
{"cat":"remote action cache check","name":"check","ph":"X","ts":2001000,"dur":100000,"pid":1,"tid":5},
{"cat":"Remote execution queuing time","name":"queue","ph":"X","ts":3000000,"dur":1000000,"pid":1,"tid":5},
{"cat":"action processing","name":"B","ph":"X","ts":1000,"dur":29999000,"pid":1,"tid":6,"args":{"mnemonic":"Javac"}},
{"cat":"general information","name":"merged 5 events","ph":"X","ts":20000000,"dur":10,"pid":1,"tid":6},
{"cat":"general information","name":"subprocess.run","ph":"X","ts":21000000,"dur":3000000,"pid":1,"tid":6},
{"cat":"gc notification","name":"major GC","ph":"X","ts":5000000,"dur":4000000,"pid":1,"tid":11},
{"cat":"critical path component","name":"action 'A'","ph":"X","ts":1000,"dur":9999000,"pid":1,"tid":0},
{"cat":"build phase marker","name":"Complete build","ph":"i","ts":40000000,"pid":1,"tid":7}
]}"#;

#[test]
fn workers_remote_work_collections_and_suggestions() {
    let analysis = crate::reconcile::reconcile(vec![read_bytes("p", PROFILE.as_bytes(), 4096).unwrap()]);
    let d = &analysis.datasets[0];
    let Some(run) = d.detail::<ChromeRun>() else { panic!() };
    let s = summary(&d.model, run.bazel.as_ref().unwrap());
    let s_ = 1_000_000_000;
    assert_eq!(s.total, 40_001_000_000);
    assert_eq!(s.execution, Some(39_999_000_000));
    assert_eq!(s.critical_path, 9_999_000_000);
    let rows: Vec<(&str, &str, u64, i64, i64)> =
        s.activities.iter().map(|r| (r.group.as_str(), r.what.as_str(), r.count, r.total, r.on_path)).collect();
    assert_eq!(
        rows,
        [
            ("workers", "borrowing a worker", 1, 2 * s_, 2 * s_),
            ("local execution", "subprocess.run", 1, 3 * s_, 0),
            ("remote cache", "remote action cache check", 1, s_ / 10, s_ / 10),
            ("remote execution", "Remote execution queuing time", 1, s_, s_),
        ]
    );
    assert_eq!((s.gc.count, s.gc.major_count, s.gc.major_total, s.gc.on_path), (1, 1, 4 * s_, 4 * s_));
    let mnemonics: Vec<(&str, u64, u64)> =
        s.mnemonics.iter().map(|r| (r.mnemonic.as_str(), r.count, r.on_path)).collect();
    assert_eq!(mnemonics, [("Javac", 1, 0), ("CppCompile", 1, 1)]);
    assert_eq!((s.cores.used, s.most_running, s.merged_events), (Some(2), 2, 1));
    // A checked the cache and downloaded nothing: a miss; B (30 s) ran
    // locally without a check.
    assert_eq!((s.caching.checked, s.caching.misses, s.caching.unchecked), (1, 1, 1));
    assert!(s.remote_execution && s.remote_cache);
    let ids: Vec<String> = suggestions(&d.model, &s).into_iter().map(|x| x.id).collect();
    assert_eq!(
        ids,
        [
            "IncreaseValueOfJobsFlag",
            "IncreaseJavaHeapSize",
            "UseSkymeld",
            "InvestigateRemoteCacheMisses",
            "NoCacheActions",
            "IncreaseRemoteExecutionClusterSize",
            "LocalActionsWithRemoteExecution",
            "BuildWithoutTheBytes",
            "DisableMergedEvents"
        ]
    );
}
