//! ya's builds (Yandex's `ya make`): three inputs read together and one
//! run kind. A build's times come from a distbuild log ([`distbuild`], the
//! build farm's) or a local event log ([`evlog`]); its nodes' names, types
//! and dependencies from the build graph given with it ([`graph`],
//! `graph.json`). Each is a format of its own in the registry; here they
//! are joined ([`reconcile`]) into a [`run_kind::YaBuild`], reported as
//! ya's `--stat` does ([`stat`], [`report`]), viewed ([`view`]) and keyed
//! for comparison ([`keys`]).

pub mod distbuild;
pub mod evlog;
pub mod graph;
pub mod keys;
pub mod reconcile;
pub mod report;
pub mod run_kind;
pub mod stat;
pub mod view;
