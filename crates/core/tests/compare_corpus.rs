//! Comparisons of real files, checked against what other tools computed
//! from the same files: the kati ninja log's builds 2 and 3 against
//! ninjatracing's trace of it, the two evobench logs against the evobench
//! evaluator's statistics (also as two groups of runs, with Welch's test),
//! and a MonetDB MAL execution against itself with
//! jitter and one slowed instruction (what must be found is what was done
//! to it).

use longpole_core::compare::result::Comparison;
use longpole_core::compare::{compare, Options};
use longpole_core::ingest::read_bytes;
use longpole_core::report::compare::{self as report, keys_of, runs_of};
use longpole_core::Analysis;
use serde_json::Value;
use std::collections::BTreeMap;

use support::bytes as corpus;

mod support;

fn analysis(name: &str, bytes: &[u8]) -> Analysis {
    longpole_core::reconcile(vec![read_bytes(name, bytes, usize::MAX).unwrap()])
}

/// Compares run `pick_a` of `a` with run `pick_b` of `b` (all runs for `None`).
fn compared(a: &Analysis, pick_a: Option<usize>, b: &Analysis, pick_b: Option<usize>) -> Comparison {
    let (ka, kb) = (keys_of(a), keys_of(b));
    let ra = runs_of(a, &ka, &|_| pick_a).unwrap();
    let rb = runs_of(b, &kb, &|_| pick_b).unwrap();
    compare(&ra, &rb, &Options::default()).unwrap()
}

/// ninjatracing's `-a` (showall) trace of the kati log: each build's edges
/// by output, µs, ({output: (start, duration)} per build, in time order).
/// Builds follow one another on its time axis, each ending with `ckati`.
fn ninjatracing_builds() -> Vec<BTreeMap<String, (i64, i64)>> {
    let trace: Vec<Value> =
        serde_json::from_slice(&corpus("ninja-log/ninjatracing-output/kati-v5.showall.trace.json")).unwrap();
    let mut events: Vec<(String, i64, i64)> = trace
        .iter()
        .map(|e| (e["name"].as_str().unwrap().to_owned(), e["ts"].as_i64().unwrap(), e["dur"].as_i64().unwrap()))
        .collect();
    events.sort_by_key(|e| e.1);
    let mut ends: Vec<i64> = events.iter().filter(|e| e.0 == "ckati").map(|e| e.1 + e.2).collect();
    ends.sort();
    let mut builds = vec![BTreeMap::new(); ends.len()];
    for (name, ts, dur) in events {
        let build = ends.iter().position(|&end| ts < end).unwrap();
        builds[build].insert(name, (ts, dur));
    }
    builds
}

#[test]
fn kati_build_2_against_build_3_matches_ninjatracing() {
    let log = corpus("ninja-log/kati-v5.ninja_log");
    let a = analysis("kati-v5.ninja_log", &log);
    let c = compared(&a, Some(2), &a, Some(3));
    let builds = ninjatracing_builds();
    let (b2, b3) = (&builds[1], &builds[2]);
    let ms = |us: i64| us as f64 / 1000.0;
    let wall = |b: &BTreeMap<String, (i64, i64)>| {
        ms(b.values().map(|(s, d)| s + d).max().unwrap() - b.values().map(|(s, _)| *s).min().unwrap())
    };
    assert_eq!((c.wall_ms.a, c.wall_ms.b), (wall(b2), wall(b3)));
    assert_eq!(c.runs.a, ["kati-v5.ninja_log#2"]);
    for t in &c.tasks {
        assert_eq!(t.a_ms, b2.get(&t.key).map(|(_, d)| ms(*d)), "{}", t.key);
        assert_eq!(t.b_ms, b3.get(&t.key).map(|(_, d)| ms(*d)), "{}", t.key);
    }
    let only = |x: &BTreeMap<String, (i64, i64)>, y: &BTreeMap<String, (i64, i64)>| {
        x.keys().filter(|k| !y.contains_key(*k)).count()
    };
    assert_eq!((c.only_a, c.only_b), (only(b2, b3), only(b3, b2)));
    assert_eq!(c.matched, b2.keys().filter(|k| b3.contains_key(*k)).count());
    // Without dependencies the path is the edge that ended last: ckati's link.
    assert_eq!(
        (c.critical_path.a.as_slice(), c.critical_path.b.as_slice()),
        (&["ckati".to_owned()][..], &["ckati".to_owned()][..])
    );
    let sum = c.attribution.shared_path_ms + c.attribution.path_changes_ms + c.attribution.waiting_ms;
    assert!((sum - c.wall_ms.delta).abs() < 1e-9);
    // One run a side: thresholds, and what passes them is ranked.
    assert_eq!(c.noise.mode, "thresholds");
    for t in &c.tasks {
        let past = t.delta_ms.abs() >= c.noise.min_delta_ms && t.relative.is_none_or(|r| r.abs() >= 0.05);
        assert_eq!(t.rank.is_some(), past || t.status.starts_with("only"), "{t:?}");
    }
}

/// The evobench evaluator's statistics of a log (its `real-time` JSON): per
/// path, the count and the sum (ns; `null` for a KeyValue row).
fn evaluator(rel: &str) -> BTreeMap<String, (u64, Option<u64>)> {
    let rows: Vec<Value> = serde_json::from_slice(&corpus(rel)).unwrap();
    rows.iter()
        .map(|r| (r["path"].as_str().unwrap().to_owned(), (r["count"].as_u64().unwrap(), r["sum"].as_u64())))
        .collect()
}

#[test]
fn the_two_evobench_logs_compare_on_the_evaluator_s_paths_and_sums() {
    let a = analysis("bench-v1-sum_of_fibs.log", &corpus("evobench/bench-v1-sum_of_fibs.log"));
    let b = analysis("evobench.log.zstd", &corpus("evobench/generated-current-format/evobench.log.zstd"));
    let c = compared(&a, None, &b, None);
    let ra = evaluator("evobench/reference/bench-v1-sum_of_fibs.log.real-time.json");
    let rb = evaluator("evobench/reference/evobench.log.zstd.real-time.json");
    let mut checked = 0;
    for t in &c.tasks {
        for (ms, count, reference) in [(t.a_ms, t.a_count, &ra), (t.b_ms, t.b_count, &rb)] {
            let Some(ms) = ms else { continue };
            let Some(&(n, sum)) = reference.get(&t.key) else { panic!("{} is no path of the evaluator's", t.key) };
            assert_eq!(count, n as f64, "{}", t.key);
            if let Some(sum) = sum {
                assert!((ms - sum as f64 / 1e6).abs() < 1e-6, "{}: {ms} ms, the evaluator {sum} ns", t.key);
                checked += 1;
            }
        }
    }
    assert!(checked > 150, "{checked}");
    // Every timed path of the evaluator's (KeyValue rows have no time).
    let keys = |r: &BTreeMap<String, (u64, Option<u64>)>| {
        r.iter().filter(|(k, (_, sum))| k.starts_with("N:") && sum.is_some()).count()
    };
    assert_eq!(c.matched + c.only_a, keys(&ra));
    assert_eq!(c.matched + c.only_b, keys(&rb));
}

/// Two groups of evobench runs, as evobench's own group comparison (now
/// `analyze --group-b`) compared them: group A is the old log twice and
/// the current one, group B the current log twice and the old one. Per
/// path, with `x` the old log's sum and `y` the current one's (the
/// evaluator's), A's mean is (2x + y) / 3 and B's (2y + x) / 3; each
/// group's variance is (x − y)² / 3, so Welch's t is ±1/√2 on 4 degrees
/// of freedom whatever x and y, and its two-sided p is exactly 14/27
/// (Student's t with 4 degrees of freedom has a closed-form distribution:
/// F(t) = 1/2 + 3/8 · s (1 − s²/12), s = t / √(1 + t²/4) = 2/3).
#[test]
fn two_groups_of_evobench_runs_give_the_evaluator_s_means_and_welch_s_p() {
    let (old, current) =
        (corpus("evobench/bench-v1-sum_of_fibs.log"), corpus("evobench/generated-current-format/evobench.log.zstd"));
    let group = |logs: [(&str, &[u8]); 3]| {
        longpole_core::reconcile(logs.iter().map(|(n, b)| read_bytes(n, b, usize::MAX).unwrap()).collect())
    };
    let (o, c) = (("old.log", old.as_slice()), ("current.log.zstd", current.as_slice()));
    let (a, b) = (group([o, o, c]), group([c, c, o]));
    let cmp = compared(&a, None, &b, None);
    assert_eq!((cmp.runs.a.len(), cmp.runs.b.len()), (3, 3));
    let ra = evaluator("evobench/reference/bench-v1-sum_of_fibs.log.real-time.json");
    let rb = evaluator("evobench/reference/evobench.log.zstd.real-time.json");
    let mut checked = 0;
    for t in &cmp.tasks {
        let (Some((_, Some(x))), Some((_, Some(y)))) = (ra.get(&t.key), rb.get(&t.key)) else { continue };
        let (x, y) = (*x as f64 / 1e6, *y as f64 / 1e6);
        let (a_ms, b_ms) = (t.a_ms.unwrap(), t.b_ms.unwrap());
        assert!((a_ms - (2.0 * x + y) / 3.0).abs() < 1e-6, "{}: A's mean {a_ms}, x {x}, y {y}", t.key);
        assert!((b_ms - (2.0 * y + x) / 3.0).abs() < 1e-6, "{}: B's mean {b_ms}", t.key);
        assert!((t.delta_ms - (y - x) / 3.0).abs() < 1e-6, "{}", t.key);
        if x == y {
            assert_eq!(t.tests().welch_p, None, "{}: no spread, no test", t.key);
        } else {
            let p = t.tests().welch_p.unwrap_or_else(|| panic!("{}: no Welch p", t.key));
            assert!((p - 14.0 / 27.0).abs() < 1e-9, "{}: Welch p {p}", t.key);
            checked += 1;
        }
    }
    // Every timed path of the evaluator's that both logs have and differ on.
    let both = ra
        .iter()
        .filter(|(k, (_, x))| k.starts_with("N:") && x.is_some_and(|x| rb.get(*k).is_some_and(|(_, y)| *y != Some(x))))
        .filter(|(k, _)| rb.get(*k).is_some_and(|(_, y)| y.is_some()))
        .count();
    assert!(both > 0);
    assert_eq!(checked, both);
}

/// The MAL trace with each done event moved by a jitter of up to 150 µs
/// (its `clk`, `ctime` and `usec`), and the done event of pc `slow_pc` 80 ms later.
fn jittered_mal(trace: &[u8], slow_pc: i64) -> Vec<u8> {
    let mut out = Vec::with_capacity(trace.len());
    for (i, line) in trace.split(|&b| b == b'\n').enumerate() {
        if !out.is_empty() {
            out.push(b'\n');
        }
        let text = std::str::from_utf8(line).unwrap();
        if !text.contains("\"state\":\"done\"") {
            out.extend_from_slice(line);
            continue;
        }
        let mut v: serde_json::Map<String, Value> = serde_json::from_str(text).unwrap();
        let jitter = (i as i64 * 7919) % 151;
        let extra = if v["pc"].as_i64() == Some(slow_pc) { 80_000 } else { 0 };
        for field in ["clk", "ctime", "usec"] {
            if let Some(t) = v.get(field).and_then(Value::as_i64) {
                v.insert(field.into(), (t + jitter + extra).into());
            }
        }
        out.extend_from_slice(serde_json::to_string(&v).unwrap().as_bytes());
    }
    out
}

#[test]
fn a_mal_execution_against_itself_with_jitter_finds_the_slowed_instruction() {
    let trace = corpus("monetdb-mal/jan2019_sf10_10threads/Q01_variation001.json");
    let a = analysis("Q01.json", &trace);
    // Against itself untouched: nothing changed.
    let same = compared(&a, None, &a, None);
    assert!(same.tasks.iter().all(|t| t.status == "within-noise" && t.delta_ms == 0.0));
    assert_eq!((same.wall_ms.delta, same.only_a, same.only_b), (0.0, 0, 0));
    let b = analysis("Q01.json", &jittered_mal(&trace, 40));
    let c = compared(&a, None, &b, None);
    assert_eq!((c.only_a, c.only_b, c.matched), (0, 0, same.matched));
    let changed: Vec<&str> = c.tasks.iter().filter(|t| t.status == "changed").map(|t| t.key.as_str()).collect();
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(changed[0].starts_with("s0_1:40 "), "{changed:?}");
    assert_eq!(c.tasks[0].key, changed[0]);
    assert!((c.tasks[0].delta_ms - 80.0).abs() <= 0.151, "{:?}", c.tasks[0]);
}

/// The JSON written straight from a comparison is its tree of values'
/// JSON byte for byte, with one run a side and with several (the rows'
/// tests flattened into them); a comparison asked for its first rows only
/// has those rows of the whole one, and every count and total of the whole.
#[test]
fn json_text_and_the_first_rows_agree_with_the_whole_comparison() {
    let log = corpus("ninja-log/kati-v5.ninja_log");
    let a = analysis("kati-v5.ninja_log", &log);
    let ka = keys_of(&a);
    // Thresholds of 100 ms and 1 %.
    let opts = Options::default().with_min_delta(Some(100_000_000)).with_min_relative(0.01);
    for (pick_a, pick_b) in [(Some(2), Some(3)), (None, None)] {
        let ra = runs_of(&a, &ka, &|_| pick_a).unwrap();
        let rb = runs_of(&a, &ka, &|_| pick_b).unwrap();
        let whole = compare(&ra, &rb, &opts).unwrap();
        let text = report::compare_json_text(&whole).unwrap();
        let values = report::compare_json(&whole).unwrap();
        assert_eq!(text, serde_json::to_string_pretty(&values).unwrap());
        match pick_a {
            // Build 2 against build 3: some keys change, some do not.
            Some(_) => assert!(whole.ranked > 3 && whole.keys > whole.ranked, "{} of {}", whole.ranked, whole.keys),
            // All three builds a side: the rows carry their tests.
            None => assert!(text.contains("\"welch_p\"") && text.contains("\"q\"")),
        }
        assert_eq!(whole.tasks.len(), whole.keys);
        let first = compare(&ra, &rb, &opts.clone().with_rows(Some(3))).unwrap();
        assert_eq!(first.tasks, whole.tasks[..3]);
        let rest = Comparison { tasks: whole.tasks[..3].to_vec(), ..whole.clone() };
        assert_eq!(first, rest, "every count and total is of all the keys");
        // The text report shows only its first rows: it reads the same from them.
        let shown = compare(&ra, &rb, &opts.clone().with_rows(Some(report::SHOWN))).unwrap();
        assert_eq!(report::compare_text(&shown), report::compare_text(&whole));
    }
}
