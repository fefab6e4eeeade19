//! User spans of a GHC eventlog: a `START x` message or marker and the next
//! `STOP x` (innermost first) make a task on the `user spans` lane; other
//! marks are instants on the `markers` lane.

use super::marks::Marks;
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::hash::FastMap;
use crate::model::{ModelBuilder, Nanos, Role, Sym, Task};

/// The label of a `START label` or `STOP label` text.
fn span_edge(text: &str) -> Option<(bool, &str)> {
    if let Some(l) = text.strip_prefix("START ") {
        Some((true, l.trim()))
    } else {
        text.strip_prefix("STOP ").map(|l| (false, l.trim()))
    }
}

/// What a mark's text is: a span's start or stop (its label's index), or
/// an instant.
#[derive(Clone, Copy)]
enum Edge {
    Start(usize),
    Stop(usize),
    Instant,
}

/// Pairs `START x` and `STOP x` marks (in time order, innermost first) into
/// user-span tasks; marks that are not span edges become instants.
pub(super) fn user_spans(b: &mut ModelBuilder, marks: &Marks, diags: &mut Diagnostics) {
    if marks.is_empty() {
        return;
    }
    // Each distinct text read once: its edge, and each label its index.
    let mut labels: Vec<&str> = Vec::new();
    let mut label_index: FastMap<&str, usize> = FastMap::default();
    let edges: Vec<Edge> = (0..marks.text_count() as u32)
        .map(|id| match span_edge(marks.text(id).unwrap_or("")) {
            Some((start, label)) => {
                let i = *label_index.entry(label).or_insert_with(|| {
                    labels.push(label);
                    labels.len() - 1
                });
                if start {
                    Edge::Start(i)
                } else {
                    Edge::Stop(i)
                }
            }
            None => Edge::Instant,
        })
        .collect();
    let mut open: Vec<Vec<Nanos>> = vec![Vec::new(); labels.len()];
    // Names are interned when first used, in the order the marks need them.
    let mut label_syms: Vec<Option<Sym>> = vec![None; labels.len()];
    let mut text_syms: Vec<Option<Sym>> = vec![None; edges.len()];
    let span_kind = b.kind("user span", Some("blue"));
    let marker_kind = b.kind("marker", Some("magenta"));
    let message_kind = b.kind("message", Some("cyan"));
    let spans_lane = b.lane("user spans");
    let marks_lane = b.lane("markers");
    for m in marks.iter() {
        match edges.get(m.text_id as usize).copied().unwrap_or(Edge::Instant) {
            Edge::Start(l) => open[l].push(m.time),
            Edge::Stop(l) => match open[l].pop() {
                Some(since) => {
                    let uid = *label_syms[l].get_or_insert_with(|| b.sym(labels[l]));
                    b.task(Task::new(uid, span_kind, Role::Work, spans_lane, Some(since), Some(m.time)));
                }
                None => diags.report(
                    Severity::Info,
                    "ghc.stop-without-start",
                    Position::Byte(m.offset),
                    format!("\"STOP {}\" at {} ns has no START before it", labels[l], m.time),
                ),
            },
            Edge::Instant => {
                let uid = *text_syms[m.text_id as usize].get_or_insert_with(|| b.sym(m.text));
                let kind = if m.marker { marker_kind } else { message_kind };
                b.task(Task::new(uid, kind, Role::Work, marks_lane, Some(m.time), Some(m.time)));
            }
        }
    }
    let mut unclosed: Vec<(&str, usize)> =
        labels.iter().zip(&open).filter(|(_, v)| !v.is_empty()).map(|(&k, v)| (k, v.len())).collect();
    unclosed.sort();
    for (label, n) in unclosed {
        diags.report(
            Severity::Info,
            "ghc.start-without-stop",
            Position::Whole,
            format!("\"START {label}\" has no STOP after it ({n} times)"),
        );
    }
}
