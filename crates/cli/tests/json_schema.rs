//! `longpole analyze --format json` of every format against the published
//! schema (`docs/schema/analysis-v1.json`, draft 2020-12): each sample
//! alone and all of them together, each file of the test data that
//! longpole reads alone (`tests/data/`, `crates/core/tests/fixtures/`; the ninja builds as log, manifest and deps
//! log), and a ya evlog with its graph made by the simulator. Beyond the
//! schema, each path task's shared fields agree with the format's own
//! (`duration_ms` is `end_ms - start_ms`, a ya task's `lane` its `host`, a
//! ninja step's `name` the first of its outputs), and the schema refuses the
//! shapes it replaced.

use assert_cmd::Command;
use jsonschema::Validator;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn schema() -> Value {
    serde_json::from_slice(&std::fs::read(root().join("docs/schema/analysis-v1.json")).unwrap()).unwrap()
}

fn validator() -> Validator {
    jsonschema::draft202012::new(&schema()).unwrap()
}

/// The files under `dir`, recursively, in name order.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for e in entries {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(files_under(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// `analyze --format json` of `files` read together, if longpole reads them.
fn analyze(files: &[PathBuf]) -> Option<Value> {
    let out =
        Command::cargo_bin("longpole").unwrap().arg("analyze").args(files).args(["--format", "json"]).output().unwrap();
    out.status.success().then(|| serde_json::from_slice(&out.stdout).unwrap())
}

/// Milliseconds as a float (the JSON's integers and fractions alike).
fn ms(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

/// Checks `report` against the schema and each path task's shared fields
/// against its own; gives each run's format with whether it had a path.
fn check(v: &Validator, what: &str, report: &Value) -> Vec<(String, bool)> {
    let errors: Vec<String> = v.iter_errors(report).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "{what}: {errors:#?}");
    let runs = std::iter::once(report).chain(report["datasets"].as_array().into_iter().flatten());
    let mut seen = Vec::new();
    for run in runs {
        let path = &run["critical_path"];
        for t in path["tasks"].as_array().into_iter().flatten() {
            if let (Some(s), Some(e)) = (t["start_ms"].as_f64(), t["end_ms"].as_f64()) {
                // To the µs: epoch milliseconds as f64 keep about that much.
                assert!((ms(&t["duration_ms"]) - (e - s)).abs() < 1e-3, "{what}: {t}");
            }
            if let Some(host) = t["host"].as_str() {
                assert_eq!(t["lane"], host, "{what}: {t}");
            }
            if let Some(output) = t["output"].as_str() {
                assert_eq!(t["name"], output.split(", ").next().unwrap(), "{what}: {t}");
                assert_eq!(t["lane"], t["slot"], "{what}: {t}");
            }
        }
        if let Some(steps) = path.get("steps") {
            // The same tasks, `steps` as they were before the shared fields.
            let shared = ["lane", "start_ms", "end_ms", "duration_ms"];
            let strip = |v: &Value| -> Vec<Value> {
                let mut tasks = v.as_array().unwrap().clone();
                tasks.iter_mut().for_each(|t| shared.iter().for_each(|k| _ = t.as_object_mut().unwrap().remove(*k)));
                tasks
            };
            assert_eq!(strip(steps), strip(&path["tasks"]), "{what}: ninja's steps are its tasks");
        }
        seen.push((run["format"].as_str().unwrap().to_owned(), !path.is_null()));
    }
    seen
}

#[test]
fn the_schema_is_a_valid_draft_2020_12_schema() {
    assert!(jsonschema::draft202012::meta::is_valid(&schema()));
}

#[test]
fn every_format_gives_json_of_the_published_shape() {
    let v = validator();
    let mut seen = BTreeSet::new();
    let samples = files_under(&root().join("samples"));
    for f in &samples {
        let report = analyze(std::slice::from_ref(f)).unwrap_or_else(|| panic!("{f:?} is read"));
        seen.extend(check(&v, &f.display().to_string(), &report));
    }
    let together = analyze(&samples).unwrap();
    assert!(together["datasets"].as_array().unwrap().len() > 5);
    check(&v, "the samples together", &together);

    // Files of the fixtures that longpole reads alone (some are only read
    // with others: a manifest, a deps log).
    let fixtures: Vec<PathBuf> =
        ["tests/data", "crates/core/tests/fixtures"].iter().flat_map(|d| files_under(&root().join(d))).collect();
    let mut read = 0;
    let skip = ["md", "tsv", "snap", "reference"];
    for f in fixtures.iter().filter(|f| f.extension().is_none_or(|e| !skip.iter().any(|s| e == *s))) {
        if let Some(report) = analyze(std::slice::from_ref(f)) {
            seen.extend(check(&v, &f.display().to_string(), &report));
            read += 1;
        }
    }
    assert!(read >= 9, "{read} fixtures read alone");
    for build in ["meson-chain"] {
        let dir = root().join("crates/core/tests/fixtures/ninja").join(build);
        let files = [".ninja_log", "build.ninja", ".ninja_deps"].map(|f| dir.join(f));
        seen.extend(check(&v, build, &analyze(&files).unwrap()));
    }

    let dir = std::env::temp_dir().join(format!("longpole-json-schema-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = longpole_distbuild_sim::Config { nodes: 200, hosts: 4, seed: 5, ..Default::default() };
    let nodes = longpole_distbuild_sim::graph(&cfg);
    let truth = longpole_distbuild_sim::simulate(&cfg, &nodes, &mut std::io::sink()).unwrap();
    let (evlog, graph) = (dir.join("build.evlog"), dir.join("graph.json"));
    longpole_distbuild_sim::write_evlog(&nodes, &truth, &mut std::fs::File::create(&evlog).unwrap()).unwrap();
    longpole_distbuild_sim::write_graph_json(&nodes, &mut std::fs::File::create(&graph).unwrap()).unwrap();
    let report = analyze(&[evlog, graph]).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    seen.extend(check(&v, "a simulated evlog", &report));

    let want: BTreeSet<(String, bool)> = [
        ("distbuild", true),
        ("ya-evlog", true),
        ("ninja-log", true),
        ("ninja-log", false),
        ("chrome-trace", true),
        ("chrome-trace", false),
        ("ghc-eventlog", false),
        ("monetdb-mal", true),
        ("evobench", false),
        ("starrocks", true),
        ("cargo-timings", true),
        ("dbt", false),
        ("spark", true),
    ]
    .into_iter()
    .map(|(f, p)| (f.to_owned(), p))
    .collect();
    assert!(seen.is_superset(&want), "formats seen (with a path or not): {seen:?}");
}

#[test]
fn the_schema_refuses_the_shapes_it_replaced() {
    let v = validator();
    let task = json!({"name": "A", "lane": "host1", "start_ms": 1, "end_ms": 3, "duration_ms": 2});
    let good = json!({
        "schema_version": 1, "format": "distbuild", "wall_ms": 10,
        "critical_path": {"total_ms": 2, "tasks": [task]}, "inputs": [], "diagnostics": [],
    });
    assert!(v.is_valid(&good));
    let with = |pointer: &str, value: Value| {
        let mut doc = good.clone();
        *doc.pointer_mut(pointer).unwrap() = value;
        doc
    };
    // A ya build's task before: no name, no lane.
    let ya_task = json!({"kind": "run", "uid": "A", "host": "host1", "start_ms": 1, "end_ms": 3});
    assert!(!v.is_valid(&with("/critical_path/tasks/0", ya_task)));
    // ninja's path before: `steps`, no `tasks`.
    assert!(!v.is_valid(&with("/critical_path", json!({"total_ms": 2, "steps": [task]}))));
    // No path without a reason, and no reason beside a path.
    assert!(!v.is_valid(&with("/critical_path", Value::Null)));
    let mut no_path = with("/critical_path", Value::Null);
    no_path["no_path_reason"] = json!("no dependencies");
    assert!(v.is_valid(&no_path));
    let mut both = good.clone();
    both["no_path_reason"] = json!("no dependencies");
    assert!(!v.is_valid(&both));
    // No version, or another one.
    let mut unversioned = good.clone();
    unversioned.as_object_mut().unwrap().remove("schema_version");
    assert!(!v.is_valid(&unversioned));
    assert!(!v.is_valid(&with("/schema_version", json!(2))));
    // A further run must have the shape too.
    let mut datasets = good.clone();
    datasets["datasets"] = json!([{"format": "ninja", "wall_ms": 1}]);
    assert!(!v.is_valid(&datasets));
    // What other formats add is allowed: levers, a task's drag.
    let mut levers = good.clone();
    levers["critical_path"]["tasks"][0]["drag_ms"] = json!(1.5);
    levers["levers"] = json!([{"name": "A", "lane": "host1", "duration_ms": 2, "slack_ms": 0, "drag_ms": 1.5,
                               "saved_if_halved_ms": 1, "next_pole": null}]);
    assert!(v.is_valid(&levers));
    levers["levers"] = Value::Null;
    assert!(v.is_valid(&levers));
    levers["levers"] = json!([{"task": "A", "saves_ms": 1.5}]);
    assert!(!v.is_valid(&levers));
}
