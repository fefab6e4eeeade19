//! dbt's artifacts from real runs (`fixtures/dbt/`, made with dbt-core
//! 1.11 and dbt-duckdb by `tests/dbt/dbt_test.py --keep`): every figure
//! checked against dbt's own, read here from the JSON with serde_json and
//! the timestamps' time of day counted by hand; in both orders and at
//! several chunk sizes. Then hostile inputs: cut, wrong versions,
//! duplicated ids, broken timings.

use longpole_core::ingest::read_bytes;
use longpole_core::report::analysis_json;
use longpole_core::Input;
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;

fn fixture(run: &str, file: &str) -> Vec<u8> {
    std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dbt").join(run).join(file)).unwrap()
}

fn inputs(files: &[(&str, &[u8])], chunk: usize) -> Vec<Input> {
    files.iter().map(|(n, b)| read_bytes(n, b, chunk).unwrap()).collect()
}

fn json(files: &[(&str, &[u8])], chunk: usize) -> Value {
    analysis_json(&longpole_core::reconcile(inputs(files, chunk)))
}

/// ns since midnight of `2026-11-27T19:59:52.177337Z`: every fixture's
/// stamps fall on one day (checked), so differences are exact.
fn of_day(stamp: &str) -> i64 {
    let t = &stamp[11..stamp.len() - 1];
    let (hms, frac) = t.split_once('.').unwrap_or((t, "0"));
    let p: Vec<i64> = hms.split(':').map(|x| x.parse().unwrap()).collect();
    let frac: i64 = format!("{frac:0<9}")[..9].parse().unwrap();
    ((p[0] * 60 + p[1]) * 60 + p[2]) * 1_000_000_000 + frac
}

/// Each (unique_id, step) of the results: (start, end) in ns of the day, thread.
fn steps(results: &Value) -> HashMap<(String, String), (i64, i64, String)> {
    let mut out = HashMap::new();
    let day = &results["metadata"]["generated_at"].as_str().unwrap()[..10];
    for r in results["results"].as_array().unwrap() {
        for t in r["timing"].as_array().unwrap() {
            let (s, e) = (t["started_at"].as_str().unwrap(), t["completed_at"].as_str().unwrap());
            assert!(s.starts_with(day) && e.starts_with(day));
            out.insert(
                (r["unique_id"].as_str().unwrap().to_owned(), t["name"].as_str().unwrap().to_owned()),
                (of_day(s), of_day(e), r["thread_id"].as_str().unwrap().to_owned()),
            );
        }
    }
    out
}

/// Whether manifest node `p` is upstream of `n`.
fn upstream(nodes: &Value, p: &str, n: &str) -> bool {
    let mut stack = vec![n.to_owned()];
    let mut seen = std::collections::HashSet::new();
    while let Some(at) = stack.pop() {
        for d in nodes[&at]["depends_on"]["nodes"].as_array().into_iter().flatten() {
            let d = d.as_str().unwrap();
            if d == p {
                return true;
            }
            if seen.insert(d.to_owned()) {
                stack.push(d.to_owned());
            }
        }
    }
    false
}

/// A JSON time in ms as ns: dbt's stamps are whole µs, and an absolute
/// time in ms as an f64 is exact to a fraction of a µs.
fn ns(ms: &Value) -> i64 {
    (ms.as_f64().unwrap() * 1e3).round() as i64 * 1000
}

fn check_run(run: &str) {
    let (rb, mb) = (fixture(run, "run_results.json"), fixture(run, "manifest.json"));
    let results: Value = serde_json::from_slice(&rb).unwrap();
    let manifest: Value = serde_json::from_slice(&mb).unwrap();
    let nodes = &manifest["nodes"];
    let steps = steps(&results);
    let first = steps.values().map(|s| s.0).min().unwrap();
    let last = steps.values().map(|s| s.1).max().unwrap();
    let build = results["args"]["which"] == "build";
    let mut seen = None;
    for (files, chunk) in [
        ([("run_results.json", &rb[..]), ("manifest.json", &mb[..])], 4096),
        ([("manifest.json", &mb[..]), ("run_results.json", &rb[..])], 7),
        ([("unknown", &rb[..]), ("unknown", &mb[..])], 1 << 20),
    ] {
        let a = json(&files, chunk);
        assert_eq!(a["format"], "dbt");
        assert_eq!(ns(&a["wall_ms"]), last - first, "{run}: wall");
        let d = &a["dbt"];
        assert!(
            (d["elapsed_time_ms"].as_f64().unwrap() - results["elapsed_time"].as_f64().unwrap() * 1e3).abs() < 1e-6
        );
        let rs = results["results"].as_array().unwrap();
        let count =
            |t: &str| rs.iter().filter(|r| nodes[r["unique_id"].as_str().unwrap()]["resource_type"] == t).count();
        for (t, key) in [("model", "models"), ("test", "tests"), ("seed", "seeds"), ("snapshot", "snapshots")] {
            assert_eq!(d[key], count(t), "{run}: {key}");
        }
        assert_eq!(d["threads"], results["args"]["threads"]);
        for (n, r) in d["nodes"].as_array().unwrap().iter().zip(rs) {
            assert_eq!(
                (&n["unique_id"], &n["status"], &n["execution_time_s"]),
                (&r["unique_id"], &r["status"], &r["execution_time"])
            );
            assert_eq!(n["adapter_response"], r["adapter_response"]);
        }
        let path = a["critical_path"]["tasks"].as_array().unwrap();
        for t in path {
            let (s, e, thread) =
                &steps[&(t["unique_id"].as_str().unwrap().to_owned(), t["step"].as_str().unwrap().to_owned())];
            assert_eq!(ns(&t["duration_ms"]), e - s, "{run}: {}", t["name"]);
            assert_eq!(t["lane"], thread.as_str());
        }
        let (p0, pn) = (&path[0], &path[path.len() - 1]);
        assert_eq!(ns(&pn["end_ms"]) - ns(&p0["start_ms"]), ns(&a["critical_path"]["total_ms"]));
        assert_eq!(
            ns(&pn["end_ms"]) - ns(&p0["start_ms"]),
            steps[&(pn["unique_id"].as_str().unwrap().to_owned(), pn["step"].as_str().unwrap().to_owned())].1
                - steps[&(p0["unique_id"].as_str().unwrap().to_owned(), p0["step"].as_str().unwrap().to_owned())].0
        );
        let ends_last = steps.iter().any(|(k, s)| s.1 == last && k.0 == pn["unique_id"].as_str().unwrap());
        assert!(ends_last, "{run}: the path ends at the step that finished last");
        for w in path.windows(2) {
            let (b, c) = (w[0]["unique_id"].as_str().unwrap(), w[1]["unique_id"].as_str().unwrap());
            if b == c {
                assert_eq!((&w[0]["step"], &w[1]["step"]), (&Value::from("compile"), &Value::from("execute")));
                continue;
            }
            let direct = nodes[c]["depends_on"]["nodes"].as_array().unwrap().iter().any(|d| d == b);
            let tested = build
                && nodes[b]["resource_type"] == "test"
                && nodes[b]["depends_on"]["nodes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|p| upstream(nodes, p.as_str().unwrap(), c));
            assert!(direct || tested, "{run}: {c} does not wait for {b}");
        }
        for n in 1..=4 {
            let id = format!("model.longpole_dbt.slow_{n}");
            assert!(path.iter().any(|t| t["unique_id"] == id.as_str()), "{run}: {id} is not on the path");
        }
        let got = (a["critical_path"].clone(), a["dbt"]["dependencies"].clone(), a["dbt"]["test_edges"].clone());
        assert!(seen.as_ref().is_none_or(|s| *s == got), "{run}: order or chunks changed the answer");
        seen = Some(got);
    }
}

#[test]
fn a_dbt_run_matches_dbts_own_figures() {
    check_run("run");
}

#[test]
fn a_dbt_build_matches_dbts_own_figures_with_its_test_edges() {
    check_run("build");
    let a = json(
        &[
            ("run_results.json", &fixture("build", "run_results.json")),
            ("manifest.json", &fixture("build", "manifest.json")),
        ],
        4096,
    );
    // Every test of a model another model depends on holds that model back.
    assert!(a["dbt"]["test_edges"].as_u64().unwrap() > 0);
}

#[test]
fn run_results_alone_claim_no_path_and_a_manifest_alone_says_it_has_no_times() {
    let a = json(&[("run_results.json", &fixture("build", "run_results.json"))], 4096);
    assert_eq!(a["critical_path"], Value::Null);
    assert!(a["no_path_reason"].as_str().unwrap().contains("manifest.json"));
    let a = json(&[("manifest.json", &fixture("build", "manifest.json"))], 4096);
    let codes: Vec<&str> = a["diagnostics"].as_array().unwrap().iter().filter_map(|d| d["code"].as_str()).collect();
    assert_eq!(codes, ["dbt.manifest-alone"]);
}

fn codes(a: &Value) -> Vec<(String, Option<u64>)> {
    a["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["code"].as_str().unwrap().to_owned(), d["line"].as_u64()))
        .collect()
}

const HEAD: &str = r#"{"metadata": {"dbt_schema_version": "https://schemas.getdbt.com/dbt/run-results/v5.json", "dbt_version": "1.5.0", "invocation_id": "x"},
"results": [
"#;

fn result(id: &str, thread: &str, compile: (&str, &str), execute: (&str, &str)) -> String {
    format!(
        r#"{{"unique_id": "{id}", "status": "success", "thread_id": "{thread}", "execution_time": 1.0, "adapter_response": {{}}, "message": null, "failures": null,
 "timing": [{{"name": "compile", "started_at": "2024-01-01T00:00:{}Z", "completed_at": "2024-01-01T00:00:{}Z"}}, {{"name": "execute", "started_at": "2024-01-01T00:00:{}Z", "completed_at": "2024-01-01T00:00:{}Z"}}]}}"#,
        compile.0, compile.1, execute.0, execute.1
    )
}

#[test]
fn duplicated_ids_and_broken_timings_are_reported_where_they_are() {
    let doc = format!(
        "{HEAD}{},\n{},\n{}\n], \"elapsed_time\": 4.5, \"args\": {{\"threads\": 2, \"which\": \"run\"}}}}",
        result("model.p.a", "Thread-1", ("01", "02"), ("02", "04")),
        result("model.p.a", "Thread-2", ("01", "02"), ("02", "09")),
        result("model.p.b", "Thread-2", ("05", "04"), ("05", "06")),
    );
    for chunk in [1, 7, 4096] {
        let a = json(&[("run_results.json", doc.as_bytes())], chunk);
        assert_eq!(codes(&a), [("dbt.duplicate-id".to_owned(), Some(5)), ("dbt.bad-timing".to_owned(), Some(7))]);
        // a: 1 s to 4 s, b's execute 5 s to 6 s: the second `a` is not read.
        assert_eq!(a["wall_ms"], 5000);
        assert_eq!(a["dbt"]["elapsed_time_ms"], 4500);
        assert_eq!(a["dbt"]["nodes"].as_array().unwrap().len(), 2);
    }
}

#[test]
fn a_cut_document_keeps_what_came_before_the_cut() {
    let rb = fixture("build", "run_results.json");
    let mb = fixture("build", "manifest.json");
    let whole: Value = serde_json::from_slice(&rb).unwrap();
    let n = whole["results"].as_array().unwrap().len();
    // Cut inside the tenth result (at its `thread_id`): nine are whole.
    let text = String::from_utf8_lossy(&rb);
    let at = text.match_indices("\"thread_id\"").nth(9).unwrap().0;
    let a = json(&[("run_results.json", &rb[..at]), ("manifest.json", &mb)], 4096);
    let c = codes(&a);
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].0, "dbt.truncated");
    let start = text.match_indices("{\"status\"").nth(9).unwrap().0;
    let line = Some(text[..start].matches('\n').count() as u64 + 1);
    assert_eq!(c[0].1, line, "the cut result's first line");
    assert_eq!(a["dbt"]["nodes"].as_array().unwrap().len(), 9.min(n));
    // A cut manifest: the nodes before the cut join the run.
    let a = json(&[("run_results.json", &rb), ("manifest.json", &mb[..mb.len() / 2])], 4096);
    assert!(codes(&a).iter().any(|(c, l)| c == "dbt.truncated" && l.is_some()));
}

#[test]
fn other_versions_and_other_documents_are_refused_with_the_reason() {
    for (url, says) in [
        ("run-results/v3.json", "run_results.json schema versions 4–6"),
        ("manifest/v13.json", "manifest.json schema versions 9–12"),
        ("catalog/v1.json", "not a format longpole reads"),
    ] {
        let doc = format!(
            "{{\"metadata\": {{\"dbt_schema_version\": \"https://schemas.getdbt.com/dbt/{url}\"}}, \"results\": []}}"
        );
        let err = read_bytes("run_results.json", doc.as_bytes(), 4096).map(|_| ()).unwrap_err().to_string();
        assert!(err.contains(says), "{url}: {err}");
    }
    let doc = r#"{"metadata": {"dbt_version": "1.8"}, "dbt_schema_version": "https://schemas.getdbt.com/dbt/run-results/v6.json", "results": []}"#;
    let err = read_bytes("run_results.json", doc.as_bytes(), 4096).map(|_| ()).unwrap_err().to_string();
    assert!(err.contains("is not the schema of a dbt"), "{err}");
}
