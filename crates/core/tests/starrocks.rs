//! StarRocks query profiles of the corpus through the whole pipeline: read
//! by content, written back byte for byte, the same at every chunk size,
//! the spec's reference figures, the report (text and JSON) snapshotted,
//! and no diagnostic left unexplained.

use longpole_core::formats::starrocks_profile::run::StarRocksRun;
use longpole_core::ingest::read_bytes;
use longpole_core::report::{analysis_json, analysis_text};
use longpole_core::Input;
use support::{check_format, named, text_and_json};

mod support;

const FILES: [&str; 4] = [
    "starrocks-3.5.2-profile1.txt",
    "starrocks-3.5.2-profile2.txt",
    "starrocks-3.5.2-profile4.txt",
    "starrocks-3.5.2-test_profile.txt",
];

fn read(name: &str, chunk: usize) -> Input {
    read_bytes("unknown", &support::bytes(&format!("starrocks-profile/{name}")), chunk).unwrap()
}

#[test]
fn every_corpus_profile_is_recognised_and_written_back_byte_for_byte() {
    for name in FILES {
        let input = read(name, 4096);
        assert_eq!(input.info.format, longpole_core::formats::starrocks_profile::ID, "{name}");
        assert_eq!(input.parsed.write_back().unwrap(), support::bytes(&format!("starrocks-profile/{name}")), "{name}");
    }
}

#[test]
fn reports_of_every_profile() {
    for name in FILES {
        let stem = name.trim_start_matches("starrocks-3.5.2-").trim_end_matches(".txt");
        let file = named("unknown", support::bytes(&format!("starrocks-profile/{name}")));
        check_format!([file], text_and_json => format!("{stem}_text"), format!("{stem}_json"));
    }
}

#[test]
fn the_trees_are_the_same_at_every_chunk_size() {
    for name in FILES {
        let Some(whole) =
            read(name, usize::MAX).parsed.into_read::<longpole_core::formats::starrocks_profile::Profile>()
        else {
            panic!()
        };
        for chunk in [1, 7, 4096] {
            let Some(p) = read(name, chunk).parsed.into_read::<longpole_core::formats::starrocks_profile::Profile>()
            else {
                panic!()
            };
            assert_eq!(p, whole, "{name} at {chunk}");
        }
    }
}

fn run_of(name: &str) -> longpole_core::reconcile::Analysis {
    longpole_core::reconcile(vec![read(name, 4096)])
}

#[test]
fn the_spec_reference_figures() {
    // profile1: 3 fragments, 12 pipelines, 27 operators, Total 9m41s, 352 `__MAX_OF_` lines.
    let analysis = run_of("starrocks-3.5.2-profile1.txt");
    let Some(run) = analysis.datasets[0].detail::<StarRocksRun>() else { panic!() };
    assert_eq!((run.fragments.len(), run.pipelines().count(), run.operator_count()), (3, 12, 27));
    assert_eq!(run.total, Some(581_000_000_000));
    assert_eq!(run.state.as_deref(), Some("Finished"));
    let Some(p) = read("starrocks-3.5.2-profile1.txt", 4096)
        .parsed
        .into_read::<longpole_core::formats::starrocks_profile::Profile>()
    else {
        panic!()
    };
    let mut max_of = 0;
    let mut count = |c: &longpole_core::formats::starrocks_profile::Counter| {
        c.walk(&mut |c| max_of += usize::from(c.name.starts_with("__MAX_OF_")))
    };
    fn each(
        n: &longpole_core::formats::starrocks_profile::Node,
        f: &mut impl FnMut(&longpole_core::formats::starrocks_profile::Counter),
    ) {
        n.counters().for_each(&mut *f);
        n.children().for_each(|c| each(c, f));
    }
    each(p.root.as_ref().unwrap(), &mut count);
    assert_eq!(max_of, 352);
    // profile2: 11ms, a schema scan; profile4: still running, 3m9s; test_profile: 1h30m.
    let figures = |name: &str| {
        let analysis = run_of(name);
        let Some(run) = analysis.datasets[0].detail::<StarRocksRun>() else { panic!() };
        (run.state.clone().unwrap(), run.total.unwrap())
    };
    assert_eq!(figures("starrocks-3.5.2-profile2.txt"), ("Finished".to_owned(), 11_000_000));
    assert_eq!(figures("starrocks-3.5.2-profile4.txt"), ("Running".to_owned(), 189_000_000_000));
    assert_eq!(figures("starrocks-3.5.2-test_profile.txt"), ("Finished".to_owned(), 5_400_000_000_000));
}

#[test]
fn every_diagnostic_is_explained() {
    let codes = |name: &str| -> Vec<(String, Option<u64>)> {
        let analysis = run_of(name);
        analysis.inputs[0]
            .diagnostics
            .kept()
            .iter()
            .map(|d| {
                let line = match d.position {
                    longpole_core::diagnostics::Position::Line(n) => Some(n),
                    _ => None,
                };
                (d.code.to_string(), line)
            })
            .collect()
    };
    assert_eq!(codes("starrocks-3.5.2-profile1.txt"), []);
    assert_eq!(codes("starrocks-3.5.2-profile2.txt"), []);
    // A profile of a running query says so.
    assert_eq!(codes("starrocks-3.5.2-profile4.txt"), [("starrocks.unfinished".to_owned(), Some(8))]);
    // test_profile prints `PendingTime: 0ns` above `InputEmptyTime: 1h30m` in
    // both pipelines (its ScheduleTime took the 1h30m instead).
    assert_eq!(
        codes("starrocks-3.5.2-test_profile.txt"),
        [("starrocks.mismatch".to_owned(), Some(79)), ("starrocks.mismatch".to_owned(), Some(272))]
    );
}

/// A profile's plan nodes, largest first: (plan_node_id, main operator,
/// total, CPUTime, ScanTime, NetworkTime) in ns, and each one's percent.
type Nodes = Vec<(i64, String, i64, Option<i64>, Option<i64>, Option<i64>)>;

fn nodes_of(analysis: &longpole_core::reconcile::Analysis) -> (Nodes, Vec<Option<f64>>) {
    let Some(run) = analysis.datasets[0].detail::<StarRocksRun>() else { panic!() };
    let shares = longpole_core::formats::starrocks_profile::nodes::shares(run);
    let nodes = shares.iter().map(|s| (s.plan_node_id, s.name.clone(), s.total, s.cpu, s.scan, s.network)).collect();
    (nodes, shares.iter().map(|s| s.percent).collect())
}

fn n(
    id: i64,
    name: &str,
    total: i64,
    cpu: i64,
    scan: Option<i64>,
    network: Option<i64>,
) -> (i64, String, i64, Option<i64>, Option<i64>, Option<i64>) {
    (id, name.to_owned(), total, Some(cpu), scan, network)
}

/// Percentages agree to the hundredth ANALYZE PROFILE prints.
fn assert_percents(got: &[Option<f64>], want: &[f64]) {
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert!((g.unwrap() - w).abs() < 0.005, "{got:?} vs {want:?}");
    }
}

#[test]
fn plan_node_times_as_read_by_hand_from_profile1() {
    // CPUTime = Σ __MAX_OF_OperatorTotalTime (the value where no max is printed)
    // over each node's operators and subordinates; line numbers of profile1.
    let analysis = run_of("starrocks-3.5.2-profile1.txt");
    let (nodes, percents) = nodes_of(&analysis);
    let us = 1_000;
    assert_eq!(
        nodes,
        [
            // CONNECTOR_SCAN 737.143us (l.1056) + COLLECT_STATS_SINK 855.674us (l.1004)
            // + CHUNK_ACCUMULATE 26.742us (l.1024) + COLLECT_STATS_SOURCE 8.970us (l.1361);
            // + __MAX_OF_ScanTime 9m41s (l.1244), the average being 8m13s (l.1243).
            n(0, "CONNECTOR_SCAN", 581_001_628_529, 1_628_529, Some(581_000_000_000), None),
            // COLLECT_STATS_SINK 407.794 (l.420) + EXCHANGE_SOURCE 201.668 (l.447) + COLLECT_STATS_SOURCE
            // 109.333 (l.914) + EXCHANGE_SINK 303.960 (l.1542); + __MAX_OF_NetworkTime 656.350us (l.1582).
            n(3, "EXCHANGE_SOURCE", 1_679_105, 1_022_755, None, Some(656_350)),
            // 2.300 (l.130) + 826.991 (l.152) + 112.954 (l.270) + 9.640 (l.282) + 14.230 (l.339)
            // + EXCHANGE_SINK 148.676 (l.521); + NetworkTime 357.433us (l.556).
            n(6, "GLOBAL_PARALLEL_MERGE_SOURCE", 1_472_224, 1_114_791, None, Some(357_433)),
            // 42.821 (l.1300) + 477.046 (l.1421) + 69.562 (l.1485) + 54.452 (l.1632).
            n(2, "AGGREGATE_STREAMING_SOURCE", 643_881, 643_881, None, None),
            // 5.820 (l.594) + 4.231 (l.638) + 33.120 (l.662) + 34.461 (l.755).
            n(5, "LOCAL_PARALLEL_MERGE_SOURCE", 77_632, 77_632, None, None),
            // 42.112 (l.805) + 35.421 (l.850).
            n(4, "AGGREGATE_BLOCKING_SOURCE", 77_533, 77_533, None, None),
            // RESULT_SINK 71.503 (l.310) + CHUNK_ACCUMULATE 1.330 (l.327).
            n(-1, "RESULT_SINK", 72_833, 72_833, None, None),
            // PROJECT 62.411us (l.1325).
            n(1, "PROJECT", 62_411, 62_411, None, None),
        ]
    );
    // Shares of QueryCumulativeOperatorTime 9m41s (l.64): the scan ≈ 100%.
    let c = 581_000_000_000.0;
    let want: Vec<f64> = [581_001_628_529.0, 1679.105, 1472.224, 643.881, 77.632, 77.533, 72.833, 62.411]
        .iter()
        .enumerate()
        .map(|(i, &t)| if i == 0 { t * 100.0 / c } else { t * us as f64 * 100.0 / c })
        .collect();
    assert_percents(&percents, &want);
    // The critical path runs over the plan from the scan to the result sink.
    let model = &analysis.datasets[0].model;
    let (path, _) = longpole_core::analysis::critical_path::ya_path(model);
    let labels: Vec<String> = path.tasks.iter().map(|&t| model.label(t).into_owned()).collect();
    assert_eq!(
        labels,
        [
            "CONNECTOR_SCAN (plan_node_id=0)",
            "PROJECT (plan_node_id=1)",
            "AGGREGATE_STREAMING_SOURCE (plan_node_id=2)",
            "EXCHANGE_SOURCE (plan_node_id=3)",
            "AGGREGATE_BLOCKING_SOURCE (plan_node_id=4)",
            "LOCAL_PARALLEL_MERGE_SOURCE (plan_node_id=5)",
            "GLOBAL_PARALLEL_MERGE_SOURCE (plan_node_id=6)",
            "RESULT_SINK (plan_node_id=-1)",
        ]
    );
    // The scan's bar holds its IO: it lasts its node time, from 0.
    let scan = model.task(path.tasks[0]);
    assert_eq!((scan.start.get(), scan.end.get()), (Some(0), Some(581_001_628_529)));
}

#[test]
fn plan_node_times_as_read_by_hand_from_the_other_profiles() {
    // profile2 (11ms, information_schema): QueryCumulativeOperatorTime 1.695ms (l.55).
    let (nodes, percents) = nodes_of(&run_of("starrocks-3.5.2-profile2.txt"));
    assert_eq!(
        nodes,
        [
            // 51.171 (l.381) + 146.204 (l.428) + 1.640 (l.448) + SCHEMA_SCAN 78.062 (l.475); ScanTime 583.040us (l.518).
            n(0, "SCHEMA_SCAN", 860_117, 277_077, Some(583_040), None),
            // 95.113 (l.124) + 107.644 (l.171) + 50.072 (l.204) + 129.553 (l.304); NetworkTime 392.674us (l.341).
            n(1, "EXCHANGE_SOURCE", 775_056, 382_382, None, Some(392_674)),
            // 59.501 (l.95) + 0.890 (l.112).
            n(-1, "RESULT_SINK", 60_391, 60_391, None, None),
        ]
    );
    assert_percents(&percents, &[50.74, 45.73, 3.56]);

    // profile4 (running): Fragment 1 (l.353) reported no pipeline yet, so its
    // five plan nodes (the Topology's, l.56) have no time; 2s271ms (l.61).
    let (nodes, percents) = nodes_of(&run_of("starrocks-3.5.2-profile4.txt"));
    let none = |id: i64, name: &str| (id, name.to_owned(), 0, None, None, None);
    assert_eq!(
        nodes,
        [
            // RESULT_SINK 2s210ms (l.314) + CHUNK_ACCUMULATE 1.543ms (l.331).
            n(-1, "RESULT_SINK", 2_211_543_000, 2_211_543_000, None, None),
            // 3.652ms (l.127) + 38.495ms (l.149) + 2.171ms (l.269) + 14.412ms (l.281) + 1.129ms (l.343);
            // no NetworkTime: the exchange's sending side has not reported.
            n(5, "GLOBAL_PARALLEL_MERGE_SOURCE", 59_859_000, 59_859_000, None, None),
            none(4, "SORT"),
            none(3, "PROJECT"),
            none(2, "AGGREGATION"),
            none(1, "PROJECT"),
            none(0, "OLAP_SCAN"),
        ]
    );
    assert_percents(&percents, &[97.38, 2.64, 0.0, 0.0, 0.0, 0.0, 0.0]);

    // test_profile (1h30m): QueryCumulativeOperatorTime 1h31m (l.55).
    let (nodes, percents) = nodes_of(&run_of("starrocks-3.5.2-test_profile.txt"));
    assert_eq!(
        nodes,
        [
            // CONNECTOR_SCAN 7s854ms (l.344) + LIMIT 1.670us (l.328); ScanTime 1h30m (l.434).
            n(0, "CONNECTOR_SCAN", 5_407_854_001_670, 7_854_001_670, Some(5_400_000_000_000), None),
            // LIMIT 1.100us (l.177) + EXCHANGE_SOURCE 323.540us (l.212) + EXCHANGE_SINK 155.125us (l.292);
            // NetworkTime 412.095us (l.311).
            n(1, "EXCHANGE_SOURCE", 891_860, 479_765, None, Some(412_095)),
            // 95.244us (l.117) + 2.591us (l.150).
            n(-1, "RESULT_SINK", 97_835, 97_835, None, None),
        ]
    );
    assert_percents(&percents, &[5_407.854_001_67 * 100.0 / 5_460.0, 0.0, 0.0]);
}

#[test]
fn the_summary_and_hints_of_profile1_as_read_by_hand() {
    let analysis = run_of("starrocks-3.5.2-profile1.txt");
    let text = analysis_text(&analysis);
    for line in [
        // Summary (l.6), Execution's counters (l.61-72), Planner (l.29), Collect Profile Time (l.24).
        "    TotalTime: 9m41s",
        "        ExecutionTime: 9m41s [Scan: 9m41s (100.00%), Network: 1.013ms (0.00%), ResultDeliverTime: 0ns (0.00%), ScheduleTime: 19.492ms (0.00%)]",
        "        PlannerTime: 4ms",
        "        CollectProfileTime: 1ms",
        "    QueryPeakMemoryUsagePerNode: 1.027 GB, QueryAllocatedMemoryUsage: 558.156 GB",
        "        1. CONNECTOR_SCAN (plan_node_id=0): 9m41s (100.00%) [red]",
        "        2. EXCHANGE_SOURCE (plan_node_id=3): 1.679ms (0.00%)",
        "         └──CONNECTOR_SCAN (plan_node_id=0) [OLAP_SCAN]",
        "                TotalTime: 9m41s (100.00%) [CPUTime: 1.628ms, ScanTime: 9m41s] [red]",
        // Detail timers: IO-task times always; others above 30% of the node's 581s by their max.
        "                    IOTaskExecTime: 8m13s [min=6m6s, max=9m41s]",
        "                        CreateSegmentIter: 2m51s [min=1m24s, max=3m21s]",
        "                            IOTimeRemote: 3m7s [min=3m3s, max=3m11s]",
        "                            ColumnIteratorInit: 2m55s [min=2m44s, max=3m28s]",
        "                    IOTaskWaitTime: 509.250us [min=446.926us, max=566.725us]",
    ] {
        assert!(text.lines().any(|l| l == line), "missing {line:?} in\n{text}");
    }
    // ShortKeyFilter's max 2m52s is 29.6% of the node: not shown.
    assert!(!text.contains("ShortKeyFilter"));
    let Some(run) = analysis.datasets[0].detail::<StarRocksRun>() else { panic!() };
    let hints = longpole_core::formats::starrocks_profile::hints::hints(run);
    let kinds: Vec<&str> = hints.iter().take(3).map(|h| h.kind.as_str()).collect();
    assert_eq!(kinds, ["node", "remote-io", "skew"]);
    assert!(hints[0].text.starts_with("the long pole: CONNECTOR_SCAN (plan_node_id=0) takes 9m41s, 100.00%"));
    // IOStatistics (l.1099-1108): 23.757 GB and 179,200 IOs remote, 0 B local.
    assert!(hints[1].text.starts_with("read 23.757 GB from remote storage in 179,200 IOs (IOTimeRemote 3m7s (max 3m11s)), and 0.000 B from the local data cache"), "{}", hints[1].text);
    assert!(hints[2].text.starts_with("ScanTime ranges from 6m6s to 9m41s across instances (average 8m13s"));
    // The scan's own pipeline (Fragment 2 · Pipeline 0) waits on its IO, never "upstream".
    let scan_pipeline: Vec<&str> =
        hints.iter().filter(|h| h.at == "Fragment 2 · Pipeline 0").map(|h| h.kind.as_str()).collect();
    assert_eq!(scan_pipeline, ["io"]);
    assert!(hints
        .iter()
        .all(|h| h.kind != "upstream" || h.text.contains("CONNECTOR_SCAN (plan_node_id=0) is the long pole")));
}

#[test]
fn a_result_sink_waiting_for_its_client_is_named() {
    // profile4: ResultDeliverTime 3m5s (l.69) of QueryExecutionWallTime 3m9s (l.64).
    let analysis = run_of("starrocks-3.5.2-profile4.txt");
    let Some(run) = analysis.datasets[0].detail::<StarRocksRun>() else { panic!() };
    let hints = longpole_core::formats::starrocks_profile::hints::hints(run);
    let result = hints.iter().find(|h| h.kind == "result").unwrap();
    assert!(result
        .text
        .starts_with("delivering the results took 3m5s (ResultDeliverTime, 97.9% of the execution time 3m9s)"));
}

/// The JSON form of a text profile (FE `profile_info_format=json`): each
/// node an object of its counters (child counters flattened after their
/// parent, a flag as `""`) and child nodes, in print order.
fn json_form(profile: &longpole_core::formats::starrocks_profile::Profile) -> Vec<u8> {
    use longpole_core::formats::starrocks_profile::{Counter, Item, Node};
    fn key(out: &mut String, first: &mut bool, name: &str) {
        if !std::mem::take(first) {
            out.push(',');
        }
        out.push_str(&serde_json::to_string(name).unwrap());
        out.push(':');
    }
    fn counter(c: &Counter, out: &mut String, first: &mut bool) {
        key(out, first, &c.name);
        out.push_str(&serde_json::to_string(c.text.as_deref().unwrap_or("")).unwrap());
        for k in &c.children {
            counter(k, out, first);
        }
    }
    fn node(n: &Node, out: &mut String) {
        out.push('{');
        let mut first = true;
        for item in &n.items {
            match item {
                Item::Counter(c) => counter(c, out, &mut first),
                Item::Node(k) => {
                    key(out, &mut first, &k.name);
                    node(k, out);
                }
                Item::Stray(_) => {}
            }
        }
        out.push('}');
    }
    let root = profile.root.as_ref().unwrap();
    let mut out = format!("{{{}:", serde_json::to_string(&root.name).unwrap());
    node(root, &mut out);
    out.push('}');
    out.into_bytes()
}

#[test]
fn the_json_form_gives_the_same_answer_as_the_text_form() {
    for name in FILES {
        let Some(text_profile) =
            read(name, 4096).parsed.into_read::<longpole_core::formats::starrocks_profile::Profile>()
        else {
            panic!()
        };
        let json = json_form(&text_profile);
        let from_json = longpole_core::reconcile(vec![read_bytes("profile.json", &json, 4096).unwrap()]);
        let from_text = run_of(name);
        let Some(run) = from_json.datasets[0].detail::<StarRocksRun>() else { panic!("{name}") };
        assert!(run.json, "{name}");
        assert_eq!(nodes_of(&from_json), nodes_of(&from_text), "{name}");
        let (j, t) = (analysis_json(&from_json), analysis_json(&from_text));
        assert_eq!(j["critical_path"], t["critical_path"], "{name}");
        assert_eq!(j["starrocks"]["summary"], t["starrocks"]["summary"], "{name}");
        let hints = |v: &serde_json::Value| -> Vec<(String, String, String)> {
            v["starrocks_hints"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| (h["at"].to_string(), h["kind"].to_string(), h["text"].to_string()))
                .collect()
        };
        assert_eq!(hints(&j), hints(&t), "{name}");
    }
}

/// A small made-up profile with no Topology and none of the FE's
/// query-wide times: a Hive scan feeding an aggregation and an exchange.
const NO_TOPOLOGY: &str = "Query:
  Summary:
     - Query ID: q
     - Total: 2s
     - Query State: Finished
  Execution:
     - QueryPeakMemoryUsage: 2.000 MB
     - QueryAllocatedMemoryUsage: 8.000 MB
    Fragment 0:
      Pipeline (id=0):
         - DriverTotalTime: 1s500ms
           - __MAX_OF_DriverTotalTime: 1s800ms
         - OutputFullTime: 300ms
         - PendingFinishTime: 50ms
         - ScheduleTime: 10ms
           - __MAX_OF_ScheduleTime: 20ms
        RESULT_SINK (plan_node_id=-1):
          CommonMetrics:
             - IsFinalSink
             - OperatorTotalTime: 1ms
          UniqueMetrics:
        EXCHANGE_SOURCE (plan_node_id=2):
          CommonMetrics:
             - OperatorTotalTime: 2ms
          UniqueMetrics:
    Fragment 1:
      Pipeline (id=0):
         - DriverTotalTime: 1s
        AGGREGATE_BLOCKING_SINK (plan_node_id=1):
          CommonMetrics:
             - OperatorTotalTime: 5ms
             - OperatorPeakMemoryUsage: 3.000 MB
               - __MAX_OF_OperatorPeakMemoryUsage: 4.000 MB
             - OperatorAllocatedMemoryUsage: 6.000 MB
          UniqueMetrics:
        HDFS_SCAN (plan_node_id=0):
          CommonMetrics:
             - OperatorTotalTime: 10ms
          UniqueMetrics:
             - DataCacheReadBytes: 256.000 MB
             - FSIOBytesRead: 1.000 GB
             - FSIOTime: 300ms
             - IOTaskExecTime: 400ms
             - IOTaskWaitTime: 500ms
               - __MAX_OF_IOTaskWaitTime: 600ms
             - ScanTime: 900ms
               - __MAX_OF_ScanTime: 1s200ms
      Pipeline (id=1):
         - DriverTotalTime: 1s
        EXCHANGE_SINK (plan_node_id=2):
          CommonMetrics:
             - OperatorTotalTime: 3ms
          UniqueMetrics:
             - NetworkTime: 4ms
               - __MAX_OF_NetworkTime: 5ms
        AGGREGATE_BLOCKING_SOURCE (plan_node_id=1):
          CommonMetrics:
             - OperatorTotalTime: 6ms
          UniqueMetrics:
";

#[test]
fn without_a_topology_kinds_come_from_names_and_missing_figures_are_computed() {
    let analysis = longpole_core::reconcile(vec![read_bytes("made-up.txt", NO_TOPOLOGY.as_bytes(), 4096).unwrap()]);
    let (nodes, percents) = nodes_of(&analysis);
    let ms = 1_000_000;
    assert_eq!(
        nodes,
        [
            // A `_SCAN` operator: 10ms + __MAX_OF_ScanTime 1s200ms.
            n(0, "HDFS_SCAN", 1_210 * ms, 10 * ms, Some(1_200 * ms), None),
            // The sink and the source of one aggregation: 5ms + 6ms.
            n(1, "AGGREGATE_BLOCKING_SOURCE", 11 * ms, 11 * ms, None, None),
            // An exchange by its operators' names: 2ms + 3ms + __MAX_OF_NetworkTime 5ms.
            n(2, "EXCHANGE_SOURCE", 10 * ms, 5 * ms, None, Some(5 * ms)),
            n(-1, "RESULT_SINK", ms, ms, None, None),
        ]
    );
    // QueryCumulativeOperatorTime as the FE computes it: 1 + 2 + (3 + 5) + 5 + (10 + 1200) + 6 = 1232ms.
    assert_percents(&percents, &[121_000.0 / 1232.0, 1100.0 / 1232.0, 1000.0 / 1232.0, 100.0 / 1232.0]);
    let json = analysis_json(&analysis);
    let summary = &json["starrocks"]["summary"];
    assert_eq!(summary["cumulative_operator_ns"], 1_232 * ms);
    assert_eq!(summary["cumulative_operator_computed"], true);
    // The largest __MAX_OF_DriverTotalTime; the final sink's pipeline's
    // OutputFullTime + PendingFinishTime; the largest __MAX_OF_ScheduleTime.
    assert_eq!(
        (&summary["execution_ns"], &summary["result_deliver_ns"], &summary["schedule_ns"]),
        (&serde_json::json!(1_800 * ms), &serde_json::json!(350 * ms), &serde_json::json!(20 * ms))
    );
    // The older name of the peak memory; the aggregation's peak (its max, 4 MB) ranks it.
    assert_eq!(summary["peak_memory_counter"], "QueryPeakMemoryUsage");
    assert_eq!(summary["memory_nodes"][0]["plan_node_id"], 1);
    assert_eq!(summary["memory_nodes"][0]["peak_memory_bytes"], 4.0 * 1024.0 * 1024.0);
    let text = analysis_text(&analysis);
    assert!(text.contains("ExecutionTime: 1s800ms (computed) [Scan: 1s200ms (computed) (66.67%), Network: 5.000ms (computed) (0.28%), ResultDeliverTime: 350.000ms (computed) (19.44%), ScheduleTime: 20.000ms (computed) (1.11%)]"), "{text}");
    assert!(text.contains("QueryPeakMemoryUsage: 2.000 MB, QueryAllocatedMemoryUsage: 8.000 MB"));
    assert!(text.contains("        1. AGGREGATE_BLOCKING_SOURCE (plan_node_id=1): 4.000 MB"));
    // The critical path follows the operators' flow, carried over to nodes.
    let uids: Vec<&str> =
        json["critical_path"]["tasks"].as_array().unwrap().iter().map(|t| t["uid"].as_str().unwrap()).collect();
    assert_eq!(
        uids,
        [
            "HDFS_SCAN (plan_node_id=0)",
            "AGGREGATE_BLOCKING_SOURCE (plan_node_id=1)",
            "EXCHANGE_SOURCE (plan_node_id=2)",
            "RESULT_SINK (plan_node_id=-1)"
        ]
    );
    let hints: Vec<String> =
        json["starrocks_hints"].as_array().unwrap().iter().map(|h| h["text"].as_str().unwrap().to_owned()).collect();
    // A Hive/Iceberg scan's remote reads against its data cache; its IO tasks queueing; the client.
    assert!(hints.contains(&"read 1.000 GB from remote storage (FSIOTime 300ms), and 256.000 MB from the data cache (DataCacheReadBytes): 80.0% of the bytes came from remote storage".to_owned()), "{hints:?}");
    assert!(hints.contains(&"its IO tasks waited 500ms (max 600ms) for a scan thread (IOTaskWaitTime, 50.0% of ScanTime 1s200ms): the scan thread pool is saturated".to_owned()), "{hints:?}");
    assert!(
        hints.iter().any(|h| h.starts_with(
            "delivering the results took 350.000ms (ResultDeliverTime, 19.4% of the execution time 1s800ms)"
        )),
        "{hints:?}"
    );
}

#[test]
fn a_topology_that_does_not_read_is_reported_and_names_are_used() {
    let text = NO_TOPOLOGY.replace("  Execution:\n", "  Execution:\n     - Topology: {\"rootId\":\n");
    let analysis = longpole_core::reconcile(vec![read_bytes("made-up.txt", text.as_bytes(), 4096).unwrap()]);
    let codes: Vec<(String, longpole_core::diagnostics::Position)> =
        analysis.inputs[0].diagnostics.kept().iter().map(|d| (d.code.to_string(), d.position)).collect();
    assert_eq!(codes, [("starrocks.topology".to_owned(), longpole_core::diagnostics::Position::Line(7))]);
    let plain = longpole_core::reconcile(vec![read_bytes("made-up.txt", NO_TOPOLOGY.as_bytes(), 4096).unwrap()]);
    assert_eq!(nodes_of(&analysis), nodes_of(&plain));
}
