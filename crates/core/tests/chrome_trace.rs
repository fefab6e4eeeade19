//! Chrome traces of the corpus through the whole pipeline: reports (text
//! and JSON) snapshotted and the same at every chunk size; the stacks of
//! every speedscope edge case equal to speedscope's own snapshot; partial
//! arrays, negative times, flows and Bazel's critical path.

use longpole_core::formats::chrome_trace::reconcile::thread_stacks;
use longpole_core::formats::chrome_trace::reconcile::ChromeRun;
use longpole_core::formats::chrome_trace::trace_stacks::ThreadStacks;
use longpole_core::formats::chrome_trace::ChromeTrace;
use longpole_core::ingest::read_bytes;
use longpole_core::reconcile::Analysis;
use longpole_core::report::{analysis_json, analysis_text};
use support::{check_format, named};

mod support;

fn trace(name: &str, bytes: &[u8], chunk: usize) -> (ChromeTrace, Vec<String>) {
    let input = read_bytes(name, bytes, chunk).unwrap();
    let diags =
        input.info.diagnostics.kept().iter().map(|d| format!("{} {} {}", d.code, d.position, d.message)).collect();
    let Some(t) = input.parsed.into_read::<longpole_core::formats::chrome_trace::ChromeTrace>() else {
        panic!("{name} is not read as a Chrome trace")
    };
    (*t, diags)
}

/// The reports and the first tasks of a trace (read under the name `unknown`).
fn reports(rel: &str) -> impl Fn(&Analysis) -> Vec<String> + '_ {
    move |analysis| {
        let text = analysis_text(analysis);
        let json = serde_json::to_string_pretty(&analysis_json(analysis)).unwrap();
        // The first tasks only: a real trace has thousands.
        let dump = longpole_core::dump::tasks(&analysis.datasets[0].model);
        let tasks: Vec<&str> = dump.lines().take(60).collect();
        let tasks = tasks.join("\n");
        vec![format!("== {rel}\n{text}\n{json}\n{tasks}")]
    }
}

#[test]
fn corpus_reports() {
    for rel in ["catapult/flow_simple.json", "catapult/x_event_trace.json", "bazel/tiny.json.gz"] {
        let name = rel.rsplit('/').next().unwrap().replace('.', "_");
        check_format!([named("unknown", support::bytes(&format!("chrome-trace/{rel}")))], reports(rel) => name);
    }
}

#[test]
fn chrome69_devtools_trace() {
    // Held back from the corpus on purpose: checked when present.
    let rel = "speedscope/Chrome/chrome69-simple.json";
    if support::data(&format!("chrome-trace/{rel}")).exists() {
        check_format!([named("unknown", support::bytes(&format!("chrome-trace/{rel}")))], reports(rel) => "chrome69_simple");
    }
}

/// speedscope's `TimeFormatter('microseconds')` below a minute.
fn speedscope_time(us: f64) -> String {
    let s = us * 1e-6;
    if s >= 1.0 {
        format!("{s:.2}s")
    } else if s >= 1e-3 {
        format!("{:.2}ms", s / 1e-3)
    } else if s >= 1e-6 {
        format!("{:.2}µs", s / 1e-6)
    } else {
        format!("{:.2}ns", s / 1e-9)
    }
}

/// speedscope's `zeroPad(s, 10)`.
fn zero_pad(s: &str) -> String {
    format!("{}{s}", "0".repeat(10usize.saturating_sub(s.len())))
}

/// speedscope's profiles of a trace: (name, stack lines), in its order.
fn speedscope_profiles(t: &ChromeTrace) -> Vec<Profile> {
    let mut profiles: Vec<(String, String, &ThreadStacks)> = Vec::new();
    let stacks = thread_stacks(t);
    for (thread, s) in &stacks {
        let th = &t.threads[*thread as usize];
        let p = &t.processes[th.process as usize];
        let (pid, tid) = (t.str(p.pid), t.str(th.tid));
        let name = match (p.name.map(|n| t.str(n)), th.name.map(|n| t.str(n))) {
            (Some(pn), Some(tn)) => format!("{pn} (pid {pid}), {tn} (tid {tid})"),
            (Some(pn), None) => format!("{pn} (pid {pid}, tid {tid})"),
            (None, Some(tn)) => format!("{tn} (pid {pid}, tid {tid})"),
            (None, None) => format!("pid {pid}, tid {tid}"),
        };
        profiles.push((format!("{}:{}", zero_pad(pid), zero_pad(tid)), name, s));
    }
    profiles.sort_by(|a, b| a.0.cmp(&b.0));
    let by_name = t.hermes || longpole_core::formats::chrome_trace::reconcile::sampled(t);
    profiles
        .into_iter()
        .map(|(_, name, s)| {
            let lines = if by_name { s.lines(|f| f.name.as_str()) } else { s.lines(|f| f.key.as_str()) };
            (name, lines.into_iter().map(|(stack, w)| format!("{stack} {}", speedscope_time(w))).collect())
        })
        .collect()
}

/// A profile: its name and its stack lines.
type Profile = (String, Vec<String>);

/// The reference: per test, its file and its profiles.
fn reference() -> Vec<(String, String, Vec<Profile>)> {
    let text =
        String::from_utf8(support::bytes("chrome-trace/speedscope/trace-event/trace-event.test.ts.snap")).unwrap();
    let mut tests: Vec<(String, String, Vec<Profile>)> = Vec::new();
    for entry in text.split("exports[`importTraceEvents ").skip(1) {
        let Some((key, body)) = entry.split_once("`] = `") else { continue };
        if let Some(test) = key.strip_suffix(": profileGroup.name 1") {
            let file = body.trim_start_matches('"').split('"').next().unwrap().to_owned();
            match tests.iter_mut().find(|t| t.0 == test) {
                Some(t) => t.1 = file,
                None => tests.push((test.to_owned(), file, Vec::new())),
            }
            continue;
        }
        let Some((test, _n)) = key.rsplit_once(' ') else { continue };
        if !body.starts_with("\n{") {
            continue;
        }
        let name = body.lines().find_map(|l| l.strip_prefix("  \"name\": \"")).unwrap().trim_end_matches("\",");
        let stacks: Vec<String> = body
            .split("\"stacks\": [")
            .nth(1)
            .unwrap()
            .lines()
            .map(str::trim)
            .take_while(|l| !l.starts_with(']'))
            .filter(|l| !l.is_empty())
            .map(|l| l.strip_prefix('"').unwrap().strip_suffix("\",").unwrap().to_owned())
            .collect();
        let profile = (name.to_owned(), stacks);
        match tests.iter_mut().find(|t| t.0 == test) {
            Some(t) => t.2.push(profile),
            None => tests.push((test.to_owned(), String::new(), vec![profile])),
        }
    }
    tests
}

/// Where longpole departs from speedscope on purpose: a complete event
/// lasts its `dur`. In `invalid-x-nesting.json`, `alpha` (0 µs for 10) and
/// `beta` (5 µs for 10) overlap without nesting; speedscope ignores
/// `alpha`'s end and stretches it to 15 µs, longpole ends it at 10 µs and
/// puts `beta`'s last 5 µs one level up.
const DEPARTS: [(&str, &[&str]); 1] = [("invalid x nesting", &["alpha 5.00µs", "alpha;beta 5.00µs", "beta 5.00µs"])];

#[test]
fn stacks_match_speedscope_on_every_edge_case() {
    let tests = reference();
    let mut failed = Vec::new();
    let mut matched = 0;
    for (test, file, want) in &tests {
        let (t, _) = trace("unknown", &support::bytes(&format!("chrome-trace/speedscope/trace-event/{file}")), 100);
        let got = speedscope_profiles(&t);
        let want = match DEPARTS.iter().find(|d| d.0 == test) {
            Some((_, lines)) => &vec![(want[0].0.clone(), lines.iter().map(|l| l.to_string()).collect())],
            None => want,
        };
        if &got == want {
            matched += want.len();
        } else {
            failed.push(format!("{test} ({file}):\n  got  {got:?}\n  want {want:?}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    assert_eq!((tests.len(), matched), (33, 41));
}

#[test]
fn partial_arrays_read_as_whole_ones_with_a_note() {
    let whole = support::bytes("chrome-trace/speedscope/trace-event/simple.json");
    for file in ["simple-partial.json", "simple-partial-trailing-comma.json", "simple-partial-whitespace.json"] {
        let bytes = support::bytes(&format!("chrome-trace/speedscope/trace-event/{file}"));
        for chunk in [1, 7, 4096, usize::MAX] {
            let (t, diags) = trace(file, &bytes, chunk);
            assert!(t.unterminated, "{file}");
            assert_eq!(speedscope_profiles(&t), speedscope_profiles(&trace("simple", &whole, 4096).0), "{file}");
            assert_eq!(diags.len(), 1, "{file}: {diags:?}");
            assert!(diags[0].starts_with("chrome.unterminated whole input"), "{diags:?}");
        }
    }
    let (t, diags) = trace("cut", b"[{\"ph\":\"X\",\"ts\":1,\"dur\":2,\"name\":\"a\"},\n{\"ph\":\"X\",\"ts\":", 3);
    assert_eq!(t.slices.len(), 1);
    assert_eq!(diags, ["chrome.cut-event line 2 the trace ends inside an event; that event is left out"]);
}

#[test]
fn negative_times_flows_and_phases() {
    let doc = br#"{"traceEvents":[
{"ph":"M","name":"process_name","pid":1,"args":{"name":"blaze"}},
{"ph":"M","name":"thread_name","pid":1,"tid":"a","args":{"name":"main"}},
{"ph":"M","name":"thread_sort_index","pid":1,"tid":"a","args":{"sort_index":"2"}},
{"ph":"M","name":"thread_sort_index","pid":1,"tid":0,"args":{"sort_index":1}},
{"ph":"X","name":"launch","cat":"critical path component","pid":1,"tid":0,"ts":-33000,"dur":1000},
{"ph":"X","name":"build","pid":1,"tid":"a","ts":-500,"dur":2000,"bind_id":"q","flow_out":true},
{"ph":"X","name":"test","pid":1,"tid":0,"ts":1600,"dur":100,"bind_id":"q","flow_in":true},
{"ph":"s","id":7,"pid":1,"tid":"a","ts":0},{"ph":"f","id":7,"pid":1,"tid":0,"ts":1600},
{"ph":"i","name":"mark","pid":1,"tid":0,"ts":1650,"s":"g"},
{"ph":"C","name":"mem","pid":1,"tid":0,"ts":5,"args":{"rss":3,"heap":"4"}},
{"ph":"b","name":"req","cat":"net","id":"0x1","pid":1,"tid":0,"ts":10},
{"ph":"e","name":"req","cat":"net","id":"0x1","pid":1,"tid":"a","ts":90},
{"ph":"Q","pid":1,"tid":0,"ts":1},{"ph":"Q","pid":1,"tid":0,"ts":2}
]}"#;
    let analysis = longpole_core::reconcile(vec![read_bytes("t", doc, 5).unwrap()]);
    let d = &analysis.datasets[0];
    let Some(run) = d.detail::<ChromeRun>() else { panic!() };
    let m = &d.model;
    let lanes: Vec<&str> = m.lanes().iter().map(|l| l.name.as_str()).collect();
    assert_eq!(lanes, ["blaze / tid 0", "blaze / main", "global instants", "blaze / async"]);
    assert_eq!(m.window(), Some((-33_000_000, 1_700_000)));
    assert_eq!(run.flows, 1, "the v1 and v2 flows make the same edge");
    assert_eq!(m.edge_count(), 1);
    assert_eq!(run.bazel_critical_path.len(), 1);
    assert_eq!(run.counters.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["mem: rss", "mem: heap"]);
    let diags = &analysis.inputs[0].diagnostics;
    assert_eq!(diags.count_of("chrome.unknown-phase"), 1);
    let json = analysis_json(&analysis);
    assert_eq!(json["chrome"]["by_phase"]["Q"], 2);
    // A Bazel profile's critical path is Bazel's own: the one component.
    assert_eq!(json["critical_path"]["tasks"].as_array().unwrap().len(), 1);
}

#[test]
fn other_json_formats_are_not_claimed() {
    for (name, doc) in [
        ("graph.json", &b"{\"graph\": [{\"uid\": \"a\", \"deps\": []}]}"[..]),
        ("speedscope.json", b"{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"profiles\":[]}"),
        ("lines.json", b"{\"ph\":\"X\",\"ts\":1}\n{\"ph\":\"X\",\"ts\":2}\n"),
        ("array.json", b"[{\"uid\": 1}]"),
        ("empty.json", b"[]"),
    ] {
        let got = read_bytes(name, doc, 4096).map(|i| i.info.format);
        assert!(!matches!(got, Ok(longpole_core::formats::chrome_trace::ID)), "{name}");
    }
}
