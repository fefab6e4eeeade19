//! The reader of both artifacts: the document streamed through
//! [`JsonSplitter`], a result (`results[]`) or a manifest node (`nodes{}`)
//! parsed at a time; the manifest's other big members (`macros`, `docs`,
//! the maps) go by member by member, unparsed.

use super::artifacts::{Manifest, ManifestNode, NodeResult, RunResults, Step};
use super::schema::{artifact, Artifact, MANIFEST, RUN_RESULTS};
use super::time::parse;
use super::TITLE;
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::error::FormatError;
use crate::formats::{FormatReader, Parsed, ReadCounts};
use crate::json_split::{JsonSplitter, Piece};
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashSet;

/// The manifest's members held as objects of many entries: split, so that
/// none is held whole.
const OBJECTS: &[&str] = &[
    "nodes",
    "sources",
    "macros",
    "docs",
    "exposures",
    "metrics",
    "disabled",
    "parent_map",
    "child_map",
    "group_map",
    "semantic_models",
    "saved_queries",
    "unit_tests",
    "functions",
];

#[derive(Deserialize)]
struct RawMetadata {
    dbt_schema_version: Option<String>,
    #[serde(default)]
    dbt_version: String,
    #[serde(default)]
    invocation_id: Option<String>,
}

#[derive(Deserialize)]
struct RawArgs {
    threads: Option<u32>,
    which: Option<String>,
}

#[derive(Deserialize)]
struct RawTiming {
    name: String,
    started_at: Option<String>,
    completed_at: Option<String>,
}

#[derive(Deserialize)]
struct RawResult {
    unique_id: Option<String>,
    status: Option<String>,
    thread_id: Option<String>,
    execution_time: Option<f64>,
    #[serde(default)]
    timing: Vec<RawTiming>,
    #[serde(default)]
    adapter_response: Value,
    message: Option<String>,
    failures: Option<i64>,
}

#[derive(Deserialize, Default)]
struct RawDependsOn {
    #[serde(default)]
    nodes: Vec<String>,
}

#[derive(Deserialize)]
struct RawNode {
    unique_id: Option<String>,
    resource_type: Option<String>,
    #[serde(default)]
    depends_on: RawDependsOn,
}

/// Reads either artifact, whichever it turns out to be.
pub struct DbtReader {
    splitter: JsonSplitter,
    artifact: Option<Artifact>,
    results: RunResults,
    manifest: Manifest,
    seen: HashSet<String>,
    /// The first problem that says this is not (or no longer) a readable artifact.
    fatal: Option<FormatError>,
}

impl DbtReader {
    /// A reader at the start of a document.
    pub fn new() -> DbtReader {
        DbtReader {
            splitter: JsonSplitter::new(&["results"]).split_objects(OBJECTS),
            artifact: None,
            results: RunResults::default(),
            manifest: Manifest::default(),
            seen: HashSet::new(),
            fatal: None,
        }
    }

    fn piece(&mut self, piece: Piece<'_>, diags: &mut Diagnostics) {
        match piece {
            Piece::Member { key: "metadata", value } => self.metadata(value),
            Piece::Member { key: "elapsed_time", value } => {
                self.results.elapsed_time = serde_json::from_slice(value).ok();
            }
            Piece::Member { key: "args", value } => {
                if let Ok(args) = serde_json::from_slice::<RawArgs>(value) {
                    self.results.threads = args.threads;
                    self.results.command = args.which;
                }
            }
            Piece::Member { .. } => {}
            Piece::Element { key: Some("results"), value, line, .. } => self.result(value, line, diags),
            // A split object's keys come as strings before their values.
            Piece::Element { key: Some("nodes"), value, line, .. } if value.first() == Some(&b'{') => {
                self.node(value, line, diags)
            }
            Piece::Element { .. } => {}
        }
    }

    fn metadata(&mut self, value: &[u8]) {
        let meta = match serde_json::from_slice::<RawMetadata>(value) {
            Ok(m) => m,
            Err(e) => {
                self.fail(format!("`metadata` is not dbt's artifact metadata ({e})"));
                return;
            }
        };
        let url = meta.dbt_schema_version.unwrap_or_default();
        match artifact(&url) {
            Some(a) if a.supported() => {
                self.artifact = Some(a);
                let id = meta.invocation_id.unwrap_or_default();
                match a {
                    Artifact::RunResults(v) => {
                        self.results.version = v;
                        self.results.dbt_version = meta.dbt_version;
                        self.results.invocation_id = id;
                    }
                    Artifact::Manifest(v) => {
                        self.manifest.version = v;
                        self.manifest.invocation_id = id;
                    }
                }
            }
            Some(a) => self.fail(format!(
                "`{url}`: {} schema versions {}–{} are read (run-results v{}–v{}, manifest v{}–v{}), not this one",
                a.file(),
                match a {
                    Artifact::RunResults(_) => RUN_RESULTS.start(),
                    Artifact::Manifest(_) => MANIFEST.start(),
                },
                match a {
                    Artifact::RunResults(_) => RUN_RESULTS.end(),
                    Artifact::Manifest(_) => MANIFEST.end(),
                },
                RUN_RESULTS.start(),
                RUN_RESULTS.end(),
                MANIFEST.start(),
                MANIFEST.end()
            )),
            None => self.fail(format!("`{url}` is not the schema of a dbt run_results.json or manifest.json")),
        }
    }

    fn fail(&mut self, message: String) {
        if self.fatal.is_none() {
            self.fatal = Some(FormatError::new(TITLE, Position::Line(1), message, b"metadata"));
        }
    }

    /// Whether `id` was not seen before; a second one is reported.
    fn first(&mut self, id: &str, line: u64, diags: &mut Diagnostics) -> bool {
        if self.seen.insert(id.to_owned()) {
            return true;
        }
        diags.report(
            Severity::Warning,
            "dbt.duplicate-id",
            Position::Line(line),
            format!("`{id}` appears twice; the first is used"),
        );
        false
    }

    fn result(&mut self, value: &[u8], line: u64, diags: &mut Diagnostics) {
        let at = Position::Line(line);
        let raw = match serde_json::from_slice::<RawResult>(value) {
            Ok(r) => r,
            Err(e) => {
                diags.report(Severity::Warning, "dbt.bad-result", at, format!("not a node's result ({e}); skipped"));
                return;
            }
        };
        let Some(unique_id) = raw.unique_id else {
            diags.report(Severity::Warning, "dbt.no-unique-id", at, "a result without `unique_id`; skipped");
            return;
        };
        if !self.first(&unique_id, line, diags) {
            return;
        }
        let mut steps = Vec::with_capacity(raw.timing.len());
        for t in raw.timing {
            let times = (t.started_at.as_deref().and_then(parse), t.completed_at.as_deref().and_then(parse));
            match times {
                (Some(start), Some(end)) if end >= start => steps.push(Step { name: t.name, start, end }),
                _ => diags.report(
                    Severity::Warning,
                    "dbt.bad-timing",
                    at,
                    format!(
                        "`{unique_id}`'s {} step has no valid start and end ({:?} to {:?}); left out",
                        t.name, t.started_at, t.completed_at
                    ),
                ),
            }
        }
        self.results.results.push(NodeResult {
            unique_id,
            status: raw.status.unwrap_or_default(),
            thread_id: raw.thread_id.unwrap_or_default(),
            execution_time: raw.execution_time,
            steps,
            adapter_response: raw.adapter_response,
            message: raw.message,
            failures: raw.failures,
            line,
        });
    }

    fn node(&mut self, value: &[u8], line: u64, diags: &mut Diagnostics) {
        let at = Position::Line(line);
        let raw = match serde_json::from_slice::<RawNode>(value) {
            Ok(n) => n,
            Err(e) => {
                diags.report(Severity::Warning, "dbt.bad-node", at, format!("not a manifest node ({e}); skipped"));
                return;
            }
        };
        let Some(unique_id) = raw.unique_id else {
            diags.report(Severity::Warning, "dbt.no-unique-id", at, "a manifest node without `unique_id`; skipped");
            return;
        };
        if !self.first(&unique_id, line, diags) {
            return;
        }
        self.manifest.nodes.push(ManifestNode {
            resource_type: raw.resource_type.unwrap_or_else(|| super::artifacts::resource_type(&unique_id).to_owned()),
            unique_id,
            depends_on: raw.depends_on.nodes,
        });
    }
}

impl FormatReader for DbtReader {
    fn feed(&mut self, chunk: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError> {
        let mut splitter = std::mem::replace(&mut self.splitter, JsonSplitter::new(&[]));
        let fed = splitter.feed(chunk, &mut |p| self.piece(p, diags));
        self.splitter = splitter;
        fed.map_err(|e| {
            FormatError::new(TITLE, Position::Byte(e.offset), "expected the end of the JSON document", &[e.byte])
        })?;
        match self.fatal.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn finish(self: Box<Self>, diags: &mut Diagnostics) -> Result<Parsed, FormatError> {
        let Some(artifact) = self.artifact else {
            return Err(FormatError::new(
                TITLE,
                Position::Whole,
                "no `metadata.dbt_schema_version`: not a dbt run_results.json or manifest.json",
                b"",
            ));
        };
        if !self.splitter.is_done() {
            let at = self.splitter.pending().map_or(Position::Whole, |(_, line)| Position::Line(line));
            let read = match artifact {
                Artifact::RunResults(_) => format!("{} results", self.results.results.len()),
                Artifact::Manifest(_) => format!("{} nodes", self.manifest.nodes.len()),
            };
            diags.report(
                Severity::Warning,
                "dbt.truncated",
                at,
                format!("{} ends before its JSON document does; the {read} before the cut were read", artifact.file()),
            );
        }
        Ok(match artifact {
            Artifact::RunResults(_) => Parsed::run(self.results),
            Artifact::Manifest(_) => Parsed::DbtManifest(Box::new(self.manifest)),
        })
    }

    fn counts(&self) -> ReadCounts {
        let events = self.results.results.len() + self.manifest.nodes.len();
        ReadCounts { lines: self.splitter.line(), events: events as u64 }
    }
}
