//! What the app's first screen and `longpole analyze` show: per input its
//! format, sizes, counts and diagnostics; per dataset its headline numbers.
//! Serialisable, so the worker can send it and the CLI can print it as JSON.

use crate::decompress::Compression;
use crate::diagnostics::{CodeCount, Diagnostic, Severity};
use crate::model::FormatId;
use crate::model::{Nanos, Role};
use crate::numbers::group;
use crate::run::Analysis;
use serde::{Deserialize, Serialize};

/// Diagnostics of one input: exact counts, and the stored ones.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiagnosticsSummary {
    /// All diagnostics, stored or not.
    pub total: u64,
    /// How many are errors.
    pub errors: u64,
    /// How many are warnings.
    pub warnings: u64,
    /// Exact counts per code.
    pub counts: Vec<CodeCount>,
    /// The stored diagnostics (at most a hundred per code), in the order found.
    pub list: Vec<Diagnostic>,
}

/// One input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputSummary {
    /// Its name.
    pub name: String,
    /// Its format's short name.
    pub format: FormatId,
    /// Its compression.
    pub compression: Compression,
    /// Bytes read.
    pub bytes: u64,
    /// Bytes after decompression.
    pub decompressed_bytes: u64,
    /// Lines read (text formats).
    pub lines: u64,
    /// Events recognised.
    pub events: u64,
    /// Its diagnostics.
    pub diagnostics: DiagnosticsSummary,
}

/// One dataset's headline numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatasetSummary {
    /// The format of its primary input.
    pub format: FormatId,
    /// Names of the inputs it came from.
    pub inputs: Vec<String>,
    /// All tasks.
    pub tasks: usize,
    /// Work tasks.
    pub work_tasks: usize,
    /// Transfer tasks.
    pub transfer_tasks: usize,
    /// Setup tasks.
    pub setup_tasks: usize,
    /// Lanes (hosts, threads...).
    pub lanes: usize,
    /// Dependency edges.
    pub edges: usize,
    /// Wall time in ns, when known.
    pub wall_ns: Option<Nanos>,
}

/// Everything the first screen shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// The inputs, in the order given.
    pub inputs: Vec<InputSummary>,
    /// The runs they describe.
    pub datasets: Vec<DatasetSummary>,
}

impl Summary {
    /// Summarises an analysis.
    pub fn of(analysis: &Analysis) -> Summary {
        let inputs = analysis
            .inputs
            .iter()
            .map(|i| InputSummary {
                name: i.name.clone(),
                format: i.format,
                compression: i.compression,
                bytes: i.bytes,
                decompressed_bytes: i.decompressed_bytes,
                lines: i.counts.lines,
                events: i.counts.events,
                diagnostics: DiagnosticsSummary {
                    total: i.diagnostics.total(),
                    errors: i.diagnostics.total_at(Severity::Error),
                    warnings: i.diagnostics.total_at(Severity::Warning),
                    counts: i.diagnostics.counts(),
                    list: i.diagnostics.kept().to_vec(),
                },
            })
            .collect();
        let datasets = analysis
            .datasets
            .iter()
            .map(|d| DatasetSummary {
                format: d.format,
                inputs: d.inputs.iter().map(|&i| analysis.inputs[i].name.clone()).collect(),
                tasks: d.model.tasks().len(),
                work_tasks: d.model.count(Role::Work),
                transfer_tasks: d.model.count(Role::Transfer),
                setup_tasks: d.model.count(Role::Setup),
                lanes: d.model.lanes().len(),
                edges: d.model.edge_count(),
                wall_ns: d.model.wall(),
            })
            .collect();
        Summary { inputs, datasets }
    }
}

impl Summary {
    /// The summary as plain text, as `longpole analyze` prints it.
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        for i in &self.inputs {
            let compressed = match i.compression {
                Compression::None => String::new(),
                c => format!(" ({c}, {} bytes decompressed)", group(i.decompressed_bytes)),
            };
            // Binary formats have no lines.
            let lines = if i.lines > 0 { format!("{} lines, ", group(i.lines)) } else { String::new() };
            let _ = writeln!(
                out,
                "{}: {}, {} bytes{compressed}, {lines}{} events, {} diagnostics",
                i.name,
                i.format.title(),
                group(i.bytes),
                group(i.events),
                group(i.diagnostics.total)
            );
            for d in &i.diagnostics.list {
                let _ = writeln!(out, "  {d}");
            }
            let shown = i.diagnostics.list.len() as u64;
            if shown < i.diagnostics.total {
                let _ = writeln!(
                    out,
                    "  ... and {} more (counts per code: {})",
                    group(i.diagnostics.total - shown),
                    counts(&i.diagnostics.counts)
                );
            }
        }
        for d in &self.datasets {
            let wall = d.wall_ns.map_or_else(|| "unknown".to_owned(), |w| format!("{} ms", crate::numbers::ms(w)));
            let _ = writeln!(
                out,
                "{} run from {}: {} tasks ({} work, {} transfer, {} setup) on {} lanes, {} edges, wall {wall}",
                d.format.name(),
                d.inputs.join(" + "),
                group(d.tasks as u64),
                group(d.work_tasks as u64),
                group(d.transfer_tasks as u64),
                group(d.setup_tasks as u64),
                group(d.lanes as u64),
                group(d.edges as u64),
            );
        }
        out
    }
}

fn counts(c: &[CodeCount]) -> String {
    c.iter().map(|c| format!("{} {}", c.code, group(c.count))).collect::<Vec<_>>().join(", ")
}
