//! What a GHC program allocated: each capability's counter, and their sum.
//!
//! The runtime counts allocation per capability, and at every collection
//! logs each capability's counter (bytes since the program started) in
//! that capability's block. The program's total, the figure `+RTS -s`
//! prints as "bytes allocated in the heap", is the sum of the counters'
//! last values.

use crate::formats::ghc_eventlog::{GhcRun, HeapFigure};
use crate::model::Nanos;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One capability's allocation counter at its last report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CapAllocation {
    /// The capability (`None`: events outside any capability's block).
    pub cap: Option<u16>,
    /// Bytes it allocated.
    pub bytes: u64,
}

/// What the program allocated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Allocation {
    /// Bytes allocated by all capabilities: the sum of their counters.
    pub total: u64,
    /// Each capability's counter, in capability order.
    pub per_capability: Vec<CapAllocation>,
}

impl Allocation {
    /// Each capability's share, labelled (`cap 0 …, cap 1 …`), its bytes
    /// written by `bytes`.
    pub fn shares(&self, bytes: impl Fn(u64) -> String) -> String {
        let caps: Vec<String> = self
            .per_capability
            .iter()
            .map(|c| match c.cap {
                Some(n) => format!("cap {n} {}", bytes(c.bytes)),
                None => format!("no cap {}", bytes(c.bytes)),
            })
            .collect();
        caps.join(", ")
    }
}

/// What the program allocated; `None` when the log reports no allocation.
pub fn allocation(run: &GhcRun) -> Option<Allocation> {
    let mut last: BTreeMap<Option<u16>, u64> = BTreeMap::new();
    for h in run.heap.iter().filter(|h| h.figure == HeapFigure::Allocated) {
        last.insert(h.cap, h.bytes);
    }
    if last.is_empty() {
        return None;
    }
    let per_capability: Vec<CapAllocation> =
        last.into_iter().map(|(cap, bytes)| CapAllocation { cap, bytes }).collect();
    let total = per_capability.iter().fold(0u64, |t, c| t.saturating_add(c.bytes));
    Some(Allocation { total, per_capability })
}

/// The program's total allocation over time: at each report of a counter,
/// the sum of every capability's latest counter.
pub fn total_over_time(run: &GhcRun) -> Vec<(Nanos, u64)> {
    let mut latest: BTreeMap<Option<u16>, u64> = BTreeMap::new();
    let mut total = 0u64;
    let mut out = Vec::new();
    for h in run.heap.iter().filter(|h| h.figure == HeapFigure::Allocated) {
        let before = latest.insert(h.cap, h.bytes).unwrap_or(0);
        total = total.saturating_sub(before).saturating_add(h.bytes);
        out.push((h.time, total));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ghc_eventlog::HeapSample;

    fn alloc(time: Nanos, cap: Option<u16>, bytes: u64) -> HeapSample {
        HeapSample { time, figure: HeapFigure::Allocated, bytes, cap }
    }

    #[test]
    fn the_total_is_the_sum_of_each_capability_s_last_counter() {
        let run = GhcRun {
            heap: vec![
                alloc(10, Some(0), 100),
                alloc(10, Some(1), 40),
                HeapSample { time: 15, figure: HeapFigure::Size, bytes: 1 << 20, cap: Some(1) },
                alloc(20, Some(1), 300),
                alloc(20, Some(0), 150),
            ],
            ..GhcRun::default()
        };
        let a = allocation(&run).unwrap();
        assert_eq!(a.total, 450);
        assert_eq!(
            a.per_capability,
            [CapAllocation { cap: Some(0), bytes: 150 }, CapAllocation { cap: Some(1), bytes: 300 }]
        );
        assert_eq!(a.shares(|b| format!("{b} B")), "cap 0 150 B, cap 1 300 B");
        assert_eq!(total_over_time(&run), [(10, 100), (10, 140), (20, 400), (20, 450)]);
        // The last point of the series is the total.
        assert_eq!(total_over_time(&run).last().map(|p| p.1), Some(a.total));
    }

    #[test]
    fn a_log_without_allocation_reports_none() {
        let run = GhcRun {
            heap: vec![HeapSample { time: 1, figure: HeapFigure::Live, bytes: 5, cap: None }],
            ..GhcRun::default()
        };
        assert_eq!(allocation(&run), None);
        assert!(total_over_time(&run).is_empty());
    }
}
