//! A Chrome trace's threads are matched on two threads when a caller has
//! them (`reconcile_with` and a join that spawns): the model, the run (its
//! flame graph too), the diagnostics and the reports are the same as on
//! one, for every Chrome trace and Bazel profile of the corpus and for a
//! generated trace with many threads, `args` on most events and names
//! with spaces.

use longpole_core::ingest::read_bytes;
use longpole_core::join::{in_turn, Join};
use longpole_core::reconcile::reconcile_with;
use longpole_core::report::{analysis_json_with, analysis_text_with};
use std::fmt::Write;
use std::path::{Path, PathBuf};

mod support;

/// Runs `a` on another thread while `b` runs on this one.
fn both(a: &mut (dyn FnMut() + Send), b: &mut (dyn FnMut() + Send)) {
    std::thread::scope(|scope| {
        scope.spawn(a);
        b();
    });
}

/// Everything an analysis of `bytes` shows, through `join`.
fn everything(name: &str, bytes: &[u8], join: Join<'_>) -> String {
    let analysis = reconcile_with(vec![read_bytes(name, bytes, 4096).unwrap()], join);
    let mut out = analysis_text_with(&analysis, join);
    out += &serde_json::to_string_pretty(&analysis_json_with(&analysis, join)).unwrap();
    for d in &analysis.datasets {
        out += &longpole_core::dump::tasks(&d.model);
        write!(out, "{:?}", d.kind).unwrap();
    }
    for i in &analysis.inputs {
        write!(out, "{:?}", i.diagnostics.kept()).unwrap();
    }
    out
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json" || e == "gz") {
            out.push(path);
        }
    }
}

#[test]
fn every_corpus_trace_is_the_same_on_one_thread_and_two() {
    let dir = support::data("chrome-trace");
    let mut paths = Vec::new();
    files(&dir, &mut paths);
    paths.sort();
    assert!(paths.len() > 30, "{} traces", paths.len());
    for path in paths {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(everything(&name, &bytes, &both), everything(&name, &bytes, &in_turn), "{}", path.display());
    }
}

/// A trace of nested slices on 24 threads of 4 processes, `B`/`E` and `X`
/// mixed, `args` on most, names with spaces whose keys meet other names'.
fn generated() -> Vec<u8> {
    let names = ["Run", "Run Task", "Task", "Paint Layer", "Layout", "v8.compile", "(unnamed)", ""];
    let args = [None, Some(r#"{"url":"a"}"#), Some(r#"Task {"url":"a"}"#), Some(r#"{"n":1}"#), Some(r#"{"n":2}"#)];
    let mut seed: u64 = 7;
    let mut next = |n: usize| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize % n
    };
    let mut out = String::from("[\n");
    for pid in 1..=4 {
        writeln!(out, r#"{{"name":"process_name","ph":"M","pid":{pid},"tid":0,"args":{{"name":"P{pid}"}}}},"#).unwrap();
    }
    let mut clock = [0u64; 24];
    for _ in 0..400 {
        let lane = next(24);
        let (pid, tid) = (lane % 4 + 1, lane);
        let mut open = Vec::new();
        for _ in 0..next(12) + 1 {
            let name = names[next(names.len())];
            let arg = args[next(args.len())].map_or(String::new(), |a| format!(r#","args":{a}"#));
            clock[lane] += next(5) as u64;
            let ts = clock[lane];
            if next(2) == 0 {
                let dur = next(30);
                writeln!(out, r#"{{"name":"{name}","ph":"X","pid":{pid},"tid":{tid},"ts":{ts},"dur":{dur}{arg}}},"#)
                    .unwrap();
            } else {
                writeln!(out, r#"{{"name":"{name}","ph":"B","pid":{pid},"tid":{tid},"ts":{ts}{arg}}},"#).unwrap();
                open.push(name);
            }
        }
        while let Some(name) = open.pop() {
            clock[lane] += next(4) as u64;
            let ts = clock[lane];
            writeln!(out, r#"{{"name":"{name}","ph":"E","pid":{pid},"tid":{tid},"ts":{ts}}},"#).unwrap();
        }
    }
    out.push_str(r#"{"name":"end","ph":"i","s":"g","pid":1,"tid":1,"ts":0}"#);
    out.push_str("\n]\n");
    out.into_bytes()
}

#[test]
fn a_generated_trace_is_the_same_on_one_thread_and_two() {
    let bytes = generated();
    let one = everything("generated.json", &bytes, &in_turn);
    assert!(one.contains("Chrome"), "{}", &one[..200.min(one.len())]);
    assert_eq!(everything("generated.json", &bytes, &both), one);
}
