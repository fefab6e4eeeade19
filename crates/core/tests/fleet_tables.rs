//! The fleet tables of the corpus's distbuild example read back with
//! arrow-rs's Parquet reader, against ya's own result for that log
//! (`example.ya-result.txt`: the critical path, its 3505 ms, the 4730 ms
//! elapsed) and slack worked out by hand from the tasks ya lists.

use arrow_array::{Array, BooleanArray, RecordBatch, TimestampMicrosecondArray};
use longpole_core::export::parquet::{analysis_files, Files, SCHEMA_VERSION};
use longpole_core::ingest::read_bytes;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::Compression;
use parquet::file::reader::{FileReader, SerializedFileReader};

#[path = "support/arrow_columns.rs"]
mod arrow_columns;
mod support;
use arrow_columns::{ints, texts};

fn example() -> Files {
    let input = read_bytes("example.log", &support::bytes("distbuild/example.log"), 7).unwrap();
    let analysis = longpole_core::reconcile(vec![input]);
    let mut files = analysis_files(&analysis, "0123", "example.log").unwrap();
    assert_eq!(files.len(), 1);
    files.remove(0)
}

fn table(file: &[u8]) -> RecordBatch {
    let bytes = bytes::Bytes::copy_from_slice(file);
    let meta = SerializedFileReader::new(bytes.clone()).unwrap();
    for rg in meta.metadata().row_groups() {
        assert!(rg.columns().iter().all(|c| c.compression() == Compression::SNAPPY));
    }
    let reader = ParquetRecordBatchReaderBuilder::try_new(bytes).unwrap().build().unwrap();
    let mut batches: Vec<RecordBatch> = reader.map(Result::unwrap).collect();
    assert_eq!(batches.len(), 1, "one row group, read in one batch");
    batches.remove(0)
}

#[test]
fn the_example_builds_tables_match_yas_result() {
    let files = example();
    // Its times are ms from 0, not dates.
    assert_eq!(files.started_at, None);
    let names: Vec<String> = files.named().iter().map(|(n, _)| n.clone()).collect();
    assert_eq!(names[0], "runs/dt=__HIVE_DEFAULT_PARTITION__/part-0123.parquet");

    let runs = table(&files.runs);
    assert_eq!(runs.num_rows(), 1);
    assert_eq!(ints(&runs, "wall_us"), [Some(4_730_000)]);
    assert_eq!(ints(&runs, "critical_path_us"), [Some(3_505_000)]);
    assert_eq!(texts(&runs, "format"), ["distbuild"]);
    let version = runs.column_by_name("schema_version").unwrap();
    assert_eq!(version.as_any().downcast_ref::<arrow_array::Int32Array>().unwrap().value(0), SCHEMA_VERSION);
    let started = runs.column_by_name("started_at").unwrap();
    let started = started.as_any().downcast_ref::<TimestampMicrosecondArray>().unwrap();
    assert_eq!(started.timezone(), Some("UTC"));
    assert!(started.is_null(0));

    // ya's path: step, host, start and duration in ms from the first start (1000), and
    // the idle time before each step.
    let path = table(&files.critical_path);
    assert_eq!(texts(&path, "lane"), ["host1"; 4]);
    assert_eq!(ints(&path, "start_offset_us"), [0, 700_000, 2_720_000, 3_730_000].map(Some));
    assert_eq!(ints(&path, "duration_us"), [500_000, 2_000_000, 5_000, 1_000_000].map(Some));
    assert_eq!(ints(&path, "gap_before_us"), [0, 200_000, 20_000, 1_005_000].map(Some));

    // Slack by hand: C ends last (0); copy B could end by C's latest start,
    // 4730 (10 ms); copy A by 4730 (1005 ms); run A by copy A's latest
    // start, 4725 (1025 ms); run B by copy B's, 3730 (1080 ms).
    let tasks = table(&files.tasks);
    assert_eq!(tasks.num_rows(), 9);
    let (uids, roles, slack) = (texts(&tasks, "uid"), texts(&tasks, "role"), ints(&tasks, "slack_us"));
    let slack_of = |uid: &str, role: &str| {
        (0..uids.len()).find(|&i| uids[i] == uid && roles[i] == role).map(|i| slack[i]).unwrap()
    };
    assert_eq!(slack_of("C", "work"), Some(0));
    assert_eq!(slack_of("B", "transfer"), Some(10_000));
    assert_eq!(slack_of("A", "transfer"), Some(1_005_000));
    assert_eq!(slack_of("A", "work"), Some(1_025_000));
    assert_eq!(slack_of("B", "work"), Some(1_080_000));
    let on_path = tasks.column_by_name("on_critical_path").unwrap();
    let on_path = on_path.as_any().downcast_ref::<BooleanArray>().unwrap();
    assert_eq!(on_path.true_count(), 4);
    assert_eq!(texts(&tasks, "status").iter().filter(|s| *s == "executed").count(), 9);
}

#[test]
fn the_zip_holds_the_three_files_at_their_paths() {
    let files = example();
    let zipped = longpole_core::export::parquet::zip::zip(std::slice::from_ref(&files)).unwrap();
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zipped)).unwrap();
    let names: Vec<String> = archive.file_names().map(str::to_owned).collect();
    assert_eq!(
        names,
        ["runs", "tasks", "critical_path"].map(|t| format!("{t}/dt=__HIVE_DEFAULT_PARTITION__/part-0123.parquet"))
    );
    for (i, (_, bytes)) in files.named().iter().enumerate() {
        let mut entry = archive.by_index(i).unwrap();
        let mut read = Vec::new();
        std::io::Read::read_to_end(&mut entry, &mut read).unwrap();
        assert_eq!(&read, bytes);
        assert_eq!((&read[..4], &read[read.len() - 4..]), (&b"PAR1"[..], &b"PAR1"[..]));
    }
}
