//! Exporting a whole analysis to the ecosystem's formats: one entry point
//! for the CLI (`longpole export --to`) and the app's worker.

use super::{chrome::chrome_trace, flame, html::html_report, speedscope::speedscope};
use crate::layout::graph::{layout, GraphOptions};
use crate::layout::timeline::{TimelineIndex, Viewport};
use crate::model::{Model, TaskId};
use crate::render::{graph_svg::graph_svg, timeline_svg::timeline_svg};
use crate::run::{Analysis, Dataset};
use crate::view::RunView;
use serde::{Deserialize, Serialize};
use std::fmt::Write;
use std::io;

/// What to export to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Target {
    /// A Chrome trace (JSON), for Perfetto and chrome://tracing.
    Chrome,
    /// A speedscope file.
    Speedscope,
    /// Folded stacks, for inferno and FlameGraph.
    Folded,
    /// The timeline as a standalone SVG.
    Svg,
    /// A single self-contained HTML report.
    Html,
}

impl Target {
    /// The file extension of the export.
    pub fn extension(self) -> &'static str {
        match self {
            Target::Chrome => "trace.json",
            Target::Speedscope => "speedscope.json",
            Target::Folded => "folded",
            Target::Svg => "svg",
            Target::Html => "html",
        }
    }

    /// Its MIME type.
    pub fn mime(self) -> &'static str {
        match self {
            Target::Chrome | Target::Speedscope => "application/json",
            Target::Folded => "text/plain",
            Target::Svg => "image/svg+xml",
            Target::Html => "text/html",
        }
    }
}

/// Width of exported timelines, px.
const WIDTH: f64 = 1600.0;

/// A run's tasks as folded stacks, when it has no flame graph of its own:
/// `lane;kind;task duration-in-µs` per task with a duration, in task order.
pub fn tasks_folded(model: &Model) -> String {
    let mut out = String::new();
    for (i, t) in model.tasks().iter().enumerate() {
        let Some(d) = t.duration().filter(|&d| d > 0) else { continue };
        let frames = [
            model.lanes()[t.lane.index()].name.as_str(),
            model.kinds()[t.kind.index()].name.as_str(),
            &model.label(TaskId(i as u32)),
        ]
        .map(|f| f.replace(';', ",").replace(['\n', '\r'], " "));
        let _ = writeln!(out, "{} {}", frames.join(";"), (d / 1000).max(1));
    }
    out
}

/// The first dataset of `analysis` as folded stacks, written to `out` as
/// they are made (they can be many times the run's size: see
/// [`flame::write_folded`]); `measure` as for [`export`]. `None` when there
/// is no dataset.
pub fn write_folded(analysis: &Analysis, measure: usize, out: &mut impl io::Write) -> Option<io::Result<()>> {
    let d = analysis.datasets.first()?;
    let index = TimelineIndex::new(&d.model);
    Some(folded_of(&d.model, &analysis.view(d, &index), measure, out))
}

/// A run's folded stacks: its flame graph's, or its tasks'.
fn folded_of(model: &Model, view: &RunView, measure: usize, out: &mut impl io::Write) -> io::Result<()> {
    match &view.flame {
        Some(g) => flame::write_folded(g, measure.min(g.measures.len().saturating_sub(1)), out),
        None => out.write_all(tasks_folded(model).as_bytes()),
    }
}

/// The whole-run timeline of a dataset as SVG.
pub fn timeline(d: &Dataset, view: &RunView, index: &TimelineIndex, title: &str) -> String {
    let (start, end) = d.model.window().unwrap_or((0, 1));
    let viewport = Viewport { start, end: end.max(start + 1), width: WIDTH };
    let rows = index.bars(&d.model, viewport, 0..view.lanes.len());
    timeline_svg(view, &rows, viewport, &view.critical_path, title)
}

/// The first dataset of `analysis` exported to `target`; for folded stacks
/// of a run with a flame graph, `measure` picks its measure. `None` when
/// there is nothing to export.
pub fn export(analysis: &Analysis, target: Target, measure: usize) -> Option<Vec<u8>> {
    let d = analysis.datasets.first()?;
    let title = analysis.inputs.iter().map(|i| i.name.as_str()).collect::<Vec<_>>().join(" + ");
    let index = TimelineIndex::new(&d.model);
    let view = analysis.view(d, &index);
    let path: Vec<TaskId> = view.critical_path.steps.iter().map(|s| TaskId(s.id)).collect();
    Some(
        match target {
            Target::Chrome => chrome_trace(&d.model, &index, &path, &title),
            Target::Speedscope => speedscope(&d.model, &index, &title),
            Target::Folded => {
                let mut out = Vec::new();
                // Writing to memory cannot fail.
                let _ = folded_of(&d.model, &view, measure, &mut out);
                String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
            }
            Target::Svg => timeline(d, &view, &index, &title),
            Target::Html => {
                let graph = (!path.is_empty()).then(|| {
                    let g = layout(&d.model, &path, &GraphOptions::default());
                    graph_svg(&view, &g, &title)
                });
                html_report(&title, &view, &timeline(d, &view, &index, &title), graph.as_deref(), &d.text())
            }
        }
        .into_bytes(),
    )
}
