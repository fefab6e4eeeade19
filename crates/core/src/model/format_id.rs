//! Which format a run was read from: its stable short name and its title.
//! Every floor may name a format's id; each format's folder gives its own
//! (`formats::<name>::ID`), and the registry of formats reads a name back
//! (`Deserialize` is in [`crate::formats`], which lists them all).

use serde::{Serialize, Serializer};
use std::fmt;

/// Which format an input is: compared, hashed and matched on as a
/// constant (`formats::ghc_eventlog::ID`), written as its short name.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct FormatId {
    name: &'static str,
    title: &'static str,
}

impl FormatId {
    /// A format's id: its short name (kebab-case, stable: JSON, the CLI and
    /// test hooks use it) and its title.
    pub const fn new(name: &'static str, title: &'static str) -> FormatId {
        FormatId { name, title }
    }

    /// Stable short name, used in JSON, the CLI and test hooks.
    pub fn name(self) -> &'static str {
        self.name
    }

    /// Human title.
    pub fn title(self) -> &'static str {
        self.title
    }
}

impl fmt::Debug for FormatId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl Serialize for FormatId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name)
    }
}
