use super::*;
use crate::ingest::read_bytes;
use crate::report::analysis_json;
use serde_json::Value;

fn results(which: &str, nodes: &[(&str, u32, u32)]) -> String {
    let results: Vec<String> = nodes
        .iter()
        .map(|(id, s, e)| {
            format!(
                r#"{{"unique_id": "{id}", "status": "success", "thread_id": "Thread-1", "execution_time": {}, "adapter_response": {{}},
                 "timing": [{{"name": "execute", "started_at": "2024-01-01T00:00:{s:02}Z", "completed_at": "2024-01-01T00:00:{e:02}Z"}}]}}"#,
                e - s
            )
        })
        .collect();
    format!(
        r#"{{"metadata": {{"dbt_schema_version": "https://schemas.getdbt.com/dbt/run-results/v4.json", "invocation_id": "i"}},
            "results": [{}], "args": {{"which": "{which}", "threads": 2}}}}"#,
        results.join(",\n")
    )
}

/// a ← b ← c; test t1 on a, test t2 on a and b (a relationship).
const MANIFEST: &str = r#"{"metadata": {"dbt_schema_version": "https://schemas.getdbt.com/dbt/manifest/v9.json", "invocation_id": "i"},
"nodes": {
 "model.p.a": {"unique_id": "model.p.a", "resource_type": "model", "depends_on": {"nodes": [], "macros": []}},
 "model.p.b": {"unique_id": "model.p.b", "resource_type": "model", "depends_on": {"nodes": ["model.p.a"]}},
 "model.p.c": {"unique_id": "model.p.c", "resource_type": "model", "depends_on": {"nodes": ["model.p.b"]}},
 "test.p.t1": {"unique_id": "test.p.t1", "resource_type": "test", "depends_on": {"nodes": ["model.p.a"]}},
 "test.p.t2": {"unique_id": "test.p.t2", "resource_type": "test", "depends_on": {"nodes": ["model.p.a", "model.p.b"]}}
},
"macros": {"macro.dbt.x": {"unique_id": "macro.dbt.x"}}, "parent_map": {"model.p.b": ["model.p.a"]}}"#;

/// As `dbt build` ran it: b after t1, c after t2.
const BUILD: &[(&str, u32, u32)] =
    &[("model.p.a", 0, 1), ("test.p.t1", 1, 5), ("model.p.b", 5, 6), ("test.p.t2", 6, 9), ("model.p.c", 9, 10)];

fn path(which: &str) -> (Vec<String>, Value) {
    let r = results(which, BUILD);
    let inputs = vec![read_bytes("r", r.as_bytes(), 5).unwrap(), read_bytes("m", MANIFEST.as_bytes(), 3).unwrap()];
    let a = analysis_json(&crate::reconcile::reconcile(inputs));
    let ids =
        a["critical_path"]["tasks"].as_array().unwrap().iter().map(|t| t["unique_id"].as_str().unwrap().to_owned());
    (ids.collect(), a)
}

#[test]
fn in_dbt_build_a_model_waits_for_the_tests_of_its_upstream_models() {
    let (ids, a) = path("build");
    // c waits for b and t2 (t2's models a and b are both upstream of c);
    // b for a and t1, not t2 (b is one of t2's models).
    assert_eq!(ids, ["model.p.a", "test.p.t1", "model.p.b", "test.p.t2", "model.p.c"]);
    assert_eq!(a["dbt"]["test_edges"], 2);
    assert_eq!(a["dbt"]["dependencies"], 5);
    assert_eq!(a["critical_path"]["total_ms"], 10_000);
    assert_eq!((a["dbt"]["models"].as_u64(), a["dbt"]["tests"].as_u64()), (Some(3), Some(2)));
    // One thread of two busy all along the path: one idle on average.
    assert_eq!(a["dbt"]["idle_threads_on_path"], 1.0);
}

#[test]
fn outside_dbt_build_tests_hold_nothing_back() {
    let (ids, a) = path("run");
    assert_eq!(ids, ["model.p.a", "model.p.b", "model.p.c"]);
    assert_eq!(a["dbt"]["test_edges"], 0);
    assert_eq!(a["critical_path"]["total_ms"], 10_000);
}

#[test]
fn both_artifacts_are_told_from_their_head_and_nothing_else_is() {
    let sniff = |head: &str, at_eof| DbtFormat.sniff(SniffInput { head: head.as_bytes(), at_eof, name: "x.json" });
    assert_eq!(sniff(&results("run", &[]), true), Sniff::Yes);
    assert_eq!(sniff(MANIFEST, true), Sniff::Yes);
    assert_eq!(sniff(r#"{"metadata": {"dbt_schema_ver"#, false), Sniff::NeedMore);
    assert_eq!(sniff(r#"{"traceEvents": []}"#, true), Sniff::No);
    assert_eq!(sniff(&format!("{{\"traceEvents\": [{}]}}", " ".repeat(2000)), false), Sniff::No);
    let input = read_bytes("unknown", MANIFEST.as_bytes(), 4096).unwrap();
    assert_eq!(input.info.format, ID);
}
