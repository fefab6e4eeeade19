//! Never panic on input: arbitrary bytes, log-like lines made of real
//! event names with missing, extra and garbled fields, and corpus eventlogs,
//! MAL traces, evobench logs and StarRocks profiles with bytes changed (evobench lines also
//! swapped) and cut short go through every reader (and the analyses, views,
//! exports and dumps) without a panic, and give the same result at any
//! chunk size.

use longpole_core::formats::evobench::TimingKind;
use longpole_core::formats::ghc_eventlog::decode::decode;
use longpole_core::formats::ghc_eventlog::show::show;
use longpole_core::formats::monetdb_mal::statement::statements;
use longpole_core::formats::Parsed;
use longpole_core::ingest::{read_bytes, read_bytes_keeping_source};
use longpole_core::layout::timeline::TimelineIndex;
use longpole_core::report::{analysis_json, analysis_text};
use proptest::prelude::*;

mod support;

/// A corpus file's bytes.
fn corpus(dir: &str, name: &str) -> Vec<u8> {
    support::bytes(&format!("{dir}/{name}"))
}

/// A corpus eventlog's bytes.
fn eventlog(name: &str) -> Vec<u8> {
    corpus("ghc-eventlog", name)
}

fn run(data: &[u8], chunk: usize) -> String {
    match read_bytes_keeping_source("fuzz", data, chunk) {
        Ok(input) => {
            if let Parsed::MonetdbMal(trace) = &input.parsed {
                let mut out = String::new();
                statements(trace, &mut out);
            }
            if let Some(log) = input
                .parsed
                .read::<longpole_core::formats::ghc_eventlog::ReadEventlog>()
                .and_then(|r| r.source.as_ref())
            {
                let mut out = String::new();
                show(log, &mut out);
                for e in &log.events {
                    let _ = decode(log, e);
                }
            }
            let analysis = longpole_core::reconcile(vec![input]);
            let mut exports = String::new();
            for run in longpole_core::formats::evobench::report::runs(&analysis) {
                let flame = run.flame();
                for kind in TimingKind::ALL {
                    exports += &longpole_core::export::flame::folded(&flame, kind.index());
                    let _ = flame.hottest_path(kind.index());
                }
                exports += &longpole_core::formats::evobench::export::statistics_csv(&run.table);
                longpole_core::formats::evobench::export::statistics_xlsx(&run.table).unwrap();
            }
            // Two groups of runs: the log against itself, as any runs compare.
            let keys = longpole_core::report::compare::keys_of(&analysis);
            if let Ok(runs) = longpole_core::report::compare::runs_of(&analysis, &keys, &|_| None) {
                let _ = longpole_core::compare::compare(&runs, &runs, &Default::default());
            }
            for d in &analysis.datasets {
                let index = TimelineIndex::new(&d.model);
                let _ = analysis.view(d, &index);
                let _ = longpole_core::layout::graph::layout(&d.model, &[], &Default::default());
            }
            format!("{}{}{exports}", analysis_text(&analysis), analysis_json(&analysis))
        }
        Err(e) => e.to_string(),
    }
}

/// The first `lines` lines of `text` with lines swapped, bytes changed and
/// cut short (at 40 bytes at the least).
fn damage(
    text: &[u8],
    lines: usize,
    swaps: &[(prop::sample::Index, prop::sample::Index)],
    edits: &[(prop::sample::Index, u8)],
    cut: prop::sample::Index,
) -> Vec<u8> {
    let mut lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').take(lines).collect();
    for (a, b) in swaps {
        let (a, b) = (a.index(lines.len()), b.index(lines.len()));
        lines.swap(a, b);
    }
    let mut data = lines.concat();
    for (at, byte) in edits {
        let i = at.index(data.len());
        data[i] = *byte;
    }
    data.truncate(cut.index(data.len() + 1).max(40));
    data
}

fn line() -> impl Strategy<Value = String> {
    let events = prop::sample::select(vec![
        "prepare_start",
        "repository_prepared",
        "resources_prepared",
        "dep_start",
        "dep_wait",
        "dep_finished",
        "dep_extract_queue",
        "deploy",
        "deployed",
        "started",
        "finished",
        "finished_from_cache",
        "ready",
        "weird",
    ]);
    let field =
        prop::sample::select(vec!["", "A", "B", "C", "7", "8", "host1", "host2", "-3", "x9", "OK", "FAILED", "100"]);
    (
        prop::sample::select(vec!["1000", "1500", "2000", "-5", "12x", "99999999999999999999"]),
        events,
        prop::collection::vec(field, 0..7),
    )
        .prop_map(|(t, e, f)| format!("{t} {e} {}", f.join(" ")))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn damaged_eventlogs_never_panic_and_chunking_does_not_matter(
        file in prop::sample::select(vec!["unicode.eventlog", "ghc-9.2-events.eventlog", "testlog.eventlog", "ticky-ticky.eventlog", "time-prof.eventlog"]),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..12),
        cut in any::<prop::sample::Index>(),
        chunk in 1usize..5000,
    ) {
        let mut data = eventlog(file);
        for (at, byte) in edits {
            let i = at.index(data.len());
            data[i] = byte;
        }
        data.truncate(cut.index(data.len() + 1).max(8));
        prop_assert_eq!(run(&data, chunk), run(&data, data.len()));
    }

    #[test]
    fn damaged_mal_traces_never_panic_and_chunking_does_not_matter(
        file in prop::sample::select(vec!["distributed/supervisor.json", "stethoscope/q01_Jun2020.json", "stethoscope/q01_Sep2022.json", "stethoscope/input.json", "single_event_formatted.json"]),
        edits in prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(b"{}[]\",:0\n x".to_vec())), 0..12),
        cut in any::<prop::sample::Index>(),
        chunk in 1usize..5000,
    ) {
        let mut data = corpus("monetdb-mal", file);
        for (at, byte) in edits {
            let i = at.index(data.len());
            data[i] = byte;
        }
        data.truncate(cut.index(data.len() + 1).max(1));
        prop_assert_eq!(run(&data, chunk), run(&data, data.len()));
    }

    #[test]
    fn garbled_ninja_logs_never_panic_and_chunking_does_not_matter(
        lines in prop::collection::vec((0i64..5000, 0i64..5000, "[a-z./]{0,8}", "[0-9a-f]{0,3}", 0u8..4), 0..40),
        chunk in 1usize..64,
    ) {
        let mut log = String::from("# ninja log v5\n");
        for (start, end, output, hash, shape) in lines {
            match shape {
                0 => log += &format!("{start}\t{end}\t0\t{output}\t{hash}\n"),
                1 => log += &format!("{start}\t{output}\n"),
                2 => log += &format!("#{output}\n"),
                _ => log += &format!("{start}x\t{end}\t0\t{output}\t{hash}\n"),
            }
        }
        prop_assert_eq!(run(log.as_bytes(), chunk), run(log.as_bytes(), log.len()));
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..2000), chunk in 1usize..64) {
        let _ = run(&data, chunk);
    }

    #[test]
    fn garbled_logs_never_panic_and_chunking_does_not_matter(lines in prop::collection::vec(line(), 1..60), chunk in 1usize..40) {
        let log = lines.join("\n");
        prop_assert_eq!(run(log.as_bytes(), chunk), run(log.as_bytes(), log.len().max(1)));
    }

    #[test]
    fn garbled_graphs_never_panic(nodes in prop::collection::vec((0u8..6, prop::collection::vec(0u8..6, 0..4)), 0..12), chunk in 1usize..50) {
        let body: Vec<String> = nodes.iter().map(|(u, deps)| {
            let deps: Vec<String> = deps.iter().map(|d| format!("\"{d}\"")).collect();
            format!("{{\"uid\": \"{u}\", \"deps\": [{}], \"kv\": {{\"p\": \"CC\"}}}}", deps.join(","))
        }).collect();
        let graph = format!("{{\"graph\": [{}]}}", body.join(","));
        let log = "1000 prepare_start  7\n1100 resources_prepared  7\n1200 deploy 0 7 1\n1300 started 0 h\n1400 finished 0 h OK 1\n1500 started 1 h\n1600 finished 1 h OK 1\n";
        let a = read_bytes("log", log.as_bytes(), chunk).unwrap();
        let b = read_bytes("graph.json", graph.as_bytes(), chunk);
        let mut inputs = vec![a];
        if let Ok(b) = b { inputs.push(b); }
        let analysis = longpole_core::reconcile(inputs);
        let _ = analysis_json(&analysis);
    }
}

proptest! {
    // Each case reads, reconciles, reports and exports a 300-line log twice.
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn damaged_evobench_logs_never_panic_and_chunking_does_not_matter(
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..12),
        swaps in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 0..6),
        cut in any::<prop::sample::Index>(),
        chunk in 1usize..5000,
    ) {
        let log = corpus("evobench", "bench-v1-sum_of_fibs.log");
        let data = damage(&log, 300, &swaps, &edits, cut);
        prop_assert_eq!(run(&data, chunk), run(&data, data.len()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// A damaged profile: bytes changed, lines swapped, cut short. Read, it
    /// never panics, gives the same result at any chunk size, and (read as a
    /// profile) prints back to the same bytes when they are UTF-8.
    #[test]
    fn damaged_starrocks_profiles_never_panic_and_print_back(
        file in prop::sample::select(vec!["starrocks-3.5.2-profile2.txt", "starrocks-3.5.2-test_profile.txt"]),
        edits in prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(b" -:\n\ra0(".to_vec())), 0..12),
        swaps in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 0..6),
        cut in any::<prop::sample::Index>(),
        chunk in 1usize..5000,
    ) {
        let data = damage(&corpus("starrocks-profile", file), usize::MAX, &swaps, &edits, cut);
        prop_assert_eq!(run(&data, chunk), run(&data, data.len()));
        if let Ok(input) = read_bytes("fuzz", &data, chunk) {
            if let Some(p) = input.parsed.read::<longpole_core::formats::starrocks_profile::Profile>() {
                prop_assert_eq!(p.write(), data);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn damaged_chrome_traces_never_panic_and_chunking_does_not_matter(
        cut in 0usize..4000,
        flips in prop::collection::vec((0usize..4000, any::<u8>()), 0..6),
        chunk in 1usize..64,
    ) {
        let mut data = corpus("chrome-trace/speedscope/trace-event", "bex-interaction.json");
        data.extend_from_slice(&corpus("chrome-trace/catapult", "flow_simple.json")[1..]);
        for (at, b) in flips {
            let n = data.len();
            data[at % n] = b;
        }
        data.truncate(cut.max(1));
        prop_assert_eq!(run(&data, chunk), run(&data, 4096));
    }
}
