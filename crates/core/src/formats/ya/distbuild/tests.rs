use crate::diagnostics::Diagnostics;
use crate::formats::{detect, Detection, SniffInput};
use crate::ingest::read_bytes;
use crate::test_support::{corpus, same_at_every_chunk};

/// The dump of a log read at one chunk size: the model's tasks, then every diagnostic.
fn dump(name: &str, data: &[u8], chunk: usize) -> String {
    let input = read_bytes(name, data, chunk).unwrap();
    let analysis = crate::reconcile(vec![input]);
    let mut out = crate::dump::tasks(&analysis.datasets[0].model);
    out.push_str(&diagnostics(&analysis.inputs[0].diagnostics));
    out
}

fn diagnostics(d: &Diagnostics) -> String {
    d.kept().iter().map(|d| format!("{d}\n")).collect()
}

fn check(file: &str) -> String {
    let data = std::fs::read(corpus(file)).unwrap();
    let whole = same_at_every_chunk(file, 1, |chunk| dump(file, &data, chunk));
    let sniffed = detect(SniffInput { head: &data, at_eof: true, name: "unknown" });
    assert!(
        matches!(sniffed, Detection::Found(f) if f.id() == crate::formats::ya::distbuild::ID),
        "{file} sniffed as unknown"
    );
    whole
}

#[test]
fn example_log() {
    insta::assert_snapshot!(check("distbuild/example.log"));
}

#[test]
fn edge_log() {
    insta::assert_snapshot!(check("distbuild/edge.log"));
}

#[test]
fn sniffer_needs_a_known_event_and_a_log_shape() {
    use crate::formats::{Format, Sniff};
    let sniff =
        |text: &str, at_eof| super::DistbuildFormat.sniff(SniffInput { head: text.as_bytes(), at_eof, name: "x" });
    assert_eq!(sniff("1000 prepare_start  7\n", false), Sniff::Yes);
    assert_eq!(sniff("1000 prepare_st", false), Sniff::NeedMore, "an incomplete first line");
    assert_eq!(sniff("1000 prepare_start  7", true), Sniff::Yes, "a last line without a newline");
    assert_eq!(sniff("{\"graph\": []}\n", true), Sniff::No);
    assert_eq!(sniff("5000 something_new X Y\n", false), Sniff::NeedMore, "no known event yet");
    assert_eq!(sniff("5000 something_new X Y\n", true), Sniff::No);
    assert_eq!(sniff("# ninja log v5\n", false), Sniff::No);
}

#[test]
fn problems_are_diagnostics_with_lines() {
    let log = "\
1000 prepare_start  7
12x started A host1
1600 started
1700 started A
1800 deploy A seven 1
1900 dep_start C host1 B 2
2000 started D host1
2100 finished E host1 OK 5
2200 repository_prepared $(SOURCE_ROOT) 9
2300 toolchain_prepare_finish X 7
2400 toolchain_prepare_finish Y 7
";
    let input = read_bytes("bad.log", log.as_bytes(), 3).unwrap();
    let d = &input.info.diagnostics;
    let codes: Vec<(&str, String)> = d.kept().iter().map(|d| (&*d.code, d.position.to_string())).collect();
    assert_eq!(
        codes,
        [
            ("distbuild.bad-time", "line 2".to_owned()),
            ("distbuild.short-line", "line 3".to_owned()),
            ("distbuild.short-line", "line 4".to_owned()),
            ("distbuild.bad-worker-id", "line 5".to_owned()),
            ("distbuild.lone-copy-event", "line 6".to_owned()),
            ("distbuild.unbound-worker", "line 1".to_owned()),
            ("distbuild.unbound-worker", "line 9".to_owned()),
            ("distbuild.no-prepare-start", "line 9".to_owned()),
            ("distbuild.unfinished-task", "line 7".to_owned()),
            ("distbuild.unstarted-task", "line 8".to_owned()),
            ("distbuild.retired-event", "line 10".to_owned()),
        ]
    );
    assert!(d.kept()[10].message.contains("(2 lines)"));
}

#[test]
fn binary_data_after_a_good_start_is_an_error_naming_the_line() {
    let err = read_bytes("x.log", b"1000 prepare_start  7\n1001 \x00\x01garbage\n", 5).unwrap_err();
    assert_eq!(
        err.to_string(),
        "x.log: not a valid distbuild execution log at line 2: a NUL byte: this is binary data, not a text log (offending bytes: \"1001 \\x00\\x01garbage\")"
    );
}

/// The dump of a log read as the CLI reads it on `threads` threads
/// ([`crate::test_support::read_ahead`]).
fn dump_read_ahead(data: &[u8], chunk: usize, at_lines: bool, threads: usize) -> String {
    let (input, _) = crate::test_support::read_ahead("x.log", data, chunk, at_lines, threads);
    let analysis = crate::reconcile(vec![input.unwrap()]);
    let mut out = crate::dump::tasks(&analysis.datasets[0].model);
    out.push_str(&diagnostics(&analysis.inputs[0].diagnostics));
    out
}

#[test]
fn lines_read_ahead_on_several_threads_give_the_same_model_and_diagnostics() {
    let cfg = longpole_distbuild_sim::Config { nodes: 300, hosts: 7, ..Default::default() };
    let nodes = longpole_distbuild_sim::graph(&cfg);
    let mut simulated = Vec::new();
    longpole_distbuild_sim::simulate(&cfg, &nodes, &mut simulated).unwrap();
    let mut bad = b"1000 prepare_start  7\n12x started A host1\n1600 started\n".to_vec();
    bad.extend_from_slice(
        b"1800 deploy A seven 1\n1900 dep_start C host1 B 2\n2000 started D h\xff\n2300 odd X 7\nlast",
    );
    let files =
        [std::fs::read(corpus("distbuild/example.log")).unwrap(), std::fs::read(corpus("distbuild/edge.log")).unwrap()];
    for (name, data) in [("example", &files[0]), ("edge", &files[1]), ("simulated", &simulated), ("bad", &bad)] {
        let whole = dump(name, data, data.len());
        for (chunk, at_lines) in [(64, true), (64, false), (4096, true), (100_000, true)] {
            for threads in [1, 3] {
                assert_eq!(
                    dump_read_ahead(data, chunk, at_lines, threads),
                    whole,
                    "{name}: chunks of {chunk} (at line ends: {at_lines}), {threads} threads"
                );
            }
        }
    }
}

#[test]
fn a_nul_byte_in_lines_read_ahead_is_the_same_error() {
    use crate::ingest::Ingest;
    let data = b"1000 prepare_start  7\n1000 prepare_start  8\n1000 prepare_start  9\n1001 prepare_start  8\n1002 \x00\x01garbage\n1003 prepare_start  9\n";
    let (head, rest) = data.split_at(88);
    let mut ingest = Ingest::new("x.log");
    ingest.feed(head).unwrap();
    let mut prepared = Default::default();
    ingest.preparer().expect("the format is known")(rest, &mut prepared);
    let err = ingest.feed_prepared(rest, &prepared).unwrap_err();
    assert_eq!(
        err.to_string(),
        "x.log: not a valid distbuild execution log at line 5: a NUL byte: this is binary data, not a text log (offending bytes: \"1002 \\x00\\x01garbage\")"
    );
}
