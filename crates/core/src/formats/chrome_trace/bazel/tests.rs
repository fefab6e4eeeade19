//! Matching components to actions on small hand-written Bazel profiles.

use crate::formats::chrome_trace::reconcile::ChromeRun;
use crate::ingest::read_bytes;

/// A step as (description, (lane, start ns) of its action, duration ns).
type Seen = (String, Option<(String, i64)>, i64);

fn run(doc: &str) -> (crate::reconcile::Analysis, Vec<String>) {
    let analysis = crate::reconcile::reconcile(vec![read_bytes("p", doc.as_bytes(), 7).unwrap()]);
    let codes = analysis.inputs[0].diagnostics.kept().iter().map(|d| d.code.to_string()).collect();
    (analysis, codes)
}

const THREADS: &str = r#"{"name":"thread_name","ph":"M","pid":1,"tid":0,"args":{"name":"Critical Path"}},
{"name":"thread_name","ph":"M","pid":1,"tid":5,"args":{"name":"skyframe-evaluator 3"}},
{"name":"thread_name","ph":"M","pid":1,"tid":6,"args":{"name":"skyframe-evaluator-cpu-heavy-12"}},
{"name":"thread_name","ph":"M","pid":1,"tid":7,"args":{"name":"Main Thread"}},"#;

/// A profile of `X` events (category, name, ts µs, dur µs, tid) on the
/// threads above.
fn profile(events: &[(&str, &str, u64, u64, u32)]) -> String {
    let events: Vec<String> = events
        .iter()
        .map(|(cat, name, ts, dur, tid)| {
            format!(r#"{{"cat":"{cat}","name":"{name}","ph":"X","ts":{ts},"dur":{dur},"pid":1,"tid":{tid}}}"#)
        })
        .collect();
    format!(r#"{{"traceEvents":[{THREADS}{}]}}"#, events.join(",\n"))
}

const ACTION: &str = "action processing";
const COMPONENT: &str = "critical path component";

#[test]
fn components_land_on_their_actions_in_bazel_order() {
    // Two actions named `b`: the one at the component's time wins; a
    // same-named slice on the main thread loses to the evaluator's.
    let doc = profile(&[
        (ACTION, "a", 100, 50, 5),
        (ACTION, "b", 10, 20, 6),
        (ACTION, "b", 5000, 900, 6),
        (ACTION, "b", 5000, 900, 7),
        (COMPONENT, "action 'a'", 99, 48, 0),
        (COMPONENT, "action 'b'", 5001, 898, 0),
        (COMPONENT, "action 'gone'", 6000, 10, 0),
    ]);
    let (analysis, codes) = run(&doc);
    let d = &analysis.datasets[0];
    let Some(run) = d.detail::<ChromeRun>() else { panic!() };
    let bazel = run.bazel.as_deref().unwrap();
    let m = &d.model;
    let got: Vec<Seen> = bazel
        .path
        .iter()
        .map(|s| {
            let a = s.action.map(|a| (m.lanes()[m.task(a).lane.index()].name.clone(), m.task(a).start.get().unwrap()));
            (s.description.clone(), a, s.duration)
        })
        .collect();
    assert_eq!(
        got,
        [
            ("a".to_owned(), Some(("pid 1 / skyframe-evaluator 3".to_owned(), 100_000)), 48_000),
            ("b".to_owned(), Some(("pid 1 / skyframe-evaluator-cpu-heavy-12".to_owned(), 5_000_000)), 898_000),
            ("gone".to_owned(), None, 10_000),
        ]
    );
    assert_eq!(bazel.path_total(), 956_000);
    // The unmatched component stays, as its own slice.
    let last = bazel.path[2].task();
    assert_eq!(m.lanes()[m.task(last).lane.index()].name, "pid 1 / Critical Path");
    assert_eq!(codes, ["bazel.path-unmatched"]);
    // Each step waits for the one before it.
    assert_eq!(m.deps(bazel.path[1].task()), [bazel.path[0].task()]);
    assert_eq!(m.deps(last), [bazel.path[1].task()]);
}

#[test]
fn evaluator_numbers_come_from_the_thread_name() {
    use super::evaluator_number;
    assert_eq!(evaluator_number("pid 1 / skyframe-evaluator 3"), Some(3));
    assert_eq!(evaluator_number("pid 1 / skyframe-evaluator-cpu-heavy-12"), Some(12));
    assert_eq!(evaluator_number("pid 1 / skyframe-evaluator 4 (pid 1, tid 254)"), Some(4));
    assert_eq!(evaluator_number("pid 1 / skyframe-evaluator-cpu-heavy (pid 1, tid 9)"), None);
    assert_eq!(evaluator_number("pid 1 / Main Thread"), None);
}

#[test]
fn an_action_serves_one_component_and_far_actions_are_not_taken() {
    let doc = profile(&[
        (ACTION, "x", 100, 50, 5),
        (COMPONENT, "action 'x'", 100, 50, 0),
        (COMPONENT, "action 'x'", 150, 5, 0),
        (COMPONENT, "action 'x'", 90000, 5, 0),
    ]);
    let (analysis, _) = run(&doc);
    let Some(run) = analysis.datasets[0].detail::<ChromeRun>() else { panic!() };
    let matched: Vec<bool> = run.bazel.as_ref().unwrap().path.iter().map(|s| s.action.is_some()).collect();
    assert_eq!(matched, [true, false, false]);
}

#[test]
fn phases_run_from_marker_to_marker_and_the_last_to_the_last_event() {
    let doc = r#"{"traceEvents":[
{"cat":"build phase marker","name":"Launch Blaze","ph":"X","ts":-100,"dur":100,"pid":1,"tid":1},
{"cat":"build phase marker","name":"Initialize command","ph":"i","ts":0,"pid":1,"tid":1},
{"cat":"build phase marker","name":"Build artifacts","ph":"i","ts":400,"pid":1,"tid":1},
{"cat":"general information","name":"x","ph":"X","ts":450,"dur":100,"pid":1,"tid":1},
{"name":"action count","ph":"C","ts":700,"pid":1,"tid":1,"args":{"action":"2.0"}}
]}"#;
    let (analysis, _) = run(doc);
    let Some(run) = analysis.datasets[0].detail::<ChromeRun>() else { panic!() };
    let b = run.bazel.as_ref().unwrap();
    let phases: Vec<(&str, &str, i64, i64)> =
        b.phases.iter().map(|p| (p.name.as_str(), p.nick, p.start / 1000, p.end / 1000)).collect();
    assert_eq!(
        phases,
        [
            ("Launch Blaze", "launch", -100, 0),
            ("Initialize command", "init", 0, 400),
            ("Build artifacts", "execution", 400, 700)
        ]
    );
    assert_eq!(b.action_counts, [(700_000, 2.0)]);
    assert!(b.path.is_empty());
}
