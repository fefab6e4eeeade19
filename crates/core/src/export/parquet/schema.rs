//! The three fleet tables' Arrow schemas: the columns, their types and
//! whether they may be null. `docs/fleet.md` documents them; a change of
//! a column is a new [`super::SCHEMA_VERSION`].

use arrow_schema::{DataType, Field, Schema, TimeUnit};
use std::sync::Arc;

/// A UTC timestamp in microseconds: Parquet's `TIMESTAMP(MICROS, true)`,
/// which Spark, Trino and DuckDB all read (Spark rejects nanoseconds).
fn timestamp(name: &str) -> Field {
    Field::new(name, DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into())), true)
}

fn text(name: &str) -> Field {
    Field::new(name, DataType::Utf8, false)
}

fn micros(name: &str, nullable: bool) -> Field {
    Field::new(name, DataType::Int64, nullable)
}

/// `runs`: one row per run.
pub fn runs() -> Arc<Schema> {
    Arc::new(Schema::new(vec![
        text("run_id"),
        text("format"),
        text("source"),
        timestamp("started_at"),
        micros("wall_us", true),
        micros("critical_path_us", true),
        Field::new("task_count", DataType::Int64, false),
        Field::new("lane_count", DataType::Int64, false),
        text("longpole_version"),
        Field::new("schema_version", DataType::Int32, false),
    ]))
}

/// `tasks`: one row per task of a run, with the run's columns that fleet
/// queries filter on first.
pub fn tasks() -> Arc<Schema> {
    Arc::new(Schema::new(vec![
        text("run_id"),
        text("format"),
        Field::new("task_id", DataType::Int64, false),
        text("task_key"),
        text("uid"),
        text("role"),
        text("kind"),
        text("lane"),
        micros("start_offset_us", true),
        timestamp("started_at"),
        micros("duration_us", true),
        text("status"),
        Field::new("bytes", DataType::Int64, true),
        Field::new("on_critical_path", DataType::Boolean, false),
        micros("slack_us", true),
    ]))
}

/// `critical_path`: one row per step of a run's critical path, first first.
pub fn critical_path() -> Arc<Schema> {
    Arc::new(Schema::new(vec![
        text("run_id"),
        Field::new("step", DataType::Int32, false),
        Field::new("task_id", DataType::Int64, false),
        text("task_key"),
        text("lane"),
        micros("start_offset_us", true),
        micros("duration_us", true),
        micros("gap_before_us", false),
    ]))
}
