//! evobench's statistics, exactly as its evaluator computes them: per
//! timing kind and per path ([`table`]), over several runs ([`runs`]), and
//! as flame graphs ([`flame`]). They read a run's call tree ([`crate::formats::evobench::Log`]), which is what the
//! evaluator's statistics are made of; the common model only has the spans.

pub mod flame;
pub mod runs;
pub mod stats;
pub mod table;

pub use crate::model::flame::{FlameGraph, FlameNode};
pub use runs::{summary, Field, SummaryRow};
pub use stats::{Stats, Weighted, PERCENTILES};
pub use table::{PathMode, Row, Table};
