//! What the app shows of a Spark application: stages on stage slots above
//! the executors' core slots, the path over the stages, the headline's
//! facts, and the tables: the path with each stage's slowest task, the
//! stages with their skew, the jobs with their SQL executions, the longest
//! tasks.

use super::report::{facts_line, model_path, skew_words};
use super::run::SparkRun;
use crate::layout::timeline::TimelineIndex;
use crate::model::{FormatId, Model};
use crate::view::headline::Fact;
use crate::view::table::{columns, count, text, Row, Table};
use crate::view::tables::{longest_table, path_tables};
use crate::view::{path_view, RunView};

/// The view of `run` over `model`.
pub fn view(model: &Model, run: &SparkRun, format: FormatId, index: &TimelineIndex) -> RunView {
    let mut v = RunView::of_program(model, format, index);
    v.critical_path = path_view(model, index, &model_path(run), None);
    v.blocking_chain = v.critical_path.clone();
    v.headline = vec![Fact::plain(format!(" · {}", facts_line(model, run)))];
    let headers = ["duration", "kind", "stage", "name", "lane", "started", "finished"];
    let [path_table, _] = path_tables(&v, "Path over the stages", &headers);
    v.tables = vec![path_table, stages_table(run), jobs_table(run), longest_table(&v, "Longest", &headers)];
    v.search_hint = "Search stages and tasks  (/)".into();
    v.with_part(run)
}

/// Every stage attempt: its job, tasks, whether it ran, and its skew.
fn stages_table(run: &SparkRun) -> Table {
    Table {
        id: "stages".into(),
        title: "Stages".into(),
        headers: columns(&["stage", "attempt", "job", "name", "tasks", "status", "slowest task"]),
        rows: run
            .stages
            .iter()
            .map(|s| {
                let status = match (&s.failure, s.ran) {
                    (Some(_), _) => "failed",
                    (None, true) => "ran",
                    (None, false) => "skipped",
                };
                Row::new(
                    vec![
                        count(s.id.max(0) as u64),
                        count(s.attempt.max(0) as u64),
                        text(&s.job.map(|j| j.to_string()).unwrap_or_default()),
                        text(&s.name),
                        count(s.tasks.max(0) as u64),
                        text(status),
                        text(&s.skew.as_ref().map(skew_words).unwrap_or_default()),
                    ],
                    &format!("stage {} {}", s.id, s.name).to_lowercase(),
                )
            })
            .collect(),
        sort: None,
    }
}

/// Every job with its description and SQL execution.
fn jobs_table(run: &SparkRun) -> Table {
    Table {
        id: "jobs".into(),
        title: "Jobs".into(),
        headers: columns(&["job", "description", "result", "stages", "SQL execution"]),
        rows: run
            .jobs
            .iter()
            .map(|j| {
                let stages: Vec<String> = j.stages.iter().map(i64::to_string).collect();
                let sql = j.sql_execution.and_then(|id| run.sql.iter().find(|x| x.id == id));
                Row::new(
                    vec![
                        count(j.id.max(0) as u64),
                        text(j.description.as_deref().unwrap_or("")),
                        text(j.result.as_deref().unwrap_or("")),
                        text(&stages.join(", ")),
                        text(&sql.map(|x| format!("{}: {}", x.id, x.description)).unwrap_or_default()),
                    ],
                    &format!("job {} {}", j.id, j.description.as_deref().unwrap_or("")).to_lowercase(),
                )
            })
            .collect(),
        sort: None,
    }
}
