//! The page's link: what the URL's hash (`#…`, never sent to a server)
//! says to load and how to show it.
//!
//! ```text
//! #src=https%3A%2F%2Fci.example%2Fexecution.log.gz&src=https%3A%2F%2Fci.example%2Fgraph.json
//!  &sha256=<64 hex digits>&sha256=
//!  &v=1&tab=timeline&window=1000,9000&uid=SOME-UID&path=chain&flame=1&zoom=12&icicle=1
//! ```
//!
//! - `src` (repeated): the inputs to load, read together as dropped files
//!   are; `sha256` (repeated, in the same order; empty for none): the
//!   digest each must have.
//! - `vs` and `vs_sha256` (repeated, likewise): side B's inputs; with
//!   them, the page compares `src` (side A) with `vs` (side B) and opens
//!   the compare screen (docs/compare.md, "In the app").
//! - `token`: 32 hexadecimal digits a `longpole open` server gave; every
//!   input is fetched with it in a header, and the page tells the server
//!   it is still open with it (docs/cli.md, "open").
//! - `native=1`: the `longpole open --native` server analyses the inputs
//!   itself; the page asks it over its WebSocket instead of reading them in
//!   its worker (docs/native.md).
//! - `v=1`: the version of the view state that follows. `tab`; `window`,
//!   the time window (ns, start and end); the selected task by its stable
//!   key ([`TaskKey`]: `uid`, and `at` (its start, ns) and `lane` where the
//!   uid repeats); `path=chain` for the blocking chain instead of the
//!   critical path; `flame` (the measure's index), `zoom` (the frame shown
//!   as the whole width) and `icicle=1` for the flame graph; `speedup`,
//!   the what-if: the selected task made that many percent faster (1 to
//!   100), the run replayed (docs/whatif.md); `sql`, the SQL tab's query
//!   (run again once the page has loaded), and `track=1` to draw it on the
//!   timeline (docs/sql.md).
//! - A link without `v` is the first form, `tab`, `window` and `task` (the
//!   task's index): it is read, and the page writes it back as `v=1`.
//!
//! Values are percent-encoded. Keys this version does not know are left
//! alone; values it cannot read are reported, never taken as a default.

pub use crate::protocol::Source;
use crate::state::{FlameView, Tab};
use longpole_core::analysis::task_key::TaskKey;
use longpole_core::model::Nanos;
use std::fmt;

/// The view state's version this page writes and reads.
pub const VERSION: u32 = 1;

/// The tabs and their names in a link.
const TABS: [(Tab, &str); 7] = [
    (Tab::Timeline, "timeline"),
    (Tab::Graph, "graph"),
    (Tab::Flame, "flame"),
    (Tab::Tables, "tables"),
    (Tab::Report, "report"),
    (Tab::Diagnostics, "diagnostics"),
    (Tab::Sql, "sql"),
];

/// The task a link selects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    /// By its stable key (`v=1`).
    Key(TaskKey),
    /// By its index in the run, as links before `v=1` named it.
    Index(u32),
}

/// How a run is shown.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ViewState {
    /// The open tab (None: the run's first).
    pub tab: Option<Tab>,
    /// The time window, ns.
    pub window: Option<(Nanos, Nanos)>,
    /// The selected task.
    pub select: Option<Selection>,
    /// The blocking chain rather than the critical path.
    pub chain: bool,
    /// The flame graph's measure, zoom and direction.
    pub flame: FlameView,
    /// The what-if: the selected task made this many percent faster.
    pub speedup: Option<u8>,
    /// The SQL tab's query, run again when the run is shown.
    pub sql: Option<String>,
    /// Its rows drawn on the timeline.
    pub track: bool,
}

/// What a hash says.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Link {
    /// The inputs to load, in order (side A's when `vs` is given).
    pub sources: Vec<Source>,
    /// Side B's inputs, to compare with `sources` (empty: no comparison).
    pub vs: Vec<Source>,
    /// The token of the `longpole open` server the inputs come from.
    pub token: Option<String>,
    /// That server analyses the inputs itself (`native=1`).
    pub native: bool,
    /// The view to restore.
    pub view: ViewState,
    /// The view state's version (None: the first form, without `v`).
    pub version: Option<u32>,
    /// What of the hash could not be read, each naming the key and value.
    pub problems: Vec<String>,
}

/// A link that cannot be followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// A `src` that is not an http(s) URL.
    BadSource {
        /// The value as given.
        url: String,
        /// Why.
        reason: String,
    },
    /// A `sha256` that is not 64 hex digits.
    BadDigest {
        /// The value as given.
        value: String,
    },
    /// More `sha256` than `src` (or `vs_sha256` than `vs`).
    DigestWithoutSource {
        /// The digest's place (1-based).
        index: usize,
    },
    /// A `token` that is not 32 hex digits.
    BadToken {
        /// The value as given.
        value: String,
    },
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::BadSource { url, reason } => write!(f, "the link's src \"{url}\" cannot be loaded: {reason}"),
            LinkError::BadDigest { value } => {
                write!(f, "the link's sha256 \"{value}\" is not a SHA-256 digest (64 hexadecimal digits)")
            }
            LinkError::DigestWithoutSource { index } => {
                write!(f, "the link gives a sha256 number {index} but no src number {index} for it to check")
            }
            LinkError::BadToken { value } => {
                write!(f, "the link's token \"{value}\" is not a longpole open token (32 hexadecimal digits)")
            }
        }
    }
}

impl std::error::Error for LinkError {}

/// Reads a hash (with or without its `#`).
pub fn parse(hash: &str) -> Result<Link, LinkError> {
    let mut link = Link::default();
    let (mut digests, mut vs_digests) = (Vec::new(), Vec::new());
    let mut fields = Vec::new();
    for part in hash.trim_start_matches('#').split('&').filter(|p| !p.is_empty()) {
        let (key, raw) = part.split_once('=').unwrap_or((part, ""));
        let Some(value) = decode_component(raw) else {
            link.problems.push(format!("{key}={raw}: not valid percent-encoded UTF-8"));
            continue;
        };
        match key {
            "src" => link.sources.push(source(value)?),
            "sha256" => digests.push(digest(value)?),
            "vs" => link.vs.push(source(value)?),
            "vs_sha256" => vs_digests.push(digest(value)?),
            "token" => link.token = Some(token(value)?),
            "native" => link.native = value == "1",
            "v" => match value.parse::<u32>() {
                Ok(v) => link.version = Some(v),
                Err(_) => link.problems.push(format!("v={raw}: not a version number")),
            },
            _ => fields.push((key.to_owned(), value, raw.to_owned())),
        }
    }
    for (sources, digests) in [(&mut link.sources, digests), (&mut link.vs, vs_digests)] {
        if digests.len() > sources.len() {
            return Err(LinkError::DigestWithoutSource { index: sources.len() + 1 });
        }
        for (source, d) in sources.iter_mut().zip(digests) {
            source.sha256 = d;
        }
        for source in sources.iter_mut() {
            source.token.clone_from(&link.token);
        }
    }
    match link.version {
        Some(VERSION) | None => {
            let mut task = None;
            for (key, value, raw) in fields {
                if let Err(what) = view_field(&mut link.view, &mut task, link.version.is_none(), &key, &value) {
                    link.problems.push(format!("{key}={raw}: {what}"));
                }
            }
            match task {
                Some(TaskKey { uid, .. }) if uid.is_empty() => {
                    link.problems.push("at and lane name a task only with its uid, which the link does not give".into())
                }
                Some(key) => link.view.select = Some(Selection::Key(key)),
                None => {}
            }
        }
        Some(v) => link.problems.push(format!(
            "the view state is version {v}, newer than this longpole reads ({VERSION}); the file opens in its first view"
        )),
    }
    Ok(link)
}

/// A `src` value: an http(s) URL, absolute or relative to the page.
fn source(url: String) -> Result<Source, LinkError> {
    let scheme = url.split_once(':').map(|(s, _)| s).filter(|s| {
        s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && s.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    });
    if url.trim().is_empty() {
        return Err(LinkError::BadSource { url, reason: "it is empty".into() });
    }
    match scheme.map(str::to_ascii_lowercase) {
        Some(s) if s != "http" && s != "https" => {
            Err(LinkError::BadSource { reason: format!("only http and https URLs are loaded, not {s}:"), url })
        }
        _ => Ok(Source { url, sha256: None, token: None }),
    }
}

/// A `sha256` value: 64 hex digits, or empty for none.
fn digest(value: String) -> Result<Option<String>, LinkError> {
    if value.is_empty() {
        Ok(None)
    } else if value.len() == 64 && value.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(Some(value.to_ascii_lowercase()))
    } else {
        Err(LinkError::BadDigest { value })
    }
}

/// A `token` value: 32 hex digits, kept as given.
fn token(value: String) -> Result<String, LinkError> {
    if value.len() == 32 && value.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(value)
    } else {
        Err(LinkError::BadToken { value })
    }
}

/// Reads one view field into `view`, or into `task` for the parts of the
/// selected task's key; `first_form`: the link has no `v`.
fn view_field(
    view: &mut ViewState,
    task: &mut Option<TaskKey>,
    first_form: bool,
    key: &str,
    value: &str,
) -> Result<(), &'static str> {
    let number = |v: &str| v.parse::<u32>().map_err(|_| "not a whole number");
    match (key, first_form) {
        ("tab", _) => view.tab = Some(TABS.iter().find(|(_, n)| *n == value).ok_or("not a tab")?.0),
        ("window", _) => {
            let (a, b) = value.split_once(',').ok_or("not two times (start,end)")?;
            let (a, b) = (a.parse::<Nanos>(), b.parse::<Nanos>());
            view.window = Some((a.map_err(|_| "not a time")?, b.map_err(|_| "not a time")?));
        }
        ("task", true) => view.select = Some(Selection::Index(number(value)?)),
        ("uid", false) => task.get_or_insert_with(no_key).uid = value.to_owned(),
        ("at", false) => task.get_or_insert_with(no_key).start = Some(value.parse().map_err(|_| "not a time")?),
        ("lane", false) => task.get_or_insert_with(no_key).lane = Some(value.to_owned()),
        ("path", false) => {
            view.chain = match value {
                "critical" => false,
                "chain" => true,
                _ => return Err("not critical or chain"),
            }
        }
        ("flame", false) => view.flame.kind = u8::try_from(number(value)?).map_err(|_| "too large")?,
        ("zoom", false) => view.flame.root = number(value)?,
        ("icicle", false) => view.flame.icicle = value == "1",
        ("sql", false) => view.sql = Some(value.to_owned()),
        ("track", false) => view.track = value == "1",
        ("speedup", false) => {
            view.speedup = Some(
                value.parse::<u8>().ok().filter(|s| (1..=100).contains(s)).ok_or("not a percentage from 1 to 100")?,
            )
        }
        _ => {}
    }
    Ok(())
}

/// A key yet to be filled in.
fn no_key() -> TaskKey {
    TaskKey { uid: String::new(), start: None, lane: None }
}

/// The hash (with its `#`) of `sources` shown as `view`, in version
/// [`VERSION`]; `native`: analysed by the server that gave them.
pub fn encode(sources: &[Source], native: bool, view: &ViewState) -> String {
    let mut parts: Vec<String> = sources.iter().map(|s| format!("src={}", encode_component(&s.url))).collect();
    if sources.iter().any(|s| s.sha256.is_some()) {
        parts.extend(sources.iter().map(|s| format!("sha256={}", s.sha256.as_deref().unwrap_or(""))));
    }
    // A reload fetches the inputs again: the server wants its token.
    if let Some(token) = sources.iter().find_map(|s| s.token.as_deref()) {
        parts.push(format!("token={token}"));
    }
    if native {
        parts.push("native=1".into());
    }
    parts.push(format!("v={VERSION}"));
    let tab = view.tab.unwrap_or(Tab::Timeline);
    parts.push(format!("tab={}", TABS.iter().find(|(t, _)| *t == tab).map_or("timeline", |(_, n)| n)));
    if let Some((a, b)) = view.window {
        parts.push(format!("window={a},{b}"));
    }
    match &view.select {
        Some(Selection::Key(k)) => {
            parts.push(format!("uid={}", encode_component(&k.uid)));
            parts.extend(k.start.map(|s| format!("at={s}")));
            parts.extend(k.lane.as_ref().map(|l| format!("lane={}", encode_component(l))));
        }
        // Written only once the worker has named the task by its key.
        Some(Selection::Index(_)) | None => {}
    }
    if view.chain {
        parts.push("path=chain".into());
    }
    let f = view.flame;
    if f.kind != 0 {
        parts.push(format!("flame={}", f.kind));
    }
    if f.root != 0 {
        parts.push(format!("zoom={}", f.root));
    }
    if f.icicle {
        parts.push("icicle=1".into());
    }
    // A speed-up is of the selected task: without one, it means nothing.
    if let (Some(s), Some(Selection::Key(_))) = (view.speedup, &view.select) {
        parts.push(format!("speedup={s}"));
    }
    if let Some(q) = &view.sql {
        parts.push(format!("sql={}", encode_component(q)));
        if view.track {
            parts.push("track=1".into());
        }
    }
    format!("#{}", parts.join("&"))
}

/// Bytes kept as they are in a value; every other byte is `%XX`.
fn kept(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-_.~/:,@!*'()".contains(&b)
}

/// Percent-encodes a value.
pub fn encode_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if kept(b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Decodes a percent-encoded value; None if it is not valid UTF-8 once
/// decoded or a `%` is not followed by two hex digits.
pub fn decode_component(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(uid: &str, start: Option<Nanos>, lane: Option<&str>) -> Selection {
        Selection::Key(TaskKey { uid: uid.into(), start, lane: lane.map(Into::into) })
    }

    #[test]
    fn a_view_survives_its_hash() {
        let sources = vec![
            Source { url: "https://ci.example/a b&c=d.log".into(), sha256: Some("ab".repeat(32)), token: None },
            Source { url: "graph.json".into(), sha256: None, token: None },
        ];
        let view = ViewState {
            tab: Some(Tab::Flame),
            window: Some((-5, 90)),
            select: Some(key("main ä", Some(7), Some("thread 1"))),
            chain: true,
            flame: FlameView { kind: 2, root: 12, icicle: true },
            speedup: Some(40),
            sql: Some("SELECT lane, count(*) FROM tasks\nWHERE kind = 'a&b'".into()),
            track: true,
        };
        let hash = encode(&sources, false, &view);
        assert_eq!(
            hash,
            format!(
                "#src=https://ci.example/a%20b%26c%3Dd.log&src=graph.json&sha256={}&sha256=&v=1&tab=flame\
                 &window=-5,90&uid=main%20%C3%A4&at=7&lane=thread%201&path=chain&flame=2&zoom=12&icicle=1&speedup=40\
                 &sql=SELECT%20lane,%20count(*)%20FROM%20tasks%0AWHERE%20kind%20%3D%20'a%26b'&track=1",
                "ab".repeat(32)
            )
        );
        let link = parse(&hash).unwrap();
        assert_eq!(link, Link { sources, view, version: Some(1), problems: Vec::new(), ..Link::default() });
    }

    #[test]
    fn a_link_of_the_first_form_is_read_as_it_was_meant() {
        let link = parse("#tab=graph&window=5,90&task=42").unwrap();
        assert_eq!(link.version, None);
        assert_eq!(
            link.view,
            ViewState {
                tab: Some(Tab::Graph),
                window: Some((5, 90)),
                select: Some(Selection::Index(42)),
                ..ViewState::default()
            }
        );
        // Upgraded: written as v=1, the index left out until the task's key is known.
        assert_eq!(encode(&[], false, &link.view), "#v=1&tab=graph&window=5,90");
        // A speed-up without a task selected by its key is left out.
        let alone = ViewState { speedup: Some(30), ..link.view.clone() };
        assert_eq!(encode(&[], false, &alone), "#v=1&tab=graph&window=5,90");
        // v=1 has no `task`: an index never names a task in a new link.
        assert_eq!(parse("#v=1&task=3").unwrap().view.select, None);
    }

    #[test]
    fn what_cannot_be_read_is_said() {
        let link = parse("#v=1&tab=nope&window=x&zoom=-1&other=kept&path=sideways&speedup=101").unwrap();
        assert_eq!(link.view, ViewState::default());
        assert_eq!(
            link.problems,
            [
                "tab=nope: not a tab",
                "window=x: not two times (start,end)",
                "zoom=-1: not a whole number",
                "path=sideways: not critical or chain",
                "speedup=101: not a percentage from 1 to 100"
            ]
        );
        let newer = parse("#src=a.log&v=2&tab=graph").unwrap();
        assert_eq!(newer.view, ViewState::default());
        assert_eq!(newer.sources.len(), 1);
        assert!(newer.problems[0].contains("version 2, newer"), "{:?}", newer.problems);
        assert_eq!(parse("#uid=%FF").unwrap().problems, ["uid=%FF: not valid percent-encoded UTF-8"]);
    }

    #[test]
    fn bad_sources_and_digests_are_refused_by_name() {
        let err = |h: &str| parse(h).unwrap_err().to_string();
        assert_eq!(err("#src=javascript:alert(1)"), "the link's src \"javascript:alert(1)\" cannot be loaded: only http and https URLs are loaded, not javascript:");
        assert_eq!(err("#src="), "the link's src \"\" cannot be loaded: it is empty");
        assert_eq!(err("#src=a&sha256=12"), "the link's sha256 \"12\" is not a SHA-256 digest (64 hexadecimal digits)");
        assert_eq!(
            err(&format!("#sha256={}", "0".repeat(64))),
            "the link gives a sha256 number 1 but no src number 1 for it to check"
        );
        let upper = parse(&format!("#src=a&sha256={}", "AB".repeat(32))).unwrap();
        assert_eq!(upper.sources[0].sha256.as_deref(), Some("ab".repeat(32).as_str()));
        assert_eq!(
            err("#src=a&token=12"),
            "the link's token \"12\" is not a longpole open token (32 hexadecimal digits)"
        );
        assert_eq!(
            err(&format!("#src=a&vs=b&vs_sha256=&vs_sha256={}", "0".repeat(64))),
            "the link gives a sha256 number 2 but no src number 2 for it to check"
        );
    }

    #[test]
    fn a_comparison_and_its_token_are_read_and_the_token_written_back() {
        let (t, d) = ("0123456789abcdef".repeat(2), "cd".repeat(32));
        let link = parse(&format!("#src=a.log&src=g.json&vs=b.log&vs_sha256={d}&token={t}")).unwrap();
        let with = |url: &str, sha256: Option<&str>| Source {
            url: url.into(),
            sha256: sha256.map(Into::into),
            token: Some(t.clone()),
        };
        assert_eq!(link.sources, [with("a.log", None), with("g.json", None)]);
        assert_eq!(link.vs, [with("b.log", Some(&d))]);
        assert_eq!(link.token.as_deref(), Some(t.as_str()));
        assert!(!link.native);
        let hash = encode(&link.sources, false, &ViewState::default());
        assert_eq!(hash, format!("#src=a.log&src=g.json&token={t}&v=1&tab=timeline"));
        assert_eq!(parse(&hash).unwrap().sources, link.sources);
        // A native server's link says so, and so does the hash written back.
        let native = parse(&format!("#src=a.log&token={t}&native=1")).unwrap();
        assert!(native.native);
        let hash = encode(&native.sources, true, &ViewState::default());
        assert_eq!(hash, format!("#src=a.log&token={t}&native=1&v=1&tab=timeline"));
        assert!(parse(&hash).unwrap().native);
    }
}
