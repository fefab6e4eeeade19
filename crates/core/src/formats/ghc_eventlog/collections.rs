//! A GHC program's garbage collections, from its capabilities' GC spans
//! and the runtime's GC statistics events.
//!
//! Every capability taking part in a collection logs a span (start to end
//! of GC) in its own block; the one leading it also logs the collection's
//! statistics (generation, bytes copied) as it ends, and its span is the
//! pause the runtime's own statistics (`+RTS -s`) count: both ends carry
//! the very clock readings it uses (so the statistics, stamped when they
//! are written, come a little after the span's end). The others' spans are
//! not the pause: a capability with nothing to run after a collection logs
//! its end only when it is woken, often at the next collection.
//!
//! So a collection is the span of the capability that logs its statistics,
//! the last one it started by then, with them. Spans that overlap no such
//! collection (all of them, in a log without statistics) are joined,
//! overlapping ones together, into collections without statistics;
//! statistics of a capability with no span by then go to the last of those
//! that started by then.

use super::run::Collection;
use crate::model::Nanos;

/// One capability's span of garbage collection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct GcSpan {
    /// Its capability (first, so that spans sort by capability).
    pub cap: Option<u16>,
    /// Start, ns.
    pub start: Nanos,
    /// End, ns.
    pub end: Nanos,
}

/// A GC statistics event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct GcStats {
    /// When, ns.
    pub time: Nanos,
    /// The capability whose block holds it.
    pub cap: Option<u16>,
    /// The generation collected.
    pub generation: u16,
    /// Bytes copied.
    pub copied: u64,
}

/// The collections of a log, in time order.
pub(super) fn collections(mut spans: Vec<GcSpan>, mut stats: Vec<GcStats>) -> Vec<Collection> {
    spans.sort_unstable();
    stats.sort_by_key(|s| s.time);
    let mut led: Vec<Option<GcStats>> = vec![None; spans.len()];
    let mut loose = Vec::new();
    for st in stats {
        // Its capability's last span started by then, if no statistics took it.
        let i = spans.partition_point(|s| (s.cap, s.start) <= (st.cap, st.time));
        let leader = i
            .checked_sub(1)
            .filter(|&j| spans.get(j).is_some_and(|s| s.cap == st.cap) && led.get(j).is_some_and(Option::is_none));
        match leader.and_then(|j| led.get_mut(j)) {
            Some(slot) => *slot = Some(st),
            None => loose.push(st),
        }
    }
    let mut out: Vec<Collection> = spans
        .iter()
        .zip(&led)
        .filter_map(|(s, l)| {
            l.map(|st| Collection {
                start: s.start,
                end: s.end,
                generation: Some(st.generation),
                copied: Some(st.copied),
            })
        })
        .collect();
    out.sort_unstable_by_key(|c| (c.start, c.end));
    // The latest end among the led collections up to each one.
    let ends: Vec<Nanos> = out
        .iter()
        .scan(Nanos::MIN, |m, c| {
            *m = (*m).max(c.end);
            Some(*m)
        })
        .collect();
    let overlaps_led = |s: &GcSpan| {
        let i = out.partition_point(|c| c.start <= s.end);
        i.checked_sub(1).and_then(|j| ends.get(j)).is_some_and(|&e| e >= s.start)
    };
    let mut rest: Vec<(Nanos, Nanos)> = spans
        .iter()
        .zip(&led)
        .filter(|(s, l)| l.is_none() && !overlaps_led(s))
        .map(|(s, _)| (s.start, s.end))
        .collect();
    rest.sort_unstable();
    let mut unknown: Vec<Collection> = Vec::new();
    for (s, e) in rest {
        match unknown.last_mut() {
            Some(c) if s <= c.end => c.end = c.end.max(e),
            _ => unknown.push(Collection { start: s, end: e, generation: None, copied: None }),
        }
    }
    for st in loose {
        // The last collection without statistics that started by then.
        let i = unknown.partition_point(|c| c.start <= st.time);
        if let Some(c) = unknown[..i].iter_mut().rev().find(|c| c.generation.is_none()) {
            c.generation = Some(st.generation);
            c.copied = Some(st.copied);
        }
    }
    out.extend(unknown);
    out.sort_by_key(|c| (c.start, c.end));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(cap: u16, start: Nanos, end: Nanos) -> GcSpan {
        GcSpan { cap: Some(cap), start, end }
    }

    fn stats(time: Nanos, cap: u16, generation: u16, copied: u64) -> GcStats {
        GcStats { time, cap: Some(cap), generation, copied }
    }

    #[test]
    fn a_collection_is_its_leader_s_span_whatever_the_others_log() {
        // Cap 1 leads both, its statistics stamped just after its spans'
        // ends; cap 0 joins the first late and, idle, logs its end only
        // when the second starts.
        let spans = vec![span(1, 100, 150), span(0, 110, 290), span(1, 300, 340), span(0, 305, 330)];
        let got = collections(spans, vec![stats(151, 1, 0, 64), stats(341, 1, 1, 8)]);
        assert_eq!(
            got,
            [
                Collection { start: 100, end: 150, generation: Some(0), copied: Some(64) },
                Collection { start: 300, end: 340, generation: Some(1), copied: Some(8) },
            ]
        );
    }

    #[test]
    fn without_statistics_overlapping_spans_make_one_collection() {
        let got = collections(vec![span(0, 10, 20), span(1, 15, 30), span(0, 50, 60)], Vec::new());
        assert_eq!(
            got,
            [
                Collection { start: 10, end: 30, generation: None, copied: None },
                Collection { start: 50, end: 60, generation: None, copied: None },
            ]
        );
    }

    #[test]
    fn statistics_of_a_capability_without_spans_go_to_the_last_collection_started() {
        // Logged on cap 2, which has no span: the collection started at 10 takes them.
        let got = collections(vec![span(0, 10, 20), span(0, 50, 60)], vec![stats(25, 2, 1, 7)]);
        assert_eq!(got[0], Collection { start: 10, end: 20, generation: Some(1), copied: Some(7) });
        assert_eq!(got[1].generation, None);
        // A second set for the same span: the first keeps it.
        let got = collections(vec![span(0, 10, 20)], vec![stats(21, 0, 0, 1), stats(22, 0, 1, 2)]);
        assert_eq!(got, [Collection { start: 10, end: 20, generation: Some(0), copied: Some(1) }]);
    }
}
