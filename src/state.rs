//! The page's state and the actions that change it. Components only draw
//! this and dispatch [`Action`]s; the worker's messages arrive as actions too.

use crate::protocol::{Progress, Response, RunId};
use longpole_core::Summary;
use std::rc::Rc;
use yew::Reducible;

/// What the page shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    /// Nothing opened yet: the drop zone and the samples.
    Idle,
    /// Files are being read.
    Reading {
        /// Their names.
        names: Vec<String>,
        /// Their total size.
        total: u64,
        /// The latest progress, once any came.
        progress: Option<Progress>,
    },
    /// The analysis is ready.
    Ready {
        /// The files' names.
        names: Vec<String>,
        /// What was found.
        summary: Rc<Summary>,
        /// How long it took, ms.
        elapsed_ms: f64,
    },
    /// Reading failed.
    Failed {
        /// The message, naming file, position and bytes.
        message: String,
    },
    /// The user stopped the reading.
    Cancelled,
}

/// The whole state.
#[derive(Clone, Debug, PartialEq)]
pub struct AppState {
    /// The run the page waits for (0 before the first).
    pub run: RunId,
    /// What is shown.
    pub phase: Phase,
    /// The keyboard help is open.
    pub help: bool,
}

impl Default for AppState {
    fn default() -> Self {
        AppState { run: 0, phase: Phase::Idle, help: false }
    }
}

/// Everything that changes the state.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// A run was sent to the worker.
    Started {
        /// Its id (the next after [`AppState::run`]).
        run: RunId,
        /// The files' names.
        names: Vec<String>,
        /// Their total size.
        total: u64,
    },
    /// The worker said something.
    Worker(Response),
    /// The page could not even start a run (e.g. a sample failed to load).
    Failed(String),
    /// Show or hide the keyboard help.
    ToggleHelp,
    /// Hide the keyboard help.
    CloseHelp,
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            Action::Started { run, names, total } => {
                next.run = run;
                next.phase = Phase::Reading { names, total, progress: None };
            }
            Action::Worker(response) => match response {
                Response::Progress(p) if p.run == self.run => {
                    if let Phase::Reading { progress, .. } = &mut next.phase {
                        *progress = Some(p);
                    }
                }
                Response::Done { run, summary, elapsed_ms } if run == self.run => {
                    let names = match &self.phase {
                        Phase::Reading { names, .. } => names.clone(),
                        _ => Vec::new(),
                    };
                    next.phase = Phase::Ready { names, summary: Rc::new(summary), elapsed_ms };
                }
                Response::Failed { run, message } if run == self.run => next.phase = Phase::Failed { message },
                Response::Cancelled { run } if run == self.run => next.phase = Phase::Cancelled,
                // Messages of runs the page no longer waits for.
                _ => return self,
            },
            Action::Failed(message) => next.phase = Phase::Failed { message },
            Action::ToggleHelp => next.help = !next.help,
            Action::CloseHelp => next.help = false,
        }
        Rc::new(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reduce(s: AppState, a: Action) -> AppState {
        (*Rc::new(s).reduce(a)).clone()
    }

    #[test]
    fn messages_of_old_runs_are_ignored() {
        let s = reduce(AppState::default(), Action::Started { run: 1, names: vec!["a".into()], total: 10 });
        let s = reduce(s, Action::Started { run: 2, names: vec!["b".into()], total: 20 });
        let s = reduce(s, Action::Worker(Response::Failed { run: 1, message: "old".into() }));
        assert!(matches!(s.phase, Phase::Reading { ref names, .. } if names == &["b"]));
        let s = reduce(s, Action::Worker(Response::Cancelled { run: 2 }));
        assert_eq!(s.phase, Phase::Cancelled);
    }
}
