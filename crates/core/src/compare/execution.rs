//! How a task ran, beyond the model's cached and failed, where its format
//! records it: on this machine or on a remote executor, taken from a
//! remote cache, or started more than once. A comparison counts these per
//! key ([`super::digest::Outcomes`]), so that an action that moved from
//! remote to local execution, or was retried, is shown as a status change
//! rather than read as a slowdown.

/// Where a task's work ran.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Place {
    /// The format does not say.
    #[default]
    Unknown,
    /// On the machine that ran the build.
    Local,
    /// On a remote executor.
    Remote,
}

/// How one task ran, as its format records it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Execution {
    /// Where it ran (for a task that fell back from one to the other,
    /// where it ran last).
    pub place: Place,
    /// It was started more than once (a retry, a fallback).
    pub retried: bool,
    /// Its result came from a cache the format names (a remote cache hit),
    /// though the model does not call it cached.
    pub cache_hit: bool,
}

impl Execution {
    /// Whether it says anything beyond the model.
    pub fn is_known(&self) -> bool {
        *self != Execution::default()
    }
}
