//! The offline copy as the page hears of it: what the service worker
//! (`sw.js`) tells the page, and the notice the page shows of it.

use serde::Deserialize;

/// A message of the service worker, sent as JSON text to every page.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "event", rename_all = "lowercase")]
pub enum ShellEvent {
    /// A new version's copy replaced an older one.
    Updated {
        /// The new version (a hash of its files and digests).
        version: String,
        /// Its files, relative to the app's directory.
        files: Vec<String>,
    },
    /// A version's copy was not kept: a file failed its check or its fetch.
    Refused {
        /// The version refused.
        version: String,
        /// Which file, and why.
        reason: String,
    },
}

/// What the page says about its offline copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShellNotice {
    /// This page is the version now kept for offline use, which replaced an older one.
    Updated {
        /// The version.
        version: String,
    },
    /// A newer version than this page is kept: a reload shows it.
    NewVersionReady {
        /// The newer version.
        version: String,
    },
    /// The copy of a version was refused.
    Refused {
        /// The version.
        version: String,
        /// Which file, and why.
        reason: String,
    },
    /// The service worker could not be registered: no offline copy is kept.
    NotRegistered {
        /// What the browser said.
        reason: String,
    },
    /// The service worker sent a message the page does not read.
    BadMessage {
        /// Why it does not read.
        error: String,
    },
}

impl ShellNotice {
    /// The notice for `event`, told to a page whose own script is
    /// `page_script` (its path relative to the app's directory, as
    /// `boot.js`'s `data-longpole-js` gives it): an update is this page's
    /// version only if that version holds the page's script.
    pub fn of_event(event: ShellEvent, page_script: Option<&str>) -> ShellNotice {
        match event {
            ShellEvent::Updated { version, files } => {
                let script = page_script.map(|s| s.trim_start_matches("./"));
                if script.is_some_and(|s| files.iter().any(|f| f == s)) {
                    ShellNotice::Updated { version }
                } else {
                    ShellNotice::NewVersionReady { version }
                }
            }
            ShellEvent::Refused { version, reason } => ShellNotice::Refused { version, reason },
        }
    }

    /// The notice's words.
    pub fn text(&self) -> String {
        match self {
            ShellNotice::Updated { version } => {
                format!("Updated to a new version ({version}); it is kept for offline use.")
            }
            ShellNotice::NewVersionReady { version } => {
                format!("A new version ({version}) is ready: reload to use it.")
            }
            ShellNotice::Refused { version, reason } => {
                format!("The offline copy of version {version} was refused: {reason}. The page works while online.")
            }
            ShellNotice::NotRegistered { reason } => {
                format!("Offline use is off: the service worker could not be registered ({reason}).")
            }
            ShellNotice::BadMessage { error } => {
                format!(
                    "longpole's service worker sent a message the page does not read ({error}); please report this."
                )
            }
        }
    }

    /// A stable name of the kind of notice, for tests and automation.
    pub fn kind(&self) -> &'static str {
        match self {
            ShellNotice::Updated { .. } => "updated",
            ShellNotice::NewVersionReady { .. } => "new-version-ready",
            ShellNotice::Refused { .. } => "refused",
            ShellNotice::NotRegistered { .. } => "not-registered",
            ShellNotice::BadMessage { .. } => "bad-message",
        }
    }

    /// Whether the notice offers a reload.
    pub fn offers_reload(&self) -> bool {
        matches!(self, ShellNotice::NewVersionReady { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn updated(files: &[&str]) -> ShellEvent {
        serde_json::from_str(&format!(
            r#"{{"event":"updated","version":"abc","files":{}}}"#,
            serde_json::to_string(files).unwrap()
        ))
        .unwrap()
    }

    #[test]
    fn an_update_holding_the_pages_script_is_this_page() {
        let notice = ShellNotice::of_event(updated(&["index.html", "app-1.js"]), Some("./app-1.js"));
        assert_eq!(notice, ShellNotice::Updated { version: "abc".into() });
        assert!(notice.text().starts_with("Updated to a new version (abc)"));
        assert!(!notice.offers_reload());
    }

    #[test]
    fn an_update_without_the_pages_script_offers_a_reload() {
        for script in [Some("./app-1.js"), None] {
            let notice = ShellNotice::of_event(updated(&["index.html", "app-2.js"]), script);
            assert_eq!(notice, ShellNotice::NewVersionReady { version: "abc".into() });
            assert!(notice.offers_reload());
        }
    }

    #[test]
    fn a_refusal_names_the_file_and_why() {
        let event: ShellEvent = serde_json::from_str(
            r#"{"event":"refused","version":"v2","reason":"boot.js has SHA-256 1, but this version lists 2"}"#,
        )
        .unwrap();
        let notice = ShellNotice::of_event(event, None);
        assert_eq!(notice.kind(), "refused");
        assert_eq!(
            notice.text(),
            "The offline copy of version v2 was refused: boot.js has SHA-256 1, but this version lists 2. The page works while online."
        );
    }

    #[test]
    fn an_unknown_event_does_not_read() {
        assert!(serde_json::from_str::<ShellEvent>(r#"{"event":"other"}"#).is_err());
    }
}
