use super::*;
use crate::diagnostics::{Diagnostics, Position};
use crate::formats::{Sniff, SniffInput};

const SMALL: &str = "Query:\n  Summary:\n     - Query ID: q1\n     - Total: 1s54ms\n     - Default Db\n     - Sql Statement: select 1\nfrom t\n\n     - Query State: Finished\n  Execution:\n    Fragment 0:\n      Pipeline (id=0):\n         - ActiveTime: 2.192us\n           - __MAX_OF_ActiveTime: 2.502us\n           - __MIN_OF_ActiveTime: 1.882us\n         - PendingTime: 1ms\n           - InputEmptyTime: 1ms\n             - FirstInputEmptyTime: 1ms\n        RESULT_SINK (plan_node_id=-1):\n          CommonMetrics:\n             - IsSubordinate\n             - OperatorTotalTime: 456ns\n             - PullRowNum: 1.026K (1026)\n          UniqueMetrics:\n\n";

fn read(text: &[u8], chunk: usize) -> (Profile, Diagnostics) {
    let mut diags = Diagnostics::new();
    let mut r = StarRocksFormat.reader();
    for c in text.chunks(chunk.max(1)) {
        r.feed(c, &mut diags).unwrap();
    }
    let Some(p) = r.finish(&mut diags).unwrap().into_read::<crate::formats::starrocks_profile::Profile>() else {
        panic!()
    };
    (*p, diags)
}

#[test]
fn the_tree_nests_by_indentation_and_prints_back() {
    let (p, diags) = read(SMALL.as_bytes(), 4096);
    assert_eq!(diags.total(), 0, "{:?}", diags.kept());
    assert_eq!(p.write(), SMALL.as_bytes());
    let summary = p.summary().unwrap();
    assert_eq!(summary.text("Sql Statement"), Some("select 1\nfrom t\n"));
    assert_eq!(summary.counter("Default Db").unwrap().value, Value::Flag);
    assert_eq!(summary.time("Total"), Some(1_054_000_000));
    let pipeline = p.execution().unwrap().child("Fragment 0").unwrap().child("Pipeline (id=0)").unwrap();
    let active = pipeline.counter("ActiveTime").unwrap();
    assert_eq!(active.children.len(), 2);
    assert_eq!(pipeline.time("FirstInputEmptyTime"), Some(1_000_000));
    assert_eq!(pipeline.counter("PendingTime").unwrap().children[0].children[0].name, "FirstInputEmptyTime");
    let op = pipeline.child("RESULT_SINK (plan_node_id=-1)").unwrap().child("CommonMetrics").unwrap();
    assert_eq!(op.counter("PullRowNum").unwrap().value, Value::Count(1026));
}

#[test]
fn chunk_boundaries_do_not_matter() {
    let whole = read(SMALL.as_bytes(), usize::MAX).0;
    for chunk in [1, 2, 7, 4096] {
        assert_eq!(read(SMALL.as_bytes(), chunk).0, whole, "chunk {chunk}");
    }
}

#[test]
fn odd_lines_are_kept_with_their_position() {
    let text =
        "Query:\r\n  Summary:\n     - Total: 1ms\n??? noise\n         - TooDeep: 1\n  Execution:\n         - Bad: 1";
    let (p, diags) = read(text.as_bytes(), 3);
    assert_eq!(p.write(), text.as_bytes());
    let found: Vec<(&str, Position)> = diags.kept().iter().map(|d| (&*d.code, d.position)).collect();
    assert_eq!(
        found,
        [
            ("starrocks.stray-line", Position::Line(4)),
            ("starrocks.indent", Position::Line(5)),
            ("starrocks.indent", Position::Line(7)),
        ]
    );
}

#[test]
fn text_that_is_no_profile_is_an_error() {
    let mut diags = Diagnostics::new();
    let mut r = StarRocksFormat.reader();
    let e = r.feed(b"hello\n", &mut diags).unwrap_err();
    assert_eq!(e.position, Position::Line(1));
    let mut r = StarRocksFormat.reader();
    assert_eq!(r.feed(b"Query:\n\0", &mut diags).unwrap_err().position, Position::Byte(7));
}

#[test]
fn the_json_form_is_read_in_order() {
    let json = br#"{"Query":{"Summary":{"Query ID":"q2","Total":"45s45ms"},"Execution Profile q2":{"Fragment 0":{"Pipeline (id=0)":{"ActiveTime":"1ms","__MAX_OF_ActiveTime":"2ms","B_SINK (plan_node_id=1)":{"CommonMetrics":{"OperatorTotalTime":"3us"}},"A_SOURCE (plan_node_id=1)":{}}}}}}"#;
    let (p, mut diags) = read(json, 5);
    assert_eq!(diags.total(), 0);
    assert_eq!(p.write(), json);
    assert_eq!(p.summary().unwrap().time("Total"), Some(45_045_000_000));
    let pipeline = p.execution().unwrap().child("Fragment 0").unwrap().child("Pipeline (id=0)").unwrap();
    assert_eq!(pipeline.counter("ActiveTime").unwrap().children[0].name, "__MAX_OF_ActiveTime");
    let names: Vec<&str> = pipeline.children().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["B_SINK (plan_node_id=1)", "A_SOURCE (plan_node_id=1)"]);
    let mut r = StarRocksFormat.reader();
    r.feed(b"{\"Query\":{", &mut diags).unwrap();
    assert!(r.finish(&mut diags).is_err());
}

#[test]
fn sniffing_needs_the_query_node_and_an_indented_line() {
    let sniff = |head: &[u8], at_eof| StarRocksFormat.sniff(SniffInput { head, at_eof, name: "unknown" });
    assert_eq!(sniff(b"Query:\n  Summary:\n", false), Sniff::Yes);
    assert_eq!(sniff(b"Query:\n  Summ", false), Sniff::NeedMore);
    assert_eq!(sniff(b"Que", false), Sniff::NeedMore);
    assert_eq!(sniff(b"Query:\nnext\n", false), Sniff::No);
    assert_eq!(sniff(b"Query: x\n", true), Sniff::No);
    assert_eq!(sniff(b" { \"Query\" : {", false), Sniff::Yes);
    assert_eq!(sniff(b"{\"pc\":1}", true), Sniff::No);
    assert_eq!(sniff(b"{", false), Sniff::NeedMore);
}
