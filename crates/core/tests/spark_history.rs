//! Opt-in: the event logs of apache/spark's History Server tests
//! (`core/src/test/resources/spark-events/`) and the History Server's
//! expected REST answers for them (`HistoryServerExpectations/`), which
//! this repository does not hold. Fetch both folders side by side, then:
//!
//! `LONGPOLE_SPARK_EVENTS=DIR/spark-events cargo test -p longpole-core --test spark_history -- --nocapture`
//!
//! Without the variable the test says so and checks nothing. Every log of
//! the folder must open. For each log with an application's start and end,
//! longpole's wall must be the end less the start, its path stages'
//! durations their completion less their submission (both from the raw
//! events, read here with serde_json), its path must end at the stage that
//! completed last, and its task attempts must be the task ends. Then the
//! History Server's own answers, where the expectations folder holds them:
//! every application attempt it lists must be a log whose wall is its
//! `duration`; each stage of its stage lists must have its task count, its
//! complete, failed and killed tasks, its executor run time and its
//! duration (completion less submission); each task of its task lists its
//! duration and its status; each job of its job lists its result, its
//! stages and its completed tasks.

use longpole_core::ingest::read_bytes;
use longpole_core::model::TaskId;
use longpole_core::report::analysis_json;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// An application attempt: `App ID` and `App Attempt ID`.
type AppKey = (String, Option<String>);

/// The History Server's answers checked here: the file, and the
/// application attempt it answers for (HistoryServerSuite's `cases`).
const STAGE_LISTS: &[(&str, &str, Option<&str>)] = &[
    ("stage_list_json_expectation.json", "local-1422981780767", None),
    ("complete_stage_list_json_expectation.json", "local-1422981780767", None),
    ("failed_stage_list_json_expectation.json", "local-1422981780767", None),
    ("one_stage_json_expectation.json", "local-1422981780767", None),
    ("one_stage_attempt_json_expectation.json", "local-1422981780767", None),
    ("stage_list_with_accumulable_json_expectation.json", "local-1426533911241", Some("1")),
    ("stage_with_accumulable_json_expectation.json", "local-1426533911241", Some("1")),
];

/// Task lists, as [`STAGE_LISTS`].
const TASK_LISTS: &[(&str, &str, Option<&str>)] = &[
    ("stage_task_list_expectation.json", "local-1430917381534", None),
    ("stage_task_list_w__offset___length_expectation.json", "local-1430917381534", None),
    ("stage_task_list_from_multi_attempt_app_json_1__expectation.json", "local-1426533911241", Some("1")),
    ("stage_task_list_from_multi_attempt_app_json_2__expectation.json", "local-1426533911241", Some("2")),
];

/// Job lists, as [`STAGE_LISTS`].
const JOB_LISTS: &[(&str, &str, Option<&str>)] = &[
    ("job_list_json_expectation.json", "local-1422981780767", None),
    ("one_job_json_expectation.json", "local-1422981780767", None),
    ("job_list_from_multi_attempt_app_json_1__expectation.json", "local-1426533911241", Some("1")),
    ("job_list_from_multi_attempt_app_json_2__expectation.json", "local-1426533911241", Some("2")),
];

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

/// The History Server's time (`2015-02-03T16:43:07.191GMT`) in ms since
/// the epoch (days from the civil date, as in Howard Hinnant's algorithm).
fn epoch_ms(s: &str) -> i64 {
    let n = |a: usize, b: usize| s[a..b].parse::<i64>().unwrap_or_else(|_| panic!("a time: {s}"));
    let (y, m, d) = (n(0, 4), n(5, 7), n(8, 10));
    let (y, m) = if m <= 2 { (y - 1, m + 9) } else { (y, m - 3) };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * m + 2) / 5 + d - 1;
    let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468;
    ((days * 24 + n(11, 13)) * 60 + n(14, 16)) * 60_000 + n(17, 19) * 1000 + n(20, 23)
}

/// A JSON answer as a list: an array, or one object.
fn listed(v: Value) -> Vec<Value> {
    match v {
        Value::Array(a) => a,
        other => vec![other],
    }
}

/// What longpole said of one log: its analysis and, by task id, each task
/// attempt's start, end (ms) and failure.
struct Read {
    name: String,
    analysis: Value,
    tasks: HashMap<i64, (i64, Option<i64>, bool)>,
}

/// Reads one log with longpole and checks it against its own raw events.
fn read_log(name: &str, bytes: &[u8]) -> Option<(AppKey, Read)> {
    // Compressed logs are read as longpole reads them; the figures come from plain ones.
    let events: Vec<Value> = bytes.split(|&b| b == b'\n').filter_map(|l| serde_json::from_slice(l).ok()).collect();
    let input = read_bytes(name, bytes, 1 << 16).unwrap_or_else(|e| panic!("{name}: {e}"));
    let analysis = longpole_core::reconcile(vec![input]);
    let a = analysis_json(&analysis);
    let m = &analysis.datasets[0].model;
    let ms = |t: Option<i64>| t.map(|x| x / 1_000_000);
    let tasks = m
        .tasks()
        .iter()
        .enumerate()
        .filter_map(|(i, t)| {
            let id = m.uid(TaskId(i as u32)).strip_prefix("task ")?.parse().ok()?;
            Some((id, (ms(t.start.get())?, ms(t.end.get()), t.failed)))
        })
        .collect();
    let first = |k: &str| events.iter().find(|e| e["Event"] == k);
    let time = |k: &str| first(k).and_then(|e| e["Timestamp"].as_i64());
    let (Some(start), Some(end)) = (time("SparkListenerApplicationStart"), time("SparkListenerApplicationEnd")) else {
        eprintln!("{name}: opened; no application start and end in plain events, so no figures checked");
        return None;
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
    let task_ends = events.iter().filter(|e| e["Event"] == "SparkListenerTaskEnd").count();
    assert_eq!(a["wall_ms"].as_i64(), Some(end - start), "{name}");
    assert_eq!(a["spark"]["task_attempts"].as_u64(), Some(task_ends as u64), "{name}");
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
    eprintln!(
        "{name}: wall {} ms, {} stages on the path, {task_ends} task ends: as its events",
        end - start,
        path.len()
    );
    let app = first("SparkListenerApplicationStart").unwrap();
    let key = (app["App ID"].as_str()?.to_owned(), app["App Attempt ID"].as_str().map(str::to_owned));
    Some((key, Read { name: name.to_owned(), analysis: a, tasks }))
}

/// Each application attempt the History Server lists is a log with its
/// duration as the wall; the count of attempts checked.
fn check_applications(expected: &Path, logs: &HashMap<AppKey, Read>) -> usize {
    let Ok(bytes) = std::fs::read(expected.join("application_list_json_expectation.json")) else { return 0 };
    let apps: Vec<Value> = serde_json::from_slice(&bytes).unwrap();
    let mut checked = 0;
    for app in &apps {
        let id = app["id"].as_str().unwrap();
        for at in app["attempts"].as_array().unwrap() {
            let key = (id.to_owned(), at["attemptId"].as_str().map(str::to_owned));
            let read = logs.get(&key).unwrap_or_else(|| panic!("the History Server lists {key:?}: no log of it"));
            let d = at["duration"].as_i64().unwrap();
            assert_eq!(at["completed"], true, "{key:?}: a listed incomplete application");
            assert_eq!(read.analysis["wall_ms"].as_i64(), Some(d), "{}: the History Server lists {d} ms", read.name);
            checked += 1;
        }
    }
    checked
}

/// The History Server's answers of `table` that the folder holds: each
/// file's name, the log it answers for and its entries.
fn answers<'a>(
    expected: &Path,
    logs: &'a HashMap<AppKey, Read>,
    table: &[(&'static str, &str, Option<&str>)],
) -> Vec<(&'static str, &'a Read, Vec<Value>)> {
    table
        .iter()
        .filter_map(|&(file, app, attempt)| {
            let bytes = std::fs::read(expected.join(file)).ok()?;
            let key = (app.to_owned(), attempt.map(str::to_owned));
            let read = logs.get(&key).unwrap_or_else(|| panic!("{file}: no log of {key:?}"));
            Some((file, read, listed(serde_json::from_slice(&bytes).unwrap())))
        })
        .collect()
}

/// Each stage of the History Server's stage lists against longpole's; the
/// count of stage attempts checked.
fn check_stages(expected: &Path, logs: &HashMap<AppKey, Read>) -> usize {
    let mut checked = 0;
    for (file, read, entries) in answers(expected, logs, STAGE_LISTS) {
        let ours = read.analysis["spark"]["stage_list"].as_array().unwrap();
        for hs in entries {
            let (id, at) = (hs["stageId"].as_i64().unwrap(), hs["attemptId"].as_i64().unwrap());
            let what = format!("{file} ({}): stage {id}.{at}", read.name);
            let s = ours.iter().find(|s| s["stage_id"] == id && s["attempt"] == at).unwrap_or_else(|| panic!("{what}"));
            assert_eq!(s["num_tasks"], hs["numTasks"], "{what}: tasks");
            assert_eq!(s["complete_tasks"], hs["numCompleteTasks"], "{what}: complete tasks");
            assert_eq!(s["failed_tasks"], hs["numFailedTasks"], "{what}: failed tasks");
            if !hs["numKilledTasks"].is_null() {
                assert_eq!(s["killed_tasks"], hs["numKilledTasks"], "{what}: killed tasks");
            }
            assert_eq!(s["executor_run_ms"], hs["executorRunTime"], "{what}: executor run time");
            if let (Some(a), Some(z)) = (hs["submissionTime"].as_str(), hs["completionTime"].as_str()) {
                assert_eq!(s["duration_ms"].as_i64(), Some(epoch_ms(z) - epoch_ms(a)), "{what}: duration");
            }
            let status = hs["status"].as_str().unwrap();
            assert_eq!(status == "FAILED", !s["failure"].is_null(), "{what}: {status}");
            assert_eq!(status == "SKIPPED" || status == "PENDING", s["ran"] == false, "{what}: {status}");
            if let Some(tasks) = hs["tasks"].as_object() {
                checked_tasks(&what, read, tasks.values());
            }
            checked += 1;
        }
    }
    checked
}

/// Each of `tasks` (the History Server's) against longpole's task attempt
/// of the same id: its launch, its duration and whether it failed.
fn checked_tasks<'a>(what: &str, read: &Read, tasks: impl Iterator<Item = &'a Value>) -> usize {
    let mut checked = 0;
    for hs in tasks {
        let id = hs["taskId"].as_i64().unwrap();
        let &(start, end, failed) = read.tasks.get(&id).unwrap_or_else(|| panic!("{what}: task {id}"));
        assert_eq!(start, epoch_ms(hs["launchTime"].as_str().unwrap()), "{what}: task {id}'s launch");
        if let Some(d) = hs["duration"].as_i64() {
            assert_eq!(end.map(|z| z - start), Some(d), "{what}: task {id}'s duration");
        }
        let status = hs["status"].as_str().unwrap();
        assert_eq!(failed, status == "FAILED" || status == "KILLED", "{what}: task {id} is {status}");
        checked += 1;
    }
    checked
}

/// Each task of the History Server's task lists; the count checked.
fn check_tasks(expected: &Path, logs: &HashMap<AppKey, Read>) -> usize {
    let mut checked = 0;
    for (file, read, tasks) in answers(expected, logs, TASK_LISTS) {
        checked += checked_tasks(&format!("{file} ({})", read.name), read, tasks.iter());
    }
    checked
}

/// Each job of the History Server's job lists: its result, stages and
/// completed tasks (those of the stages it ran first); the count checked.
fn check_jobs(expected: &Path, logs: &HashMap<AppKey, Read>) -> usize {
    let mut checked = 0;
    for (file, read, entries) in answers(expected, logs, JOB_LISTS) {
        let spark = &read.analysis["spark"];
        for hs in entries {
            let id = hs["jobId"].as_i64().unwrap();
            let what = format!("{file} ({}): job {id}", read.name);
            let jobs = spark["job_list"].as_array().unwrap();
            let j = jobs.iter().find(|j| j["job_id"] == id).unwrap_or_else(|| panic!("{what}"));
            let result = match hs["status"].as_str().unwrap() {
                "SUCCEEDED" => "JobSucceeded",
                "FAILED" => "JobFailed",
                other => panic!("{what}: {other}"),
            };
            assert_eq!(j["result"], result, "{what}");
            assert_eq!(j["stages"], hs["stageIds"], "{what}");
            let complete: u64 = spark["stage_list"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|s| s["job"] == id)
                .filter_map(|s| s["complete_tasks"].as_u64())
                .sum();
            assert_eq!(Some(complete), hs["numCompletedTasks"].as_u64(), "{what}: completed tasks");
            if let (Some(a), Some(z)) = (hs["submissionTime"].as_str(), hs["completionTime"].as_str()) {
                assert_eq!(j["duration_ms"].as_i64(), Some(epoch_ms(z) - epoch_ms(a)), "{what}: duration");
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn the_history_servers_figures_on_its_own_test_logs() {
    let Some(dir) = std::env::var_os("LONGPOLE_SPARK_EVENTS").map(PathBuf::from) else {
        eprintln!("LONGPOLE_SPARK_EVENTS is not set: nothing checked");
        return;
    };
    let mut logs: HashMap<AppKey, Read> = HashMap::new();
    let mut opened = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let Some(bytes) = log_bytes(&p) else { continue };
        opened += 1;
        if let Some((key, read)) = read_log(&name, &bytes) {
            logs.insert(key, read);
        }
    }
    assert!(!logs.is_empty(), "no log with an application's start and end in {}", dir.display());
    let expected = dir.join("../HistoryServerExpectations");
    let apps = check_applications(&expected, &logs);
    let stages = check_stages(&expected, &logs);
    let tasks = check_tasks(&expected, &logs);
    let jobs = check_jobs(&expected, &logs);
    eprintln!(
        "{opened} logs opened, {} checked against their events; as the History Server answers: \
         {apps} application attempts' durations, {stages} stage attempts, {tasks} tasks, {jobs} jobs",
        logs.len()
    );
}
