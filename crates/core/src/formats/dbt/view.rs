//! What the app shows of a dbt run: the timeline of threads, the path (the
//! blocking chain: back from the step that finished last), the headline's
//! facts, and the tables: the path, the nodes with their statuses and
//! adapter responses, the longest steps, the time per type.

use super::report::facts_line;
use super::run::DbtRun;
use crate::analysis::critical_path::blocking_chain;
use crate::layout::timeline::TimelineIndex;
use crate::model::{Model, Nanos};
use crate::view::headline::Fact;
use crate::view::table::{columns, text, Cell, Row, Table};
use crate::view::tables::{by_type_table, longest_table, path_tables};
use crate::view::{path_view, RunView};

/// The view of `run` over `model`.
pub fn view(model: &Model, run: &DbtRun, format: crate::model::FormatId, index: &TimelineIndex) -> RunView {
    let (chain, steps) = blocking_chain(model);
    let gaps: Vec<Nanos> = steps.iter().map(|s| s.gap).collect();
    let mut v = RunView::of_program(model, format, index);
    v.critical_path = path_view(model, index, &chain, Some(&gaps));
    v.blocking_chain = v.critical_path.clone();
    v.headline = vec![Fact::plain(format!(" · {}", facts_line(model, run)))];
    let headers = ["duration", "kind", "unique_id", "step", "thread", "started", "finished"];
    let [path_table, _] = path_tables(&v, "Path", &headers);
    v.tables = vec![
        path_table,
        nodes_table(run),
        longest_table(&v, "Longest steps", &headers),
        by_type_table(&v, "Time by kind", "kind"),
    ];
    v.search_hint = "Search nodes  (/)".into();
    v.with_part(run)
}

/// Every node that ran: type, status, thread, dbt's execution time, the
/// adapter's response and message.
fn nodes_table(run: &DbtRun) -> Table {
    let seconds = |s: Option<f64>| -> Cell {
        match s {
            Some(s) => crate::view::table::number(format!("{s:.3} s"), s),
            None => text(""),
        }
    };
    Table {
        id: "nodes".into(),
        title: "Nodes".into(),
        headers: columns(&["unique_id", "type", "status", "thread", "execution_time", "adapter_response", "message"]),
        rows: run
            .nodes
            .iter()
            .map(|n| {
                Row::new(
                    vec![
                        text(&n.unique_id),
                        text(&n.resource_type),
                        text(&n.status),
                        text(&n.thread),
                        seconds(n.execution_time),
                        text(&n.adapter_response),
                        text(n.message.as_deref().unwrap_or("")),
                    ],
                    &format!("{} {} {}", n.unique_id, n.status, n.thread).to_lowercase(),
                )
            })
            .collect(),
        sort: None,
    }
}
