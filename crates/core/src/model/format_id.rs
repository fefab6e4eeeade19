//! Which format a run was read from: its identity, short name and title,
//! which every floor may name (the readers themselves are in
//! [`crate::formats`]).

use serde::{Deserialize, Serialize};

/// Which format an input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FormatId {
    /// distbuild's execution log (ya's distributed builds).
    Distbuild,
    /// ya's build graph (`graph.json`).
    YaGraph,
    /// ya's local event log (evlog).
    YaEvlog,
    /// A GHC runtime's binary eventlog.
    GhcEventlog,
    /// A MonetDB server's MAL profiler trace.
    MonetdbMal,
    /// ninja's `.ninja_log`.
    NinjaLog,
    /// An evobench benchmark log (NDJSON of probe timings).
    Evobench,
    /// A StarRocks query profile (text or JSON).
    StarRocks,
    /// A Chrome Trace Event Format trace (JSON).
    ChromeTrace,
}

impl FormatId {
    /// Stable short name, used in JSON, the CLI and test hooks.
    pub fn name(self) -> &'static str {
        match self {
            FormatId::Distbuild => "distbuild",
            FormatId::YaGraph => "ya-graph",
            FormatId::YaEvlog => "ya-evlog",
            FormatId::GhcEventlog => "ghc-eventlog",
            FormatId::MonetdbMal => "monetdb-mal",
            FormatId::NinjaLog => "ninja-log",
            FormatId::Evobench => "evobench",
            FormatId::StarRocks => "starrocks",
            FormatId::ChromeTrace => "chrome-trace",
        }
    }

    /// Human title.
    pub fn title(self) -> &'static str {
        match self {
            FormatId::Distbuild => "distbuild execution log",
            FormatId::YaGraph => "ya build graph",
            FormatId::YaEvlog => "ya event log",
            FormatId::GhcEventlog => "GHC eventlog",
            FormatId::MonetdbMal => "MonetDB MAL trace",
            FormatId::NinjaLog => "ninja log",
            FormatId::Evobench => "evobench log",
            FormatId::StarRocks => "StarRocks query profile",
            FormatId::ChromeTrace => "Chrome trace",
        }
    }
}
