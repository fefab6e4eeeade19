//! The reader, the path and the skew on small logs written here event by
//! event: a skipped parent resolved to the stage that computed its
//! shuffle, a straggler's cause, and hostile inputs (not JSON, cut, a
//! strange version, repeated ids).

use super::*;
use crate::diagnostics::Position;
use crate::ingest::read_bytes;
use crate::report::analysis_json;
use serde_json::{json, Value};

fn stage_info(id: i64, parents: &[i64], rdds: &[i64], times: Option<(i64, i64)>) -> Value {
    let mut v = json!({
        "Stage ID": id, "Stage Attempt ID": 0, "Stage Name": format!("map at app.py:{}", 10 + id),
        "Number of Tasks": 2, "Parent IDs": parents,
        "RDD Info": rdds.iter().map(|r| json!({"RDD ID": r, "Name": format!("rdd {r}")})).collect::<Vec<_>>(),
    });
    if let Some((s, c)) = times {
        v["Submission Time"] = json!(s);
        v["Completion Time"] = json!(c);
    }
    v
}

fn task_end(id: i64, stage: i64, launch: i64, finish: i64, gc: i64, read: i64) -> Value {
    json!({"Event": "SparkListenerTaskEnd", "Stage ID": stage, "Stage Attempt ID": 0,
        "Task End Reason": {"Reason": "Success"},
        "Task Info": {"Task ID": id, "Index": id % 2, "Attempt": 0, "Launch Time": launch, "Executor ID": "1",
                      "Finish Time": finish, "Speculative": false},
        "Task Metrics": {"Executor Run Time": finish - launch, "JVM GC Time": gc,
                         "Shuffle Read Metrics": {"Fetch Wait Time": 0, "Remote Bytes Read": read, "Local Bytes Read": 0}}})
}

/// Job 0: stage 0 (shuffle map, RDD 1) then stage 1 (its result). Job 1
/// reuses stage 0's shuffle: stage 2 (RDD 1 again) is skipped, stage 3
/// waits for it. Stage 1 has a straggler that read ten times the others.
fn log() -> Vec<Value> {
    let s0 = stage_info(0, &[], &[0, 1], Some((1100, 1300)));
    let s1 = stage_info(1, &[0], &[2], Some((1300, 2300)));
    let s2 = stage_info(2, &[], &[0, 1], None);
    let s3 = stage_info(3, &[2], &[3], Some((2400, 2500)));
    vec![
        json!({"Event": "SparkListenerLogStart", "Spark Version": "3.5.1"}),
        json!({"Event": "SparkListenerApplicationStart", "App Name": "t", "App ID": "app-1", "Timestamp": 1000, "User": "u"}),
        json!({"Event": "SparkListenerExecutorAdded", "Timestamp": 1001, "Executor ID": "1",
               "Executor Info": {"Host": "h", "Total Cores": 2}}),
        json!({"Event": "SparkListenerJobStart", "Job ID": 0, "Submission Time": 1100, "Stage Infos": [s0, s1],
               "Stage IDs": [0, 1], "Properties": {"spark.job.description": "first 1"}}),
        json!({"Event": "SparkListenerStageSubmitted", "Stage Info": s0}),
        task_end(0, 0, 1100, 1200, 0, 10),
        task_end(1, 0, 1100, 1300, 0, 10),
        json!({"Event": "SparkListenerStageCompleted", "Stage Info": s0}),
        json!({"Event": "SparkListenerStageSubmitted", "Stage Info": s1}),
        task_end(2, 1, 1300, 1400, 0, 10),
        task_end(3, 1, 1300, 1400, 0, 10),
        task_end(4, 1, 1300, 2300, 0, 100),
        json!({"Event": "SparkListenerStageCompleted", "Stage Info": s1}),
        json!({"Event": "SparkListenerJobEnd", "Job ID": 0, "Completion Time": 2300, "Job Result": {"Result": "JobSucceeded"}}),
        json!({"Event": "SparkListenerJobStart", "Job ID": 1, "Submission Time": 2400, "Stage Infos": [s2, s3],
               "Stage IDs": [2, 3], "Properties": {"spark.job.description": "second"}}),
        json!({"Event": "SparkListenerStageSubmitted", "Stage Info": s3}),
        task_end(5, 3, 2400, 2500, 0, 10),
        json!({"Event": "SparkListenerStageCompleted", "Stage Info": s3}),
        json!({"Event": "SparkListenerJobEnd", "Job ID": 1, "Completion Time": 2500, "Job Result": {"Result": "JobSucceeded"}}),
        json!({"Event": "SparkListenerApplicationEnd", "Timestamp": 3000}),
    ]
}

fn text(events: &[Value]) -> String {
    events.iter().map(|e| e.to_string() + "\n").collect()
}

fn analyse(bytes: &[u8], chunk: usize) -> (Value, Vec<(String, Position)>) {
    let analysis = crate::reconcile::reconcile(vec![read_bytes("log", bytes, chunk).unwrap()]);
    let diags = analysis.inputs[0].diagnostics.kept().iter().map(|d| (d.code.to_string(), d.position)).collect();
    (analysis_json(&analysis), diags)
}

#[test]
fn a_skipped_parent_stands_for_the_stage_that_computed_its_shuffle() {
    let (a, diags) = analyse(text(&log()).as_bytes(), 7);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(a["format"], "spark");
    assert_eq!(a["wall_ms"], 2000);
    let path = a["critical_path"]["tasks"].as_array().unwrap();
    let ids: Vec<i64> = path.iter().map(|t| t["stage_id"].as_i64().unwrap()).collect();
    // Stage 3 waited for skipped stage 2, which stands for stage 0; the
    // straggling stage 1 finished earlier and is no parent of stage 3.
    assert_eq!(ids, [0, 3]);
    assert_eq!(path[1]["for_skipped_stage"], Value::Null);
    assert_eq!(path[0]["for_skipped_stage"], 2);
    assert_eq!(a["critical_path"]["total_ms"], 1400);
    assert_eq!(path[0]["duration_ms"], 200);
    assert_eq!((a["spark"]["stages_ran"].as_u64(), a["spark"]["stages_skipped"].as_u64()), (Some(3), Some(1)));
    assert_eq!(a["spark"]["task_attempts"], 6);
}

#[test]
fn the_slowest_task_is_named_with_the_cause_its_metrics_show() {
    let (a, _) = analyse(text(&log()).as_bytes(), 4096);
    let s1 = &a["spark"]["stage_list"].as_array().unwrap()[1];
    assert_eq!(s1["stage_id"], 1);
    let skew = &s1["skew"];
    assert_eq!((skew["max_ms"].as_i64(), skew["median_ms"].as_i64()), (Some(1000), Some(100)));
    assert_eq!(skew["slowest_task"], 4);
    assert_eq!(skew["straggler"], true);
    assert_eq!(skew["cause"], "skewed-input");
    // With most of its time in GC instead, GC is the cause.
    let mut events = log();
    events[11] = task_end(4, 1, 1300, 2300, 600, 10);
    let (a, _) = analyse(text(&events).as_bytes(), 4096);
    assert_eq!(a["spark"]["stage_list"][1]["skew"]["cause"], "gc");
}

#[test]
fn a_path_that_drops_skipped_parents_would_start_at_the_last_job() {
    // Without stage 2's RDD in an earlier stage, it cannot be resolved:
    // said so, and the path starts at stage 3.
    let mut events = log();
    events[14]["Stage Infos"][0]["RDD Info"] = json!([{"RDD ID": 9, "Name": "other"}]);
    let (a, diags) = analyse(text(&events).as_bytes(), 4096);
    assert!(diags.iter().any(|(c, _)| c == "spark.unresolved-skipped-stage"), "{diags:?}");
    assert_eq!(a["critical_path"]["tasks"].as_array().unwrap().len(), 1);
    assert_eq!(a["spark"]["unresolved_skipped_stages"], json!([2]));
}

#[test]
fn is_told_by_its_first_line() {
    let sniff = |head: &str, at_eof| SparkFormat.sniff(SniffInput { head: head.as_bytes(), at_eof, name: "x" });
    assert_eq!(sniff(&text(&log()), true), Sniff::Yes);
    assert_eq!(sniff("{\"Event\":\"SparkListenerLo", false), Sniff::NeedMore);
    assert_eq!(sniff("{\"Event\":\"Other\"}", false), Sniff::No);
    assert_eq!(sniff("{\"run_id\":\"x\"}", false), Sniff::No);
    let input = read_bytes("unknown", text(&log()).as_bytes(), 4096).unwrap();
    assert_eq!(input.info.format, ID);
}

#[test]
fn hostile_lines_are_reported_where_they_are() {
    let mut t = text(&log());
    // A line that is not JSON in the middle, and the log cut inside its last event.
    t.insert_str(t.find("{\"Event\":\"SparkListenerJobStart\"").unwrap(), "not json\n");
    t.truncate(t.len() - 20);
    let (a, diags) = analyse(t.as_bytes(), 1);
    assert!(diags.contains(&("spark.bad-line".into(), Position::Line(4))), "{diags:?}");
    assert!(diags.contains(&("spark.truncated".into(), Position::Line(21))), "{diags:?}");
    assert!(diags.iter().any(|(c, _)| c == "spark.no-application-end"), "{diags:?}");
    // The wall ends at the last event read: job 1's end.
    assert_eq!(a["wall_ms"], 1500);
    assert_eq!(a["spark"]["application_ended"], false);
}

#[test]
fn repeated_ids_keep_the_first_and_a_strange_version_is_read_anyway() {
    let mut events = log();
    events[0]["Spark Version"] = json!("9.0.0");
    let again = events[6].clone();
    events.insert(7, again);
    let job = events[3].clone();
    events.insert(5, job);
    let (a, diags) = analyse(text(&events).as_bytes(), 4096);
    let codes: Vec<(&str, Position)> = diags.iter().map(|(c, p)| (c.as_str(), *p)).collect();
    assert!(codes.contains(&("spark.version", Position::Line(1))), "{codes:?}");
    assert!(codes.contains(&("spark.duplicate-job", Position::Line(6))), "{codes:?}");
    assert!(codes.contains(&("spark.duplicate-task", Position::Line(9))), "{codes:?}");
    assert_eq!(a["spark"]["task_attempts"], 6);
    assert_eq!(a["spark"]["jobs"], 2);
}

#[test]
fn what_is_not_an_event_log_is_refused() {
    let err = read_bytes("x", b"{\"Event\":\"SparkListenerLogStart\"}\n", 4096);
    assert!(err.is_ok());
    let mut reader = SparkFormat.reader();
    let mut diags = crate::diagnostics::Diagnostics::default();
    assert!(reader.feed(b"hello\n", &mut diags).is_err());
}
