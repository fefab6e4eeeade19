//! A Bazel profile's slices last their own `dur`: a profile written here
//! with Bazel's real categories and span names, whose remote-execution
//! spans overlap without nesting (an `execute remotely` that starts inside
//! its `queue` and ends after it), through the model, the analyze JSON, the
//! text report, the longest slices and the exports (Chrome trace,
//! Parquet). Every expected figure is computed in this file from the raw
//! events (serde_json over the profile's text), apart from the reader.

use arrow_array::{Array, Int64Array, RecordBatch, StringArray};
use longpole_core::export::parquet::analysis_files;
use longpole_core::export::run::{export, Target};
use longpole_core::formats::chrome_trace::bazel::analysis::summary::summary;
use longpole_core::formats::chrome_trace::reconcile::ChromeRun;
use longpole_core::ingest::read_bytes;
use longpole_core::layout::timeline::TimelineIndex;
use longpole_core::report::{analysis_json, analysis_text};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde_json::Value;
use std::collections::HashMap;

/// Threads: the critical path, the main thread, evaluators 0, 1, 3
/// (execution) and 7 (analysis only).
const THREADS: &str = r#"
{"name":"thread_name","ph":"M","pid":1,"tid":0,"args":{"name":"Critical Path"}},
{"name":"thread_name","ph":"M","pid":1,"tid":2,"args":{"name":"Main Thread"}},
{"name":"thread_name","ph":"M","pid":1,"tid":10,"args":{"name":"skyframe-evaluator 0"}},
{"name":"thread_name","ph":"M","pid":1,"tid":11,"args":{"name":"skyframe-evaluator 1"}},
{"name":"thread_name","ph":"M","pid":1,"tid":13,"args":{"name":"skyframe-evaluator 3"}},
{"name":"thread_name","ph":"M","pid":1,"tid":17,"args":{"name":"skyframe-evaluator 7"}},
{"cat":"build phase marker","name":"Launch Blaze","ph":"X","ts":-1000,"dur":1000,"pid":1,"tid":2},
{"cat":"build phase marker","name":"Initialize command","ph":"i","ts":0,"pid":1,"tid":2},
{"cat":"build phase marker","name":"Evaluate target patterns","ph":"i","ts":1000,"pid":1,"tid":2},
{"cat":"build phase marker","name":"Load and analyze dependencies","ph":"i","ts":2000,"pid":1,"tid":2},
{"cat":"build phase marker","name":"Build artifacts","ph":"i","ts":10000,"pid":1,"tid":2},
{"cat":"build phase marker","name":"Complete build","ph":"i","ts":40000000,"pid":1,"tid":2},
{"cat":"package creation","name":"//a","ph":"X","ts":3000,"dur":100,"pid":1,"tid":10},
{"cat":"package creation","name":"//b","ph":"X","ts":3000,"dur":100,"pid":1,"tid":11},
{"cat":"package creation","name":"//c","ph":"X","ts":3000,"dur":100,"pid":1,"tid":13},
{"cat":"package creation","name":"//d","ph":"X","ts":3000,"dur":100,"pid":1,"tid":17},"#;

/// The actions: a remotely executed compile whose `execute remotely`
/// outlasts its `queue` (on the critical path), a compile served from the
/// cache, a Bazel-internal symlink, a local link that skips the cache (on
/// the path), and Bazel's critical path (with a runfiles step that names
/// no action).
const ACTIONS: &str = r#"
{"cat":"action processing","name":"Compiling a.cc","ph":"X","ts":10000,"dur":20000000,"pid":1,"tid":10,"args":{"mnemonic":"CppCompile"}},
{"cat":"remote action cache check","name":"check cache hit","ph":"X","ts":20000,"dur":100000,"pid":1,"tid":10},
{"cat":"Remote execution upload time","name":"upload missing inputs","ph":"X","ts":200000,"dur":300000,"pid":1,"tid":10},
{"cat":"Remote execution queuing time","name":"queue","ph":"X","ts":600000,"dur":5000000,"pid":1,"tid":10},
{"cat":"remote action execution","name":"execute remotely","ph":"X","ts":5000000,"dur":10000000,"pid":1,"tid":10},
{"cat":"remote output download","name":"download outputs","ph":"X","ts":15100000,"dur":1000000,"pid":1,"tid":10},
{"cat":"Remote execution upload time","name":"upload outputs","ph":"X","ts":16200000,"dur":500000,"pid":1,"tid":10},
{"cat":"action processing","name":"Compiling b.cc","ph":"X","ts":100000,"dur":15000000,"pid":1,"tid":13,"args":{"mnemonic":"CppCompile"}},
{"cat":"remote action cache check","name":"check cache hit","ph":"X","ts":200000,"dur":50000,"pid":1,"tid":13},
{"cat":"remote output download","name":"download outputs","ph":"X","ts":300000,"dur":100000,"pid":1,"tid":13},
{"cat":"action processing","name":"Symlinking x","ph":"X","ts":12000000,"dur":1000,"pid":1,"tid":13,"args":{"mnemonic":"Symlink"}},
{"cat":"action processing","name":"Linking app","ph":"X","ts":20020000,"dur":8000000,"pid":1,"tid":11,"args":{"mnemonic":"CppLink"}},
{"cat":"local action execution","name":"Linking app","ph":"X","ts":20100000,"dur":7000000,"pid":1,"tid":11},
{"cat":"critical path component","name":"action 'Compiling a.cc'","ph":"X","ts":10000,"dur":20000000,"pid":1,"tid":0},
{"cat":"critical path component","name":"runfiles for //app:app","ph":"X","ts":20010000,"dur":5000,"pid":1,"tid":0},
{"cat":"critical path component","name":"action 'Linking app'","ph":"X","ts":20020000,"dur":8000000,"pid":1,"tid":0}
"#;

/// The profile; `remote: false` leaves out every remote event.
fn profile(remote: bool) -> String {
    let actions: Vec<&str> = ACTIONS.lines().filter(|l| !l.is_empty() && (remote || !l.contains("emote"))).collect();
    format!("{{\"traceEvents\":[{THREADS}\n{}\n]}}", actions.join("\n").trim_end_matches(','))
}

/// The raw events.
fn events(text: &str) -> Vec<Value> {
    let doc: Value = serde_json::from_str(text).unwrap();
    doc["traceEvents"].as_array().unwrap().clone()
}

fn is(e: &Value, field: &str, v: &str) -> bool {
    e[field].as_str() == Some(v)
}

/// (ts, end) of a complete event, µs.
fn span(e: &Value) -> (i64, i64) {
    let ts = e["ts"].as_i64().unwrap();
    (ts, ts + e["dur"].as_i64().unwrap())
}

/// The most of `spans` that overlap at once (an end before a start at the same time).
fn sweep(spans: &[(i64, i64)]) -> i64 {
    let mut edges: Vec<(i64, i64)> = spans.iter().flat_map(|&(s, e)| [(s, 1), (e, -1)]).collect();
    edges.sort();
    edges.iter().scan(0, |n, &(_, d)| Some(*n + d).inspect(|&v| *n = v)).max().unwrap_or(0)
}

fn overlap(a: (i64, i64), b: (i64, i64)) -> i64 {
    (a.1.min(b.1) - a.0.max(b.0)).max(0)
}

fn analysis(text: &str) -> longpole_core::Analysis {
    longpole_core::reconcile(vec![read_bytes("profile.json", text.as_bytes(), 4096).unwrap()])
}

#[test]
fn every_slice_lasts_its_own_dur_in_the_model_the_report_and_the_exports() {
    let text = profile(true);
    let raw = events(&text);
    let a = analysis(&text);
    let d = &a.datasets[0];
    let m = &d.model;
    // Raw complete events by name (the names above are unique but for the
    // cache checks, downloads and `Linking app`, which share their dur by name and thread).
    let mut want: HashMap<(String, i64), i64> = HashMap::new();
    for e in raw.iter().filter(|e| is(e, "ph", "X")) {
        want.insert((e["name"].as_str().unwrap().to_owned(), e["ts"].as_i64().unwrap()), e["dur"].as_i64().unwrap());
    }
    // The model: every slice from its ts for its dur (ns).
    let mut seen = 0;
    for (i, t) in m.tasks().iter().enumerate() {
        let uid = m.uid(longpole_core::model::TaskId(i as u32)).to_owned();
        let (Some(s), Some(e)) = (t.start.get(), t.end.get()) else { continue };
        if let Some(&dur) = want.get(&(uid.clone(), s / 1000)) {
            assert_eq!(e - s, dur * 1000, "{uid} at {s}");
            seen += 1;
        }
    }
    assert_eq!(seen, want.len());
    // Durations by name.
    let by_name: HashMap<&str, Vec<i64>> = want.iter().fold(HashMap::new(), |mut h, ((n, _), &d)| {
        h.entry(n.as_str()).or_default().push(d);
        h
    });
    // The Chrome trace export: each slice's dur.
    let chrome: Value = serde_json::from_slice(&export(&a, Target::Chrome, 0).unwrap()).unwrap();
    let exported: Vec<&Value> = chrome["traceEvents"].as_array().unwrap().iter().filter(|e| is(e, "ph", "X")).collect();
    for e in &exported {
        let dur = e["dur"].as_f64().unwrap().round() as i64;
        assert!(by_name[e["name"].as_str().unwrap()].contains(&dur), "exported {e}");
    }
    // Every slice, and the path's steps again on the export's Critical Path process.
    let steps = raw.iter().filter(|e| is(e, "cat", "critical path component")).count();
    assert_eq!(exported.len(), want.len() + steps);
    // Parquet: every task's duration_us is its dur.
    let files = analysis_files(&a, "0", "profile.json").unwrap();
    let bytes = bytes::Bytes::copy_from_slice(&files[0].tasks);
    let batch: RecordBatch =
        ParquetRecordBatchReaderBuilder::try_new(bytes).unwrap().build().unwrap().next().unwrap().unwrap();
    let col = |n: &str| batch.column_by_name(n).unwrap().clone();
    let (uids, durs) = (col("uid"), col("duration_us"));
    let uids = uids.as_any().downcast_ref::<StringArray>().unwrap();
    let durs = durs.as_any().downcast_ref::<Int64Array>().unwrap();
    for i in 0..batch.num_rows() {
        if let Some(ds) = by_name.get(uids.value(i)) {
            assert!(durs.is_valid(i) && ds.contains(&durs.value(i)), "parquet {}: {}", uids.value(i), durs.value(i));
        }
    }
    // The longest slices: each its own dur, the longest first.
    let view = a.view(d, &TimelineIndex::new(m));
    for row in &view.longest {
        let t = m.task(longpole_core::model::TaskId(row.id));
        let (s, e) = (t.start.get().unwrap(), t.end.get().unwrap());
        assert_eq!(Some(&((e - s) / 1000)), want.get(&(row.uid.clone(), s / 1000)), "longest {}", row.uid);
    }
    let longest = want.values().max().unwrap();
    assert_eq!(view.longest.first().and_then(|r| Some((r.end? - r.start?) / 1000)), Some(*longest));
    // Bazel's critical path: each step from its action's ts for its dur.
    let Some(run) = d.detail::<ChromeRun>() else { panic!("not a Chrome run") };
    let steps = &run.bazel.as_ref().unwrap().path;
    assert_eq!(steps.len(), 3);
    for step in steps {
        let t = m.task(step.task());
        let name = m.uid(step.task());
        let (s, e) = (t.start.get().unwrap() / 1000, t.end.get().unwrap() / 1000);
        assert_eq!(Some(&(e - s)), want.get(&(name.to_owned(), s)), "{name}");
    }
    let json = analysis_json(&a);
    // One note says how the flame graph placed the one overlapping span.
    let notes: Vec<&Value> =
        json["diagnostics"].as_array().unwrap().iter().filter(|x| x["code"] == "chrome.overlapping-slices").collect();
    assert_eq!(notes.len(), 1);
    assert!(notes[0]["message"].as_str().unwrap().starts_with("1 slices outlast"), "{}", notes[0]);
    // The flame graph gives `execute remotely` its whole dur.
    let flame_total: i64 =
        run.flame.nodes.iter().filter(|n| n.name == "execute remotely").map(|n| n.total[0].unwrap_or(0) as i64).sum();
    let dur = raw.iter().find(|x| is(x, "name", "execute remotely")).map(|x| x["dur"].as_i64().unwrap()).unwrap();
    assert_eq!(flame_total, dur * 1000);
}

#[test]
fn the_summary_is_computed_from_each_slice_s_own_dur() {
    let text = profile(true);
    let raw = events(&text);
    let a = analysis(&text);
    let d = &a.datasets[0];
    let Some(run) = d.detail::<ChromeRun>() else { panic!("not a Chrome run") };
    let s = summary(&d.model, run.bazel.as_ref().unwrap());
    let x = |cat: &str| -> Vec<&Value> { raw.iter().filter(|e| is(e, "ph", "X") && is(e, "cat", cat)).collect() };
    let actions = x("action processing");
    // At most N actions at once: the sweep over the action slices.
    assert_eq!(s.most_running, sweep(&actions.iter().map(|e| span(e)).collect::<Vec<_>>()));
    assert_eq!(s.most_running, 3);
    // By mnemonic: total and longest from dur.
    let cpp: Vec<i64> =
        actions.iter().filter(|e| e["args"]["mnemonic"] == "CppCompile").map(|e| span(e).1 - span(e).0).collect();
    let row = s.mnemonics.iter().find(|r| r.mnemonic == "CppCompile").unwrap();
    assert_eq!(
        (row.count, row.total, row.longest),
        (cpp.len() as u64, cpp.iter().sum::<i64>() * 1000, cpp.iter().max().unwrap() * 1000)
    );
    // Queuing on the path: the queue spans' overlap with the path's actions on their thread.
    let path: Vec<(i64, i64, i64)> = x("critical path component")
        .iter()
        .filter_map(|c| {
            let name = c["name"].as_str()?.strip_prefix("action '")?.strip_suffix('\'')?;
            let a = actions.iter().find(|a| is(a, "name", name))?;
            Some((a["tid"].as_i64()?, span(a).0, span(a).1))
        })
        .collect();
    let queue = x("Remote execution queuing time");
    let on_path: i64 = queue
        .iter()
        .map(|q| {
            path.iter().filter(|p| p.0 == q["tid"].as_i64().unwrap()).map(|p| overlap(span(q), (p.1, p.2))).sum::<i64>()
        })
        .sum();
    let qrow = s.activities.iter().find(|r| r.what == "Remote execution queuing time").unwrap();
    assert_eq!(
        (qrow.total, qrow.on_path),
        (queue.iter().map(|q| span(q).1 - span(q).0).sum::<i64>() * 1000, on_path * 1000)
    );
    assert!(qrow.on_path <= qrow.total);
    let exec = s.activities.iter().find(|r| r.what == "remote action execution").unwrap();
    assert_eq!(exec.total, x("remote action execution").iter().map(|e| span(e).1 - span(e).0).sum::<i64>() * 1000);
    // Uploads as EngFlow classes them.
    let group = |what: &str| s.activities.iter().find(|r| r.what == what).map(|r| r.group.as_str());
    assert_eq!(group("upload outputs"), Some("remote cache"));
    assert_eq!(group("upload missing inputs"), Some("remote execution"));
    // Cores: evaluators 0, 1, 3 ran in execution (bound 4), 0 to 7 in analysis (8).
    assert_eq!((s.cores.used, s.cores.jobs_at_least, s.cores.available), (Some(3), Some(4), Some(8)));
    assert!(s.cores.jobs_likely_set && !s.cores.skymeld);
    // The compile with a remote run missed the cache; the link skipped it (7 s or more).
    assert_eq!((s.caching.checked, s.caching.misses, s.caching.unchecked), (2, 1, 1));
    assert!(!s.gc.recorded);
    let json = analysis_json(&a);
    let ids: Vec<&str> =
        json["bazel"]["suggestions"].as_array().unwrap().iter().map(|x| x["id"].as_str().unwrap()).collect();
    for id in ["UseSkymeld", "InvestigateRemoteCacheMisses", "NoCacheActions", "IncreaseRemoteExecutionClusterSize"] {
        assert!(ids.contains(&id), "{id} missing from {ids:?}");
    }
    assert!(!ids.contains(&"UseRemoteCaching") && !ids.contains(&"UnsetJobsFlag"), "{ids:?}");
    // The text: components as Bazel names them, no GC thread said so.
    let report = analysis_text(&a);
    assert!(report.contains("   runfiles for //app:app  ("), "{report}");
    assert!(report.contains("   action 'Linking app'  ("), "{report}");
    assert!(report.contains("Garbage collection: not recorded (the profile has no Garbage Collector thread)"));
    assert!(report.contains("so --jobs was at least 4"), "{report}");
}

#[test]
fn a_local_build_with_jobs_below_the_cores_is_told_jobs_is_too_low() {
    let text = profile(false);
    let json = analysis_json(&analysis(&text));
    let b = &json["bazel"];
    assert_eq!((b["cores"]["jobs_at_least"].as_i64(), b["cores"]["available"].as_i64()), (Some(4), Some(8)));
    let list = b["suggestions"].as_array().unwrap();
    let jobs = list.iter().find(|x| x["id"] == "UnsetJobsFlag").unwrap();
    assert!(
        jobs["text"].as_str().unwrap().contains("at least 4") && jobs["text"].as_str().unwrap().contains("too low")
    );
    let ids: Vec<&str> = list.iter().map(|x| x["id"].as_str().unwrap()).collect();
    assert!(ids.contains(&"UseRemoteCaching") && !ids.contains(&"NoCacheActions"), "{ids:?}");
}
