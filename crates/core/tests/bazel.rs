//! Bazel profiles: on every Bazel profile of the corpus (and the app's
//! sample), the critical path is Bazel's own — its `critical path
//! component` events in the file's order, with their total — and every
//! component is shown on the action it names, where the profile has one.
//!
//! The expected values come from a separate plain scan of the JSON in this
//! file (serde_json over the gunzipped bytes), not from the reader. For
//! `tiny.json.gz` they are also, by hand (`zcat tiny.json.gz | jq -c
//! '.traceEvents[] | select(.cat == "critical path component") | [.name, .ts, .dur]'`):
//! `["action 'Executing genrule //src:target_c'", 892213, 3040943]` and
//! `["action 'Executing genrule //src:target_a'", 3934834, 10013371]`, a
//! total of 13,054,314 µs; their actions are the `action processing`
//! slices on `skyframe-evaluator 1` at 892,302 and 3,934,985 µs.

use longpole_core::ingest::read_bytes;
use longpole_core::layout::timeline::TimelineIndex;
use longpole_core::report::analysis_json;
use longpole_core::view::RunView;
use serde_json::Value;
use std::collections::HashMap;
use std::io::Read;
use std::path::PathBuf;

mod support;

fn files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out: Vec<PathBuf> =
        std::fs::read_dir(support::data("chrome-trace/bazel")).unwrap().map(|e| e.unwrap().path()).collect();
    out.sort();
    out.push(root.join("samples/bazel-tiny.json.gz"));
    out
}

/// A component as the plain scan sees it: description, and the (thread
/// name, start µs) of the `action processing` event of that name nearest
/// its start, if any.
struct Expected {
    description: String,
    action: Option<(String, f64)>,
}

fn scan(bytes: &[u8]) -> (Vec<Expected>, i64) {
    let mut text = Vec::new();
    if bytes.starts_with(&[0x1f, 0x8b]) {
        flate2::read::GzDecoder::new(bytes).read_to_end(&mut text).unwrap();
    } else {
        text = bytes.to_vec();
    }
    let doc: Value = serde_json::from_slice(&text).unwrap();
    let events = doc.get("traceEvents").unwrap_or(&doc).as_array().unwrap();
    let s = |e: &Value, k: &str| e.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    let id = |e: &Value| format!("{}/{}", e.get("pid").unwrap_or(&Value::Null), e.get("tid").unwrap_or(&Value::Null));
    let mut names = HashMap::new();
    for e in events.iter().filter(|e| s(e, "ph") == "M" && s(e, "name") == "thread_name") {
        names.insert(id(e), e["args"]["name"].as_str().unwrap().to_owned());
    }
    let mut total = 0;
    let mut out = Vec::new();
    for c in events.iter().filter(|e| s(e, "cat") == "critical path component") {
        let name = s(c, "name");
        let description = name["action '".len()..name.len() - 1].to_owned();
        let ts = c["ts"].as_f64().unwrap();
        total += (c["dur"].as_f64().unwrap() * 1000.0).round() as i64;
        let action = events
            .iter()
            .filter(|e| s(e, "cat") == "action processing" && s(e, "name") == description)
            .min_by(|a, b| {
                let d = |e: &&Value| (e["ts"].as_f64().unwrap() - ts).abs();
                d(a).total_cmp(&d(b))
            })
            .map(|e| (names[&id(e)].clone(), e["ts"].as_f64().unwrap()));
        out.push(Expected { description, action });
    }
    (out, total)
}

#[test]
fn the_critical_path_is_bazels_own_on_its_actions() {
    let mut with_path = 0;
    for f in files() {
        let bytes = std::fs::read(&f).unwrap();
        let (expected, total) = scan(&bytes);
        let analysis = longpole_core::reconcile(vec![read_bytes("unknown", &bytes, 4096).unwrap()]);
        let json = analysis_json(&analysis);
        let d = &analysis.datasets[0];
        let view = analysis.view(d, &TimelineIndex::new(&d.model));
        let name = f.display();
        if expected.is_empty() {
            assert_ne!(json["critical_path"]["source"], "bazel", "{name}");
            continue;
        }
        with_path += 1;
        let path = &json["critical_path"];
        assert_eq!(path["source"], "bazel", "{name}");
        let uids: Vec<&str> = path["tasks"].as_array().unwrap().iter().map(|t| t["uid"].as_str().unwrap()).collect();
        let want: Vec<&str> = expected.iter().map(|e| e.description.as_str()).collect();
        assert_eq!(uids, want, "{name}: Bazel's order");
        assert_eq!(path["total_ms"].as_f64().unwrap(), total as f64 / 1e6, "{name}: Bazel's total");
        assert_eq!(view.critical_path.total, total, "{name}");
        assert_eq!(view.critical_path.steps.len(), expected.len(), "{name}");
        for ((e, t), step) in expected.iter().zip(path["tasks"].as_array().unwrap()).zip(&view.critical_path.steps) {
            match &e.action {
                Some((thread, ts)) => {
                    assert_eq!(t["on_action"], true, "{name}: {}", e.description);
                    assert!(step.lane.ends_with(&format!("/ {thread}")), "{name}: {} on {}", e.description, step.lane);
                    assert_eq!(step.start, Some((ts * 1000.0).round() as i64), "{name}: {}", e.description);
                    assert_eq!(step.label, e.description, "{name}");
                }
                None => {
                    assert_eq!(t["on_action"], false, "{name}: {}", e.description);
                    assert!(step.lane.ends_with("/ Critical Path"), "{name}: {}", step.lane);
                }
            }
        }
    }
    assert!(with_path >= 2, "the corpus and the sample have Bazel profiles with a critical path");
}

/// The summary of `tiny.json.gz` against figures read by hand from the file
/// (`jq` over its events): the phases between the `build phase marker`
/// events (Launch Blaze at -33,000 µs, Initialize command at 0, Evaluate
/// target patterns at 39,843, Load and analyze dependencies at 167,886,
/// Prepare for build at 880,973, Build artifacts at 882,624, Complete build
/// at 13,959,885, the last event ending at 13,980,839), the ten `minor GC`
/// slices (2+3+4+4+5+4+7+4+4+6 ms), the 22 `action processing` slices
/// without a mnemonic, and the eight evaluator threads (`skyframe-evaluator
/// 0` … `7`, tids 250–257) that ran actions in the execution phase.
#[test]
fn tiny_summary_matches_the_figures_read_by_hand() {
    let bytes = std::fs::read(files().last().unwrap()).unwrap();
    let json = analysis_json(&longpole_core::reconcile(vec![read_bytes("tiny", &bytes, 4096).unwrap()]));
    let b = &json["bazel"];
    let phases: Vec<(&str, i64)> = b["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["nick"].as_str().unwrap(), p["time"].as_i64().unwrap() / 1000))
        .collect();
    assert_eq!(
        phases,
        [
            ("launch", 33_000),
            ("init", 39_843),
            ("target pattern evaluation", 128_043),
            ("interleaved loading-and-analysis", 713_087),
            ("preparation", 1_651),
            ("execution", 13_077_261),
            ("finish", 20_954),
        ]
    );
    assert_eq!(b["total"], 14_013_839_000i64);
    assert_eq!(b["critical_path"], 13_054_314_000i64);
    assert_eq!(
        (b["gc"]["count"].as_i64(), b["gc"]["total"].as_i64(), b["gc"]["major_count"].as_i64()),
        (Some(10), Some(43_000_000), Some(0))
    );
    assert_eq!(b["mnemonics"][0]["mnemonic"], "(not recorded)");
    assert_eq!(b["mnemonics"][0]["count"], 22);
    assert_eq!(b["mnemonics"][0]["on_path"], 2);
    assert_eq!(b["cores"]["used"], 8);
    let ids: Vec<&str> = b["suggestions"].as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap()).collect();
    // Two genrules ran alone for most of 13 s of 8 evaluator threads; no
    // cache was used; analysis and execution did not overlap (no Skymeld).
    assert_eq!(ids, ["BreakDownBottleneckActions", "UseRemoteCaching", "UseSkymeld"]);
}

/// `bazel-profile-Long-Phase-Test.json` (EngFlow's test profile: phase
/// markers only) against its events read by hand: Launch Blaze at -17,000 µs
/// for 17,000, Initialize command at 0, Evaluate target patterns at
/// 31,229,183, Load and analyze dependencies at 34,200,314, Prepare for
/// build at 77,059,750, Build artifacts at 77,090,175, Complete build at
/// 727,135,633, Finishing at 727,213,543. The init phase's 31.2 s is 4.3%
/// of the 727.2 s run, past EngFlow's 2% for a phase that should be
/// negligible; with no critical path, EngFlow asks for a build's profile,
/// and (no cache check, no interleaved phase) suggests remote caching and
/// Skymeld.
#[test]
fn long_phase_profile_matches_the_figures_read_by_hand() {
    let bytes = std::fs::read(&files()[0]).unwrap();
    let json = analysis_json(&longpole_core::reconcile(vec![read_bytes("p", &bytes, 4096).unwrap()]));
    let b = &json["bazel"];
    let phases: Vec<i64> = b["phases"].as_array().unwrap().iter().map(|p| p["time"].as_i64().unwrap() / 1000).collect();
    assert_eq!(phases, [17_000, 31_229_183, 2_971_131, 42_859_436, 30_425, 650_045_458, 77_910]);
    assert_eq!(b["total"], 727_230_543_000i64);
    let ids: Vec<&str> = b["suggestions"].as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["AnalyzeDifferentProfile", "UseRemoteCaching", "UseSkymeld", "UnusualPhaseDuration"]);
    assert!(b["suggestions"][3]["text"].as_str().unwrap().contains("init phase took 31.23 s (4.3% of the run)"));
}

/// Everything a profile goes through, as one text: the reports and the view.
fn everything(bytes: &[u8], chunk: usize) -> String {
    let Ok(input) = read_bytes("p", bytes, chunk) else { return "not read".to_owned() };
    let analysis = longpole_core::reconcile(vec![input]);
    let views: Vec<RunView> =
        analysis.datasets.iter().map(|d| analysis.view(d, &TimelineIndex::new(&d.model))).collect();
    format!("{}{}{:?}", analysis_json(&analysis), longpole_core::report::analysis_text(&analysis), views)
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// A damaged Bazel profile (bytes changed, cut anywhere) never panics,
    /// and reads the same at any chunk size.
    #[test]
    fn damaged_bazel_profiles_never_panic(
        cut in 0usize..90_000,
        flips in proptest::collection::vec((0usize..90_000, proptest::prelude::any::<u8>()), 0..6),
        chunk in 1usize..4096,
    ) {
        let mut data = Vec::new();
        flate2::read::GzDecoder::new(&std::fs::read(files().last().unwrap()).unwrap()[..]).read_to_end(&mut data).unwrap();
        for (at, b) in flips {
            let n = data.len();
            data[at % n] = b;
        }
        data.truncate(cut.max(1));
        proptest::prop_assert_eq!(everything(&data, chunk), everything(&data, 1 << 20));
    }
}
