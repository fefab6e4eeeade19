//! A Cargo build's tables: the path with how each unit was made ready,
//! the longest units, time by section and by kind.

use super::path::Via;
use super::reconcile::CargoRun;
use crate::view::table::{count, span, text, time, Row, Table};
use crate::view::tables::{by_type_table, origin, task_rows};
use crate::view::RunView;

/// The tables of a build.
pub fn tables(v: &RunView, run: &CargoRun) -> Vec<Table> {
    let origin = origin(v);
    let path_rows = v
        .critical_path
        .steps
        .iter()
        .zip(&run.path)
        .map(|(r, step)| {
            let via = match step.via {
                Some(Via::Metadata) => "metadata",
                Some(Via::End) => "end",
                None => "",
            };
            Row {
                cells: vec![
                    span(r.end.unwrap_or(0) - r.start.unwrap_or(0)),
                    text(&r.task_type),
                    text(&r.label),
                    text(via),
                    span(step.waited),
                    time(r.start, origin),
                    time(r.end, origin),
                ],
                task: Some(r.id),
                haystack: r.label.clone(),
            }
        })
        .collect();
    vec![
        Table::new(
            "critical-path",
            "Critical path",
            &["duration", "kind", "unit", "ready after", "waited", "started", "finished"],
            path_rows,
        ),
        Table::new(
            "longest",
            "Longest units",
            &["duration", "kind", "unit", "name", "slot", "started", "finished"],
            task_rows(&v.longest, origin, false),
        ),
        Table::new(
            "sections",
            "Time by section",
            &["section", "units", "time"],
            run.sections.iter().map(|s| Row::new(vec![text(&s.name), count(s.units), span(s.time)], &s.name)).collect(),
        ),
        by_type_table(v, "Time by kind", "kind"),
    ]
}
