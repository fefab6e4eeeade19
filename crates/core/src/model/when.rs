//! A task's start or end, which a log may not give, in eight bytes.
//!
//! `Option<i64>` takes sixteen; a model holds two per task, and a large log
//! has millions of tasks (5.3 million in a 191 MB GHC eventlog). [`When`]
//! keeps "not given" as `i64::MIN`, a time no log reaches: a time given as
//! `i64::MIN` is kept as one nanosecond later, and [`When::at`] says so.

use super::Nanos;
use serde::{Serialize, Serializer};
use std::fmt;

/// A time in nanoseconds, or not known.
/// Ordered as `Option<Nanos>` is: not known before every time.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct When(Nanos);

impl When {
    /// Not known.
    pub const UNKNOWN: When = When(Nanos::MIN);

    /// A known time; `i64::MIN`, which stands for "not known", is kept as
    /// `i64::MIN + 1`.
    pub fn at(t: Nanos) -> When {
        When(t.max(Nanos::MIN + 1))
    }

    /// The time, if known.
    pub fn get(self) -> Option<Nanos> {
        (self.0 != Nanos::MIN).then_some(self.0)
    }

    /// The time is known.
    pub fn is_known(self) -> bool {
        self.0 != Nanos::MIN
    }
}

impl From<Option<Nanos>> for When {
    fn from(t: Option<Nanos>) -> When {
        t.map_or(When::UNKNOWN, When::at)
    }
}

impl fmt::Debug for When {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

impl Serialize for When {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.get().serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_reads_back_and_unknown_stays_unknown() {
        for t in [0, 1, -1, Nanos::MAX, Nanos::MIN + 1, 1_732_000_000_000_000_000] {
            assert_eq!(When::at(t).get(), Some(t));
            assert_eq!(When::from(Some(t)).get(), Some(t));
        }
        assert_eq!(When::from(None).get(), None);
        assert!(!When::UNKNOWN.is_known());
        assert_eq!(When::at(Nanos::MIN).get(), Some(Nanos::MIN + 1));
        assert_eq!(format!("{:?}", When::at(5)), "Some(5)");
        assert_eq!(serde_json::to_string(&[When::at(5), When::UNKNOWN]).unwrap(), "[5,null]");
    }

    #[test]
    fn takes_eight_bytes() {
        assert_eq!(std::mem::size_of::<When>(), 8);
    }
}
