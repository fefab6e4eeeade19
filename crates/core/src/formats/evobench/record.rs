//! One line of an evobench log, parsed with serde_json straight from the
//! line's bytes (probe names borrowed unless escaped). Fields the reader
//! does not use (`pid`, `maxrss`, the fault and block counts) are skipped;
//! unknown fields are ignored, so that newer optional fields do not break it.
//! Timing records as the probes library writes them take a hand-written
//! fast path first (`fast.rs`, which gives what serde_json gives; the
//! reader tries it before these types).

use serde::Deserialize;
use std::borrow::Cow;

/// `{"sec","nsec"}`.
#[derive(Deserialize, Clone, Copy)]
#[cfg_attr(test, derive(Debug, PartialEq))]
pub(super) struct NanoTime {
    pub sec: u64,
    pub nsec: u64,
}

/// `{"sec","usec"}`.
#[derive(Deserialize, Clone, Copy)]
#[cfg_attr(test, derive(Debug, PartialEq))]
pub(super) struct MicroTime {
    pub sec: u64,
    pub usec: u64,
}

impl NanoTime {
    pub(super) fn ns(self) -> u64 {
        self.sec.saturating_mul(1_000_000_000).saturating_add(self.nsec)
    }
}

impl MicroTime {
    pub(super) fn us(self) -> u64 {
        self.sec.saturating_mul(1_000_000).saturating_add(self.usec)
    }
}

/// A timing record's fields.
#[derive(Deserialize)]
#[cfg_attr(test, derive(Debug, PartialEq))]
pub(super) struct Timing<'a> {
    #[serde(borrow)]
    pub pn: Cow<'a, str>,
    pub tid: u64,
    pub n: Option<u32>,
    pub r: Option<NanoTime>,
    /// The 2025-04 name of `r`.
    pub t: Option<NanoTime>,
    pub u: Option<MicroTime>,
    pub s: Option<MicroTime>,
    pub nvcsw: Option<i64>,
    pub nivcsw: Option<i64>,
}

impl Timing<'_> {
    /// Real time, ns, from `r` or `t`.
    pub(super) fn real(&self) -> Option<u64> {
        self.r.or(self.t).map(NanoTime::ns)
    }

    /// The four kinds' absolute readings: real ns, cpu µs, sys µs, ctx switches.
    pub(super) fn readings(&self) -> [Option<u64>; 4] {
        let cpu = match (self.u, self.s) {
            (Some(u), Some(s)) => Some(u.us().saturating_add(s.us())),
            _ => None,
        };
        let ctx = match (self.nvcsw, self.nivcsw) {
            (Some(a), Some(b)) => u64::try_from(a).ok().zip(u64::try_from(b).ok()).map(|(a, b)| a.saturating_add(b)),
            _ => None,
        };
        [self.real(), cpu, self.s.map(MicroTime::us), ctx]
    }
}

/// The `uname` object.
#[derive(Deserialize, Default)]
#[serde(default)]
#[cfg_attr(test, derive(Debug, PartialEq))]
pub(super) struct UName {
    pub sysname: String,
    pub nodename: String,
    pub release: String,
    pub version: String,
    pub machine: String,
}

/// The `Metadata` record.
#[derive(Deserialize, Default)]
#[serde(default)]
#[cfg_attr(test, derive(Debug, PartialEq))]
pub(super) struct MetadataRecord {
    pub username: String,
    pub hostname: String,
    pub uname: UName,
    pub compiler: String,
}

/// The `KeyValue` record.
#[derive(Deserialize)]
#[cfg_attr(test, derive(Debug, PartialEq))]
pub(super) struct KeyValue<'a> {
    pub tid: u64,
    #[serde(borrow)]
    pub k: Cow<'a, str>,
    #[serde(borrow)]
    pub v: Cow<'a, str>,
}

/// One line.
#[derive(Deserialize)]
#[cfg_attr(test, derive(Debug, PartialEq))]
pub(super) enum Record<'a> {
    Start {
        evobench_log_version: u32,
        evobench_version: String,
    },
    Metadata(MetadataRecord),
    #[serde(borrow)]
    KeyValue(KeyValue<'a>),
    #[serde(borrow)]
    TStart(Timing<'a>),
    #[serde(borrow)]
    T(Timing<'a>),
    #[serde(borrow)]
    TS(Timing<'a>),
    #[serde(borrow)]
    TE(Timing<'a>),
    #[serde(borrow)]
    TThreadStart(Timing<'a>),
    #[serde(borrow)]
    TThreadEnd(Timing<'a>),
    #[serde(borrow)]
    TEnd(Timing<'a>),
    #[serde(borrow, rename = "TIO")]
    Tio(Timing<'a>),
}
