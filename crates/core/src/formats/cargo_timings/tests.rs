use super::path::Via;
use super::reconcile::{reconcile, CargoRun};
use super::*;
use crate::diagnostics::{Diagnostic, Diagnostics, Position};
use crate::ingest::read_bytes;

/// A page holding `units` (the text inside `UNIT_DATA = [...]`).
fn page(units: &str) -> String {
    format!(
        "<html><head><title>Cargo Build Timings — x</title></head><body>\n<table>\n<tr>\n<td>Total units:</td><td>3</td>\n</tr>\n</table>\n<script>\nconst UNIT_DATA = [{units}];\nconst CONCURRENCY_DATA = [];\n</script></body></html>\n"
    )
}

fn unit(i: u64, start: f64, duration: f64, unblocked: &str, rmeta: &str) -> String {
    format!(
        r#"{{"i": {i}, "name": "c{i}", "version": "0.1.0", "mode": "todo", "target": "", "start": {start}, "duration": {duration}, "rmeta_time": 0.2, "unblocked_units": [{unblocked}], "unblocked_rmeta_units": [{rmeta}]}}"#
    )
}

fn read(text: &str) -> (CargoTimings, Vec<Diagnostic>) {
    let input = read_bytes("unknown", text.as_bytes(), 4096).unwrap();
    let diags = input.info.diagnostics.kept().to_vec();
    let Some(t) = input.parsed.into_read::<CargoTimings>() else { panic!("not read as Cargo timings") };
    (*t, diags)
}

fn codes(diags: &[Diagnostic]) -> Vec<(&str, Position)> {
    diags.iter().map(|d| (d.code.as_ref(), d.position)).collect()
}

#[test]
fn a_pipelined_dependent_waits_for_the_metadata_not_the_end() {
    // c0's metadata (0.2 s after its start) makes c1 ready; c1's end c2.
    let units = [unit(0, 0.0, 1.0, "", "1"), unit(1, 0.25, 1.0, "2", ""), unit(2, 1.3, 0.5, "", "")].join(",");
    let (t, diags) = read(&page(&units));
    assert!(diags.is_empty(), "{diags:?}");
    let (_, run) = reconcile(&t, &mut Diagnostics::new());
    let steps: Vec<_> = run.path.iter().map(|s| (s.unit, s.via, s.ready, s.waited)).collect();
    assert_eq!(
        steps,
        vec![
            (0, None, None, 0),
            (1, Some(Via::Metadata), Some(200_000_000), 50_000_000),
            (2, Some(Via::End), Some(1_250_000_000), 50_000_000),
        ]
    );
    assert_eq!(run.path_total, 1_800_000_000);
}

#[test]
fn a_page_cut_inside_its_units_keeps_those_before_the_cut() {
    let units = [unit(0, 0.0, 1.0, "1", ""), unit(1, 1.0, 1.0, "", "")].join(",");
    let whole = page(&units);
    let cut_at = whole.find(r#""i": 1"#).unwrap() + 3;
    let (t, diags) = read(&whole[..cut_at]);
    assert_eq!(t.units.len(), 1);
    let start = whole.find(r#"{"i": 1"#).unwrap() as u64;
    assert_eq!(codes(&diags), vec![("cargo.unit-data", Position::Byte(start))]);
}

#[test]
fn a_page_without_unit_data_is_an_error() {
    let text = "<html><head><title>Cargo Build Timings</title></head><body>no script</body></html>";
    assert!(read_bytes("unknown", text.as_bytes(), 7).is_err());
}

#[test]
fn repeated_unknown_and_twice_listed_units_are_reported_and_read_around() {
    let units = [
        unit(0, 0.0, 1.0, "1, 9", ""),
        unit(1, 1.0, 1.0, "", ""),
        unit(1, 2.0, 1.0, "", ""),
        unit(2, 0.0, 2.0, "1", ""),
    ]
    .join(",");
    let text = page(&units);
    let (t, diags) = read(&text);
    assert!(diags.is_empty(), "{diags:?}");
    let mut diags = Diagnostics::new();
    let (model, run) = reconcile(&t, &mut diags);
    let at = |i: usize| t.units[i].position;
    assert_eq!(
        codes(diags.kept()),
        vec![("cargo.duplicate-unit", at(2)), ("cargo.unknown-unit", at(0)), ("cargo.unblocked-twice", at(3))]
    );
    assert_eq!(model.tasks().len(), 3);
    // c1 keeps its first maker, c0.
    assert_eq!(run.path.iter().map(|s| s.unit).collect::<Vec<_>>(), vec![0, 1]);
}

#[test]
fn a_unit_of_an_unknown_shape_is_reported_at_its_byte() {
    let units = r#"{"i": 0, "name": "x", "start": 0.0, "duration": 1.0, "units_made_ready": []}, {"i": 1, "name": "y", "start": "soon", "duration": 1.0, "unblocked_units": []}"#;
    let text = page(units);
    let (t, diags) = read(&text);
    let first = text.find(r#"{"i": 0"#).unwrap() as u64;
    let second = text.find(r#"{"i": 1"#).unwrap() as u64;
    assert_eq!(codes(&diags), vec![("cargo.lists", Position::Byte(first)), ("cargo.unit", Position::Byte(second))]);
    assert_eq!(t.units.len(), 1);
}

#[test]
fn a_log_cut_while_a_unit_runs_leaves_it_out_and_says_so() {
    let lines = [
        r#"{"run_id":"r","reason":"build-started","jobs":2,"profile":"dev","rustc_version":"1.97.0"}"#,
        r#"{"run_id":"r","reason":"unit-registered","package_id":"path+file:///w/a#0.1.0","target":{"name":"a","kind":"lib"},"mode":"build","index":0}"#,
        r#"{"run_id":"r","reason":"unit-registered","package_id":"path+file:///w/b#0.1.0","target":{"name":"b","kind":"lib"},"mode":"build","index":1}"#,
        r#"{"run_id":"r","reason":"unit-registered","package_id":"path+file:///w/b#0.1.0","target":{"name":"b","kind":"lib"},"mode":"build","index":1}"#,
        r#"{"run_id":"r","reason":"unit-started","index":0,"elapsed":0.5}"#,
        r#"{"run_id":"r","reason":"unit-rmeta-finished","index":0,"elapsed":0.7,"unblocked":[1]}"#,
        r#"{"run_id":"r","reason":"unit-started","index":1,"elapsed":0.75}"#,
        r#"{"run_id":"r","reason":"unit-finished","index":0,"elapsed":1.0}"#,
        r#"{"run_id":"r","reason":"unit-started","index":7,"elapsed":1.0}"#,
        "not json",
    ];
    let text = lines.join("\n");
    let (t, diags) = read(&text);
    assert_eq!(
        codes(&diags),
        vec![
            ("cargo.duplicate-unit", Position::Line(4)),
            ("cargo.unknown-unit", Position::Line(9)),
            ("cargo.line", Position::Line(10)),
            ("cargo.unfinished", Position::Line(3)),
        ]
    );
    assert_eq!(t.dialect, Dialect::BuildAnalysis);
    assert_eq!(t.units.len(), 1);
    assert_eq!(
        (t.units[0].start, t.units[0].duration, t.units[0].rmeta),
        (500_000_000, 500_000_000, Some(200_000_000))
    );
    // b never finished, so a's list no longer names it.
    assert!(t.units[0].unblocked_rmeta.is_empty());
}

#[test]
fn sniffing_tells_cargo_s_inputs_from_other_html_and_json() {
    let sniff =
        |head: &str, at_eof: bool| CargoTimingsFormat.sniff(SniffInput { head: head.as_bytes(), at_eof, name: "x" });
    assert_eq!(sniff("\n<html>\n<head>\n  <title>Cargo Build Timings — a", false), Sniff::Yes);
    assert_eq!(sniff("<html><head><title>Other</title></head><body>", false), Sniff::No);
    assert_eq!(sniff("<html><head>", false), Sniff::NeedMore);
    assert_eq!(sniff(r#"{"run_id":"x","timestamp":"t","reason":"build-started"}"#, true), Sniff::Yes);
    assert_eq!(sniff(r#"{"run_id":"x","times"#, false), Sniff::NeedMore);
    assert_eq!(sniff(r#"{"traceEvents":[]}"#, true), Sniff::No);
    assert_eq!(sniff("# ninja log v5", true), Sniff::No);
}

#[test]
fn fresh_units_are_cached_and_counted() {
    let units = [unit(0, 0.0, 0.0, "", ""), unit(1, 0.5, 1.0, "", "")].join(",");
    let (t, _) = read(&page(&units));
    let (model, run): (_, CargoRun) = reconcile(&t, &mut Diagnostics::new());
    assert_eq!(run.fresh_listed, 1);
    assert!(model.tasks()[0].cached && !model.tasks()[1].cached);
}
