//! What the frame's hash says in embed mode, set by `embed.js` from the
//! `<longpole-view>` element's attributes:
//!
//! ```text
//! #embed=1&origin=https%3A%2F%2Fdocs.example&view=table%20Critical%20path
//!  &range=1000,9000&select=SOME-UID&at=1500&lane=host-1&theme=dark
//!  &src=https%3A%2F%2Fci.example%2Fexecution.log&sha256=<hex>
//! ```
//!
//! - `embed=1`: embed mode (no header or landing page, one view, a compact
//!   toolbar). Without it the page is the full app.
//! - `origin` (repeatable): the host pages allowed to talk to the frame;
//!   a message from any other origin is ignored.
//! - `view`: `timeline`, `graph`, `flame`, `summary` or `table NAME`.
//! - `range`: the time window, ns (start and end).
//! - `select`: the selected task by its stable key: its uid, with `at` (its
//!   start, ns) and `lane` where the uid repeats.
//! - `theme`: `light`, `dark` or `auto` (the system's).
//! - `src` and `sha256` are the full app's (load by URL, [`crate::link`]),
//!   which loads them in embed mode too.
//!
//! Values are percent-encoded. Keys not listed are left alone.

use crate::link::decode_component;
use crate::state::Tab;
use longpole_core::analysis::task_key::TaskKey;
use longpole_core::model::Nanos;

/// One view an embed shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum View {
    /// The timeline.
    Timeline,
    /// The dependency graph.
    Graph,
    /// The flame graph.
    Flame,
    /// The run's report as `longpole analyze` prints it.
    Summary,
    /// One table, by its title (case-insensitive), or all of them (`None`).
    Table(Option<String>),
    /// The diagnostics.
    Diagnostics,
}

impl View {
    /// Reads `timeline`, `graph`, `flame`, `summary`, `diagnostics`,
    /// `tables`, or `table NAME` (also `table:NAME`).
    pub fn parse(text: &str) -> Result<View, String> {
        let text = text.trim();
        Ok(match text {
            "timeline" => View::Timeline,
            "graph" => View::Graph,
            "flame" => View::Flame,
            "summary" => View::Summary,
            "diagnostics" => View::Diagnostics,
            "table" | "tables" => View::Table(None),
            _ => match text.strip_prefix("table").map(|r| r.trim_start_matches([' ', ':']).trim()) {
                Some(name) if !name.is_empty() => View::Table(Some(name.to_owned())),
                _ => {
                    return Err(format!(
                        "\"{text}\" is not a view: say timeline, graph, flame, summary, diagnostics or table NAME"
                    ))
                }
            },
        })
    }

    /// The tab that shows it.
    pub fn tab(&self) -> Tab {
        match self {
            View::Timeline => Tab::Timeline,
            View::Graph => Tab::Graph,
            View::Flame => Tab::Flame,
            View::Summary => Tab::Report,
            View::Table(_) => Tab::Tables,
            View::Diagnostics => Tab::Diagnostics,
        }
    }

    /// The view a tab shows (with the one table shown on the Tables tab).
    pub fn of(tab: Tab, only_table: Option<&str>) -> View {
        match tab {
            Tab::Timeline => View::Timeline,
            Tab::Graph => View::Graph,
            Tab::Flame => View::Flame,
            Tab::Report => View::Summary,
            Tab::Tables => View::Table(only_table.map(str::to_owned)),
            Tab::Diagnostics => View::Diagnostics,
            // An embedded frame has no SQL tab: it shows the timeline.
            Tab::Sql => View::Timeline,
        }
    }

    /// Its name, as [`View::parse`] reads it.
    pub fn name(&self) -> String {
        match self {
            View::Timeline => "timeline".into(),
            View::Graph => "graph".into(),
            View::Flame => "flame".into(),
            View::Summary => "summary".into(),
            View::Table(None) => "tables".into(),
            View::Table(Some(name)) => format!("table {name}"),
            View::Diagnostics => "diagnostics".into(),
        }
    }
}

/// The colours an embed is drawn in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// The system's setting.
    #[default]
    Auto,
    /// Light.
    Light,
    /// Dark.
    Dark,
}

impl Theme {
    /// Its name (the `data-theme` the page's root takes).
    pub fn name(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

/// What the hash of an embedded frame says.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Config {
    /// The origins whose messages the frame accepts.
    pub origins: Vec<String>,
    /// The view first shown.
    pub view: Option<View>,
    /// The time window first shown, ns.
    pub range: Option<(Nanos, Nanos)>,
    /// The task first selected.
    pub select: Option<TaskKey>,
    /// The colours.
    pub theme: Theme,
    /// What of the hash could not be read, each naming its key and value.
    pub problems: Vec<String>,
}

/// Reads a hash (with or without its `#`): `None` unless it has `embed=1`.
pub fn parse(hash: &str) -> Option<Config> {
    let parts: Vec<(&str, &str)> = hash
        .trim_start_matches('#')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| p.split_once('=').unwrap_or((p, "")))
        .collect();
    if !parts.iter().any(|&(k, v)| k == "embed" && v == "1") {
        return None;
    }
    let mut config = Config::default();
    let (mut at, mut lane) = (None, None);
    for &(key, raw) in &parts {
        if matches!(key, "src" | "sha256") {
            continue;
        }
        let Some(value) = decode_component(raw) else {
            config.problems.push(format!("{key}={raw}: not valid percent-encoded UTF-8"));
            continue;
        };
        match key {
            "origin" => config.origins.push(value),
            "view" => match View::parse(&value) {
                Ok(v) => config.view = Some(v),
                Err(e) => config.problems.push(format!("view: {e}")),
            },
            "range" => match parse_range(&value) {
                Some(r) => config.range = Some(r),
                None => config.problems.push(format!("range={value}: not two times in ns, start before end")),
            },
            "select" => config.select = Some(TaskKey { uid: value, start: None, lane: None }),
            "at" => match value.parse::<Nanos>() {
                Ok(t) => at = Some(t),
                Err(_) => config.problems.push(format!("at={value}: not a time in ns")),
            },
            "lane" => lane = Some(value),
            "theme" => match value.as_str() {
                "light" => config.theme = Theme::Light,
                "dark" => config.theme = Theme::Dark,
                "auto" => config.theme = Theme::Auto,
                _ => config.problems.push(format!("theme={value}: say light, dark or auto")),
            },
            _ => {}
        }
    }
    if let Some(key) = &mut config.select {
        key.start = at;
        key.lane = lane;
    }
    Some(config)
}

/// `A,B` (ns, A before B).
pub fn parse_range(text: &str) -> Option<(Nanos, Nanos)> {
    let (a, b) = text.split_once(',')?;
    let (a, b) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
    (a < b).then_some((a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_embed_hash_is_read_key_by_key() {
        let c = parse(
            "#embed=1&origin=https%3A%2F%2Fdocs.example&origin=http%3A%2F%2F127.0.0.1%3A81&view=table%20Critical%20path\
             &range=10,90&select=a%26b&at=5&lane=host%201&theme=dark&src=https%3A%2F%2Fx%2Fa.log&sha256=ab",
        )
        .unwrap();
        assert_eq!(c.origins, ["https://docs.example", "http://127.0.0.1:81"]);
        assert_eq!(c.view, Some(View::Table(Some("Critical path".into()))));
        assert_eq!(c.range, Some((10, 90)));
        assert_eq!(c.select, Some(TaskKey { uid: "a&b".into(), start: Some(5), lane: Some("host 1".into()) }));
        assert_eq!(c.theme, Theme::Dark);
        assert!(c.problems.is_empty(), "{:?}", c.problems);
    }

    #[test]
    fn without_embed_1_the_page_is_the_full_app_and_bad_values_are_named() {
        assert_eq!(parse("#tab=graph&window=1,2"), None);
        assert_eq!(parse("#embed=0"), None);
        let c = parse("embed=1&view=pie&range=9,1&at=x&theme=pink&origin=%E2%28").unwrap();
        assert_eq!(c.view, None);
        assert_eq!(c.range, None);
        assert_eq!(c.problems.len(), 5, "{:?}", c.problems);
        assert!(c.problems[0].starts_with("view: \"pie\" is not a view"));
    }

    #[test]
    fn views_read_back_their_names_and_tabs() {
        for name in ["timeline", "graph", "flame", "summary", "diagnostics", "tables", "table Longest tasks"] {
            let v = View::parse(name).unwrap();
            assert_eq!(v.name(), name);
            let only = match &v {
                View::Table(t) => t.as_deref(),
                _ => None,
            };
            assert_eq!(View::of(v.tab(), only), v);
        }
        assert_eq!(View::parse("table:Hosts").unwrap(), View::Table(Some("Hosts".into())));
    }
}
