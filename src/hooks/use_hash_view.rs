//! The URL hash keeps the view ([`crate::link`], version `v=1`): the tab,
//! the time window, the selected task by its stable key, the path shown and
//! the flame graph's measure and zoom, after the `src` of the inputs a link
//! loaded. A reload or a shared link lands in the same place; a link of the
//! first form (`#tab=…&window=…&task=N`) is read and written back as `v=1`.

use super::{AnalysisWorker, SqlEngine};
use crate::link::{self, Selection, Source, ViewState};
use crate::protocol::{Request, RunId};
use crate::state::{Action, FlameView, Tab};
use longpole_core::analysis::task_key::TaskKey;
use longpole_core::model::Nanos;
use yew::prelude::*;

/// What of the page the hash keeps.
#[derive(Clone, PartialEq)]
pub struct HashView {
    /// The run shown (0: none).
    pub run: RunId,
    /// A run is shown with its views.
    pub ready: bool,
    /// Where its inputs came from (empty: opened files).
    pub sources: Vec<Source>,
    /// They are analysed by the `longpole open --native` server that gave them.
    pub native: bool,
    /// The open tab.
    pub tab: Tab,
    /// The chosen time window.
    pub window: Option<(Nanos, Nanos)>,
    /// The selected task's stable key, once known.
    pub selected: Option<TaskKey>,
    /// The blocking chain is shown rather than the critical path.
    pub chain: bool,
    /// How the flame graph is shown.
    pub flame: FlameView,
    /// The what-if's speed-up of the selected task, percent.
    pub speedup: Option<u8>,
    /// The SQL tab's query (the one drawn, else the last run).
    pub sql: Option<String>,
    /// That query is drawn on the timeline.
    pub track: bool,
}

impl HashView {
    /// The hash of this view.
    pub fn hash(&self) -> String {
        let view = ViewState {
            tab: Some(self.tab),
            window: self.window,
            select: self.selected.clone().map(Selection::Key),
            chain: self.chain,
            flame: self.flame,
            speedup: self.speedup,
            sql: self.sql.clone(),
            track: self.track,
        };
        link::encode(&self.sources, self.native, &view)
    }
}

/// The page's hash, `#…` (empty if there is none).
pub fn page_hash() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

/// Restores the view a hash describes on run `run`: the actions to take,
/// the worker asked for the task a key names, and the SQL engine for the
/// link's query.
pub fn restore(
    hash: &str,
    run: RunId,
    chain: bool,
    worker: &AnalysisWorker,
    sql: &SqlEngine,
    dispatch: &Callback<Action>,
) {
    // A link whose sources cannot be read failed when the page began.
    let Ok(link) = link::parse(hash) else { return };
    let v = link.view;
    if let Some(tab) = v.tab {
        dispatch.emit(Action::Tab(tab));
    }
    if let Some((a, b)) = v.window {
        dispatch.emit(Action::Window(a, b));
    }
    if v.chain != chain {
        dispatch.emit(Action::ToggleChain);
    }
    if v.flame != FlameView::default() {
        dispatch.emit(Action::Flame(v.flame));
    }
    if v.speedup.is_some() {
        dispatch.emit(Action::SpeedUp(v.speedup));
    }
    if let Some(query) = v.sql {
        sql.restore(run, query, v.track);
    }
    match v.select {
        Some(Selection::Key(key)) => {
            worker.send(&Request::Locate { run, key }, &[]);
        }
        Some(Selection::Index(task)) => dispatch.emit(Action::Select(Some(task))),
        None => {}
    }
    if !link.problems.is_empty() {
        let notes = link.problems.into_iter().map(|p| format!("The link's {p}; it is left out of the view."));
        dispatch.emit(Action::Notices(notes.collect()));
    }
}

/// Writes the view into the hash as it changes, and restores it from the
/// hash when a run is first shown.
#[hook]
pub fn use_hash_view(view: HashView, worker: AnalysisWorker, sql: SqlEngine, dispatch: Callback<Action>) {
    let chain = view.chain;
    use_effect_with((view.run, view.ready), move |&(run, ready)| {
        if ready {
            restore(&page_hash(), run, chain, &worker, &sql, &dispatch);
        }
    });
    use_effect_with(view, move |v| {
        if v.ready {
            if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
                let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&v.hash()));
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_carries_the_sources_and_the_view() {
        let view = HashView {
            run: 1,
            ready: true,
            sources: vec![Source { url: "samples/a.log".into(), sha256: None, token: None }],
            native: false,
            tab: Tab::Graph,
            window: Some((5, 90)),
            selected: Some(TaskKey { uid: "U1".into(), start: None, lane: None }),
            chain: true,
            flame: FlameView::default(),
            speedup: Some(40),
            sql: Some("SELECT 1 AS n".into()),
            track: true,
        };
        assert_eq!(
            view.hash(),
            "#src=samples/a.log&v=1&tab=graph&window=5,90&uid=U1&path=chain&speedup=40&sql=SELECT%201%20AS%20n&track=1"
        );
    }
}
