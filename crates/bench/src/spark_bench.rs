//! A big Spark event log read natively: a generated application of jobs
//! of three stages (two shuffle map stages and a result stage that waits
//! for both), every later job reusing the first job's shuffle through a
//! skipped stage, 200 tasks a stage on 50 executors of 4 cores, each task's
//! end written with its metrics and accumulables as Spark 3.5 writes them
//! (about 2 KB a line). 256 MB by default.
//!
//!     cargo run --release -p longpole-bench --bin spark-bench [MEGABYTES] [--write FILE]
//!
//! `--write FILE` also writes the log, for the browser:
//! `node tests/e2e/measure-big-file.mjs FILE`. Prints a Markdown table:
//! the log's size and lines, then the median (and min–max) of 3 runs of
//! reading it (ingest, 1 MiB chunks), and of reconciling and reporting
//! it, in ms, with the reading's throughput in MB/s; then what the
//! page's worker does once the log is read (`src/finished.rs`): the
//! summary, the timeline index and the run's view, and the view's size as
//! the JSON posted to the page.

use longpole_core::ingest::read_bytes;
use longpole_core::layout::timeline::TimelineIndex;
use longpole_core::report::analysis_json;
use longpole_core::Summary;
use std::fmt::Write as _;
use std::time::Instant;

/// Runs of each step.
const RUNS: usize = 3;
/// Tasks of a stage.
const TASKS: i64 = 200;
/// Executors, and cores each.
const EXECUTORS: i64 = 50;
const CORES: i64 = 4;

fn stage_info(id: i64, parents: &[i64], rdd: i64, times: Option<(i64, i64)>) -> String {
    let times = times.map(|(s, c)| format!(",\"Submission Time\":{s},\"Completion Time\":{c}")).unwrap_or_default();
    format!(
        "{{\"Stage ID\":{id},\"Stage Attempt ID\":0,\"Stage Name\":\"map at Job.scala:{id}\",\"Number of Tasks\":{TASKS},\
\"RDD Info\":[{{\"RDD ID\":{rdd},\"Name\":\"MapPartitionsRDD\",\"Scope\":\"{{\\\"id\\\":\\\"{rdd}\\\",\\\"name\\\":\\\"map\\\"}}\",\
\"Callsite\":\"map at Job.scala:{id}\",\"Parent IDs\":[],\"Storage Level\":{{\"Use Disk\":false,\"Use Memory\":false,\"Deserialized\":false,\"Replication\":1}},\
\"Barrier\":false,\"DeterministicLevel\":\"DETERMINATE\",\"Number of Partitions\":{TASKS},\"Number of Cached Partitions\":0,\"Memory Size\":0,\"Disk Size\":0}}],\
\"Parent IDs\":{parents:?},\"Details\":\"org.apache.spark.rdd.RDD.map(RDD.scala:422)\"{times},\"Accumulables\":[],\"Resource Profile Id\":0}}"
    )
}

fn task_end(out: &mut String, task: i64, stage: i64, index: i64, launch: i64, finish: i64) {
    let executor = task % EXECUTORS + 1;
    let run = finish - launch - 3;
    let _ = writeln!(
        out,
        "{{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":{stage},\"Stage Attempt ID\":0,\"Task Type\":\"ShuffleMapTask\",\
\"Task End Reason\":{{\"Reason\":\"Success\"}},\"Task Info\":{{\"Task ID\":{task},\"Index\":{index},\"Attempt\":0,\"Partition ID\":{index},\
\"Launch Time\":{launch},\"Executor ID\":\"{executor}\",\"Host\":\"10.0.0.{executor}\",\"Locality\":\"PROCESS_LOCAL\",\"Speculative\":false,\
\"Getting Result Time\":0,\"Finish Time\":{finish},\"Failed\":false,\"Killed\":false,\"Accumulables\":[\
{{\"ID\":{a},\"Name\":\"internal.metrics.executorRunTime\",\"Update\":{run},\"Value\":{run},\"Internal\":true,\"Count Failed Values\":true}},\
{{\"ID\":{b},\"Name\":\"internal.metrics.jvmGCTime\",\"Update\":4,\"Value\":40,\"Internal\":true,\"Count Failed Values\":true}},\
{{\"ID\":{c},\"Name\":\"internal.metrics.shuffle.write.bytesWritten\",\"Update\":51234,\"Value\":5123400,\"Internal\":true,\"Count Failed Values\":true}}]}},\
\"Task Executor Metrics\":{{\"JVMHeapMemory\":0,\"JVMOffHeapMemory\":0,\"OnHeapExecutionMemory\":0,\"OffHeapExecutionMemory\":0,\"OnHeapStorageMemory\":0,\
\"OffHeapStorageMemory\":0,\"OnHeapUnifiedMemory\":0,\"OffHeapUnifiedMemory\":0,\"DirectPoolMemory\":0,\"MappedPoolMemory\":0,\"MinorGCCount\":0,\
\"MinorGCTime\":0,\"MajorGCCount\":0,\"MajorGCTime\":0,\"TotalGCTime\":0}},\"Task Metrics\":{{\"Executor Deserialize Time\":3,\
\"Executor Deserialize CPU Time\":2512345,\"Executor Run Time\":{run},\"Executor CPU Time\":{cpu},\"Peak Execution Memory\":0,\"Result Size\":2580,\
\"JVM GC Time\":4,\"Result Serialization Time\":0,\"Memory Bytes Spilled\":0,\"Disk Bytes Spilled\":0,\"Shuffle Read Metrics\":{{\
\"Remote Blocks Fetched\":150,\"Local Blocks Fetched\":4,\"Fetch Wait Time\":1,\"Remote Bytes Read\":4812345,\"Remote Bytes Read To Disk\":0,\
\"Local Bytes Read\":123456,\"Total Records Read\":100000,\"Remote Requests Duration\":12,\"Push Based Shuffle\":{{\"Corrupt Merged Block Chunks\":0,\
\"Merged Fetch Fallback Count\":0,\"Merged Remote Blocks Fetched\":0,\"Merged Local Blocks Fetched\":0,\"Merged Remote Chunks Fetched\":0,\
\"Merged Local Chunks Fetched\":0,\"Merged Remote Bytes Read\":0,\"Merged Local Bytes Read\":0,\"Merged Remote Requests Duration\":0}}}},\
\"Shuffle Write Metrics\":{{\"Shuffle Bytes Written\":51234,\"Shuffle Write Time\":1234567,\"Shuffle Records Written\":1000}},\
\"Input Metrics\":{{\"Bytes Read\":0,\"Records Read\":0}},\"Output Metrics\":{{\"Bytes Written\":0,\"Records Written\":0}},\"Updated Blocks\":[]}}}}",
        a = stage * 3,
        b = stage * 3 + 1,
        c = stage * 3 + 2,
        cpu = run * 900_000,
    );
}

/// A log of about `bytes` bytes.
fn log(bytes: usize) -> String {
    let mut out = String::with_capacity(bytes + (1 << 20));
    let t0 = 1_700_000_000_000i64;
    out.push_str("{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}\n");
    let _ = writeln!(out, "{{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"bench\",\"App ID\":\"app-1\",\"Timestamp\":{t0},\"User\":\"u\"}}");
    for e in 1..=EXECUTORS {
        let _ = writeln!(out, "{{\"Event\":\"SparkListenerExecutorAdded\",\"Timestamp\":{t0},\"Executor ID\":\"{e}\",\"Executor Info\":{{\"Host\":\"10.0.0.{e}\",\"Total Cores\":{CORES}}}}}");
    }
    let (mut t, mut task, mut job, mut stage) = (t0 + 1000, 0i64, 0i64, 0i64);
    while out.len() < bytes {
        // Two map stages and a result stage; later jobs skip the first map
        // stage (its RDD, 0, is the first job's first stage's).
        let ids = [stage, stage + 1, stage + 2];
        let first = job == 0;
        let rdds = [0, 10 * job + 1, 10 * job + 2];
        let mut infos = Vec::new();
        let _ = writeln!(out, "{{\"Event\":\"SparkListenerJobStart\",\"Job ID\":{job},\"Submission Time\":{t},\"Stage Infos\":[{},{},{}],\"Stage IDs\":{ids:?},\"Properties\":{{\"spark.job.description\":\"job {job}\"}}}}",
            stage_info(ids[0], &[], rdds[0], None), stage_info(ids[1], &[], rdds[1], None), stage_info(ids[2], &[ids[0], ids[1]], rdds[2], None));
        for (k, &id) in ids.iter().enumerate() {
            if k == 0 && !first {
                continue;
            }
            let parents: &[i64] = if k == 2 { &[ids[0], ids[1]] } else { &[] };
            let submitted = t;
            let _ = writeln!(
                out,
                "{{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":{}}}",
                stage_info(id, parents, rdds[k], None)
            );
            let mut end = t;
            for i in 0..TASKS {
                let launch = t + (i / (EXECUTORS * CORES)) * 300;
                let finish = launch + 200 + (task * 7919) % 100;
                task_end(&mut out, task, id, i, launch, finish);
                task += 1;
                end = end.max(finish);
            }
            t = end + 5;
            infos.push(stage_info(id, parents, rdds[k], Some((submitted, end))));
            let _ = writeln!(
                out,
                "{{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":{}}}",
                infos.last().map_or("", String::as_str)
            );
        }
        let _ = writeln!(out, "{{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":{job},\"Completion Time\":{t},\"Job Result\":{{\"Result\":\"JobSucceeded\"}}}}");
        t += 10;
        job += 1;
        stage += 3;
    }
    let _ = writeln!(out, "{{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":{t}}}");
    out
}

fn median(mut xs: Vec<f64>) -> (f64, f64, f64) {
    xs.sort_by(f64::total_cmp);
    (xs[xs.len() / 2], xs[0], xs[xs.len() - 1])
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let write = args.iter().position(|a| a == "--write").and_then(|i| args.get(i + 1)).cloned();
    let mb: usize = args.iter().find(|a| a.parse::<usize>().is_ok()).and_then(|a| a.parse().ok()).unwrap_or(256);
    let text = log(mb << 20);
    if let Some(path) = write {
        std::fs::write(&path, &text).expect("the log is written");
    }
    let (mut read, mut rest) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let at = Instant::now();
        let input = read_bytes("bench.log", text.as_bytes(), 1 << 20).expect("the log is read");
        read.push(at.elapsed().as_secs_f64() * 1e3);
        let at = Instant::now();
        let analysis = longpole_core::reconcile(vec![input]);
        std::hint::black_box(analysis_json(&analysis));
        rest.push(at.elapsed().as_secs_f64() * 1e3);
    }
    let input = read_bytes("bench.log", text.as_bytes(), 1 << 20).expect("the log is read");
    let analysis = longpole_core::reconcile(vec![input]);
    let (mut view_ms, mut json_bytes) = (Vec::new(), 0);
    for _ in 0..RUNS {
        let at = Instant::now();
        let summary = Summary::of(&analysis);
        let d = analysis.datasets.first().expect("a dataset");
        let index = TimelineIndex::new(&d.model);
        let view = analysis.view(d, &index);
        view_ms.push(at.elapsed().as_secs_f64() * 1e3);
        json_bytes = serde_json::to_string(&view).map_or(0, |j| j.len())
            + serde_json::to_string(&summary).map_or(0, |j| j.len());
    }
    let (v, v0, v1) = median(view_ms);
    let ((r, r0, r1), (s, s0, s1)) = (median(read), median(rest));
    let lines = text.bytes().filter(|&b| b == b'\n').count();
    println!("| log | lines | read (ms) | reconcile + report (ms) | read MB/s |");
    println!("|---|---|---|---|---|");
    println!(
        "| {:.0} MB | {lines} | {r:.0} ({r0:.0}–{r1:.0}) | {s:.0} ({s0:.0}–{s1:.0}) | {:.0} |",
        text.len() as f64 / 1e6,
        text.len() as f64 / 1e6 / (r / 1e3)
    );
    println!();
    println!("| summary + timeline index + view (ms) | view and summary as JSON |");
    println!("|---|---|");
    println!("| {v:.0} ({v0:.0}–{v1:.0}) | {:.1} MB |", json_bytes as f64 / 1e6);
}
