//! ya's `--stat` report of a build (distbuild, or local from an evlog), as
//! text and as JSON: ya's statistics around the paths every format with
//! dependencies reports ([`PathsReport`]), with longpole's blocking chain
//! and where it parts from ya's path.

use super::stat::{path_time, ya_stat, YaStat};
use crate::analysis::critical_path::{blocking_chain, ya_path};
use crate::analysis::task_totals::type_name;
use crate::model::{Model, Nanos, Role, TaskId};
use crate::numbers::Ms;
use crate::report::paths::PathsReport;
use crate::run::RunReport;
use serde_json::{json, Value};
use std::fmt::Write;

/// Everything computed for one ya build.
pub struct YaReport<'a> {
    model: &'a Model,
    /// Its paths.
    pub paths: PathsReport<'a>,
    /// ya's statistics.
    pub stat: YaStat,
}

impl<'a> YaReport<'a> {
    /// Computes the report of `model`.
    pub fn new(model: &'a Model) -> Self {
        Self::new_with(model, &crate::join::in_turn)
    }

    /// [`YaReport::new`], the paths and the statistics computed by `join`
    /// (at once, by a caller with threads).
    pub fn new_with(model: &'a Model, join: crate::join::Join<'_>) -> Self {
        let (mut paths, mut stat) = (None, None);
        join(&mut || paths = Some((ya_path(model), blocking_chain(model))), &mut || stat = Some(ya_stat(model)));
        // A join that left one out: it is computed here.
        let (ya, blocking) = paths.unwrap_or_else(|| (ya_path(model), blocking_chain(model)));
        let stat = stat.unwrap_or_else(|| ya_stat(model));
        YaReport { model, paths: PathsReport::of(model, ya, blocking), stat }
    }

    fn name(&self, id: TaskId) -> String {
        self.paths.name(id)
    }

    fn dur(&self, id: TaskId) -> Nanos {
        self.paths.dur(id)
    }

    fn time(&self, t: Option<Nanos>) -> String {
        self.paths.time(t)
    }

    /// The report as ya prints it, then the blocking chain and the differences.
    pub fn text(&self) -> String {
        let mut out = self.cache_line();
        out.push_str("\n\n");
        self.critical_path_text(&mut out);
        self.longest_text(&mut out);
        self.copies_text(&mut out);
        self.by_type_text(&mut out);
        let t = &self.stat.totals;
        let pct = |part: Nanos| if t.run == 0 { 100.0 } else { 100.0 * part as f64 / t.run as f64 };
        out.push('\n');
        out.push_str("Total tasks times:\n");
        let _ = writeln!(out, "Total failed tasks time - {} ms ({:.2}%)", Ms(t.failed).rounded(), pct(t.failed));
        let _ = writeln!(out, "Total tests tasks time - {} ms ({:.2}%)", Ms(t.tests).rounded(), pct(t.tests));
        let _ = writeln!(out, "Total run tasks time - {} ms", Ms(t.run).rounded());
        self.blocking_text(&mut out);
        out
    }

    /// ya's cache line.
    pub fn cache_line(&self) -> String {
        let c = &self.stat.cache;
        format!(
            "Cache efficiency ratio is {:.02}% ({} of {}). Local: {} ({:.02}%), dist: {} ({:.02}%), by dynamic uids: 0 (0.00%), avoided: {} ({:.02}%)",
            c.percent(c.not_executed()),
            c.not_executed(),
            c.run_tasks,
            c.local,
            c.percent(c.local),
            c.dist,
            c.percent(c.dist),
            c.avoided(),
            c.percent(c.avoided())
        )
    }

    fn critical_path_text(&self, out: &mut String) {
        let graph_time = path_time(self.model, &self.paths.ya);
        let (Some(wall), false) = (self.model.wall(), self.paths.ya.tasks.is_empty() || graph_time == 0) else {
            out.push_str("Critical path is empty.\n");
            return;
        };
        out.push_str("Critical path:\n");
        let width = self.paths.ya.tasks.iter().map(|&t| Ms(self.dur(t)).to_string().len()).max().unwrap_or(1);
        let t0 = self.model.task(self.paths.ya.tasks[0]).start.get().unwrap_or(0);
        for &id in &self.paths.ya.tasks {
            let t = self.model.task(id);
            let rel = |x: Option<Nanos>| self.time(x.map(|x| x - t0));
            let _ = writeln!(
                out,
                "[{:>width$} ms] {} [started: {} ({}), finished: {} ({})]",
                Ms(self.dur(id)).to_string(),
                self.name(id),
                rel(t.start.get()),
                self.time(t.start.get()),
                rel(t.end.get()),
                self.time(t.end.get())
            );
        }
        let _ = writeln!(
            out,
            "Time from start: {} ms, time elapsed by graph {} ms, time diff {} ms.",
            Ms(wall),
            Ms(graph_time),
            Ms(wall - graph_time)
        );
        for cycle in &self.paths.cycles {
            let names: Vec<String> = cycle.tasks.iter().map(|&t| self.name(t)).collect();
            let _ = writeln!(out, "(a dependency cycle was cut to compute it: {})", names.join(" -> "));
        }
        out.push('\n');
    }

    fn longest_text(&self, out: &mut String) {
        if self.stat.longest.is_empty() {
            return;
        }
        let width = self
            .model
            .tasks()
            .iter()
            .filter_map(|t| t.duration())
            .filter(|&d| d > 0)
            .map(|d| Ms(d).to_string().len())
            .max()
            .unwrap_or(1);
        let _ = writeln!(out, "The longest {} tasks:", self.stat.longest.len());
        for &id in &self.stat.longest {
            let t = self.model.task(id);
            let _ = writeln!(
                out,
                "[{:>width$} ms] {} [started: {}, finished: {}]",
                Ms(self.dur(id)).to_string(),
                self.name(id),
                self.time(t.start.get()),
                self.time(t.end.get())
            );
        }
        out.push('\n');
    }

    fn copies_text(&self, out: &mut String) {
        if self.stat.biggest_copies.is_empty() {
            return;
        }
        let _ = writeln!(out, "The {} biggest copy tasks:", self.stat.biggest_copies.len());
        for &id in &self.stat.biggest_copies {
            let t = self.model.task(id);
            let _ = writeln!(
                out,
                "[{} ms] {} [started: {}, finished: {}]",
                Ms(self.dur(id)),
                self.name(id),
                self.time(t.start.get()),
                self.time(t.end.get())
            );
        }
        out.push('\n');
    }

    fn by_type_text(&self, out: &mut String) {
        if self.stat.by_type.is_empty() {
            return;
        }
        let width = self.stat.by_type.iter().map(|t| Ms(t.total).to_string().len()).max().unwrap_or(1);
        out.push_str("Total time by type:\n");
        for t in &self.stat.by_type {
            let ave = t.total as f64 / 1e6 / t.count as f64;
            let _ = writeln!(
                out,
                "[{:>width$} ms] [{}] [count: {}, ave time {ave:.02} msec]",
                Ms(t.total).to_string(),
                t.kind,
                t.count
            );
        }
    }

    fn blocking_text(&self, out: &mut String) {
        out.push('\n');
        if self.paths.steps.is_empty() {
            out.push_str("Blocking chain is empty.\n");
            return;
        }
        let _ = writeln!(
            out,
            "Blocking chain (from the task that finished last, back through what each step waited for): {} ms from its first start to its last end, {} ms of it idle:",
            Ms(self.paths.blocking.total),
            Ms(self.paths.steps.iter().map(|s| s.gap.max(0)).sum())
        );
        let width = self.paths.steps.iter().map(|s| Ms(self.dur(s.task)).to_string().len()).max().unwrap_or(1);
        for s in &self.paths.steps {
            let t = self.model.task(s.task);
            let wait = if s.gap != 0 { format!(" after waiting {} ms", Ms(s.gap)) } else { String::new() };
            let _ = writeln!(
                out,
                "[{:>width$} ms] {} [started: {}, finished: {}]{wait}",
                Ms(self.dur(s.task)).to_string(),
                self.name(s.task),
                self.time(t.start.get()),
                self.time(t.end.get())
            );
        }
        if self.paths.divergences.is_empty() && self.paths.ya.tasks == self.paths.blocking.tasks {
            out.push_str("It is the same as the critical path.\n");
            return;
        }
        out.push_str("Where it differs from the critical path:\n");
        for d in self.paths.differences() {
            let _ = writeln!(out, "- {d}");
        }
    }

    /// ya's `as_json` of a task.
    fn ya_json(&self, id: TaskId) -> Value {
        let t = self.model.task(id);
        let (elapsed, start, end) = (
            t.duration().map(|x| Ms(x).json()),
            t.start.get().map(|x| Ms(x).json()),
            t.end.get().map(|x| Ms(x).json()),
        );
        match t.role {
            Role::Work => json!({
                "type": type_name(self.model, id, true), "elapsed": elapsed, "start_ts": start, "end_ts": end,
                "text": self.model.name(id).map(|s| self.model.str(s)), "platform": self.model.meta(id).and_then(|m| m.platform.as_deref()),
                "tags": self.model.meta(id).map(|m| &m.tags), "host": self.paths.lane(id), "uid": self.model.uid(id),
            }),
            Role::Transfer => {
                let producer = self.model.deps(id).iter().find(|&&d| self.model.task(d).role == Role::Work);
                json!({
                    "text": producer.map_or_else(|| "UNKNOWN".to_owned(), |&p| self.name(p)), "elapsed": elapsed,
                    "start_ts": start, "end_ts": end, "to_host": self.paths.lane(id),
                    "from_host": self.model.origin(id).map(|o| self.model.lanes()[o.index()].name.as_str()), "type": "Copy", "uid": self.model.uid(id),
                })
            }
            Role::Setup => json!({
                "elapsed": elapsed, "start_ts": start, "end_ts": end, "type": type_name(self.model, id, false), "host": self.paths.lane(id),
            }),
            Role::Phase => {
                json!({"elapsed": elapsed, "start_ts": start, "end_ts": end, "type": "stage", "name": self.model.uid(id)})
            }
        }
    }

    /// The dataset's part of `longpole analyze --format json`: the paths
    /// ([`PathsReport::report`]) with ya's path as the critical path, then
    /// ya's `--stat` JSON (`report`) and the build's stages.
    pub fn report(&self) -> RunReport {
        let c = &self.stat.cache;
        let s = &self.stat.stages;
        let mut r = self.paths.report();
        r.own["report"] = json!({
            "cache_hit": {
                "cache_efficiency": c.percent(c.not_executed()), "run_tasks": c.run_tasks, "not_executed": c.not_executed(),
                "local": c.local, "dist": c.dist, "dyn_cached_tasks": 0, "avoided_tasks": c.avoided(),
                "not_cached_tasks": c.not_cached, "tests_tasks": c.tests, "failed_tasks": c.failed,
            },
            "critical_path": self.paths.ya.tasks.iter().map(|&t| self.ya_json(t)).collect::<Vec<_>>(),
            "critical_path_time": {"time_from_start_ms": self.model.wall().map(|w| Ms(w).json()), "elapsed_by_graph_ms": Ms(path_time(self.model, &self.paths.ya)).json()},
            "longest_tasks": self.stat.longest.iter().map(|&t| self.ya_json(t)).collect::<Vec<_>>(),
            "biggest_tasks": self.stat.biggest_copies.iter().map(|&t| self.ya_json(t)).collect::<Vec<_>>(),
            "summary_times": self.stat.by_type.iter().map(|t| (t.kind.clone(), Ms(t.total).json())).collect::<serde_json::Map<_, _>>(),
            "type_counts": self.stat.by_type.iter().map(|t| (t.kind.clone(), json!(t.count))).collect::<serde_json::Map<_, _>>(),
            "task_execution_msec": Ms(self.stat.task_execution).json(),
            "execution_stages_msec": {
                "tests_only": Ms(s.tests_only).json(), "tests_with_other": Ms(s.tests_with_other).json(),
                "build_only": Ms(s.build_only).json(), "build_with_other": Ms(s.build_with_other).json(),
                "download_only": Ms(s.download_only).json(), "download_with_other": Ms(s.download_with_other).json(),
                "service_only": Ms(s.service_only).json(),
            },
            "total_times_ms": {"failed": Ms(self.stat.totals.failed).json(), "tests": Ms(self.stat.totals.tests).json(), "run": Ms(self.stat.totals.run).json()},
        });
        r.own["stages"] = self
            .model
            .tasks()
            .iter()
            .enumerate()
            .filter(|(_, t)| t.role == Role::Phase)
            .map(|(i, _)| self.paths.task_json(TaskId(i as u32)))
            .collect();
        r
    }
}
