//! StarRocks query profiles: the text the FE prints for a query
//! (`get_query_profile`, the web UI's /query_profile), merged to three
//! levels below the query (`pipeline_profile_level=1`, the default).
//!
//! ```text
//! Query:
//!   Summary:                                    info strings
//!      - Query ID: c025364c-a999-11f0-a663-f62b9654e895
//!      - Total: 9m41s
//!      - Default Db                             (a flag: no value)
//!   Planner:
//!      - -- Total[1] 4ms                        (nested planner timers: [count] time)
//!   Execution:
//!      - Topology: {"rootId":6,"nodes":[…]}     (JSON info string)
//!     Fragment 0:
//!        - BackendNum: 1
//!       Pipeline (id=0):
//!          - ActiveTime: 538.833us
//!            - __MAX_OF_ActiveTime: 879.983us   (across merged instances)
//!          - PendingTime: 9m41s
//!            - InputEmptyTime: 9m41s            (child counter: 2 more spaces)
//!         LOCAL_EXCHANGE_SINK (plan_node_id=6):
//!           CommonMetrics:
//!              - OperatorTotalTime: 456ns
//!           UniqueMetrics:
//!              - ShuffleNum__DUP(0): 1          (duplicate key of merged instances)
//! ```
//!
//! **Read:** every node line (`<indent><Name>:`) and counter line
//! (`<indent>- Name: value`, or a flag without value), nested by
//! indentation: a node's counters sit 3 spaces past it, child counters 2
//! more per level. Values are read with their units ([`value`]): times
//! (ns, us, ms, `1s54ms`, `9m41s`, `1h30m`), counts (K/M/B with the exact
//! value in parentheses), sizes (B to GB, base 1024) and rates (`/sec`);
//! anything else is an info string, which may run over several lines (the
//! Summary's `Sql Statement`). The JSON form ([`json`]) is read too.
//!
//! **Kept, not interpreted:** every line. The [`Profile`] tree holds each
//! line's indentation and text, so [`Profile::write`] prints the text back
//! byte for byte (`longpole rewrite`); lines that are neither node nor
//! counter are kept in place with the diagnostic `starrocks.stray-line`.
//!
//! **Mapping** (in [`reconcile`]): operators are grouped into plan
//! nodes by `plan_node_id` as `ANALYZE PROFILE` groups them; each plan node
//! is a task on its fragment's lane (`Fragment 2`), lasting its node time
//! (Σ max `OperatorTotalTime`, plus a scan's `ScanTime` or an exchange's
//! `NetworkTime`), joined along the plan (the Execution node's `Topology`,
//! else the operators' data flow).
//!
//! **Caveats:** merged time counters are averages over instances, counts
//! and sizes sums; a profile of a running query (`Query State: Running`)
//! is incomplete by nature.
//!
//! **This folder** holds everything about the format: the reader
//! (`reader`, `json`, `tree`, `value`), what it says beyond its model
//! ([`run`]), the reconciling ([`reconcile`], [`plan`], [`query`]), its own analyses ([`analysis`], [`nodes`],
//! [`hints`]), its report (`report`, `analyze`: ANALYZE PROFILE's text) and
//! its view ([`view`], its tables, and `run_view` putting them together);
//! it uses no other format.

pub mod analysis;
mod analyze;
pub mod hints;
mod json;
pub mod nodes;
pub mod plan;
pub mod query;
mod reader;
pub mod reconcile;
pub(crate) mod report;
pub mod run;
mod run_kind;
mod run_view;
pub mod tables;
mod tree;
pub mod value;
pub mod view;

pub use tree::{Counter, Item, Node, Profile, Stray};
pub use value::Value;

use super::{Format, FormatId, FormatReader, Sniff, SniffInput};

/// This format's id: a StarRocks query profile (text or JSON).
pub const ID: FormatId = FormatId::new("starrocks", "StarRocks query profile");

/// StarRocks' query profile format (text or JSON).
pub struct StarRocksFormat;

impl Format for StarRocksFormat {
    fn id(&self) -> FormatId {
        crate::formats::starrocks_profile::ID
    }

    /// Yes when the first line is `Query:` and the second a node or counter
    /// line indented below it, or when the input is a JSON object whose
    /// first key is `"Query"`.
    fn sniff(&self, input: SniffInput<'_>) -> Sniff {
        let head = input.head;
        let start = head.iter().position(|b| !b.is_ascii_whitespace());
        let Some(start) = start else { return if input.at_eof { Sniff::No } else { Sniff::NeedMore } };
        let rest = &head[start..];
        if rest[0] == b'{' {
            let after = rest[1..].iter().position(|b| !b.is_ascii_whitespace()).map(|i| &rest[1 + i..]);
            let Some(after) = after else { return if input.at_eof { Sniff::No } else { Sniff::NeedMore } };
            return SniffInput { head: after, ..input }.starts_with(b"\"Query\"");
        }
        match input.starts_with(b"Query:") {
            Sniff::Yes => {}
            other => return other,
        }
        let need_more = if input.at_eof { Sniff::No } else { Sniff::NeedMore };
        let Some(nl) = memchr::memchr(b'\n', head) else { return need_more };
        if head[..nl].trim_ascii_end() != b"Query:" {
            return Sniff::No;
        }
        let rest = &head[nl + 1..];
        let second = match memchr::memchr(b'\n', rest) {
            Some(end) => &rest[..end],
            None if input.at_eof => rest,
            None => return Sniff::NeedMore,
        };
        let t = second.trim_ascii();
        if second.starts_with(b"  ") && (t.ends_with(b":") || t.starts_with(b"- ")) {
            Sniff::Yes
        } else {
            Sniff::No
        }
    }

    fn reader(&self) -> Box<dyn FormatReader> {
        Box::new(reader::Reader::default())
    }
}

#[cfg(test)]
mod tests;
