//! Every format's runs exported to the ecosystem's formats: speedscope files
//! that keep speedscope's rules (frames in range, events in time order,
//! opens and closes balanced), Chrome traces whose slices nest on every
//! thread, folded stacks, self-contained HTML reports, and the evaluator's
//! workbook, read back by calamine.

use longpole_core::export::run::{export, Target};
use longpole_core::ingest::read_bytes;
use serde_json::Value;

mod support;

const INPUTS: [&str; 6] = [
    "distbuild/edge.log",
    "ghc-eventlog/testlog.eventlog",
    "monetdb-mal/stethoscope/q01_Jun2020.json",
    "ninja-log/kati-v5.ninja_log",
    "evobench/bench-v1-sum_of_fibs.log",
    "monetdb-mal/distributed/supervisor.json",
];

fn analysis(rel: &str) -> longpole_core::Analysis {
    longpole_core::reconcile(vec![read_bytes(rel, &support::bytes(rel), 4096).unwrap()])
}

fn json(a: &longpole_core::Analysis, target: Target) -> Value {
    serde_json::from_slice(&export(a, target, 0).unwrap()).unwrap()
}

#[test]
fn speedscope_files_keep_speedscope_s_rules() {
    for rel in INPUTS {
        let f = json(&analysis(rel), Target::Speedscope);
        assert_eq!(f["$schema"], "https://www.speedscope.app/file-format-schema.json");
        let frames = f["shared"]["frames"].as_array().unwrap().len() as u64;
        let profiles = f["profiles"].as_array().unwrap();
        assert!(!profiles.is_empty(), "{rel}");
        for p in profiles {
            assert_eq!(p["type"], "evented");
            let (mut at, mut stack) = (p["startValue"].as_i64().unwrap(), Vec::new());
            for e in p["events"].as_array().unwrap() {
                let (t, frame) = (e["at"].as_i64().unwrap(), e["frame"].as_u64().unwrap());
                assert!(frame < frames && t >= at, "{rel}: {e}");
                at = t;
                match e["type"].as_str().unwrap() {
                    "O" => stack.push(frame),
                    _ => assert_eq!(stack.pop(), Some(frame), "{rel}: unbalanced close"),
                }
            }
            assert!(stack.is_empty() && at <= p["endValue"].as_i64().unwrap(), "{rel}");
        }
    }
}

#[test]
fn chrome_traces_nest_on_every_thread() {
    for rel in INPUTS {
        let t = json(&analysis(rel), Target::Chrome);
        let events = t["traceEvents"].as_array().unwrap();
        let mut by_thread: std::collections::BTreeMap<(u64, u64), Vec<(f64, f64)>> = Default::default();
        for e in events.iter().filter(|e| e["ph"] == "X") {
            let (ts, dur) = (e["ts"].as_f64().unwrap(), e["dur"].as_f64().unwrap());
            assert!(dur > 0.0, "{rel}: {e}");
            by_thread.entry((e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap())).or_default().push((ts, ts + dur));
        }
        assert!(!by_thread.is_empty(), "{rel}");
        for ((pid, tid), mut spans) in by_thread {
            spans.sort_by(|a, b| a.partial_cmp(b).unwrap());
            // Slices on one thread follow one another (rows never overlap),
            // except the Critical Path process, whose steps may overlap.
            if pid > 2 || events.iter().all(|e| e["args"]["name"] != "Critical Path") {
                for w in spans.windows(2) {
                    assert!(w[0].1 <= w[1].0 + 1e-6, "{rel}: pid {pid} tid {tid} {w:?}");
                }
            }
        }
    }
}

#[test]
fn distbuild_exports_lead_with_ya_s_critical_path_process() {
    let t = json(&analysis("distbuild/edge.log"), Target::Chrome);
    let names: Vec<&str> = t["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["name"] == "process_name")
        .map(|e| e["args"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names[0], "Critical Path");
    assert_eq!(names.last().copied(), Some("distbuild/edge.log"));
}

#[test]
fn folded_stacks_and_html_reports() {
    for rel in INPUTS {
        let a = analysis(rel);
        let folded = String::from_utf8(export(&a, Target::Folded, 0).unwrap()).unwrap();
        for line in folded.lines() {
            let (stack, count) = line.rsplit_once(' ').unwrap();
            assert!(!stack.is_empty() && count.parse::<u64>().is_ok(), "{rel}: {line}");
        }
        let html = String::from_utf8(export(&a, Target::Html, 0).unwrap()).unwrap();
        assert!(html.starts_with("<!doctype html>") && html.contains("<svg"), "{rel}");
        assert!(!html.contains("<script") && !html.contains("src=") && !html.contains("href="), "{rel}");
    }
}

#[test]
fn chrome_traces_read_back_as_the_same_spans() {
    for rel in INPUTS {
        let a = analysis(rel);
        let m = &a.datasets[0].model;
        let origin = m.window().map_or(0, |w| w.0);
        let bytes = export(&a, Target::Chrome, 0).unwrap();
        let back = longpole_core::reconcile(vec![read_bytes("trace.json", &bytes, 4096).unwrap()]);
        assert_eq!(back.inputs[0].format, longpole_core::formats::chrome_trace::ID, "{rel}");
        let b = &back.datasets[0].model;
        // The run's own process is the last one: its lanes are those whose
        // process name is the input's.
        let spans = |m: &longpole_core::model::Model, origin: i64, lanes: &dyn Fn(&str) -> bool| {
            let mut v: Vec<(String, i64, i64)> = m
                .tasks()
                .iter()
                .enumerate()
                .filter(|(_, t)| lanes(&m.lanes()[t.lane.index()].name))
                .filter_map(|(i, t)| {
                    let (s, e) = (t.start.get()?, t.end.get()?);
                    Some((
                        m.label(longpole_core::model::TaskId(i as u32)).into_owned(),
                        (s - origin) / 1000,
                        (e - origin) / 1000,
                    ))
                })
                .collect();
            v.sort();
            v
        };
        let before = spans(m, origin, &|_| true);
        // Exported times count from the run's start, and read back as such.
        let after = spans(b, 0, &|lane| !lane.starts_with("Critical Path") && !lane.starts_with("Failed Nodes"));
        assert_eq!(before.len(), after.len(), "{rel}");
        for (x, y) in before.iter().zip(&after) {
            assert_eq!(x.0, y.0, "{rel}");
            assert!((x.1 - y.1).abs() <= 1 && (x.2 - y.2).abs() <= 1, "{rel}: {x:?} {y:?}");
        }
    }
}

/// The evaluator's workbook of the corpus's evobench logs, read back by
/// calamine (a reader of its own), holds the sheets and every cell the
/// tables gave: text as strings, numbers as numbers, nothing else.
#[test]
fn the_evaluator_workbook_reads_back_with_the_same_sheets_and_cells() {
    use calamine::{open_workbook_from_rs, Data, Reader, Xlsx};
    use longpole_core::export::xlsx::{sheet_name, Cell};
    use longpole_core::formats::evobench::export::{statistics_sheets, statistics_xlsx};
    let mut cells = 0;
    for rel in ["evobench/bench-v1-sum_of_fibs.log", "evobench/generated-current-format/evobench.log.zstd"] {
        let a = analysis(rel);
        let runs = longpole_core::formats::evobench::report::runs(&a);
        assert_eq!(runs.len(), 1, "{rel}");
        let sheets = statistics_sheets(&runs[0].table);
        let bytes = statistics_xlsx(&runs[0].table).unwrap();
        let mut book: Xlsx<_> = open_workbook_from_rs(std::io::Cursor::new(bytes)).unwrap();
        let names: Vec<String> = sheets.iter().map(|s| sheet_name(&s.name)).collect();
        assert_eq!(book.sheet_names(), names, "{rel}");
        assert_eq!(names, ["real time", "cpu time", "sys time", "ctx switches"]);
        for sheet in &sheets {
            let range = book.worksheet_range(&sheet_name(&sheet.name)).unwrap();
            let width = sheet.rows.iter().map(Vec::len).max().unwrap_or(0);
            assert_eq!(range.get_size(), (sheet.rows.len(), width), "{rel}: {}", sheet.name);
            for (r, row) in sheet.rows.iter().enumerate() {
                for c in 0..width {
                    let want = match row.get(c) {
                        Some(Cell::Text(t)) => Data::String(t.clone()),
                        Some(Cell::Number(n)) if n.is_finite() => Data::Float(*n),
                        _ => Data::Empty,
                    };
                    let got = range.get((r, c)).cloned().unwrap_or(Data::Empty);
                    assert_eq!(got, want, "{rel}: {} row {r} column {c}", sheet.name);
                    cells += 1;
                }
            }
        }
    }
    assert!(cells > 1000, "cells compared: {cells}");
}
