//! User spans of a GHC eventlog: a `START x` message or marker and the next
//! `STOP x` (innermost first) make a task on the `user spans` lane; other
//! marks are instants on the `markers` lane.

use super::run::Mark;
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::hash::FastMap;
use crate::model::{ModelBuilder, Nanos, Role, Task};

/// The label of a `START label` or `STOP label` text.
fn span_edge(text: &str) -> Option<(bool, &str)> {
    if let Some(l) = text.strip_prefix("START ") {
        Some((true, l.trim()))
    } else {
        text.strip_prefix("STOP ").map(|l| (false, l.trim()))
    }
}

/// Pairs `START x` and `STOP x` marks (in time order, innermost first) into
/// user-span tasks; marks that are not span edges become instants.
pub(super) fn user_spans(b: &mut ModelBuilder, marks: &[Mark], diags: &mut Diagnostics) {
    if marks.is_empty() {
        return;
    }
    let mut open: FastMap<&str, Vec<Nanos>> = FastMap::default();
    let span_kind = b.kind("user span", Some("blue"));
    let marker_kind = b.kind("marker", Some("magenta"));
    let message_kind = b.kind("message", Some("cyan"));
    let spans_lane = b.lane("user spans");
    let marks_lane = b.lane("markers");
    for m in marks {
        match span_edge(&m.text) {
            Some((true, label)) => open.entry(label).or_default().push(m.time),
            Some((false, label)) => match open.get_mut(label).and_then(|s| s.pop()) {
                Some(since) => {
                    let uid = b.sym(label);
                    b.task(Task::new(uid, span_kind, Role::Work, spans_lane, Some(since), Some(m.time)));
                }
                None => diags.report(
                    Severity::Info,
                    "ghc.stop-without-start",
                    Position::Byte(m.offset),
                    format!("\"STOP {label}\" at {} ns has no START before it", m.time),
                ),
            },
            None => {
                let uid = b.sym(&m.text);
                let kind = if m.marker { marker_kind } else { message_kind };
                b.task(Task::new(uid, kind, Role::Work, marks_lane, Some(m.time), Some(m.time)));
            }
        }
    }
    let mut unclosed: Vec<(&str, usize)> =
        open.iter().filter(|(_, v)| !v.is_empty()).map(|(&k, v)| (k, v.len())).collect();
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
