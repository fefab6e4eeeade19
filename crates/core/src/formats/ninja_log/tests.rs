use super::*;
use crate::ingest::read_bytes;
use crate::test_support::corpus;

fn log(name: &str, chunk: usize) -> NinjaLog {
    let bytes = std::fs::read(corpus(&format!("ninja-log/{name}"))).unwrap();
    let input = read_bytes(name, &bytes, chunk).unwrap();
    let Some(log) = input.parsed.into_read::<crate::formats::ninja_log::NinjaLog>() else { panic!("{name}") };
    *log
}

/// ninjatracing's events as (name, ts µs, dur µs, tid), sorted.
fn reference(file: &str) -> Vec<(String, i64, i64, u32)> {
    let text = std::fs::read_to_string(corpus(&format!("ninja-log/ninjatracing-output/{file}"))).unwrap();
    let events: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    let mut out: Vec<_> = events
        .iter()
        .map(|e| {
            (
                e["name"].as_str().unwrap().to_owned(),
                e["ts"].as_i64().unwrap(),
                e["dur"].as_i64().unwrap(),
                e["tid"].as_u64().unwrap() as u32,
            )
        })
        .collect();
    out.sort();
    out
}

fn events(targets: &[Target]) -> Vec<(String, i64, i64, u32)> {
    let slots = slots(targets);
    let mut out: Vec<_> = targets
        .iter()
        .zip(slots)
        .map(|(t, s)| (t.outputs.join(", "), t.start * 1000, (t.end - t.start) * 1000, s))
        .collect();
    out.sort();
    out
}

#[test]
fn slots_and_edges_match_ninjatracing_on_every_corpus_log() {
    for name in ["kati-v5", "cpu-rasterizer-v7-windows", "nexuscore-v6"] {
        let log = log(&format!("{name}.ninja_log"), 4096);
        // ninjatracing -a: every record, each new build (a step back in time)
        // shifted after the previous one, edges merged by hash over the file.
        let mut shifted = log.clone();
        let (mut offset, mut last_end) = (0, 0);
        for r in &mut shifted.records {
            if r.end < last_end {
                offset += last_end;
            }
            last_end = r.end;
            (r.start, r.end) = (r.start + offset, r.end + offset);
        }
        let all: Vec<usize> = (0..log.records.len()).collect();
        assert_eq!(events(&targets(&shifted, &all)), reference(&format!("{name}.showall.trace.json")), "{name} -a");
        // ninjatracing's default: the records after the last step back in time.
        let from = log.records.windows(2).rposition(|w| w[1].end < w[0].end).map_or(0, |i| i + 1);
        let last: Vec<usize> = (from..log.records.len()).collect();
        assert_eq!(events(&targets(&log, &last)), reference(&format!("{name}.trace.json")), "{name}");
    }
}

#[test]
fn appended_builds_split_and_recompacted_logs_do_not() {
    let kati = builds(&log("kati-v5.ninja_log", 7));
    assert_eq!((kati.builds.len(), kati.recompacted), (3, false));
    let cpu = builds(&log("cpu-rasterizer-v7-windows.ninja_log", 1));
    assert_eq!(cpu.builds.iter().map(Vec::len).collect::<Vec<_>>(), [11, 5]);
    let nexus = log("nexuscore-v6.ninja_log", 4096);
    let b = builds(&nexus);
    assert!(b.recompacted);
    assert_eq!(b.builds, [(0..nexus.records.len()).collect::<Vec<_>>()]);
}

#[test]
fn versions_and_bad_lines_are_reported_at_their_lines() {
    let text = b"# ninja log v4\n1\t2\t0\ta.o\tff\nx\t2\t0\tb.o\tee\n3\t9\n5\t1\t0\tc.o\tdd\n# comment\n";
    let input = read_bytes("log", text, 3).unwrap();
    let found: Vec<(String, String)> =
        input.info.diagnostics.kept().iter().map(|d| (d.code.to_string(), d.position.to_string())).collect();
    let expect = [
        ("ninja.version", "line 1"),
        ("ninja.time", "line 3"),
        ("ninja.fields", "line 4"),
        ("ninja.negative", "line 5"),
    ];
    assert_eq!(found, expect.map(|(a, b)| (a.to_owned(), b.to_owned())));
    let Some(log) = input.parsed.into_read::<crate::formats::ninja_log::NinjaLog>() else { panic!() };
    assert_eq!(log.records.len(), 1);
    assert_eq!(log.raw, text);
    let err = read_bytes("log", b"# ninja log vX\n", 4096).unwrap_err().to_string();
    assert!(err.contains("ninja log") && err.contains("line 1"), "{err}");
}
