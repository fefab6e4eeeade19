//! User spans of a GHC eventlog: a `START x` message or marker and the next
//! `STOP x` (innermost first) make a task on the `user spans` lane; other
//! marks are instants on the `markers` lane. The marks' lists are freed as
//! the spans are made (a scheduler-heavy log marks millions of steps): the
//! log keeps the first of them and their count.

use super::marks::{KeptMarks, Mark, Marks, MARKS_KEPT};
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

/// Whether text `id` is neither a span's start nor its stop.
fn instant(edges: &[Edge], id: u32) -> bool {
    matches!(edges.get(id as usize), Some(Edge::Instant))
}

/// Whether any `STOP x` closes a `START x` before it: counts the open
/// starts of each label, up to the first that closes.
fn pairs_any(marks: &Marks, edges: &[Edge], labels: usize) -> bool {
    if !edges.iter().any(|e| matches!(e, Edge::Stop(_))) {
        return false;
    }
    let mut open = vec![0usize; labels];
    for m in marks.iter() {
        match edges.get(m.text_id as usize) {
            Some(&Edge::Start(l)) => open[l] += 1,
            Some(&Edge::Stop(l)) if open[l] > 0 => return true,
            _ => {}
        }
    }
    false
}

/// Pairs `START x` and `STOP x` marks (in time order, innermost first) into
/// user-span tasks; marks that are not span edges become instants. Gives
/// what the log keeps of the marks.
pub(super) fn user_spans(b: &mut ModelBuilder, marks: Marks, diags: &mut Diagnostics) -> KeptMarks {
    if marks.is_empty() {
        return KeptMarks::default();
    }
    // Each distinct text read once: its edge, and each label its index.
    let mut labels: Vec<String> = Vec::new();
    let mut label_index: FastMap<&str, usize> = FastMap::default();
    let edges: Vec<Edge> = (0..marks.text_count() as u32)
        .map(|id| match span_edge(marks.text(id).unwrap_or("")) {
            Some((start, label)) => {
                let i = *label_index.entry(label).or_insert_with(|| {
                    labels.push(label.to_owned());
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
    // Only the kinds and lanes that get tasks are made (the model would
    // drop the others, in a pass over every task), in this order.
    let instants = |marker| (0..edges.len() as u32).any(|id| instant(&edges, id) && marks.seen_as(id, marker));
    let (markers, messages) = (instants(true), instants(false));
    let span_kind = pairs_any(&marks, &edges, labels.len()).then(|| b.kind("user span", Some("blue")));
    let marker_kind = markers.then(|| b.kind("marker", Some("magenta")));
    let message_kind = messages.then(|| b.kind("message", Some("cyan")));
    let spans_lane = span_kind.map(|_| b.lane("user spans"));
    let marks_lane = (markers || messages).then(|| b.lane("markers"));
    let mut kept = KeptMarks { first: Vec::with_capacity(marks.len().min(MARKS_KEPT)), count: marks.len() as u64 };
    let mut drain = marks.drain();
    while let Some(m) = drain.next() {
        if kept.first.len() < MARKS_KEPT {
            let text = drain.text(m.text_id).to_owned();
            kept.first.push(Mark { time: m.time, cap: m.cap, offset: m.offset, marker: m.marker, text });
        }
        match edges.get(m.text_id as usize).copied().unwrap_or(Edge::Instant) {
            Edge::Start(l) => open[l].push(m.time),
            Edge::Stop(l) => match (open[l].pop(), span_kind.zip(spans_lane)) {
                (Some(since), Some((kind, lane))) => {
                    let uid = *label_syms[l].get_or_insert_with(|| b.sym(&labels[l]));
                    b.task(Task::new(uid, kind, Role::Work, lane, Some(since), Some(m.time)));
                }
                _ => diags.report(
                    Severity::Info,
                    "ghc.stop-without-start",
                    Position::Byte(m.offset),
                    format!("\"STOP {}\" at {} ns has no START before it", labels[l], m.time),
                ),
            },
            Edge::Instant => {
                let kind = if m.marker { marker_kind } else { message_kind };
                if let (Some(kind), Some(lane)) = (kind, marks_lane) {
                    let uid = *text_syms[m.text_id as usize].get_or_insert_with(|| b.sym(drain.text(m.text_id)));
                    b.task(Task::new(uid, kind, Role::Work, lane, Some(m.time), Some(m.time)));
                }
            }
        }
    }
    let mut unclosed: Vec<(&str, usize)> =
        labels.iter().zip(&open).filter(|(_, v)| !v.is_empty()).map(|(k, v)| (k.as_str(), v.len())).collect();
    unclosed.sort();
    for (label, n) in unclosed {
        diags.report(
            Severity::Info,
            "ghc.start-without-stop",
            Position::Whole,
            format!("\"START {label}\" has no STOP after it ({n} times)"),
        );
    }
    kept
}
