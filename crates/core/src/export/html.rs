//! A single self-contained HTML report: the timeline (and the dependency
//! graph, when the run has dependencies) as inline SVG, the critical path as
//! a table and the text report, with its styles inline. It needs no server,
//! no script and no network: it opens from disk and pastes into docs.

use crate::numbers::duration_label;
use crate::render::escape;
use crate::view::{PathView, RunView};
use std::fmt::Write;

const STYLE: &str = "body{font:14px system-ui,sans-serif;margin:24px;color:#202124}\
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}.muted{color:#5f6368}\
.chart{overflow-x:auto;border:1px solid #dadce0;border-radius:6px;padding:4px}\
table{border-collapse:collapse;font-size:13px}td,th{padding:3px 10px;border-bottom:1px solid #eee;text-align:left}\
td.num{text-align:right;font-variant-numeric:tabular-nums}pre{background:#f8f9fa;padding:12px;overflow-x:auto;font-size:12px}";

fn path_table(out: &mut String, path: &PathView) {
    out.push_str("<table><thead><tr><th>duration</th><th>type</th><th>task</th><th>lane</th><th>idle before</th></tr></thead><tbody>");
    for s in &path.steps {
        let d = match (s.start, s.end) {
            (Some(a), Some(b)) => duration_label(b - a),
            _ => "–".to_owned(),
        };
        let _ = write!(
            out,
            r#"<tr><td class="num">{d}</td><td>{}</td><td>{}</td><td>{}</td><td class="num">{}</td></tr>"#,
            escape(&s.task_type),
            escape(&s.label),
            escape(&s.lane),
            if s.gap > 0 { duration_label(s.gap) } else { String::new() }
        );
    }
    out.push_str("</tbody></table>");
}

/// The report page: `title`, the run's headline numbers from `view`, the
/// timeline SVG, the graph SVG if any, and the text report.
pub fn html_report(title: &str, view: &RunView, timeline: &str, graph: Option<&str>, report: &str) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{} — longpole</title><style>{STYLE}</style></head><body>",
        escape(title)
    );
    let wall = view.window.map_or("unknown".to_owned(), |(a, b)| duration_label(b - a));
    let _ = write!(
        out,
        "<h1>{}</h1><p class=\"muted\">{} · wall {wall} · {} lanes · made by longpole</p>",
        escape(title),
        escape(view.format.title()),
        view.lanes.len()
    );
    let _ = write!(out, "<h2>Timeline</h2><div class=\"chart\" data-chart=\"timeline\">{timeline}</div>");
    if !view.critical_path.steps.is_empty() {
        let _ = write!(out, "<h2>Critical path · {}</h2>", duration_label(view.critical_path.total));
        path_table(&mut out, &view.critical_path);
    }
    if let Some(g) = graph {
        let _ = write!(out, "<h2>Dependency graph</h2><div class=\"chart\" data-chart=\"graph\">{g}</div>");
    }
    let _ = writeln!(out, "<h2>Report</h2><pre>{}</pre></body></html>", escape(report));
    out
}
