//! Status changes in a comparison that are not slowdowns: a Bazel action
//! that moved from remote to local execution, came from the remote cache
//! in one run and not the other, or fell back from remote to local (a
//! retry); a distbuild node started twice. The profiles are written here
//! with the categories and span names Bazel's spawn runners record
//! (`ProfilerTask` descriptions: `remote action cache check` / `check cache
//! hit`, `remote action execution` / `execute remotely`, `local action
//! execution` named by the mnemonic, `subprocess.run`), so what each action
//! did is known by construction.

use longpole_core::compare::result::{Comparison, TaskChange};
use longpole_core::compare::{compare, Options};
use longpole_core::ingest::read_bytes;
use longpole_core::report::compare::{keys_of, runs_of};
use longpole_core::Analysis;

fn analysis(name: &str, bytes: &[u8]) -> Analysis {
    longpole_core::reconcile(vec![read_bytes(name, bytes, usize::MAX).unwrap()])
}

fn compared(a: &Analysis, b: &Analysis) -> Comparison {
    let (ka, kb) = (keys_of(a), keys_of(b));
    let ra = runs_of(a, &ka, &|_| None).unwrap();
    let rb = runs_of(b, &kb, &|_| None).unwrap();
    compare(&ra, &rb, &Options::default()).unwrap()
}

fn row<'c>(c: &'c Comparison, key_end: &str) -> &'c TaskChange {
    c.tasks.iter().find(|t| t.key.ends_with(key_end)).unwrap_or_else(|| panic!("no key ending {key_end}"))
}

/// A complete event, times in ms.
fn x(cat: &str, name: &str, tid: u32, from_ms: u64, to_ms: u64) -> String {
    format!(
        r#"{{"cat":"{cat}","name":"{name}","ph":"X","ts":{},"dur":{},"pid":1,"tid":{tid}}}"#,
        from_ms * 1000,
        (to_ms - from_ms) * 1000
    )
}

/// A Bazel profile: its phase marker, two evaluator threads and `events`.
fn bazel_profile(events: &[String]) -> Vec<u8> {
    let mut all = vec![
        r#"{"name":"thread_name","ph":"M","pid":1,"tid":5,"args":{"name":"skyframe-evaluator-1"}}"#.to_owned(),
        r#"{"name":"thread_name","ph":"M","pid":1,"tid":6,"args":{"name":"skyframe-evaluator-2"}}"#.to_owned(),
        r#"{"cat":"build phase marker","name":"Build artifacts","ph":"i","ts":0,"pid":1,"tid":5}"#.to_owned(),
    ];
    all.extend_from_slice(events);
    format!(r#"{{"otherData":{{"bazel_version":"release 7.4.0"}},"traceEvents":[{}]}}"#, all.join(",\n")).into_bytes()
}

const CACHE: &str = "remote action cache check";
const REMOTE: &str = "remote action execution";
const LOCAL: &str = "local action execution";
const ACTION: &str = "action processing";

#[test]
fn bazel_actions_moved_between_remote_local_and_cache_are_status_changes() {
    let a = bazel_profile(&[
        // Compiled remotely after a cache miss.
        x(ACTION, "Compiling a.cc", 5, 1, 30),
        x(CACHE, "check cache hit", 5, 2, 3),
        x(REMOTE, "execute remotely", 5, 3, 29),
        // A remote cache hit.
        x(ACTION, "Compiling b.cc", 6, 1, 15),
        x(CACHE, "check cache hit", 6, 2, 14),
        // Linked locally, in a subprocess.
        x(ACTION, "Linking app", 5, 30, 50),
        x(LOCAL, "CppLink", 5, 31, 49),
        x("general information", "subprocess.run", 5, 32, 48),
    ]);
    let b = bazel_profile(&[
        // Now local after a cache miss.
        x(ACTION, "Compiling a.cc", 5, 1, 40),
        x(CACHE, "check cache hit", 5, 2, 3),
        x(LOCAL, "CppCompile", 5, 3, 39),
        x("general information", "subprocess.run", 5, 4, 38),
        // A cache miss, run remotely.
        x(ACTION, "Compiling b.cc", 6, 1, 25),
        x(CACHE, "check cache hit", 6, 2, 3),
        x(REMOTE, "execute remotely", 6, 3, 24),
        // Tried remotely, then fell back to local.
        x(ACTION, "Linking app", 5, 40, 70),
        x(REMOTE, "execute remotely", 5, 41, 45),
        x(LOCAL, "CppLink", 5, 45, 69),
    ]);
    let c = compared(&analysis("a.profile.json", &a), &analysis("b.profile.json", &b));
    let expect = [
        ("Compiling a.cc", "executed remotely", "executed locally"),
        ("Compiling b.cc", "cached", "executed remotely"),
        ("Linking app", "executed locally", "executed locally, retried"),
    ];
    for (action, from, to) in expect {
        let r = row(&c, action);
        assert_eq!(r.status, "status-changed", "{action}");
        assert_eq!((r.a_outcome.as_deref(), r.b_outcome.as_deref()), (Some(from), Some(to)), "{action}");
    }
    // The spans inside the actions say nothing of where they ran.
    let check = row(&c, "check cache hit");
    assert_eq!(check.a_outcome.as_deref(), Some("executed"));
    // The JSON names both outcomes.
    let json = longpole_core::report::compare::compare_json(&c).unwrap();
    let linked = json["tasks"].as_array().unwrap().iter().find(|t| t["key"].as_str().unwrap().ends_with("Linking app"));
    assert_eq!(linked.unwrap()["status"], "status-changed");
}

#[test]
fn the_same_execution_on_both_sides_is_no_status_change() {
    let run = |end: u64| {
        bazel_profile(&[
            x(ACTION, "Compiling a.cc", 5, 1, end),
            x(CACHE, "check cache hit", 5, 2, 3),
            x(REMOTE, "execute remotely", 5, 3, end - 1),
        ])
    };
    let c = compared(&analysis("a.json", &run(30)), &analysis("b.json", &run(60)));
    let r = row(&c, "Compiling a.cc");
    assert_eq!(r.status, "changed");
    assert_eq!(r.b_outcome.as_deref(), Some("executed remotely"));
}

/// ya's distbuild log of one node, `C`, started on host1; `again` starts it
/// a second time on host2 before it finishes there.
fn distbuild_log(again: bool) -> Vec<u8> {
    let mut lines = vec!["1000 deployed A host1", "1000 started A host1", "2000 finished A host1 OK 10"];
    lines.extend(["2000 deployed C host1", "2000 started C host1"]);
    if again {
        lines.extend(["2500 deployed C host2", "2500 started C host2", "4500 finished C host2 OK 20"]);
    } else {
        lines.push("4000 finished C host1 OK 20");
    }
    (lines.join("\n") + "\n").into_bytes()
}

#[test]
fn a_distbuild_node_started_twice_is_retried() {
    let b = analysis("b.log", &distbuild_log(true));
    let said = &b.inputs[0].diagnostics;
    let retried = said.kept().iter().find(|d| d.code == "distbuild.retried-task").expect("a diagnostic of the retry");
    assert_eq!(retried.position, longpole_core::diagnostics::Position::Line(7));
    assert!(retried.message.starts_with("1 run task was started more than once (the first: C)"), "{}", retried.message);
    let c = compared(&analysis("a.log", &distbuild_log(false)), &b);
    let r = c.tasks.iter().find(|t| t.key.contains('C')).unwrap();
    assert_eq!(r.status, "status-changed");
    assert_eq!((r.a_outcome.as_deref(), r.b_outcome.as_deref()), (Some("executed"), Some("executed, retried")));
    let a_row = c.tasks.iter().find(|t| t.key.contains('A')).unwrap();
    assert_ne!(a_row.status, "status-changed");
}
