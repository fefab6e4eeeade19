//! The paths of a run with dependencies, as every such format reports
//! them: the critical path (the largest sum of durations, as ya computes
//! it), the blocking chain (from the task that finished last back through
//! what each step waited for) and where the two part, each task named as
//! ya names it.

use super::python::python_str_repr;
use crate::analysis::critical_path::{blocking_chain, divergences, ya_path, Cycle, Divergence, Path, Step};
use crate::analysis::task_totals::type_name;
use crate::model::{Model, Nanos, Role, TaskId};
use crate::numbers::Ms;
use crate::run::{ReportPath, RunReport};
use serde_json::{json, Map, Value};

/// Both paths of one run and where they part.
pub struct PathsReport<'a> {
    /// The run's model.
    pub model: &'a Model,
    /// The critical path.
    pub ya: Path,
    /// Cycles cut to compute it.
    pub cycles: Vec<Cycle>,
    /// The blocking chain.
    pub blocking: Path,
    /// Its steps with their idle gaps.
    pub steps: Vec<Step>,
    /// Where the two differ.
    pub divergences: Vec<Divergence>,
}

impl<'a> PathsReport<'a> {
    /// Computes both paths of `model`.
    pub fn new(model: &'a Model) -> Self {
        Self::of(model, ya_path(model), blocking_chain(model))
    }

    /// The report of paths computed already: the critical path with the
    /// cycles cut, the blocking chain with its steps.
    pub fn of(model: &'a Model, (ya, cycles): (Path, Vec<Cycle>), (blocking, steps): (Path, Vec<Step>)) -> Self {
        let divergences = divergences(&ya, &blocking);
        PathsReport { model, ya, cycles, blocking, steps, divergences }
    }

    /// The name of a task's lane.
    pub fn lane(&self, id: TaskId) -> &str {
        &self.model.lanes()[self.model.task(id).lane.index()].name
    }

    /// ya's plain `colored_name` of a task.
    pub fn name(&self, id: TaskId) -> String {
        let t = self.model.task(id);
        match t.role {
            Role::Work => {
                let mut tags = vec![self.model.uid(id).to_owned()];
                if let Some(m) = self.model.meta(id) {
                    tags.extend(m.tags.iter().cloned());
                }
                let host = self.lane(id);
                if host != "local" {
                    tags.push(host.to_owned());
                }
                format!(
                    "[{}] [{}]: {}",
                    type_name(self.model, id, true),
                    tags.join(" "),
                    self.model.name(id).map_or(self.model.uid(id), |n| self.model.str(n))
                )
            }
            Role::Setup => format!("[{}] {}", type_name(self.model, id, false), self.lane(id)),
            Role::Phase => format!("[stage] {}", self.model.uid(id)),
            Role::Transfer => {
                let producer = self.model.deps(id).iter().find(|&&d| self.model.task(d).role == Role::Work);
                let original = producer.map_or_else(|| "UNKNOWN".to_owned(), |&p| self.name(p));
                let origin = self.model.origin(id).map_or("None", |o| self.model.lanes()[o.index()].name.as_str());
                format!(
                    "[Copy] (size: {} bytes): copy({origin} -> {}) result of ({},)",
                    self.model.bytes(id).unwrap_or(0),
                    self.lane(id),
                    python_str_repr(&original)
                )
            }
        }
    }

    /// A task's duration (0 when unknown).
    pub fn dur(&self, id: TaskId) -> Nanos {
        self.model.task(id).duration().unwrap_or(0)
    }

    /// A time in milliseconds, `None` when unknown (as Python prints it).
    pub fn time(&self, t: Option<Nanos>) -> String {
        t.map_or_else(|| "None".to_owned(), |t| Ms(t).to_string())
    }

    /// Where the blocking chain differs from the critical path, one sentence each.
    pub fn differences(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.ya.tasks.last() != self.blocking.tasks.last() {
            let (y, b) = (self.ya.tasks.last(), self.blocking.tasks.last());
            out.push(format!(
                "they end at different tasks: the critical path at {} (the largest sum of durations), the blocking chain at {} (the last to finish).",
                y.map_or("nothing".into(), |&t| self.name(t)),
                b.map_or("nothing".into(), |&t| self.name(t))
            ));
        }
        for d in &self.divergences {
            let task = self.model.task(d.task);
            let end = |x: Option<TaskId>| x.and_then(|x| self.model.task(x).end.get());
            let waited = match (task.start.get(), end(d.blocking)) {
                (Some(s), Some(e)) => {
                    format!(", which ended at {} and after which it waited {} ms", self.time(Some(e)), Ms(s - e))
                }
                _ => String::new(),
            };
            out.push(format!(
                "at {}: the critical path goes on to {} (larger sum of durations), the blocking chain to {}{waited}.",
                self.name(d.task),
                d.ya.map_or("nothing".into(), |t| self.name(t)),
                d.blocking.map_or("nothing".into(), |t| self.name(t)),
            ));
        }
        out
    }

    /// One task in the CLI's JSON shape.
    pub fn task_json(&self, id: TaskId) -> Value {
        let t = self.model.task(id);
        let (start, end) = (t.start.get().map(|x| Ms(x).json()), t.end.get().map(|x| Ms(x).json()));
        match t.role {
            Role::Work => {
                json!({"kind": "run", "uid": self.model.uid(id), "host": self.lane(id), "start_ms": start, "end_ms": end})
            }
            Role::Transfer => json!({
                "kind": "copy", "uid": self.model.uid(id), "consumer": self.model.target(id).map(|s| self.model.str(s)), "host": self.lane(id),
                "from_host": self.model.origin(id).map(|o| self.model.lanes()[o.index()].name.as_str()), "start_ms": start, "end_ms": end,
            }),
            Role::Setup => json!({
                "kind": "prepare", "type": self.model.uid(id), "host": self.lane(id), "start_ms": start, "end_ms": end,
            }),
            Role::Phase => json!({"kind": "stage", "name": self.model.uid(id), "start_ms": start, "end_ms": end}),
        }
    }

    /// The run's part of `longpole analyze --format json`: the task counts,
    /// the blocking chain, the differences and the cycles cut, and the
    /// critical path, each task in the CLI's shape ([`Self::task_json`]).
    pub fn report(&self) -> RunReport {
        let count = |r: Role| self.model.count(r);
        let chain: Vec<Value> = self
            .steps
            .iter()
            .map(|s| {
                let mut v = self.task_json(s.task);
                v["gap_ms"] = Ms(s.gap).json();
                v
            })
            .collect();
        let own = json!({
            "tasks": {"run": count(Role::Work), "copy": count(Role::Transfer), "prepare": count(Role::Setup)},
            "blocking_chain": {"total_ms": Ms(self.blocking.total).json(), "tasks": chain},
            "differences": self.divergences.iter().map(|d| json!({
                "at": self.task_json(d.task),
                "critical_path_dep": d.ya.map(|t| self.task_json(t)),
                "blocking_chain_dep": d.blocking.map(|t| self.task_json(t)),
            })).collect::<Vec<_>>(),
            "cycles": self.cycles.iter().map(|c| c.tasks.iter().map(|&t| self.task_json(t)).collect::<Vec<_>>()).collect::<Vec<_>>(),
        });
        let path = ReportPath {
            tasks: self.ya.tasks.iter().map(|&t| self.task_json(t)).collect(),
            path: self.ya.clone(),
            own: Map::new(),
        };
        RunReport { critical_path: Some(path), ..RunReport::of(own) }
    }
}
