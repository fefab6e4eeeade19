use super::*;
use crate::formats::{Format, Sniff, SniffInput};

fn sniff(head: &str, at_eof: bool) -> Sniff {
    MonetdbMalFormat.sniff(SniffInput { head: head.as_bytes(), at_eof, name: "unknown" })
}

#[test]
fn sniffs_every_generation_and_heartbeats() {
    for line in [
        r#"{"source":"trace","clk":1,"pc":0,"tag":1,"session":"s","state":"start"}"#,
        r#"{"version":"11.37.2","clk":1590162808226941,"mclk":1,"thread":8,"program":"user.s4_1","pc":0,"tag":15,"session":"s","state":"start"}"#,
        r#"{"sessionid":"0", "clk":59006350, "thread":20, "phase":"text_to_sql", "tag":4, "usec":22}"#,
        r#"{"source":"heartbeat","session":"s","clk":1,"state":"ping","cpuload":[0.1]}"#,
        r#"{"clk":1,"ctime":2,"rss":3,"state":"ping","cpuload":[0.1]}"#,
    ] {
        assert_eq!(sniff(&format!("{line}\n"), false), Sniff::Yes, "{line}");
    }
    let pretty = "{\n  \"source\": \"trace\",\n  \"pc\": 3\n}\n";
    assert_eq!(sniff(pretty, true), Sniff::Yes);
}

#[test]
fn other_json_is_not_a_trace_and_a_cut_object_needs_more() {
    for text in [
        "{\"Start\":{\"evobench_log_version\":1}}\n",
        "{\"namespace\":\"a\",\"event\":\"b\",\"timestamp\":1}\n",
        "{\"traceEvents\":[]}\n",
        "[{\"pc\":1}]\n",
        "pc tag clk\n",
    ] {
        assert_eq!(sniff(text, true), Sniff::No, "{text}");
    }
    assert_eq!(sniff("{\"source\":\"trace\",\"pc\"", false), Sniff::NeedMore);
    assert_eq!(sniff("{\"source\":\"trace\",\"pc\"", true), Sniff::No);
    assert_eq!(sniff("  ", false), Sniff::NeedMore);
}
