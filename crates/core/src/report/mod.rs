//! What `longpole analyze` prints, as text and as JSON: per input its
//! format and diagnostics, per dataset its format's report (and, for
//! several evobench runs, their summary under `evobench_summary`). The JSON
//! of every run has one shape ([`common`]), its format's members beside it.

pub mod common;
pub mod compare;
pub mod levers;
pub mod paths;
pub mod python;
pub mod whatif;

pub use crate::join::{in_turn, Join};
pub use python::python_str_repr;

use crate::diagnostics::Position;
use crate::run::{Analysis, RunsSummary};
use crate::summary::Summary;
use serde_json::{json, Value};

/// Every diagnostic of every input, in the JSON shape shared by all formats.
fn diagnostics_json(summary: &Summary) -> Vec<Value> {
    let mut out = Vec::new();
    for i in &summary.inputs {
        for d in &i.diagnostics.list {
            let mut v = json!({"input": i.name, "severity": d.severity, "code": d.code, "message": d.message});
            match d.position {
                Position::Line(n) => v["line"] = json!(n),
                Position::Byte(n) => v["offset"] = json!(n),
                Position::Whole => {}
            }
            out.push(v);
        }
    }
    out
}

/// Each format's summary of its runs ([`crate::run::RunKind::runs_summary`]),
/// asked of its first run.
fn runs_summaries(analysis: &Analysis) -> Vec<RunsSummary> {
    let mut asked = Vec::new();
    let mut out = Vec::new();
    for d in &analysis.datasets {
        if !asked.contains(&d.format) {
            asked.push(d.format);
            out.extend(d.kind.runs_summary(analysis));
        }
    }
    out
}

/// `longpole analyze --format json`: `schema_version`, the first dataset's
/// report at the top level (with the others under `datasets`), the inputs,
/// every diagnostic.
pub fn analysis_json(analysis: &Analysis) -> Value {
    analysis_json_with(analysis, &in_turn)
}

/// [`analysis_json`], with each report's independent analyses run by `join`.
pub fn analysis_json_with(analysis: &Analysis, join: Join<'_>) -> Value {
    let summary = Summary::of(analysis);
    let mut reports: Vec<Value> = analysis
        .datasets
        .iter()
        .map(|d| {
            // The levers replay the run: on a thread of their own beside the report's analyses.
            let (mut report, mut levers) = (None, None);
            join(&mut || report = Some(d.kind.report_json(d, join)), &mut || levers = Some(levers::levers_json(d)));
            let mut report = common::run_json(d, report.unwrap_or_else(|| d.kind.report_json(d, join)));
            levers.unwrap_or_else(|| levers::levers_json(d)).add_to(&mut report);
            report
        })
        .collect();
    let first = if reports.is_empty() {
        common::no_run_json(summary.inputs.first().map(|i| i.format.name()))
    } else {
        reports.remove(0)
    };
    let mut top = Value::Object(common::top_json(first));
    if !reports.is_empty() {
        top["datasets"] = Value::Array(reports);
    }
    for s in runs_summaries(analysis) {
        top[s.key] = s.json;
    }
    top["inputs"] = json!(summary
        .inputs
        .iter()
        .map(|i| json!({
            "name": i.name, "format": i.format, "compression": i.compression, "bytes": i.bytes,
            "decompressed_bytes": i.decompressed_bytes, "lines": i.lines, "events": i.events,
            "diagnostic_counts": i.diagnostics.counts,
        }))
        .collect::<Vec<_>>());
    top["diagnostics"] = Value::Array(diagnostics_json(&summary));
    top
}

/// `longpole analyze --format text`: the summary, then each dataset's report.
pub fn analysis_text(analysis: &Analysis) -> String {
    analysis_text_with(analysis, &in_turn)
}

/// [`analysis_text`], with each report's independent analyses run by `join`.
pub fn analysis_text_with(analysis: &Analysis, join: Join<'_>) -> String {
    let mut out = Summary::of(analysis).to_text();
    for d in &analysis.datasets {
        out.push('\n');
        let (mut text, mut levers) = (None, None);
        join(&mut || text = Some(d.text_with(join)), &mut || levers = Some(levers::levers_text(d)));
        out.push_str(&text.unwrap_or_else(|| d.text_with(join)));
        out.push_str(&levers.unwrap_or_else(|| levers::levers_text(d)));
    }
    for s in runs_summaries(analysis) {
        out.push_str(&s.text);
    }
    out
}
