//! A run's view as the page shows it: the core's [`RunView`] with its
//! format's own part read back once, when the run arrives, into the type
//! that format's components draw (a GHC program's heap, a MAL trace's load,
//! a StarRocks query's pipelines). [`Shown`] dereferences to the view, so a
//! component reads `v.window` and `v.ghc` alike.

use longpole_core::formats::chrome_trace::{self, view::ChromeView};
use longpole_core::formats::evobench::{self, view::EvobenchView};
use longpole_core::formats::ghc_eventlog::{self, view::GhcView};
use longpole_core::formats::monetdb_mal::{self, view::MalView};
use longpole_core::formats::ninja_log::{self, reconcile::NinjaRun};
use longpole_core::formats::starrocks_profile::{self, view::StarRocksView};
use longpole_core::view::RunView;
use serde::de::DeserializeOwned;
use std::ops::Deref;

/// A run's view and its format's part, read back.
#[derive(Debug)]
pub struct Shown {
    /// The core's view.
    pub view: RunView,
    /// A GHC program's collections, heap, threads and marks.
    pub ghc: Option<GhcView>,
    /// MAL executions, operations, thread use and server load.
    pub mal: Option<MalView>,
    /// evobench runs: flame graph, statistics, runs and their summary.
    pub evobench: Option<EvobenchView>,
    /// A ninja log's builds.
    pub ninja: Option<NinjaRun>,
    /// A StarRocks profile's operators, pipelines, skew, checks and hints.
    pub starrocks: Option<StarRocksView>,
    /// A Chrome trace's Bazel critical path, phases and counters.
    pub chrome: Option<ChromeView>,
}

impl Shown {
    /// `view` with its part read back as its format wrote it; an error
    /// names the format and what did not read.
    pub fn of(view: RunView) -> Result<Shown, String> {
        let mut shown =
            Shown { view, ghc: None, mal: None, evobench: None, ninja: None, starrocks: None, chrome: None };
        fn read<T: DeserializeOwned>(view: &RunView) -> Result<Option<T>, String> {
            view.part().map_err(|e| {
                format!(
                    "longpole could not read back the {} part of its own view ({e}); please report this",
                    view.format.title()
                )
            })
        }
        let view = &shown.view;
        match view.format {
            ghc_eventlog::ID => shown.ghc = read(view)?,
            monetdb_mal::ID => shown.mal = read(view)?,
            evobench::ID => shown.evobench = read(view)?,
            ninja_log::ID => shown.ninja = read(view)?,
            starrocks_profile::ID => shown.starrocks = read(view)?,
            chrome_trace::ID => shown.chrome = read(view)?,
            // Every other format's view is all generic: tables, headline, paths.
            _ => {}
        }
        Ok(shown)
    }
}

impl Deref for Shown {
    type Target = RunView;

    fn deref(&self) -> &RunView {
        &self.view
    }
}
