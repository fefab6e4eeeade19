use super::*;
use crate::ingest::read_bytes;
use crate::test_support::{corpus, same_at_every_chunk};

fn read(bytes: &[u8], chunk: usize) -> (String, String) {
    kept(read_bytes("unknown", bytes, chunk).unwrap())
}

/// What a trace keeps, and its diagnostics, as text.
fn kept(input: crate::Input) -> (String, String) {
    let diags = format!("{:?}", input.info.diagnostics.kept());
    let Some(t) = input.parsed.into_read::<crate::formats::chrome_trace::ChromeTrace>() else {
        panic!("not a Chrome trace")
    };
    let t = *t;
    let strings: Vec<&str> = (0..t.strings.len() as u32).map(|i| t.str(i)).collect();
    let kept = format!(
        "{strings:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {}",
        t.processes,
        t.threads,
        t.slices,
        t.instants,
        t.counters,
        t.asyncs,
        t.flows,
        t.samples,
        t.stack_frames,
        t.by_phase,
        t.members,
        t.unterminated
    );
    (kept, diags)
}

#[test]
fn every_corpus_trace_reads_the_same_at_every_chunk_size() {
    let root = corpus("chrome-trace");
    let mut files = Vec::new();
    for dir in ["catapult", "bazel", "speedscope/trace-event", "speedscope/Chrome"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "json" || x == "gz") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 45, "{}", files.len());
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        let min_chunk = if bytes.len() > 100_000 { 4096 } else { 1 };
        same_at_every_chunk(&f.display().to_string(), min_chunk, |chunk| read(&bytes, chunk));
    }
}

/// Traces read as the CLI reads them, their events read ahead on other
/// threads, keep what they keep when read in one go: the corpus, and a
/// trace whose events the fast path leaves to serde, whose chunks start
/// inside strings, and whose `samples` follow its events.
#[test]
fn events_read_ahead_on_several_threads_give_the_same_trace() {
    let root = corpus("chrome-trace");
    let mut files = Vec::new();
    for dir in ["catapult", "bazel", "speedscope/trace-event"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "json") {
                files.push((p.display().to_string(), std::fs::read(&p).unwrap()));
            }
        }
    }
    files.sort();
    let mut odd = String::from("{\"traceEvents\":[\n");
    for i in 0..400 {
        odd.push_str(&format!(
            "{{\"ph\":\"X\",\"name\":\"n{}\",\"ts\":{i},\"dur\":1,\"pid\":1,\"tid\":{},\"args\":{{\"s\":\"a{{b}}[\\\"c\"}}}},\n",
            i % 7,
            i % 3
        ));
        odd.push_str(&format!("{{\"ph\":\"B\",\"name\":\"\\u0041{i}\",\"ts\":{i},\"pid\":true,\"tid\":1.5}},\n"));
        odd.push_str("{\"ph\":\"E\",\"ts\":\"x\"}, 7, {\"ph\":\"b\",\"ts\":3,\"id2\":{\"local\":1}},\n");
    }
    odd.push_str(
        "{\"ph\":\"i\",\"ts\":1}],\n\"samples\":[{\"ts\":1,\"pid\":1,\"tid\":1,\"sf\":2},\n{\"ts\":2}],\n\"x\":{}}",
    );
    files.push(("odd".to_owned(), odd.into_bytes()));
    let mut read_ahead = 0;
    for (name, bytes) in &files {
        let whole = read(bytes, usize::MAX);
        for (chunk, at_lines) in [(64, true), (300, false), (4096, true)] {
            for threads in [1, 3] {
                let (input, ahead) = crate::test_support::read_ahead("unknown", bytes, chunk, at_lines, threads);
                read_ahead += ahead;
                assert_eq!(
                    kept(input.unwrap()),
                    whole,
                    "{name}: chunks of {chunk} (at lines: {at_lines}), {threads} threads"
                );
            }
        }
    }
    assert!(read_ahead > 1000, "chunks were read ahead: {read_ahead}");
}

fn sniff(head: &[u8], at_eof: bool) -> Sniff {
    ChromeTraceFormat.sniff(SniffInput { head, at_eof, name: "unknown" })
}

#[test]
fn sniffs_events_by_content() {
    assert_eq!(sniff(b"[{\"pid\":1,\"ph\":\"B\",\"ts\":0}", false), Sniff::Yes);
    assert_eq!(sniff(b"{\"otherData\":{},\"traceEvents\":[{\"ph\":\"M\"}", false), Sniff::Yes);
    assert_eq!(sniff(b"[{\"pid\":1,\"ph\":\"B\"", false), Sniff::NeedMore);
    assert_eq!(sniff(b"[{\"uid\":1}]", true), Sniff::No);
    assert_eq!(sniff(b"{\"graph\":[{\"uid\":1}]}", true), Sniff::No);
    assert_eq!(sniff(b"{\"ph\":\"X\"}\n{\"ph\":\"X\"}", false), Sniff::No);
    assert_eq!(sniff(b"1000 started", false), Sniff::No);
}

#[test]
fn bad_events_are_reported_at_their_line() {
    let doc = b"[{\"ph\":\"X\",\"ts\":1,\"name\":\"a\"},\n7,\n{\"ts\":2},\n{\"ph\":\"B\"}]";
    let input = read_bytes("t", doc, 3).unwrap();
    let d = input.info.diagnostics.kept();
    let got: Vec<(&str, String)> = d.iter().map(|d| (&*d.code, d.position.to_string())).collect();
    assert_eq!(
        got,
        [
            ("chrome.bad-event", "line 2".to_owned()),
            ("chrome.no-phase", "line 3".to_owned()),
            ("chrome.no-ts", "line 4".to_owned())
        ]
    );
}

#[test]
fn a_document_that_stops_being_json_is_an_error() {
    let err = read_bytes("t", b"[{\"ph\":\"X\",\"ts\":1}] trailing", 4).unwrap_err().to_string();
    assert!(err.contains("expected the end of the JSON document"), "{err}");
}

/// serde_json's reading of an event, errors as text.
fn by_serde(event: &[u8]) -> Result<raw::RawEvent<'_>, String> {
    serde_json::from_slice(event).map_err(|e| e.to_string())
}

/// Events as writers write them: the benchmark's, Chrome's, Bazel's (with
/// spaces), a flow, an async event with `id2`, Hermes' string times.
const EVENTS: [&str; 6] = [
    r#"{"name":"leaf0","cat":"bench","ph":"X","ts":15,"dur":60,"pid":1,"tid":0,"args":{"n":0}}"#,
    r#"{"args":{"data":{"frame":"F1","url":"https://a/b?c=1"}},"cat":"devtools.timeline","dur":12,"name":"ParseHTML","ph":"X","pid":42,"tdur":11,"tid":7,"ts":123456789012,"tts":9876}"#,
    r#"{"cat": "action processing", "name": "Compiling a.cc", "ph": "X", "ts": 1200.5, "dur": 300, "pid": 1, "tid": "worker-3", "args": {"target": "//a:b", "list": [1, -2.5e3, true, null, "\u00e9\\"]}}"#,
    r#"{"name":"f","ph":"s","ts":-4,"pid":"p","tid":2,"id":"0x1","cat":"flow","bp":"e","bind_id":7,"flow_in":true,"flow_out":false,"s":"t"}"#,
    r#"{"name":"a","ph":"b","ts":1,"pid":1,"tid":1,"cat":"c","id2":{"local":"0x2"},"scope":"s","args":null}"#,
    r#"{"ph":"B","ts":"11550183666","pid":"1","tid":"2","name":"(root)","args":{"line":1,"column":2}}"#,
];

#[test]
fn the_fast_path_takes_plain_events_and_reads_them_as_serde_does() {
    for event in EVENTS {
        let fast = fast::event(event.as_bytes());
        assert!(fast.is_some(), "{event}");
        assert_eq!(fast.map(Ok), Some(by_serde(event.as_bytes())), "{event}");
    }
}

/// Pieces that make an event unusual: whitespace, other number forms,
/// literals, escapes, unknown or repeated keys, stray brackets, nesting,
/// non-ASCII and control bytes.
const PIECES: [&str; 34] = [
    "",
    " ",
    "\n",
    "0",
    "01",
    "-1",
    "-0",
    "-",
    "null",
    "true",
    "1.5",
    "1.",
    "1e3",
    "2E-7",
    "1e400",
    "\\u0041",
    "\\ud800",
    "\\x",
    "\\\"",
    "9999999999999999",
    "99999999999999999999",
    "9223372036854775808",
    "\"x\":1,",
    "\"ph\":\"X\",",
    "\"ts\":2,",
    "\"args\":{\"a\":[1,{}]},",
    "}",
    "{",
    "[",
    ",",
    "\"",
    "é",
    "\u{1}",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 4000, ..Default::default() })]

    #[test]
    fn the_fast_path_never_disagrees_with_serde(
        base in 0..EVENTS.len(),
        edits in proptest::collection::vec(
            (proptest::prelude::any::<proptest::sample::Index>(), 0..4usize, 0..PIECES.len()),
            0..4,
        ),
    ) {
        let event = crate::test_support::edited(EVENTS[base], &edits, &PIECES);
        if let Some(fast) = fast::event(&event) {
            proptest::prop_assert_eq!(Ok(fast), by_serde(&event));
        }
    }
}
