//! Opt-in: the Bazel summary against EngFlow's bazel_invocation_analyzer
//! on the six profiles of its tests, which this repository does not hold.
//! Fetch them (see docs/bazel.md), then:
//!
//! `LONGPOLE_ENGFLOW_PROFILES=DIR cargo test -p longpole-core --test bazel_engflow -- --nocapture`
//!
//! Without the variable the test says so and checks nothing. The reference
//! values come from two places, never from longpole's own output:
//!
//! - EngFlow's test assertions (`JobsSuggestionProviderIntegrationTest`):
//!   on `local-jobs-none`, `-4` and `-100`, 16 cores available, 16, 4 and
//!   51 cores used, `--jobs` at least 16, 4 and 97, likely set on the last
//!   two, with a suggestion that `--jobs` is too low (4) and too high (100);
//! - a plain computation over the raw events in this file (serde_json):
//!   phases, totals, Bazel's critical path, queuing (total and on the
//!   path), actions at once (a sweep), every mnemonic's total and longest,
//!   collections during the path, the evaluators behind cores and jobs,
//!   the stretches below the cores used, and when EngFlow's suggestion
//!   providers fire. On `bazel-profile-with_queuing.json.gz` these read
//!   41.715 s of queuing (all on the path), 40 actions at once, CppCompile
//!   588.767 s in all and 11.240 s at the longest, 0.683 s of collection
//!   during the path and 49 cores available, as EngFlow's analyzer gives.

use longpole_core::formats::chrome_trace::bazel::analysis::suggest::suggestions;
use longpole_core::formats::chrome_trace::bazel::analysis::summary::{summary, BazelSummary};
use longpole_core::formats::chrome_trace::reconcile::ChromeRun;
use longpole_core::ingest::read_bytes;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Read;
use std::path::Path;

const PROFILES: [&str; 6] = [
    "bazel-profile-Long-Phase-Test.json",
    "bazel-profile-with_queuing.json.gz",
    "local-jobs-100.json.gz",
    "local-jobs-4.json.gz",
    "local-jobs-none.json.gz",
    "tiny.json.gz",
];

/// EngFlow's assertions: (profile, cores available, cores used, --jobs at
/// least, likely set, direction of its --jobs suggestion).
const ENGFLOW_JOBS: [(&str, u32, u32, u32, bool, Option<&str>); 3] = [
    ("local-jobs-none.json.gz", 16, 16, 16, false, None),
    ("local-jobs-4.json.gz", 16, 4, 4, true, Some("too low")),
    ("local-jobs-100.json.gz", 16, 51, 97, true, Some("too high")),
];

fn bytes(path: &Path) -> Vec<u8> {
    let raw = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if path.extension().is_some_and(|x| x == "gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&raw[..]).read_to_end(&mut out).unwrap();
        out
    } else {
        raw
    }
}

fn s<'a>(e: &'a Value, k: &str) -> &'a str {
    e[k].as_str().unwrap_or("")
}

/// A complete event: (ts, end) µs.
fn span(e: &Value) -> (i64, i64) {
    let ts = e["ts"].as_f64().unwrap_or(0.0) as i64;
    (ts, ts + e["dur"].as_f64().unwrap_or(0.0) as i64)
}

/// A counter's value: Bazel writes them as text (`"3.91"`).
fn number(v: &Value) -> Option<f64> {
    v.as_f64().or_else(|| v.as_str()?.parse().ok())
}

fn overlap(a: (i64, i64), b: (i64, i64)) -> i64 {
    (a.1.min(b.1) - a.0.max(b.0)).max(0)
}

/// The figures read off the raw events.
struct Reference {
    phases: Vec<(String, i64)>,
    critical_path: i64,
    queuing: i64,
    queuing_on_path: i64,
    most_at_once: i64,
    mnemonics: BTreeMap<String, (u64, i64, i64)>,
    gc_on_path: i64,
    gc_thread: bool,
    exec_evaluators: Vec<u32>,
    analysis_evaluators: Vec<u32>,
    bottlenecks: usize,
    remote_cache: bool,
    skymeld: bool,
    /// The durations of the complete events of each (name, ts).
    durations: HashMap<(String, i64), Vec<i64>>,
}

/// EngFlow's `skyframe-evaluator[^\d]*(\d*)`, matched on the whole thread name.
fn evaluator(name: &str) -> Option<u32> {
    let rest = name.strip_prefix("skyframe-evaluator")?;
    let digits = rest.trim_start_matches(|c: char| !c.is_ascii_digit());
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

fn reference(events: &[Value]) -> Reference {
    let x: Vec<&Value> = events.iter().filter(|e| s(e, "ph") == "X").collect();
    let cat = |c: &str| -> Vec<&Value> { x.iter().copied().filter(|e| s(e, "cat") == c).collect() };
    let thread = |e: &Value| (e["pid"].as_i64().unwrap_or(0), e["tid"].as_i64().unwrap_or(0));
    let names: HashMap<(i64, i64), &str> = events
        .iter()
        .filter(|e| s(e, "ph") == "M" && s(e, "name") == "thread_name")
        .map(|e| (thread(e), e["args"]["name"].as_str().unwrap_or("")))
        .collect();
    // Phases: marker to marker, the last to the last time seen.
    let mut markers: Vec<(i64, String)> = events
        .iter()
        .filter(|e| s(e, "cat") == "build phase marker")
        .map(|e| (span(e).0, s(e, "name").to_owned()))
        .collect();
    markers.sort_by_key(|m| m.0);
    let last = events.iter().filter(|e| s(e, "ph") != "M").map(|e| span(e).1).max().unwrap_or(0);
    let mut phases: Vec<(String, i64)> = Vec::new();
    for (i, (t, name)) in markers.iter().enumerate() {
        let end = markers.get(i + 1).map_or(last, |m| m.0);
        match phases.iter_mut().find(|p| &p.0 == name) {
            Some(p) => p.1 += end - t,
            None => phases.push((name.clone(), end - t)),
        }
    }
    let phase = |name: &str| {
        markers.iter().position(|m| m.1 == name).map(|i| (markers[i].0, markers.get(i + 1).map_or(last, |m| m.0)))
    };
    let actions = cat("action processing");
    // Bazel's path: each component's action of that name nearest its start (1 ms).
    let components = cat("critical path component");
    let path: Vec<&Value> = components
        .iter()
        .filter_map(|c| {
            let name = s(c, "name").strip_prefix("action '")?.strip_suffix('\'')?;
            actions
                .iter()
                .copied()
                .filter(|a| s(a, "name") == name && (span(a).0 - span(c).0).abs() <= 1000)
                .min_by_key(|a| (span(a).0 - span(c).0).abs())
        })
        .collect();
    let queue = cat("Remote execution queuing time");
    let on_path =
        |e: &Value| -> i64 { path.iter().filter(|p| thread(p) == thread(e)).map(|p| overlap(span(e), span(p))).sum() };
    let mut edges: Vec<(i64, i64)> = actions.iter().flat_map(|a| [(span(a).0, 1), (span(a).1, -1)]).collect();
    edges.sort();
    let (mut n, mut most) = (0, 0);
    for (_, d) in edges {
        n += d;
        most = most.max(n);
    }
    let mut mnemonics: BTreeMap<String, (u64, i64, i64)> = BTreeMap::new();
    for a in &actions {
        let m = a["args"]["mnemonic"].as_str().unwrap_or("(not recorded)").to_owned();
        let d = span(a).1 - span(a).0;
        let r = mnemonics.entry(m).or_default();
        *r = (r.0 + 1, r.1 + d, r.2.max(d));
    }
    let gc_on_path: i64 =
        cat("gc notification").iter().map(|g| path.iter().map(|p| overlap(span(g), span(p))).sum::<i64>()).sum();
    let skymeld_phase = phase("Load, analyze dependencies and build artifacts");
    let exec_window = match skymeld_phase {
        Some((_, end)) => actions.iter().map(|a| span(a).0).min().map(|f| (f, end)),
        None => phase("Build artifacts"),
    };
    let analysis_window = match skymeld_phase {
        Some(p) => exec_window.map(|e| (phase("Evaluate target patterns").unwrap_or(p).0, e.0)),
        None => {
            let (t, a) = (phase("Evaluate target patterns"), phase("Load and analyze dependencies"));
            t.or(a).and_then(|st| Some((st.0, a.or(t)?.1)))
        }
    };
    let evaluators = |w: Option<(i64, i64)>| -> Vec<u32> {
        let Some((a, b)) = w else { return Vec::new() };
        let busy: HashSet<(i64, i64)> =
            x.iter().filter(|e| span(e).0 >= a && span(e).1 <= b).map(|e| thread(e)).collect();
        let mut v: Vec<u32> = busy.iter().filter_map(|t| evaluator(names.get(t)?)).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let exec_evaluators = evaluators(exec_window);
    // Stretches of `action count` samples below the cores used.
    let mut counts: Vec<(i64, f64)> = events
        .iter()
        .filter(|e| s(e, "ph") == "C" && matches!(s(e, "name"), "action count" | "action counters"))
        .map(|e| (span(e).0, e["args"].as_object().map_or(0.0, |o| o.values().filter_map(number).sum())))
        .collect();
    counts.sort_by_key(|c| c.0);
    let cores = exec_evaluators.len() as f64;
    let mut bottlenecks = 0;
    let mut below = false;
    for (_, v) in counts {
        if v < cores && !below {
            bottlenecks += 1;
        }
        below = v < cores;
    }
    let remote_execution = x.iter().any(|e| {
        matches!(s(e, "cat"), "Remote execution setup" | "Remote execution queuing time" | "remote action execution")
    });
    Reference {
        phases,
        critical_path: components.iter().map(|c| span(c).1 - span(c).0).sum(),
        queuing: queue.iter().map(|q| span(q).1 - span(q).0).sum(),
        queuing_on_path: queue.iter().map(|q| on_path(q)).sum(),
        most_at_once: most,
        mnemonics,
        gc_on_path,
        gc_thread: names.values().any(|n| *n == "Garbage Collector"),
        analysis_evaluators: evaluators(analysis_window),
        exec_evaluators: if exec_window.is_some() { exec_evaluators } else { Vec::new() },
        bottlenecks,
        remote_cache: remote_execution || !cat("remote action cache check").is_empty(),
        skymeld: skymeld_phase.is_some(),
        durations: x.iter().fold(HashMap::new(), |mut h, e| {
            h.entry((s(e, "name").to_owned(), span(e).0)).or_insert_with(Vec::new).push(span(e).1 - span(e).0);
            h
        }),
    }
}

/// One profile's checks; the failures, as text.
fn check(name: &str, text: &[u8]) -> Vec<String> {
    let doc: Value = serde_json::from_slice(text).unwrap();
    let events: Vec<Value> = match &doc {
        Value::Array(a) => a.clone(),
        _ => doc["traceEvents"].as_array().cloned().unwrap_or_default(),
    };
    let r = reference(&events);
    let a = longpole_core::reconcile(vec![read_bytes(name, text, 1 << 20).unwrap()]);
    let d = &a.datasets[0];
    let Some(run) = d.detail::<ChromeRun>() else { return vec![format!("{name}: not read as a Chrome trace")] };
    let Some(bazel) = run.bazel.as_ref() else { return vec![format!("{name}: not read as a Bazel profile")] };
    let sm: BazelSummary = summary(&d.model, bazel);
    let ids: Vec<String> = suggestions(&d.model, &sm).into_iter().map(|x| x.id).collect();
    let mut bad = Vec::new();
    let mut eq = |what: &str, got: String, want: String| {
        println!("  {what:<28} {got}");
        if got != want {
            bad.push(format!("{name}: {what}: longpole {got}, reference {want}"));
        }
    };
    println!("{name}");
    let us = |ns: i64| ns / 1000;
    let phases: Vec<(String, i64)> = sm.phases.iter().map(|p| (p.name.clone(), us(p.time))).collect();
    eq("phases (µs)", format!("{phases:?}"), format!("{:?}", r.phases));
    eq("total (µs)", us(sm.total).to_string(), r.phases.iter().map(|p| p.1).sum::<i64>().to_string());
    eq("critical path (µs)", us(sm.critical_path).to_string(), r.critical_path.to_string());
    let act =
        |what: &str| sm.activities.iter().find(|x| x.what == what).map_or((0, 0), |x| (us(x.total), us(x.on_path)));
    let q = act("Remote execution queuing time");
    eq("queuing (µs)", q.0.to_string(), r.queuing.to_string());
    eq("queuing on the path (µs)", q.1.to_string(), r.queuing_on_path.to_string());
    eq("actions at once", sm.most_running.to_string(), r.most_at_once.to_string());
    let mnemonics: BTreeMap<String, (u64, i64, i64)> =
        sm.mnemonics.iter().map(|m| (m.mnemonic.clone(), (m.count, us(m.total), us(m.longest)))).collect();
    eq("mnemonics (n, µs, longest)", format!("{mnemonics:?}"), format!("{:?}", r.mnemonics));
    eq("GC during the path (µs)", us(sm.gc.on_path).to_string(), r.gc_on_path.to_string());
    eq("GC thread", sm.gc.recorded.to_string(), r.gc_thread.to_string());
    let plus1 = |v: &[u32]| v.last().map(|n| n + 1);
    eq(
        "cores used",
        format!("{:?}", sm.cores.used),
        format!("{:?}", (!r.exec_evaluators.is_empty()).then_some(r.exec_evaluators.len() as u32)),
    );
    eq("--jobs at least", format!("{:?}", sm.cores.jobs_at_least), format!("{:?}", plus1(&r.exec_evaluators)));
    eq("cores available", format!("{:?}", sm.cores.available), format!("{:?}", plus1(&r.analysis_evaluators)));
    eq("bottlenecks", sm.bottlenecks.len().to_string(), r.bottlenecks.to_string());
    for &(p, available, used, bound, set, direction) in &ENGFLOW_JOBS {
        if p == name {
            eq(
                "EngFlow: cores",
                format!("{:?}", (sm.cores.available, sm.cores.used, sm.cores.jobs_at_least, sm.cores.jobs_likely_set)),
                format!("{:?}", (Some(available), Some(used), Some(bound), set)),
            );
            let text = suggestions(&d.model, &sm).into_iter().find(|x| x.id == "UnsetJobsFlag").map(|x| x.text);
            let got = text.map(|t| {
                if t.contains("too low") {
                    "too low"
                } else if t.contains("too high") {
                    "too high"
                } else {
                    "no direction"
                }
            });
            eq("EngFlow: --jobs suggestion", format!("{got:?}"), format!("{direction:?}"));
        }
    }
    let fires = |id: &str| ids.iter().any(|x| x == id);
    eq("UseSkymeld", fires("UseSkymeld").to_string(), (!r.skymeld).to_string());
    eq("UseRemoteCaching", fires("UseRemoteCaching").to_string(), (!r.remote_cache).to_string());
    println!("  suggestions                  {ids:?}");
    // Every slice lasts its own dur.
    let m = &d.model;
    let mut wrong = 0;
    for (i, t) in m.tasks().iter().enumerate() {
        let (Some(st), Some(en)) = (t.start.get(), t.end.get()) else { continue };
        if let Some(durs) = r.durations.get(&(m.uid(longpole_core::model::TaskId(i as u32)).to_owned(), st / 1000)) {
            wrong += usize::from(!durs.contains(&((en - st) / 1000)));
        }
    }
    eq("slices not lasting their dur", wrong.to_string(), "0".to_owned());
    bad
}

#[test]
fn the_summary_agrees_with_engflow_on_its_six_profiles() {
    let Some(dir) = std::env::var_os("LONGPOLE_ENGFLOW_PROFILES") else {
        eprintln!("LONGPOLE_ENGFLOW_PROFILES is not set: nothing checked (see docs/bazel.md)");
        return;
    };
    let mut bad = Vec::new();
    for p in PROFILES {
        bad.extend(check(p, &bytes(&Path::new(&dir).join(p))));
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
