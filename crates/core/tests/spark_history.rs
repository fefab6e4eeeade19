//! Opt-in: the event logs of apache/spark's History Server tests
//! (`core/src/test/resources/spark-events/`), which this repository does
//! not hold. Fetch them, then:
//!
//! `LONGPOLE_SPARK_EVENTS=DIR cargo test -p longpole-core --test spark_history -- --nocapture`
//!
//! Without the variable the test says so and checks nothing. For each log
//! of DIR that has an application's start and end, the History Server's
//! figures are computed here from the raw events (serde_json): the
//! application's duration (end less start), and each completed stage's
//! duration (completion less submission); longpole's wall and each of its
//! path stages must equal them, its path must end at the stage that
//! completed last, and the count of task ends must be its task attempts.
//! Where DIR's sibling `HistoryServerExpectations/` holds
//! `application_list_json_expectation.json`, each application's listed
//! `duration` must equal the wall too.

use longpole_core::ingest::read_bytes;
use longpole_core::report::analysis_json;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A log's bytes: a file, or a rolling log's events files in order, or an
/// old-style folder's `EVENT_LOG_1`.
fn log_bytes(p: &Path) -> Option<Vec<u8>> {
    if !p.is_dir() {
        return std::fs::read(p).ok();
    }
    let mut parts: Vec<(u64, PathBuf)> = std::fs::read_dir(p)
        .ok()?
        .filter_map(|e| {
            let q = e.ok()?.path();
            let name = q.file_name()?.to_str()?.to_owned();
            let n = match name.strip_prefix("events_") {
                Some(rest) => rest.split('_').next()?.parse().ok()?,
                None if name.starts_with("EVENT_LOG_") => 0,
                None => return None,
            };
            Some((n, q))
        })
        .collect();
    parts.sort();
    Some(parts.iter().flat_map(|(_, q)| std::fs::read(q).unwrap_or_default()).collect())
}

#[test]
fn the_history_servers_figures_on_its_own_test_logs() {
    let Some(dir) = std::env::var_os("LONGPOLE_SPARK_EVENTS").map(PathBuf::from) else {
        eprintln!("LONGPOLE_SPARK_EVENTS is not set: nothing checked");
        return;
    };
    let durations: HashMap<String, i64> =
        std::fs::read(dir.join("../HistoryServerExpectations/application_list_json_expectation.json"))
            .ok()
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
            .and_then(|v| v.as_array().cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|app| Some((app["id"].as_str()?.to_owned(), app["attempts"][0]["duration"].as_i64()?)))
            .collect();
    let mut checked = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let Some(bytes) = log_bytes(&p) else { continue };
        // Compressed logs are read as longpole reads them; the figures come from plain ones.
        let events: Vec<Value> = bytes.split(|&b| b == b'\n').filter_map(|l| serde_json::from_slice(l).ok()).collect();
        let time = |k: &str| events.iter().find(|e| e["Event"] == k).and_then(|e| e["Timestamp"].as_i64());
        let (Some(start), Some(end)) = (time("SparkListenerApplicationStart"), time("SparkListenerApplicationEnd"))
        else {
            eprintln!("{name}: no application start and end in plain events; skipped");
            continue;
        };
        let mut stages: HashMap<i64, (i64, i64)> = HashMap::new();
        for e in events.iter().filter(|e| e["Event"] == "SparkListenerStageCompleted") {
            let s = &e["Stage Info"];
            if let (Some(id), Some(a), Some(z)) =
                (s["Stage ID"].as_i64(), s["Submission Time"].as_i64(), s["Completion Time"].as_i64())
            {
                stages.insert(id, (a, z));
            }
        }
        let tasks = events.iter().filter(|e| e["Event"] == "SparkListenerTaskEnd").count();
        let input = read_bytes(&name, &bytes, 1 << 16).unwrap_or_else(|e| panic!("{name}: {e}"));
        let a = analysis_json(&longpole_core::reconcile(vec![input]));
        assert_eq!(a["wall_ms"].as_i64(), Some(end - start), "{name}");
        assert_eq!(a["spark"]["task_attempts"].as_u64(), Some(tasks as u64), "{name}");
        let path = a["critical_path"]["tasks"].as_array().cloned().unwrap_or_default();
        for t in &path {
            let id = t["stage_id"].as_i64().unwrap();
            let (s, z) = stages[&id];
            assert_eq!(t["duration_ms"].as_i64(), Some(z - s), "{name}: stage {id}");
        }
        if let (Some(last), Some(&(_, z))) = (path.last(), stages.values().max_by_key(|(_, z)| *z)) {
            let id = last["stage_id"].as_i64().unwrap();
            assert_eq!(stages[&id].1, z, "{name}: the path ends at a stage that completed last");
        }
        let app_id =
            events.iter().find(|e| e["Event"] == "SparkListenerApplicationStart").and_then(|e| e["App ID"].as_str());
        if let Some(&d) = app_id.and_then(|id| durations.get(id)) {
            assert_eq!(a["wall_ms"].as_i64(), Some(d), "{name}: the History Server lists {d} ms");
        }
        eprintln!(
            "{name}: wall {} ms, {} stages on the path, {tasks} tasks: as the History Server",
            end - start,
            path.len()
        );
        checked += 1;
    }
    assert!(checked > 0, "no log with an application's start and end in {}", dir.display());
}
