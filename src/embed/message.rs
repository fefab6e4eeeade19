//! The embed protocol's messages, as JSON: what a host page asks over the
//! port and what the frame answers and tells (docs/embedding.md).
//!
//! Every message carries `longpole: 1`. A request has an `id` (any
//! number the host chooses) and a `type`; its reply echoes the id:
//! `{longpole: 1, id, ok: true, result}` or
//! `{longpole: 1, id, ok: false, error: {code, message}}`. An event is
//! `{longpole: 1, event, detail}`. A `load` request's files carry their
//! bytes beside the JSON (read by [`super::channel`]); here only their names.

use crate::state::{AppState, Phase};
use longpole_core::analysis::task_key::TaskKey;
use longpole_core::model::Nanos;
use longpole_core::numbers::duration_label;
use serde::Deserialize;
use serde_json::{json, Value};

/// The protocol's version.
pub const VERSION: u64 = 1;

/// Steps of the critical path `getSummary` lists, longest first.
pub const TOP_STEPS: usize = 5;

/// Rows a `query` answers by default, and at most.
pub const QUERY_ROWS: usize = 100;

/// Rows a `query` answers at most.
pub const QUERY_ROWS_MAX: usize = 10_000;

/// A failure, with a stable code and a message for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// `bad-message`, `version`, `bad-request`, `bad-file`, `no-run`,
    /// `not-found`, `load-failed`, `cancelled`, `worker`, `sql`.
    pub code: &'static str,
    /// What went wrong.
    pub message: String,
}

impl Failure {
    /// A failure of `code`.
    pub fn new(code: &'static str, message: impl Into<String>) -> Failure {
        Failure { code, message: message.into() }
    }

    /// As the `error` of a reply or an `error` event's detail.
    pub fn json(&self) -> Value {
        json!({ "code": self.code, "message": self.message })
    }
}

/// A time in ns as a host gives it: a string of digits (exact: times
/// since an epoch pass what a JavaScript number holds), or a number.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum NsArg {
    /// A number.
    Number(Nanos),
    /// Digits.
    Text(String),
}

impl NsArg {
    /// The time, if it is one.
    pub fn nanos(&self) -> Option<Nanos> {
        match self {
            NsArg::Number(n) => Some(*n),
            NsArg::Text(t) => t.trim().parse().ok(),
        }
    }
}

/// A time as the frame writes it to a host: a string of digits, exact in
/// JavaScript ([`NsArg`] reads it back).
pub fn ns(t: Nanos) -> Value {
    Value::String(t.to_string())
}

/// A task's key as the frame writes it to a host, its start as [`ns`].
pub fn key_json(key: &TaskKey) -> Value {
    json!({ "uid": key.uid, "start": key.start.map(ns), "lane": key.lane })
}

/// A time window as the frame writes it to a host (`null`: the whole run).
pub fn window_json(window: Option<(Nanos, Nanos)>) -> Value {
    window.map_or(Value::Null, |(a, b)| json!([ns(a), ns(b)]))
}

/// A task's key as a host gives it: a uid, or `{uid, start, lane}`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum KeyArg {
    /// Just the uid.
    Uid(String),
    /// The whole key.
    Key {
        /// The uid.
        uid: String,
        /// The start, where the uid repeats.
        #[serde(default)]
        start: Option<NsArg>,
        /// The lane, where the uid and start repeat.
        #[serde(default)]
        lane: Option<String>,
    },
}

impl KeyArg {
    /// The key, or why not.
    pub fn key(self) -> Result<TaskKey, Failure> {
        Ok(match self {
            KeyArg::Uid(uid) => TaskKey { uid, start: None, lane: None },
            KeyArg::Key { uid, start, lane } => {
                let start = match start {
                    Some(s) => Some(s.nanos().ok_or(Failure::new("bad-request", "a key's start is a time in ns"))?),
                    None => None,
                };
                TaskKey { uid, start, lane }
            }
        })
    }
}

/// A time window: `[start, end]` in ns, or `"all"` for the whole run.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum RangeArg {
    /// Start and end, ns.
    Window(NsArg, NsArg),
    /// `"all"`.
    All(String),
}

/// What a host asks.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Request {
    /// Read these files together, as a drop does; the reply comes when the
    /// run is shown, with its summary.
    Load {
        /// The files' names, in order (their bytes travel beside).
        files: Vec<FileName>,
    },
    /// Show a view, a time window, a task; what is left out stays.
    SetView {
        /// `timeline`, `graph`, `flame`, `summary`, `diagnostics`, `tables` or `table NAME`.
        #[serde(default)]
        view: Option<String>,
        /// The time window.
        #[serde(default)]
        range: Option<RangeArg>,
        /// The task to select.
        #[serde(default)]
        select: Option<KeyArg>,
    },
    /// Select the task a key names (`null`: none).
    Select {
        /// The key.
        #[serde(default)]
        key: Option<KeyArg>,
    },
    /// The headline numbers of the run shown.
    GetSummary,
    /// The what-if: the task a key names (or the one selected) made
    /// `speedup` percent faster, the run replayed (0 or `null`: as it was).
    #[serde(rename = "setWhatIf")]
    SetWhatIf {
        /// The task to select first.
        #[serde(default)]
        select: Option<KeyArg>,
        /// The speed-up, percent (0 to 100).
        #[serde(default)]
        speedup: Option<u8>,
    },
    /// The what-if shown: the task, the speed-up and the wall times.
    #[serde(rename = "getWhatIf")]
    GetWhatIf,
    /// SQL over the run's tables (docs/sql.md): the answer's columns, its
    /// row count and its first `rows` rows (default [`QUERY_ROWS`]).
    Query {
        /// The query.
        sql: String,
        /// Rows to give, at most [`QUERY_ROWS_MAX`].
        #[serde(default)]
        rows: Option<usize>,
    },
}

/// A file of a `load` request.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct FileName {
    /// Its name (a hint for the format; content decides).
    pub name: String,
}

/// Reads a message's JSON: its id and request, or why not (with the id if
/// it had one, so the reply can name it).
pub fn parse(json: &str) -> Result<(u64, Request), (Option<u64>, Failure)> {
    let value: Value =
        serde_json::from_str(json).map_err(|e| (None, Failure::new("bad-message", format!("not JSON: {e}"))))?;
    let id = value.get("id").and_then(Value::as_u64);
    let fail = |code, message: String| (id, Failure::new(code, message));
    match value.get("longpole").and_then(Value::as_u64) {
        Some(VERSION) => {}
        Some(v) => {
            return Err(fail("version", format!("this frame speaks version {VERSION} of the protocol, not {v}")))
        }
        None => return Err(fail("bad-message", "a message without `longpole: 1`".into())),
    }
    let Some(id) = id else { return Err(fail("bad-message", "a request without a numeric `id`".into())) };
    let request = serde_json::from_value(value).map_err(|e| fail("bad-request", e.to_string()))?;
    Ok((id, request))
}

/// A reply to request `id`.
pub fn reply(id: u64, result: Result<Value, Failure>) -> Value {
    match result {
        Ok(result) => json!({ "longpole": VERSION, "id": id, "ok": true, "result": result }),
        Err(f) => json!({ "longpole": VERSION, "id": id, "ok": false, "error": f.json() }),
    }
}

/// An event.
pub fn event(name: &str, detail: Value) -> Value {
    json!({ "longpole": VERSION, "event": name, "detail": detail })
}

/// The headline numbers of the run shown, as the core's view and summary
/// give them: the files, the format, the wall time, the critical path's
/// length and its longest steps (or why there is none), the task count.
pub fn summary(state: &AppState) -> Result<Value, Failure> {
    let Phase::Ready { names, summary, view, .. } = &state.phase else {
        return Err(Failure::new("no-run", "no run is shown yet"));
    };
    let tasks: usize = summary.datasets.iter().map(|d| d.tasks).sum();
    let Some(v) = view else {
        let format = summary.inputs.first().map(|i| i.format.name());
        return Ok(json!({ "files": names, "format": format, "tasks": tasks }));
    };
    let wall = v.window.map(|(a, b)| b - a);
    let path = (!v.without_paths()).then(|| {
        let length = |s: &&longpole_core::view::TaskRow| s.end.zip(s.start).map_or(0, |(e, b)| e - b);
        let mut steps: Vec<_> = v.critical_path.steps.iter().collect();
        steps.sort_by_key(|s| std::cmp::Reverse(length(s)));
        json!({
            "total_ns": v.critical_path.total,
            "total": duration_label(v.critical_path.total),
            "steps": v.critical_path.steps.len(),
            "top": steps.iter().take(TOP_STEPS).map(|s| json!({
                "uid": s.uid, "label": s.label, "type": s.task_type, "lane": s.lane,
                "start_ns": s.start.map(ns), "duration_ns": length(s),
            })).collect::<Vec<_>>(),
        })
    });
    Ok(json!({
        "files": names,
        "format": v.format.name(),
        "wall_ns": wall,
        "wall": wall.map(duration_label),
        "critical_path": path,
        "no_path_reason": v.no_path.as_ref().map(|n| n.headline()),
        "tasks": tasks,
        "lanes": v.lanes.len(),
        "headline": v.headline.iter().map(|f| f.text.as_str()).collect::<String>(),
    }))
}

/// The what-if shown: `{key, speedup, wall_ns, what_if_wall_ns, saved_ns,
/// wall_ms, what_if_wall_ms, saved_ms}` (times as [`ns`], and in ms as
/// `longpole whatif` gives them); without a speed-up, or until the replay
/// comes, only the key and the speed-up (`null`).
pub fn what_if(state: &AppState) -> Result<Value, Failure> {
    if state.view().is_none() {
        return Err(Failure::new("no-run", "no run is shown yet"));
    }
    let e = &state.explore;
    let key = e.selected_key.as_ref().filter(|_| e.selected.is_some()).map_or(Value::Null, key_json);
    let shown = e.what_if.as_ref().filter(|w| e.selected == Some(w.task) && e.speedup == Some(w.speedup));
    let mut out = json!({ "key": key, "speedup": e.speedup });
    if let Some(w) = shown {
        let ms = |n: Nanos| n as f64 / 1e6;
        for (name, n) in [("wall", w.wall), ("what_if_wall", w.what_if_wall), ("saved", w.saved)] {
            out[format!("{name}_ns")] = ns(n);
            out[format!("{name}_ms")] = json!(ms(n));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_read_with_their_ids() {
        let (id, r) =
            parse(r#"{"longpole":1,"id":7,"type":"setView","view":"graph","range":[1,2],"select":"u"}"#).unwrap();
        assert_eq!(id, 7);
        assert_eq!(
            r,
            Request::SetView {
                view: Some("graph".into()),
                range: Some(RangeArg::Window(NsArg::Number(1), NsArg::Number(2))),
                select: Some(KeyArg::Uid("u".into()))
            }
        );
        let (_, r) = parse(
            r#"{"longpole":1,"id":8,"type":"select","key":{"uid":"a","start":"1732000000022000001","lane":null}}"#,
        )
        .unwrap();
        let Request::Select { key: Some(key) } = r else { panic!("{r:?}") };
        let key = key.key().unwrap();
        assert_eq!(key, TaskKey { uid: "a".into(), start: Some(1_732_000_000_022_000_001), lane: None });
        assert_eq!(key_json(&key), json!({"uid": "a", "start": "1732000000022000001", "lane": null}));
        assert_eq!(window_json(Some((1, 2))), json!(["1", "2"]));
        let (_, r) = parse(r#"{"longpole":1,"id":8,"type":"select","key":{"uid":"a","start":"soon"}}"#).unwrap();
        let Request::Select { key: Some(key) } = r else { panic!("{r:?}") };
        assert_eq!(key.key().unwrap_err().code, "bad-request");
        let (_, r) = parse(r#"{"longpole":1,"id":9,"type":"load","files":[{"name":"a.log","data":{}}]}"#).unwrap();
        assert_eq!(r, Request::Load { files: vec![FileName { name: "a.log".into() }] });
        assert_eq!(parse(r#"{"longpole":1,"id":1,"type":"getSummary"}"#).unwrap().1, Request::GetSummary);
        assert_eq!(
            parse(r#"{"longpole":1,"id":2,"type":"setWhatIf","select":"u","speedup":40}"#).unwrap().1,
            Request::SetWhatIf { select: Some(KeyArg::Uid("u".into())), speedup: Some(40) }
        );
        assert_eq!(parse(r#"{"longpole":1,"id":3,"type":"getWhatIf"}"#).unwrap().1, Request::GetWhatIf);
        assert_eq!(
            parse(r#"{"longpole":1,"id":4,"type":"setWhatIf","speedup":300}"#).unwrap_err().1.code,
            "bad-request"
        );
    }

    #[test]
    fn bad_messages_are_named_and_keep_their_id() {
        let code = |json: &str| parse(json).unwrap_err();
        assert_eq!(code("nope").1.code, "bad-message");
        assert_eq!(
            code(r#"{"id":3,"type":"getSummary"}"#),
            (Some(3), Failure::new("bad-message", "a message without `longpole: 1`"))
        );
        assert_eq!(code(r#"{"longpole":2,"id":3,"type":"getSummary"}"#).1.code, "version");
        assert_eq!(code(r#"{"longpole":1,"type":"getSummary"}"#).1.code, "bad-message");
        let (id, f) = code(r#"{"longpole":1,"id":4,"type":"explode"}"#);
        assert_eq!((id, f.code), (Some(4), "bad-request"));
    }

    #[test]
    fn replies_and_events_have_their_shapes() {
        assert_eq!(reply(1, Ok(json!(2))), json!({"longpole":1,"id":1,"ok":true,"result":2}));
        assert_eq!(
            reply(1, Err(Failure::new("no-run", "x"))),
            json!({"longpole":1,"id":1,"ok":false,"error":{"code":"no-run","message":"x"}})
        );
        assert_eq!(
            event("resized", json!({"height": 3})),
            json!({"longpole":1,"event":"resized","detail":{"height":3}})
        );
        assert_eq!(summary(&AppState::default()).unwrap_err().code, "no-run");
        assert_eq!(what_if(&AppState::default()).unwrap_err().code, "no-run");
    }
}
