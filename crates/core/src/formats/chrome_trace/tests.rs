use super::*;
use crate::ingest::read_bytes;
use crate::test_support::corpus;

fn read(bytes: &[u8], chunk: usize) -> (String, String) {
    let input = read_bytes("unknown", bytes, chunk).unwrap();
    let diags = format!("{:?}", input.info.diagnostics.kept());
    let crate::formats::Parsed::ChromeTrace(t) = input.parsed else { panic!("not a Chrome trace") };
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
        let whole = read(&bytes, usize::MAX);
        let chunks: &[usize] = if bytes.len() > 100_000 { &[4096] } else { &[1, 7, 4096] };
        for &chunk in chunks {
            assert_eq!(read(&bytes, chunk), whole, "{} at chunk size {chunk}", f.display());
        }
    }
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
