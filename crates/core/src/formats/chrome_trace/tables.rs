//! A Chrome trace's tables: Bazel's own critical path and a Bazel
//! profile's tables, the paths over the flows, the longest slices, the time
//! per category, events per phase and the counters.

use super::view::ChromeView;
use crate::view::table::{columns, count, text, Row, Table};
use crate::view::tables::{by_type_table, origin, path_tables, task_rows};
use crate::view::RunView;

/// A Chrome trace's tables: Bazel's own critical path (for a Bazel
/// profile), the paths over its flows, the longest slices, time per
/// category, events per phase and the counters.
pub fn tables(v: &RunView, c: &ChromeView) -> Vec<Table> {
    let origin = origin(v);
    let headers = ["duration", "category", "uid", "name", "thread", "started", "finished"];
    let mut list = Vec::new();
    if !c.bazel_critical_path.is_empty() {
        list.push(Table {
            id: "bazel-critical-path".into(),
            title: "Bazel's critical path".into(),
            headers: columns(&headers),
            rows: task_rows(&c.bazel_critical_path, origin, false),
            sort: None,
        });
    }
    if let Some(b) = &c.bazel {
        list.extend(super::bazel::tables::tables(b, origin));
    }
    if c.flows > 0 {
        list.extend(path_tables(v, "Critical path over the flows", &headers));
    }
    list.extend([
        Table {
            id: "longest".into(),
            title: "Longest slices".into(),
            headers: columns(&headers),
            rows: task_rows(&v.longest, origin, false),
            sort: None,
        },
        by_type_table(v, "Time by category", "category"),
        Table {
            id: "phases".into(),
            title: "Events by phase".into(),
            headers: columns(&["phase", "events"]),
            rows: c
                .by_phase
                .iter()
                .map(|(p, n)| Row { cells: vec![text(p), count(*n)], task: None, haystack: p.to_lowercase() })
                .collect(),
            sort: None,
        },
        Table {
            id: "counters".into(),
            title: "Counters".into(),
            headers: columns(&["counter", "process", "samples"]),
            rows: c
                .counters
                .iter()
                .map(|(name, process, n)| Row {
                    cells: vec![text(name), text(process), count(*n)],
                    task: None,
                    haystack: format!("{name} {process}").to_lowercase(),
                })
                .collect(),
            sort: None,
        },
    ]);
    list
}
