use super::*;
use crate::ingest::read_bytes;
use crate::test_support::{corpus, same_at_every_chunk};

const HEAD: &str = "{\"Start\":{\"evobench_log_version\":1,\"evobench_version\":\"v0.1.1\"}}\n{\"Metadata\":{\"username\":\"\",\"hostname\":\"h\",\"uname\":{\"sysname\":\"Linux\",\"nodename\":\"h\",\"release\":\"6\",\"version\":\"#1\",\"machine\":\"x86_64\"},\"compiler\":\"GCC 12.2.0\"}}\n";

/// A timing line of `kind` for probe `pn` on thread id `tid` at `ns` of real time.
fn t(kind: &str, pn: &str, tid: u64, ns: u64) -> String {
    format!(
        "{{\"{kind}\":{{\"pn\":\"{pn}\",\"pid\":1,\"tid\":{tid},\"n\":1,\"r\":{{\"sec\":0,\"nsec\":{ns}}},\"u\":{{\"sec\":0,\"usec\":{}}},\"s\":{{\"sec\":0,\"usec\":0}},\"nvcsw\":1,\"nivcsw\":{}}}}}\n",
        ns / 1000,
        ns / 100
    )
}

fn read(name: &str, bytes: &[u8], chunk: usize) -> (Log, Vec<String>) {
    let input = read_bytes(name, bytes, chunk).unwrap();
    assert_eq!(input.info.format, crate::formats::evobench::ID);
    let codes = input.info.diagnostics.kept().iter().map(|d| format!("{} {}", d.position, d.code)).collect();
    let Some(log) = input.parsed.into_read::<crate::formats::evobench::Log>() else {
        panic!("{name}: not read as an evobench log")
    };
    (*log, codes)
}

#[test]
fn corpus_logs_read_the_same_at_any_chunk_size() {
    for rel in ["evobench/bench-v1-sum_of_fibs.log", "evobench/generated-current-format/evobench.log.zstd"] {
        let bytes = std::fs::read(corpus(rel)).unwrap();
        let whole = same_at_every_chunk(rel, 1, |chunk| read("unknown", &bytes, chunk));
        assert!(whole.0.ended, "{rel}");
    }
}

#[test]
fn the_old_dialect_is_read_and_noted() {
    let bytes = std::fs::read(corpus("evobench/bench-v1-sum_of_fibs.log")).unwrap();
    let (log, codes) = read("b.log", &bytes, 4096);
    assert!(log.old_dialect);
    assert_eq!(codes, ["line 3 evobench.old-dialect"]);
    assert_eq!(log.threads, [140_435_080_057_984]);
    assert_eq!(log.metadata.unwrap().hostname, "qemujs");
}

#[test]
fn threads_are_numbered_by_first_appearance_and_renumbered_after_their_end() {
    let mut s = HEAD.to_owned();
    s += &t("TStart", "-", 10, 0);
    s += &t("TThreadStart", "-", 20, 1);
    s += &t("TThreadEnd", "-", 20, 2);
    s += &t("TThreadStart", "-", 20, 3);
    s += &t("TS", "a|b", 20, 4);
    s += "{\"KeyValue\":{\"tid\":20,\"k\":\"k\",\"v\":\"1\"}}\n";
    s += &t("TS", "a|c", 20, 5);
    s += &t("TE", "a|c", 20, 6);
    s += &t("TE", "a|b", 20, 9);
    s += &t("TThreadEnd", "-", 20, 10);
    s += &t("TEnd", "-", 10, 11);
    let (log, codes) = read("x", s.as_bytes(), 7);
    assert!(codes.is_empty(), "{codes:?}");
    assert_eq!(log.threads, [10, 20, 20]);
    let labels: Vec<String> = (0..log.nodes.len() as u32).map(|n| log.label_text(n, true)).collect();
    assert_eq!(labels, ["main thread", "thread01", "thread02", "a|b", "k=1", "a|c"]);
    assert_eq!(log.nodes[5].parent, Some(4));
    assert_eq!(log.nodes[5].samples[0].value(TimingKind::Real), Some(1));
    assert_eq!(log.nodes[3].samples[0].value(TimingKind::CtxSwitches), Some(0));
    assert_eq!(log.spans.len(), 5);
}

#[test]
fn problems_are_diagnostics_at_their_lines() {
    let mut s = HEAD.to_owned();
    s += &t("TStart", "-", 1, 0); // line 3
    s += &t("TS", "a|b", 1, 1); // 4
    s += &t("TE", "a|x", 1, 2); // 5: name mismatch
    s += &t("TE", "a|b", 1, 3); // 6: nothing open
    s += "{\"KeyValue\":{\"tid\":9,\"k\":\"k\",\"v\":\"1\"}}\n"; // 7: no scope on thread 9
    s += "not json\n"; // 8
    s += &t("TS", "a|c", 1, 9); // 9
    s += &t("TE", "a|c", 1, 5); // 10: backwards
    s += &t("TS", "a|d", 1, 11); // 11: left open
    let (log, codes) = read("x", s.as_bytes(), 3);
    assert_eq!(
        codes,
        [
            "line 5 evobench.name-mismatch",
            "line 6 evobench.unmatched-end",
            "line 7 evobench.key-value-outside-scope",
            "line 8 evobench.bad-line",
            "line 10 evobench.time-backwards",
            "line 11 evobench.cut-off",
        ]
    );
    assert!(!log.ended);
    assert_eq!(log.nodes.iter().map(|n| n.samples.len()).sum::<usize>(), 2);
}

#[test]
fn an_end_of_a_higher_scope_closes_the_scopes_left_open_inside() {
    let mut s = HEAD.to_owned();
    s += &t("TStart", "-", 1, 0); // 3
    s += &t("TS", "a|b", 1, 1); // 4: never closed
    s += &t("TEnd", "-", 1, 2); // 5
    let (log, codes) = read("x", s.as_bytes(), 4096);
    assert_eq!(codes, ["line 4 evobench.unclosed-scope"]);
    assert!(log.ended);
    assert_eq!(log.nodes[0].samples.len(), 1);
    assert!(log.nodes[1].samples.is_empty());
}

#[test]
fn other_input_is_not_this_format() {
    let err = read_bytes("x.log", b"{\"Start\":{\"evobench_log_version\":\"one\"}}\n", 7).unwrap_err().to_string();
    assert!(err.contains("evobench log") && err.contains("line 1"), "{err}");
    let head = SniffInput { head: b"{\"Start\":{\"evo", at_eof: false, name: "" };
    assert_eq!(EvobenchFormat.sniff(head), Sniff::NeedMore);
    assert_eq!(EvobenchFormat.sniff(SniffInput { at_eof: true, ..head }), Sniff::No);
    assert_eq!(EvobenchFormat.sniff(SniffInput { head: b"{\"T\":1}", at_eof: false, name: "" }), Sniff::No);
}

/// A timing line as the current probes library writes it (the spec's example).
const CURRENT_LINE: &str = r#"{"TS":{"pn":"main|fib","pid":14592,"tid":14592,"n":1,"r":{"sec":1795323144,"nsec":933128705},"u":{"sec":0,"usec":0},"s":{"sec":0,"usec":0},"maxrss":3212,"minflt":141,"majflt":0,"inblock":0,"oublock":8,"nvcsw":0,"nivcsw":0}}"#;

/// serde_json's reading of a line, errors as text.
fn by_serde(line: &[u8]) -> Result<record::Record<'_>, String> {
    serde_json::from_slice(line).map_err(|e| e.to_string())
}

#[test]
fn the_fast_path_takes_every_timing_line_and_reads_it_as_serde_does() {
    let v1 = std::fs::read(corpus("evobench/bench-v1-sum_of_fibs.log")).unwrap();
    let synthetic = t("TThreadEnd", "a|b", 7, 123_456_789);
    let lines = v1.split(|&b| b == b'\n').chain([CURRENT_LINE.as_bytes(), synthetic.trim_end().as_bytes()]);
    let mut fast_lines = 0;
    for line in lines.filter(|l| l.starts_with(b"{\"T")) {
        let fast = fast::timing_record(line);
        assert!(fast.is_some(), "{}", String::from_utf8_lossy(line));
        assert_eq!(fast.map(Ok), Some(by_serde(line)));
        fast_lines += 1;
    }
    assert_eq!(fast_lines, 1737 - 2 - 40 + 2);
}

/// Pieces that make a line unusual: whitespace, other number forms, null,
/// escapes, unknown or repeated keys, stray brackets, non-ASCII bytes.
const PIECES: [&str; 24] = [
    "",
    " ",
    "0",
    "01",
    "-1",
    "-0",
    "null",
    "1.5",
    "1e3",
    "\\u0041",
    "\\\"",
    "99999999999999999999",
    "4294967296",
    "9223372036854775808",
    "\"x\":1,",
    "\"pn\":\"a\",",
    "\"n\":2,",
    "}",
    "{",
    ",",
    "\"",
    "é",
    "\u{1}",
    "[]",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 3000, ..Default::default() })]

    #[test]
    fn the_fast_path_never_disagrees_with_serde(
        base in 0..3usize,
        edits in proptest::collection::vec(
            (proptest::prelude::any::<proptest::sample::Index>(), 0..4usize, 0..PIECES.len()),
            0..4,
        ),
    ) {
        let synthetic = t("TE", "x|y", 3, 42);
        let bases = [CURRENT_LINE, synthetic.trim_end(), "{\"T\":{\"pn\":\"-\",\"tid\":1,\"t\":{\"sec\":1,\"nsec\":2}}}"];
        let line = crate::test_support::edited(bases[base], &edits, &PIECES);
        if let Some(fast) = fast::timing_record(&line) {
            proptest::prop_assert_eq!(Ok(fast), by_serde(&line));
        }
    }
}
