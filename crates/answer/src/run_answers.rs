//! The answers to the views' questions about the loaded run: bars, a
//! task's details, the report's text, levers and what-ifs, the graph, the
//! flame graph, the SVG files and the exports.

use crate::loaded::Loaded;
use crate::protocol::{Export, Request, Response};
use crate::sink::Sink;
use longpole_core::analysis::task_key::TaskKey;
use longpole_core::export::flame::{folded, folded_len};
use longpole_core::export::run::{export, Target};
use longpole_core::formats::evobench::export::statistics_csv;
use longpole_core::formats::evobench::report::runs;
use longpole_core::formats::evobench::view::summary_rows;
use longpole_core::layout::{flame, graph};
use longpole_core::memory_budget::{mib, shell_quote};
use longpole_core::model::TaskId;
use longpole_core::render::flame_svg::flame_svg;
use longpole_core::render::graph_svg::graph_svg;
use longpole_core::render::timeline_svg::timeline_svg;
use longpole_core::view::{FlameLayout, TaskDetails};

/// The most bytes of folded stacks made for the page: more would not fit
/// beside the run in a tab's memory, once in the worker and once in the page.
const FOLDED_LIMIT: u64 = 1 << 30;

/// Why the folded stacks of measure `m` of the loaded run are not made
/// for the page, if they would be over [`FOLDED_LIMIT`], with the native command.
fn folded_refusal(l: &Loaded, m: usize) -> Option<String> {
    let len = folded_len(l.view.as_ref()?.flame.as_ref()?, m);
    if len <= FOLDED_LIMIT {
        return None;
    }
    let files: Vec<String> = l.analysis.inputs.iter().map(|i| shell_quote(&i.name)).collect();
    Some(format!(
        "The folded stacks of this run would take {}: each line repeats its stack's whole path, and this run's stacks are \
         deep. That is more than a browser tab can make (at most {}). Make them natively, where they are written as they \
         are made: longpole export {} --to folded --output stacks.folded",
        mib(len),
        mib(FOLDED_LIMIT),
        files.join(" ")
    ))
}

/// The inputs' names joined, the title of an exported graph or timeline.
fn title(l: &Loaded) -> String {
    l.analysis.inputs.iter().map(|i| i.name.as_str()).collect::<Vec<_>>().join(" + ")
}

/// Answers a view's question about loaded run `l` into `sink`; a question
/// about another run, or one the run has nothing for, gets no answer.
pub fn answer(l: &Loaded, request: Request, sink: &mut dyn Sink) {
    let Some(dataset) = l.analysis.datasets.first() else { return };
    let model = &dataset.model;
    let response = match request {
        Request::Bars { run, seq, viewport, lanes } if run == l.run => {
            Response::Bars { run, seq, viewport, rows: l.index.bars(model, viewport, lanes.0..lanes.1) }
        }
        Request::Details { run, task } if run == l.run && (task as usize) < model.tasks().len() => {
            let (details, key) = (TaskDetails::of(model, &l.index, TaskId(task)), TaskKey::of(model, TaskId(task)));
            Response::Details { run, details: Box::new(details), key }
        }
        Request::Locate { run, key } if run == l.run => {
            Response::Located { run, task: key.find(model).map(|t| t.0), key }
        }
        Request::ReportText { run } if run == l.run => Response::ReportText { run, text: dataset.text() },
        Request::Levers { run } if run == l.run => {
            Response::Levers { run, levers: l.what_ifs().map(|w| w.levers(model)).unwrap_or_default() }
        }
        Request::Lever { run, task } if run == l.run => {
            Response::Lever { run, task, lever: l.what_ifs().and_then(|w| w.lever(model, TaskId(task))) }
        }
        Request::WhatIf { run, task, speedup } if run == l.run => {
            let view = l.what_ifs().and_then(|w| w.step(model, &l.index, TaskId(task), speedup));
            Response::WhatIf { run, view: view.map(Box::new) }
        }
        Request::Graph { run, unfold, chain, export } if run == l.run => {
            let Some(view) = &l.view else { return };
            let path = if chain { &view.blocking_chain } else { &view.critical_path };
            let ids: Vec<TaskId> = path.steps.iter().map(|s| TaskId(s.id)).collect();
            let layout = graph::layout(model, &ids, &graph::GraphOptions::unfolding(unfold));
            if export {
                Response::Svg { run, name: "longpole-graph.svg".into(), text: graph_svg(view, &layout, &title(l)) }
            } else {
                Response::Graph { run, layout: Box::new(layout) }
            }
        }
        Request::ExportSvg { run, viewport, chain } if run == l.run => {
            let Some(view) = &l.view else { return };
            let path = if chain { &view.blocking_chain } else { &view.critical_path };
            let rows = l.index.bars(model, viewport, 0..view.lanes.len());
            Response::Svg {
                run,
                name: "longpole-timeline.svg".into(),
                text: timeline_svg(view, &rows, viewport, path, &title(l)),
            }
        }
        Request::Flame { run, kind, root, icicle, export } if run == l.run => {
            let Some(graph) = l.view.as_ref().and_then(|v| v.flame.as_ref()) else { return };
            let m = usize::from(kind);
            if export {
                let boxes = flame::layout(graph, m, root);
                let title = l.analysis.inputs.first().map_or("", |i| i.name.as_str());
                Response::Svg {
                    run,
                    name: "longpole-flame.svg".into(),
                    text: flame_svg(graph, &boxes, m, icicle, title),
                }
            } else {
                Response::Flame { run, kind, root, layout: Box::new(FlameLayout::of(graph, m, root)) }
            }
        }
        Request::Export { run, what } if run == l.run => return export_file(l, what, sink),
        Request::Summary { run, field } if run == l.run => {
            // The page offers only the statistics `Field` names; anything
            // else asks for the default one, the mean.
            let rows = summary_rows(&l.analysis, field.parse().unwrap_or_default());
            Response::Summary { run, field, rows }
        }
        _ => return,
    };
    sink.send(&response);
}

/// Makes the file `what` of loaded run `l` into `sink`, or says why not.
fn export_file(l: &Loaded, what: Export, sink: &mut dyn Sink) {
    let run = l.run;
    let measure = match what {
        Export::Run(Target::Folded) => Some(0),
        Export::Folded(kind) => Some(usize::from(kind)),
        _ => None,
    };
    if let Some(message) = measure.and_then(|m| folded_refusal(l, m)) {
        return sink.send(&Response::ExportRefused { run, message });
    }
    // The page offers each export only for a run that has what it
    // exports, so a `None` below is a request with nothing to answer.
    let (name, mime, bytes) = match what {
        Export::Run(target) => {
            let Some(bytes) = export(&l.analysis, target, 0) else { return };
            let stem = l.analysis.inputs.first().map_or("longpole", |i| i.name.as_str());
            (format!("{stem}.{}", target.extension()), target.mime(), bytes)
        }
        Export::Folded(kind) => {
            let Some(graph) = l.view.as_ref().and_then(|v| v.flame.as_ref()) else { return };
            let m = usize::from(kind);
            let name = graph.measures.get(m).map_or("stacks", |x| x.name.as_str());
            (format!("longpole-{name}.folded"), "text/plain", folded(graph, m).into_bytes())
        }
        Export::StatisticsCsv => {
            let Some(first) = runs(&l.analysis).into_iter().next() else { return };
            ("longpole-statistics.csv".to_owned(), "text/csv", statistics_csv(&first.table).into_bytes())
        }
    };
    sink.file(run, &name, mime, &bytes);
}
