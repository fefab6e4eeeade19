//! The page's SQL tables (`export::sql`) read back with arrow-rs's IPC
//! reader: the fleet tables against ya's own result for the corpus's
//! distbuild example (`example.ya-result.txt`: 9 tasks, the path's four
//! steps and their durations, 4730 ms elapsed), with the `dt` the Parquet
//! partition gives; and a GHC program's threads table against the threads
//! ghc-events' `show` lists as created (the `.reference` beside it).

use arrow_array::{Array, Date32Array, Int64Array, RecordBatch};
use arrow_ipc::reader::StreamReader;
use longpole_core::export::sql::{sql_tables, SqlTable};
use longpole_core::ingest::read_bytes;
use std::collections::BTreeSet;

#[path = "support/arrow_columns.rs"]
mod arrow_columns;
mod support;
use arrow_columns::{ints, texts};

fn tables(path: &str) -> Vec<SqlTable> {
    let name = path.rsplit('/').next().unwrap();
    let input = read_bytes(name, &support::bytes(path), 4096).unwrap();
    sql_tables(&longpole_core::reconcile(vec![input]), "0123", name).unwrap()
}

/// Table `name`'s rows, in one batch.
fn rows(tables: &[SqlTable], name: &str) -> RecordBatch {
    let t = tables.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no table {name}"));
    let reader = StreamReader::try_new(std::io::Cursor::new(&t.ipc), None).unwrap();
    let schema = reader.schema();
    let mut batches: Vec<RecordBatch> = reader.map(Result::unwrap).collect();
    assert_eq!(batches.len(), 1, "one run, one batch");
    assert_eq!(batches[0].schema(), schema);
    batches.remove(0)
}

#[test]
fn the_example_builds_fleet_tables_match_yas_result() {
    let t = tables("distbuild/example.log");
    let names: Vec<&str> = t.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(&names[..3], ["runs", "tasks", "critical_path"]);
    assert!(names.iter().skip(3).all(|n| n.starts_with("distbuild_")), "{names:?}");
    assert!(names.contains(&"distbuild_critical_path"), "{names:?}");

    let runs = rows(&t, "runs");
    assert_eq!(
        (ints(&runs, "wall_us"), ints(&runs, "critical_path_us")),
        (vec![Some(4_730_000)], vec![Some(3_505_000)])
    );
    assert_eq!(texts(&runs, "run_id"), ["0123"]);
    let tasks = rows(&t, "tasks");
    assert_eq!(tasks.num_rows(), 9);
    // Its times are ms from 0, not dates: the partition has no date.
    let dt = tasks.column_by_name("dt").unwrap().as_any().downcast_ref::<Date32Array>().unwrap();
    assert_eq!(dt.null_count(), 9);
    let path = rows(&t, "critical_path");
    assert_eq!(ints(&path, "duration_us"), [500_000, 2_000_000, 5_000, 1_000_000].map(Some));

    // The view's path table says the same in ms, and selects the tasks.
    let view_path = rows(&t, "distbuild_critical_path");
    assert_eq!(view_path.num_rows(), 4);
    assert_eq!(texts(&view_path, "run_id"), ["0123"; 4]);
    let task_ids = ints(&view_path, "task_id");
    assert_eq!(task_ids, ints(&path, "task_id"));
}

#[test]
fn a_ghc_programs_threads_are_those_ghc_events_lists() {
    let path = "ghc-eventlog/hello-ghc-8.6.5.eventlog";
    let reference = String::from_utf8(support::bytes(&format!("{path}.reference"))).unwrap();
    let created: BTreeSet<String> = reference
        .lines()
        .filter_map(|l| l.split_once(": creating thread ").map(|(_, id)| id.trim().to_owned()))
        .collect();
    assert!(!created.is_empty());
    let t = tables(path);
    let threads = rows(&t, "ghc_eventlog_threads");
    let column = threads.schema().fields().iter().position(|f| f.name() == "thread").unwrap();
    let shown: BTreeSet<String> = match threads.column(column).as_any().downcast_ref::<Int64Array>() {
        Some(ids) => (0..ids.len()).map(|i| ids.value(i).to_string()).collect(),
        None => texts(&threads, "thread").into_iter().collect(),
    };
    assert_eq!(shown, created);
}
