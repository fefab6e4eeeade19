//! Pairing start and end records into spans, per thread, as the evaluator
//! does: each thread id has a stack of open scopes; TS, TStart and
//! TThreadStart push, TE, TEnd and TThreadEnd pop down to the nearest
//! scope (KeyValue pseudo-scopes above it close with it). Thread numbers
//! are given in order of first appearance at a scope start; a thread's
//! mapping is dropped at its TThreadEnd, so a reused id gets a new number.

use super::log::{Label, Log, Node, Sample, Span};
use super::record::Timing;
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::hash::FastMap;

/// The kind of a real scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ScopeKind {
    Process,
    Thread,
    Probe,
}

impl ScopeKind {
    /// Scopes nest process > thread > probe: an end never closes a scope of a higher rank.
    fn rank(self) -> u8 {
        match self {
            ScopeKind::Probe => 0,
            ScopeKind::Thread => 1,
            ScopeKind::Process => 2,
        }
    }

    fn ends_with(self) -> &'static str {
        match self {
            ScopeKind::Process => "TEnd",
            ScopeKind::Thread => "TThreadEnd",
            ScopeKind::Probe => "TE",
        }
    }
}

/// An open scope or pseudo-scope on a thread's stack.
#[derive(Clone, Copy)]
enum Open {
    Scope { node: u32, kind: ScopeKind, thread: u32, weight: u32, line: u64, start: [Option<u64>; 4] },
    KeyValue { node: u32 },
}

impl Open {
    fn node(&self) -> u32 {
        match *self {
            Open::Scope { node, .. } | Open::KeyValue { node } => node,
        }
    }
}

/// Builds a [`Log`] record by record.
#[derive(Default)]
pub(super) struct Pairing {
    pub log: Log,
    name_ids: FastMap<Box<str>, u32>,
    node_ids: FastMap<(u32, Label), u32>,
    stacks: FastMap<u64, Vec<Open>>,
    thread_numbers: FastMap<u64, u32>,
}

/// `NO_PARENT` in node keys.
const ROOT: u32 = u32::MAX;

impl Pairing {
    fn name(&mut self, s: &str) -> u32 {
        if let Some(&id) = self.name_ids.get(s) {
            return id;
        }
        let id = self.log.names.len() as u32;
        self.log.names.push(s.to_owned());
        self.name_ids.insert(s.into(), id);
        id
    }

    fn node(&mut self, parent: Option<u32>, label: Label) -> u32 {
        let key = (parent.unwrap_or(ROOT), label);
        if let Some(&id) = self.node_ids.get(&key) {
            return id;
        }
        let id = self.log.nodes.len() as u32;
        self.log.nodes.push(Node { parent, label, opened: 0, samples: Vec::new() });
        self.node_ids.insert(key, id);
        id
    }

    fn thread_number(&mut self, tid: u64) -> u32 {
        if let Some(&n) = self.thread_numbers.get(&tid) {
            return n;
        }
        let n = self.log.threads.len() as u32;
        self.log.threads.push(tid);
        self.thread_numbers.insert(tid, n);
        n
    }

    /// A TStart, TThreadStart or TS.
    pub fn open(&mut self, kind: ScopeKind, t: &Timing<'_>, line: u64, diags: &mut Diagnostics) {
        let thread = self.thread_number(t.tid);
        let pn = self.name(&t.pn);
        let parent = self.stacks.get(&t.tid).and_then(|s| s.last()).map(Open::node);
        let node = match kind {
            ScopeKind::Process => self.node(None, Label::Process(pn)),
            ScopeKind::Thread => self.node(None, Label::Thread(thread, pn)),
            ScopeKind::Probe => self.node(parent, Label::Probe(pn)),
        };
        self.log.nodes[node as usize].opened += 1;
        let weight = match t.n {
            Some(0) if kind == ScopeKind::Probe => {
                diags.report(
                    Severity::Warning,
                    "evobench.zero-weight",
                    Position::Line(line),
                    format!("scope `{}` starts with n = 0; counted once", t.pn),
                );
                1
            }
            n => n.unwrap_or(1).max(1),
        };
        let open = Open::Scope { node, kind, thread, weight, line, start: t.readings() };
        self.stacks.entry(t.tid).or_default().push(open);
    }

    /// A KeyValue: a pseudo-scope under the innermost open one of its thread.
    pub fn key_value(&mut self, tid: u64, k: &str, v: &str, line: u64, diags: &mut Diagnostics) {
        let Some(parent) = self.stacks.get(&tid).and_then(|s| s.last()).map(Open::node) else {
            diags.report(
                Severity::Warning,
                "evobench.key-value-outside-scope",
                Position::Line(line),
                format!("KeyValue `{k}={v}` on thread id {tid} with no open scope; ignored"),
            );
            return;
        };
        let (k, v) = (self.name(k), self.name(v));
        let node = self.node(Some(parent), Label::KeyValue(k, v));
        self.log.nodes[node as usize].opened += 1;
        self.stacks.entry(tid).or_default().push(Open::KeyValue { node });
    }

    /// A TEnd, TThreadEnd or TE.
    pub fn close(&mut self, kind: ScopeKind, t: &Timing<'_>, line: u64, diags: &mut Diagnostics) {
        let stack = self.stacks.entry(t.tid).or_default();
        // The innermost scope of the right kind, and how many scopes lie above it.
        let mut above = 0;
        let mut blocked = false;
        let found = stack.iter().rposition(|o| match *o {
            _ if blocked => false,
            Open::Scope { kind: k, .. } if k == kind => true,
            Open::Scope { kind: k, .. } if k.rank() < kind.rank() => {
                above += 1;
                false
            }
            Open::Scope { .. } => {
                blocked = true;
                false
            }
            Open::KeyValue { .. } => false,
        });
        let Some(at) = found else {
            diags.report(
                Severity::Warning,
                "evobench.unmatched-end",
                Position::Line(line),
                format!("{} `{}` on thread id {} closes no open scope; ignored", kind.ends_with(), t.pn, t.tid),
            );
            return;
        };
        if above > 0 {
            for o in &stack[at + 1..] {
                if let Open::Scope { node, kind: k, line: opened, .. } = *o {
                    let name = self.log.probe_name(node).unwrap_or("");
                    diags.report(
                        Severity::Warning,
                        "evobench.unclosed-scope",
                        Position::Line(opened),
                        format!("scope `{name}` is still open at line {line}, where a {} closes its parent; its {} is missing and it is left out", kind.ends_with(), k.ends_with()),
                    );
                }
            }
        }
        let closing = stack[at];
        stack.truncate(at);
        let Open::Scope { node, thread, weight, line: opened, start, .. } = closing else { return };
        if kind == ScopeKind::Probe && self.log.probe_name(node) != Some(&*t.pn) {
            let name = self.log.probe_name(node).unwrap_or("").to_owned();
            diags.report(
                Severity::Warning,
                "evobench.name-mismatch",
                Position::Line(line),
                format!("TE `{}` closes scope `{name}` opened at line {opened}; paired all the same", t.pn),
            );
        }
        if kind == ScopeKind::Thread {
            self.thread_numbers.remove(&t.tid);
        }
        let end = t.readings();
        let mut values = [None; 4];
        for (i, v) in values.iter_mut().enumerate() {
            if let (Some(a), Some(b)) = (start[i], end[i]) {
                if b < a {
                    diags.report(
                        Severity::Warning,
                        "evobench.time-backwards",
                        Position::Line(line),
                        format!(
                            "`{}` ends before it starts ({} {a} > {b}); its cost counts as 0",
                            t.pn,
                            super::log::TimingKind::ALL[i].title()
                        ),
                    );
                }
                *v = Some(b.saturating_sub(a));
            }
        }
        self.log.nodes[node as usize].samples.push(Sample::new(weight, values));
        if let (Some(s), Some(e)) = (start[0], end[0]) {
            self.log.spans.push(Span { node, thread, start: s, end: e.max(s), weight });
        }
    }

    /// Scopes still open at the end of the input.
    pub fn still_open(&self) -> usize {
        self.stacks.values().flatten().filter(|o| matches!(o, Open::Scope { .. })).count()
    }
}
