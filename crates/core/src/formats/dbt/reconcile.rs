//! A dbt run as a model: each node's `timing[]` steps (compile, execute)
//! as tasks on its thread's lane, the execute step after the compile step;
//! with the manifest, a node's first step after the last step of every
//! node it depends on that ran, and in `dbt build` after the tests of the
//! nodes upstream of it ([`super::build_edges`]).

use super::artifacts::{resource_type, Manifest, RunResults};
use super::run::{DbtRun, NodeInfo};
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::model::{Model, ModelBuilder, Nanos, Role, Task, TaskId};
use std::collections::HashMap;

/// The statuses of a node that did not succeed.
const FAILED: &[&str] = &["error", "fail", "runtime error"];

/// A thread's name ordered by the number in it (`Thread-2` before `Thread-10`).
fn thread_order(name: &str) -> (u64, &str) {
    let digits: String = name.chars().skip_while(|c| !c.is_ascii_digit()).take_while(char::is_ascii_digit).collect();
    (digits.parse().unwrap_or(u64::MAX), name)
}

/// The model and run of `results`, joined along `manifest` when given.
pub fn reconcile(results: &RunResults, manifest: Option<&Manifest>, diags: &mut Diagnostics) -> (Model, DbtRun) {
    let mut b = ModelBuilder::new();
    let mut threads: Vec<&str> = results.results.iter().map(|r| r.thread_id.as_str()).collect();
    threads.sort_unstable_by(|x, y| thread_order(x).cmp(&thread_order(y)));
    threads.dedup();
    for t in &threads {
        b.lane(t);
    }
    let mut nodes = Vec::with_capacity(results.results.len());
    let mut window: Option<(Nanos, Nanos)> = None;
    for r in &results.results {
        let uid = b.sym(&r.unique_id);
        let lane = b.lane(&r.thread_id);
        let rtype = resource_type(&r.unique_id);
        let failed = FAILED.contains(&r.status.as_str());
        let first = TaskId(b.len() as u32);
        for (i, s) in r.steps.iter().enumerate() {
            let kind = if s.name == "compile" { b.kind("compile", None) } else { b.kind(rtype, None) };
            let mut task = Task::new(uid, kind, Role::Work, lane, Some(s.start), Some(s.end));
            let name = b.sym(&format!("{} · {}", r.unique_id, s.name));
            task.failed = failed;
            let id = b.named_task(task, Some(name));
            if i > 0 {
                b.depends(id, TaskId(id.0 - 1));
            }
            window = Some(window.map_or((s.start, s.end), |(a, z)| (a.min(s.start), z.max(s.end))));
        }
        nodes.push(NodeInfo {
            unique_id: r.unique_id.clone(),
            resource_type: rtype.to_owned(),
            status: r.status.clone(),
            thread: r.thread_id.clone(),
            execution_time: r.execution_time,
            adapter_response: r.adapter_response.to_string(),
            message: r.message.clone(),
            failures: r.failures,
            tasks: (first.0, b.len() as u32),
        });
    }
    if let Some((first, last)) = window {
        b.window(first, last);
    }
    let mut run = DbtRun::new(results, nodes, threads.len() as u32);
    if let Some(m) = manifest {
        join(&mut b, &mut run, results, m, diags);
    }
    (b.build(), run)
}

/// The edges of the manifest between the nodes that ran.
fn join(b: &mut ModelBuilder, run: &mut DbtRun, results: &RunResults, m: &Manifest, diags: &mut Diagnostics) {
    run.manifest_version = Some(m.version);
    if !m.invocation_id.is_empty() && m.invocation_id != results.invocation_id {
        diags.report(
            Severity::Info,
            "dbt.other-invocation",
            Position::Whole,
            format!(
                "the manifest was written by invocation {}, the results by {}: the manifest's dependencies are used as they are",
                m.invocation_id, results.invocation_id
            ),
        );
    }
    let ran: HashMap<&str, usize> = run.nodes.iter().enumerate().map(|(i, n)| (n.unique_id.as_str(), i)).collect();
    let in_manifest: HashMap<&str, usize> =
        m.nodes.iter().enumerate().map(|(i, n)| (n.unique_id.as_str(), i)).collect();
    let mut missing = 0u64;
    for (n, r) in run.nodes.iter().zip(&results.results) {
        let Some(&mi) = in_manifest.get(n.unique_id.as_str()) else {
            missing += 1;
            diags.report(
                Severity::Warning,
                "dbt.not-in-manifest",
                Position::Line(r.line),
                format!("`{}` ran but is not in the manifest given: its dependencies are unknown", n.unique_id),
            );
            continue;
        };
        let Some(first) = n.first_task() else { continue };
        for d in &m.nodes[mi].depends_on {
            if let Some(last) = ran.get(d.as_str()).and_then(|&i| run.nodes[i].last_task()) {
                b.depends(first, last);
                run.dependencies += 1;
            }
        }
    }
    run.not_in_manifest = missing;
    if run.command.as_deref() == Some("build") {
        run.test_edges = super::build_edges::add(b, &run.nodes, &ran, m, &in_manifest);
    }
    run.with_manifest = true;
}
