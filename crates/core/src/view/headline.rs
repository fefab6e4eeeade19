//! A run's headline, after its wall time: the numbers its format leads
//! with (both paths and the hosts for a build, the pauses for a GHC
//! program, the long pole for a StarRocks query), as pieces of text the page
//! draws in order, some strong, some with a test hook.

use super::RunView;
use crate::numbers::{duration_label, group};
use serde::{Deserialize, Serialize};

/// One piece of a headline.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fact {
    /// Its text.
    pub text: String,
    /// Shown strong (a figure).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub strong: bool,
    /// Shown as a warning.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub warn: bool,
    /// The page's test hook on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook: Option<String>,
    /// What hovering it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

impl Fact {
    /// Plain text.
    pub fn plain(text: impl Into<String>) -> Fact {
        Fact { text: text.into(), ..Fact::default() }
    }

    /// A figure, shown strong.
    pub fn strong(text: impl Into<String>) -> Fact {
        Fact { text: text.into(), strong: true, ..Fact::default() }
    }

    /// The fact with the test hook `hook`.
    pub fn hook(self, hook: &str) -> Fact {
        Fact { hook: Some(hook.to_owned()), ..self }
    }

    /// The fact with the tooltip `title`.
    pub fn title(self, title: String) -> Fact {
        Fact { title: Some(title), ..self }
    }

    /// The fact shown as a warning.
    pub fn warn(self) -> Fact {
        Fact { warn: true, ..self }
    }
}

/// `1 thread`, `2 threads`, `1,024 threads`.
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", group(n), if n == 1 { one } else { many })
}

/// Both paths: ` · critical path 3 s (ya) / 2 s (blocking)`, the
/// critical path named after what it follows (`ya`, `dataflow`).
pub fn both_paths(v: &RunView, name: &str) -> Vec<Fact> {
    vec![
        Fact::plain(" · critical path "),
        Fact::strong(duration_label(v.critical_path.total)),
        Fact::plain(format!(" ({name}) / ")),
        Fact::strong(duration_label(v.blocking_chain.total)),
        Fact::plain(" (blocking)"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals_and_facts() {
        assert_eq!(plural(1, "thread", "threads"), "1 thread");
        assert_eq!(plural(1024, "thread", "threads"), "1,024 threads");
        let f = Fact::strong("3 s").hook("long-pole");
        assert!(f.strong && !f.warn && f.hook.as_deref() == Some("long-pole"));
        let json = serde_json::to_string(&Fact::plain(" · ")).unwrap();
        assert_eq!(json, r#"{"text":" · "}"#);
    }
}
