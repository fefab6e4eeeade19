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
pub mod ya;
pub mod ya_build;
pub mod ya_keys;

pub use crate::join::{in_turn, Join};
pub use python::python_str_repr;
pub use ya::YaReport;
pub use ya_build::YaBuild;

use crate::diagnostics::Position;
use crate::formats::evobench::analysis::Field;
use crate::formats::evobench::report::{analysis_summary, summary_json, summary_text};
use crate::run::Analysis;
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
            let mut report = common::run_json(d, d.kind.report_json(d, join));
            levers::add_levers_json(d, &mut report);
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
    if let Some((runs, rows)) = analysis_summary(analysis, Field::default()) {
        top["evobench_summary"] = summary_json(runs, Field::default(), &rows);
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
        out.push_str(&d.text_with(join));
        out.push_str(&levers::levers_text(d));
    }
    if let Some((runs, rows)) = analysis_summary(analysis, Field::default()) {
        out.push_str(&summary_text(runs, Field::default(), &rows));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_repr_of_strings() {
        assert_eq!(python_str_repr("[CC] [A host1]: a.cpp"), "'[CC] [A host1]: a.cpp'");
        assert_eq!(python_str_repr("it's"), "\"it's\"");
        assert_eq!(python_str_repr("a'b\"c\n"), "'a\\'b\"c\\n'");
    }
}
